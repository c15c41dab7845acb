/*
 * gemmlowp's fixed-point exp, reciprocal, logistic and tanh, step for step (fixed_point.h
 * says why exactly). Each comment names the gemmlowp operation a line stands for, so the
 * correspondence can be checked by reading.
 */
#include "fixed_point.h"

/* The product and the rounding shift once each, called rather than inlined at each of their
 * dozen uses: the exp, the Newton steps and the softmax's two per value are not inner loops
 * of a convolution, and inlined they cost about 700 bytes of Cortex-M code. */
static TGRS_NOINLINE int32_t mul(int32_t a, int32_t b) { return tgrs_fx_srdhm(a, b); }
static TGRS_NOINLINE int32_t div_pot(int32_t v, int32_t e) { return tgrs_fx_rdbpot(v, e); }

/* Sums and differences wrap in gemmlowp (plain int32 Add/Sub); unsigned arithmetic gives the
 * same bits without C's signed overflow. */
static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t wrap_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }

/* Q0 constants of exp(-1/8) and 1/3; the Q2 ones of 48/17 and -32/17 (gemmlowp). */
#define TGRS_FX_EXP_MINUS_ONE_EIGHTH 1895147668
#define TGRS_FX_ONE_THIRD 715827883
#define TGRS_FX_48_OVER_17 1515870810
#define TGRS_FX_MINUS_32_OVER_17 (-1010580540)
#define TGRS_FX_Q2_ONE (1 << 29)

/* exp(a) for a in [-1/4, 0), Q0 in and out: exp(-1/8) * exp(x) with x = a + 1/8, the
 * exponential series to x^4. */
static int32_t exp_on_quarter_interval(int32_t a) {
  const int32_t x = wrap_add(a, 1 << 28); /* a + 1/8 */
  const int32_t x2 = mul(x, x);
  const int32_t x3 = mul(x2, x);
  const int32_t x4 = mul(x2, x2);
  const int32_t x4_over_4 = div_pot(x4, 2);
  /* (x^4 / 4 + x^3) / 3 + x^2, halved: x^4/24 + x^3/6 + x^2/2 */
  const int32_t poly = div_pot(wrap_add(mul(wrap_add(x4_over_4, x3), TGRS_FX_ONE_THIRD), x2), 1);
  return wrap_add(TGRS_FX_EXP_MINUS_ONE_EIGHTH,
                  mul(TGRS_FX_EXP_MINUS_ONE_EIGHTH, wrap_add(x, poly)));
}

int32_t tgrs_fx_exp_on_negative_values(int32_t a, int integer_bits) {
  /* Q0 multipliers exp(-2^k) for k = -2 .. 4, applied for each set bit of the rest. */
  static const int32_t kExpOfMinusPow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                             39332535,   720401,     242};
  const int fractional_bits = 31 - integer_bits;
  const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  /* a modulo 1/4, moved into [-1/4, 0) */
  const int32_t a_mod_quarter_minus_quarter = wrap_sub(a & (one_quarter - 1), one_quarter);
  /* Rescale<0>: to Q0, a saturating left shift by the integer bits */
  int32_t result =
      exp_on_quarter_interval(tgrs_fx_saturating_shl(a_mod_quarter_minus_quarter, integer_bits));
  const int32_t remainder = wrap_sub(a_mod_quarter_minus_quarter, a);
  int k;
  for (k = -2; k <= 4; ++k) {
    if (integer_bits > k) {
      const int bit = fractional_bits + k;
      if (remainder & (int32_t)((uint32_t)1 << bit)) {
        result = mul(result, kExpOfMinusPow2[k + 2]);
      }
    }
  }
  /* Below -32 (representable from 6 integer bits), exp is 0. */
  if (integer_bits > 5 && a < -((int32_t)1 << (36 - integer_bits))) result = 0;
  return a == 0 ? INT32_MAX : result;
}

/* The Newton-Raphson iteration shared by 1 / (1 + x) and (1 - x) / (1 + x): x in Q0 within
 * [0, 1); returns 1 / ((1 + x) / 2) in Q2. */
static int32_t newton_reciprocal_of_half_denominator(int32_t x) {
  /* RoundingHalfSum(x, 1): (x + INT32_MAX) / 2, rounded away from zero */
  const int64_t sum = (int64_t)x + INT32_MAX;
  const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
  int32_t y = wrap_add(TGRS_FX_48_OVER_17, mul(half_denominator, TGRS_FX_MINUS_32_OVER_17));
  int i;
  for (i = 0; i < 3; ++i) {
    const int32_t one_minus_dy = wrap_sub(TGRS_FX_Q2_ONE, mul(half_denominator, y));
    /* y * (1 - d y) is Q4; Rescale<2> shifts it left by 2, saturating */
    y = wrap_add(y, tgrs_fx_saturating_shl(mul(y, one_minus_dy), 2));
  }
  return y;
}

int32_t tgrs_fx_one_over_one_plus_x(int32_t x) {
  /* y / 2 as Q1 (ExactMulByPot<-1>), then Rescale<0>: a saturating left shift by 1 */
  return tgrs_fx_saturating_shl(newton_reciprocal_of_half_denominator(x), 1);
}

/* (1 - x) / (1 + x) = 2 / (1 + x) - 1 in Q0: Rescale<0> of y - 1 in Q2. */
static int32_t one_minus_x_over_one_plus_x(int32_t x) {
  return tgrs_fx_saturating_shl(wrap_sub(newton_reciprocal_of_half_denominator(x), TGRS_FX_Q2_ONE),
                                2);
}

int32_t tgrs_mbqm_tflite(int32_t x, int32_t multiplier, int32_t shift) {
  const int32_t left = shift > 0 ? (shift > 31 ? 31 : shift) : 0;
  const int32_t right = shift < 0 ? (shift < -31 ? 31 : -shift) : 0;
  int64_t shifted = (int64_t)x * ((int64_t)1 << left);
  if (shifted > INT32_MAX) shifted = INT32_MAX;
  if (shifted < INT32_MIN) shifted = INT32_MIN;
  return tgrs_fx_rdbpot(tgrs_fx_srdhm((int32_t)shifted, multiplier), right);
}

static int count_leading_zeros(uint32_t v) {
  int n = 0;
  if (v == 0) return 32;
  while (!(v & 0x80000000u)) {
    v <<= 1;
    ++n;
  }
  return n;
}

int32_t tgrs_fx_reciprocal(int32_t sum, int integer_bits, int* bits_over_unit) {
  const int headroom_plus_one = count_leading_zeros((uint32_t)sum);
  /* sum normalized to [1, 2), minus 1, in Q0 */
  const int32_t shifted_sum_minus_one =
      headroom_plus_one >= 32
          ? INT32_MIN
          : (int32_t)(((uint32_t)sum << headroom_plus_one) - ((uint32_t)1 << 31));
  *bits_over_unit = integer_bits - headroom_plus_one;
  return tgrs_fx_one_over_one_plus_x(shifted_sum_minus_one);
}

int32_t tgrs_fx_logistic(int32_t a, int integer_bits) {
  const int32_t magnitude = a > 0 ? a : wrap_sub(0, a);
  /* logistic(|a|) = 1 / (1 + exp(-|a|)); logistic(-|a|) = 1 - that */
  const int32_t positive = tgrs_fx_one_over_one_plus_x(
      tgrs_fx_exp_on_negative_values(wrap_sub(0, magnitude), integer_bits));
  if (a == 0) return (int32_t)1 << 30; /* 1/2 */
  return a > 0 ? positive : wrap_sub(INT32_MAX, positive);
}

int32_t tgrs_fx_tanh(int32_t a, int integer_bits) {
  const int32_t negative = a < 0 ? a : wrap_sub(0, a);
  /* -tanh(n) for n <= 0 is (1 - exp(2n)) / (1 + exp(2n)); 2n is n read with one more
   * integer bit (ExactMulByPot<1>) */
  const int32_t t =
      one_minus_x_over_one_plus_x(tgrs_fx_exp_on_negative_values(negative, integer_bits + 1));
  if (a == 0) return 0;
  return a < 0 ? wrap_sub(0, t) : t;
}
