/*
 * Deterministic expf / logf / tanhf / sqrtf / powf / sinf / cosf / erff (tgrs_math.h says
 * why). The methods are the classic ones of fdlibm (Sun, e_expf.c / e_logf.c) and Cephes
 * (S. Moshier, expf.c / logf.c): Cody-Waite range reduction (by ln 2 for exp, pi/2 for sin
 * and cos) with the constant split into a high part whose products are exact and low parts
 * carrying the rest, then a short polynomial on the reduced argument. The polynomials here
 * are plain Taylor series (coefficients n! and 2/(2n+1), no tuned minimax constants), taken
 * far enough that truncation stays below 0.1 ulp; the rest of the error budget is the few
 * roundings of the evaluation. erf above 1 is the one published approximation (Abramowitz
 * & Stegun 7.1.26), its error stated with it.
 *
 * Only + - * / on floats, comparisons, a float -> int32 conversion (truncation toward zero,
 * defined by C independently of the rounding mode) and bit assembly through memcpy.
 * Every expression is written in its evaluation order; nothing relies on libm. Constants
 * are hexadecimal literals: C99 6.4.4.2 requires those to be converted exactly, whereas a
 * decimal literal may land on either neighbour of the nearest float depending on the
 * compiler.
 */
#include "tgrs_math.h"

#include <stdint.h>
#include <string.h>

static float from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static uint32_t to_bits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

/* 2^k as a float for the normal range -126 <= k <= 127 (exponent field k + 127). */
static float pow2(int32_t k) { return from_bits((uint32_t)(k + 127) << 23); }

#define TGRS_INF_BITS 0x7f800000u
#define TGRS_QNAN_BITS 0x7fc00000u
#define TGRS_SIGN_BIT 0x80000000u

/* ln 2 = LN2_HI + LN2_LO. LN2_HI = 0x3f317200 (fdlibm e_expf.c) keeps 15 significant bits,
 * so k * LN2_HI is exact for |k| < 2^9, which covers every exponent here (|k| <= 150).
 * LN2_LO = ln 2 - LN2_HI rounded to float. */
static const float kLn2Hi = 0x1.62e4p-1f;    /* 0.693145751953125, bits 0x3f317200 */
static const float kLn2Lo = 0x1.7f7d1cp-20f; /* 1.4286068e-6, bits 0x35bfbe8e */
static const float kLog2e = 0x1.715476p+0f;  /* 1.442695 = 1/ln 2, bits 0x3fb8aa3b */

/* e^x overflows above ln(FLT_MAX) = 88.7228391: 0x42b17217 is the largest float below it.
 * e^x rounds to 0 at or below ln(2^-150) = -103.9720771 (half the smallest subnormal, a tie
 * rounding to even 0): 0xc2cff1b4 = -103.9720764 is the last float above it. */
static const float kExpOverflow = 0x1.62e42ep+6f;   /* 88.7228317, bits 0x42b17217 */
static const float kExpUnderflow = -0x1.9fe368p+6f; /* -103.972076, bits 0xc2cff1b4 */

float tgrs_expf(float x) {
  float t, hi, r, z, p, y;
  int32_t k;
  if (x != x) return x + x; /* NaN stays NaN (quiet) */
  if (x > kExpOverflow) return from_bits(TGRS_INF_BITS);
  if (x < kExpUnderflow) return 0.0f; /* -inf included */

  /* k = nearest integer to x / ln 2: add +-0.5 and truncate toward zero (fdlibm), so the
   * result never depends on the FPU's rounding mode. A tie or the rounding of x * log2e
   * can leave |r| slightly above ln2 / 2; the series below has margin for that. */
  t = x * kLog2e;
  k = (int32_t)(t < 0.0f ? t - 0.5f : t + 0.5f);

  /* Cody-Waite: x - k * LN2_HI is exact (k * LN2_HI is exact, and x and k * LN2_HI agree
   * in sign and leading bits), the low part is subtracted after. |r| <= 0.3466 + tiny. */
  hi = x - (float)k * kLn2Hi;
  r = hi - (float)k * kLn2Lo;

  /* e^r = 1 + (r + r^2 * P(r)), P the Taylor series 1/2! + r/3! + ... + r^5/7!. The first
   * omitted term r^8 / 8! is < 5.2e-9 (0.09 ulp at 1); adding 1 last keeps the
   * small terms' rounding errors far below the final rounding. */
  z = r * r;
  p = 0x1.a01a02p-13f;         /* 1/7! */
  p = p * r + 0x1.6c16c2p-10f; /* 1/6! */
  p = p * r + 0x1.111112p-7f;  /* 1/5! */
  p = p * r + 0x1.555556p-5f;  /* 1/4! */
  p = p * r + 0x1.555556p-3f;  /* 1/3! */
  p = p * r + 0x1p-1f;         /* 1/2! */
  y = 1.0f + (r + z * p);

  /* Scale by 2^k, exact while the result is normal. k ranges over [-150, 128]: 2^128 is not
   * a float, so k = 128 scales in two exact steps; a subnormal result is scaled to just
   * above the normal range first (exact) and then once into it (the only rounding). */
  if (k > 127) return (y * 2.0f) * pow2(k - 1);
  if (k < -125) return (y * pow2(k + 100)) * pow2(-100);
  return y * pow2(k);
}

/* sqrt(2) rounded down to float: mantissas above it are halved so m lies in
 * [sqrt(2)/2, sqrt(2)) and f = m - 1 in [-0.2929, 0.4142]. */
#define TGRS_SQRT2_BITS 0x3fb504f3u

float tgrs_logf(float x) {
  uint32_t bits = to_bits(x);
  int32_t e = 0;
  float m, f, s, z, w, r, hfsq, dk;
  if (x != x) return x + x;
  if (x == 0.0f) return -from_bits(TGRS_INF_BITS);
  if (x < 0.0f) return from_bits(TGRS_QNAN_BITS);
  if (bits == TGRS_INF_BITS) return x;
  if (bits < 0x00800000u) { /* subnormal: scale into the normal range (exact) */
    x = x * 8388608.0f;     /* 2^23 */
    bits = to_bits(x);
    e = -23;
  }

  /* x = m * 2^e with m in [sqrt(2)/2, sqrt(2)). */
  e += (int32_t)(bits >> 23) - 127;
  bits = (bits & 0x007fffffu) | 0x3f800000u; /* m in [1, 2) */
  if (bits > TGRS_SQRT2_BITS) {
    bits -= 0x00800000u; /* m / 2 */
    e += 1;
  }
  m = from_bits(bits);
  f = m - 1.0f; /* exact: m is within a factor 2 of 1 (Sterbenz) */

  /* log(1 + f) = log((1 + s) / (1 - s)) with s = f / (2 + f), |s| <= 0.1716:
   *   = 2s + 2s^3/3 + 2s^5/5 + ... = 2s + s * R,  R = z * (2/3 + 2/5 z + 2/7 z^2 + 2/9 z^3),
   * z = s^2 <= 0.02944; the first omitted term's share is z^5 / 11 < 2e-9 (0.03 ulp).
   * fdlibm's arrangement keeps the division's error out of the leading terms:
   *   log(1 + f) = f - (hfsq - s * (hfsq + R)),  hfsq = f^2 / 2,
   * and adds e * ln 2 as e * LN2_HI (exact) + e * LN2_LO folded into the small terms. */
  s = f / (2.0f + f);
  z = s * s;
  w = 0x1.c71c72p-3f;         /* 2/9 */
  w = w * z + 0x1.24924ap-2f; /* 2/7 */
  w = w * z + 0x1.99999ap-2f; /* 2/5 */
  w = w * z + 0x1.555556p-1f; /* 2/3 */
  r = z * w;
  hfsq = 0.5f * f * f;
  dk = (float)e;
  return dk * kLn2Hi - ((hfsq - (s * (hfsq + r) + dk * kLn2Lo)) - f);
}

float tgrs_tanhf(float x) {
  const uint32_t bits = to_bits(x);
  const uint32_t sign = bits & TGRS_SIGN_BIT;
  const float a = from_bits(bits & ~TGRS_SIGN_BIT);
  float t;
  if (x != x) return x + x;
  if (a < 0.5f) {
    /* Odd Taylor series tanh(a) = a + a * (z * P(z)), z = a^2, with the coefficients
     * 2^2n (2^2n - 1) B_2n / (2n)! (Bernoulli numbers B_2n): -1/3, 2/15, -17/315, ...
     * Successive terms shrink by about 4 z / pi^2 <= 0.1, so the first omitted term
     * (a^19) is below 1e-9 relative (0.02 ulp) at a = 0.5. Adding a last keeps the result
     * within the final rounding of a; tiny and subnormal a (z * P(z) underflowing to 0)
     * come back unchanged, +0 included. */
    const float z = a * a;
    float p = 0x1.355824p-11f;    /* 6404582/10854718875 */
    p = p * z + -0x1.7da364p-10f; /* -929569/638512875 */
    p = p * z + 0x1.d6d3dp-9f;    /* 21844/6081075 */
    p = p * z + -0x1.226e36p-7f;  /* -1382/155925 */
    p = p * z + 0x1.664f48p-6f;   /* 62/2835 */
    p = p * z + -0x1.ba1ba2p-5f;  /* -17/315 */
    p = p * z + 0x1.111112p-3f;   /* 2/15 */
    p = p * z + -0x1.555556p-2f;  /* -1/3 */
    t = a + a * (z * p);
  } else if (a < 2.0f) {
    /* tanh(a) = em / (em + 2) with em = e^(2a) - 1: a quotient of positive terms, so no
     * cancellation (1 - 2 / (e^(2a) + 1) would lose a bit here, where tanh(a) < 0.97).
     * 2a is exact, and e^(2a) >= e makes e^(2a) - 1 exact (the difference lies in the
     * same binade or one below, on a grid at least as fine). */
    const float em = tgrs_expf(2.0f * a) - 1.0f;
    t = em / (em + 2.0f);
  } else if (a < 10.0f) {
    /* tanh(a) = 1 - 2 / (e^(2a) + 1): the subtracted term is < 0.036, so its own rounding
     * errors shrink by that factor and only the last subtraction's rounding is left (the
     * quotient form above rounds three times near 1; measured, this one is better here). */
    t = 1.0f - 2.0f / (tgrs_expf(2.0f * a) + 1.0f);
  } else {
    /* 1 - tanh(a) = 2 / (e^(2a) + 1) < 4.2e-9 < 2^-25 (half an ulp below 1): rounds to 1. */
    t = 1.0f;
  }
  return from_bits(to_bits(t) | sign); /* odd: reattach the sign, so -0 -> -0 */
}

/* Square root, correctly rounded, by the digit-by-digit integer square root (the method
 * of soft-float libraries): no libm, so no errno and no .data in a firmware (newlib's
 * sqrtf wrapper pulls in its 100-byte reentrancy struct to set errno). x = m * 2^e with m a
 * 24-bit (or, after evening out the exponent, 25-bit) integer; M = m << s lies in
 * [2^46, 2^48) with s even, so q = floor(sqrt(M)) has 24 bits and sqrt(x) = sqrt(M) *
 * 2^((e - s) / 2). (q + 1/2)^2 is never an integer, so there is no tie: round up exactly
 * when the remainder M - q^2 exceeds q. */
float tgrs_sqrtf(float x) {
  const uint32_t bits = to_bits(x);
  int32_t e = (int32_t)((bits >> 23) & 0xffu);
  uint32_t m = bits & 0x7fffffu;
  uint64_t rem, q = 0, bit = (uint64_t)1 << 46;
  int32_t half;
  if (x != x || x == 0.0f || bits == 0x7f800000u) return x; /* NaN, +-0, +inf */
  if (bits >> 31) return from_bits(0x7fc00000u);            /* x < 0: NaN */
  if (e == 0) {                                             /* subnormal: normalize */
    e = 1;
    while (!(m & 0x800000u)) {
      m <<= 1;
      --e;
    }
  } else {
    m |= 0x800000u;
  }
  e -= 150; /* x = m * 2^e */
  if (e & 1) {
    rem = (uint64_t)m << 23; /* m * 2 << 22: [2^46, 2^47) */
    e -= 23;
  } else {
    rem = (uint64_t)m << 24; /* [2^47, 2^48) */
    e -= 24;
  }
  while (bit > rem) bit >>= 2;
  while (bit != 0) {
    if (rem >= q + bit) {
      rem -= q + bit;
      q = (q >> 1) + bit;
    } else {
      q >>= 1;
    }
    bit >>= 2;
  }
  if (rem > q) ++q;
  half = e / 2; /* e is even */
  if (q == (uint64_t)1 << 24) {
    q >>= 1;
    ++half;
  }
  /* q * 2^half with q in [2^23, 2^24): always a normal float. */
  return from_bits((uint32_t)(half + 150) << 23 | ((uint32_t)q & 0x7fffffu));
}

/* Is y (finite, |y| < 2^24) an integer, and is it odd? Floats at or above 2^24 are even
 * integers; the int32 conversion is only reached below that. */
static int is_integer(float y, int* odd) {
  const float a = y < 0.0f ? -y : y;
  int32_t i;
  if (a >= 16777216.0f) { /* 2^24: every such float is an even integer (inf included) */
    *odd = 0;
    return 1;
  }
  i = (int32_t)a;
  *odd = (int)(i & 1);
  return (float)i == a;
}

/* x^n for 0 < n <= 64 by binary exponentiation: at most 12 rounded products, in a fixed
 * order. */
static float pow_small_int(float x, int32_t n) {
  float result = 1.0f;
  while (n > 0) {
    if (n & 1) result = result * x;
    n >>= 1;
    if (n > 0) x = x * x;
  }
  return result;
}

/* x^y as C99 F.9.4.4 pow for the cases a model meets: y = +-0 -> 1, x = 1 -> 1, NaN in ->
 * NaN, x < 0 with non-integer y -> NaN, x = +-0 -> 0 or inf (signed for odd integer y),
 * y = +-inf by |x| against 1. Integer exponents up to 64 multiply (exact for small results,
 * a few ulp otherwise); the rest is e^(y ln|x|), whose relative error stays below
 * 2 (|y ln|x|| + 2) 2^-24: the rounding of the product y ln|x| is scaled by its size
 * (tests/runtime/math_test.cc measures 0.9 of that bound). */
float tgrs_powf(float x, float y) {
  int odd = 0, integral;
  float a, r;
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (x != x || y != y) return from_bits(TGRS_QNAN_BITS);
  integral = is_integer(y, &odd);
  if (x < 0.0f && !integral) return from_bits(TGRS_QNAN_BITS);
  a = x < 0.0f ? -x : x;
  if (a == 0.0f) {
    r = y > 0.0f ? 0.0f : from_bits(TGRS_INF_BITS);
  } else if (to_bits(y) == TGRS_INF_BITS || to_bits(y) == (TGRS_INF_BITS | TGRS_SIGN_BIT)) {
    if (a == 1.0f) return 1.0f;
    r = (a > 1.0f) == (y > 0.0f) ? from_bits(TGRS_INF_BITS) : 0.0f;
    odd = 0;
  } else if (integral && y <= 64.0f && y >= -64.0f) {
    r = pow_small_int(a, (int32_t)(y < 0.0f ? -y : y));
    if (y < 0.0f) r = 1.0f / r;
  } else {
    r = tgrs_expf(y * tgrs_logf(a));
  }
  /* A negative base keeps its sign for odd integer exponents (x = -0 too). */
  return (odd && (to_bits(x) & TGRS_SIGN_BIT)) ? -r : r;
}

/* pi/2 = C1 + C2 + C3 + C4: C1..C3 rounded to 12 significant bits, so k * Ci is exact for
 * |k| < 2^12 (|x| < 6400; math_test sweeps |x| < 3200), and C4 the float nearest the rest
 * (Cody-Waite, as fdlibm's e_rem_pio2f splits pi/2; the digits computed at 60 digits). */
static const float kPio2C1 = 0x1.922p+0f;       /* 1.57080078125 */
static const float kPio2C2 = -0x1.2aep-18f;     /* -4.4535846e-6 */
static const float kPio2C3 = -0x1.dea0p-31f;    /* -8.7061380e-10 */
static const float kPio2C4 = 0x1.184698p-44f;   /* 6.2233720e-14 */
static const float kTwoOverPi = 0x1.45f306p-1f; /* 0.63661975 */

/* sin(r) and cos(r) for |r| <= pi/4 (+ the reduction's slack): Taylor series to r^11 /
 * r^12; the first omitted terms are below 1e-11, far under half an ulp. */
static float sin_kernel(float r) {
  const float z = r * r;
  float p = -0x1.ae6456p-26f;  /* -1/11! */
  p = p * z + 0x1.71de3ap-19f; /* 1/9! */
  p = p * z - 0x1.a01a02p-13f; /* -1/7! */
  p = p * z + 0x1.111112p-7f;  /* 1/5! */
  p = p * z - 0x1.555556p-3f;  /* -1/3! */
  return r + r * (z * p);
}

static float cos_kernel(float r) {
  const float z = r * r;
  float p = 0x1.1eed8ep-29f;   /* 1/12! */
  p = p * z - 0x1.27e4fcp-22f; /* -1/10! */
  p = p * z + 0x1.a01a02p-16f; /* 1/8! */
  p = p * z - 0x1.6c16c2p-10f; /* -1/6! */
  p = p * z + 0x1.555556p-5f;  /* 1/4! */
  /* 1 - z/2 + z^2 p: subtracting z/2 from 1 last keeps the rounding at 1's ulp. */
  return 1.0f - (0.5f * z - (z * z) * p);
}

/* x = k pi/2 + r, |r| <= ~pi/4; returns r and k mod 4 in *quadrant. */
static float reduce_pio2(float x, int32_t* quadrant) {
  const float t = x * kTwoOverPi;
  const float fk = (float)(int32_t)(t < 0.0f ? t - 0.5f : t + 0.5f);
  *quadrant = (int32_t)fk & 3;
  return ((x - fk * kPio2C1) - fk * kPio2C2) - fk * kPio2C3 - fk * kPio2C4;
}

/* |x| beyond 2^23 pi/2 has no fraction of a period left in a float; such inputs are
 * reduced as if exact, and every result stays in [-1, 1]. */
#define TGRS_TRIG_LIMIT 0x1.921fb6p+23f

float tgrs_sinf(float x) {
  int32_t q;
  float r;
  if (x != x || x - x != 0.0f) return from_bits(TGRS_QNAN_BITS); /* NaN, +-inf */
  if (x > TGRS_TRIG_LIMIT || x < -TGRS_TRIG_LIMIT) return 0.0f;
  if (x < 0x1p-12f && x > -0x1p-12f) return x; /* x^3/6 is below half an ulp; keeps -0 */
  r = reduce_pio2(x, &q);
  switch (q) {
    case 0:
      return sin_kernel(r);
    case 1:
      return cos_kernel(r);
    case 2:
      return -sin_kernel(r);
    default:
      return -cos_kernel(r);
  }
}

float tgrs_cosf(float x) {
  int32_t q;
  float r;
  if (x != x || x - x != 0.0f) return from_bits(TGRS_QNAN_BITS);
  if (x > TGRS_TRIG_LIMIT || x < -TGRS_TRIG_LIMIT) return 1.0f;
  if (x < 0x1p-12f && x > -0x1p-12f) return 1.0f; /* x^2/2 is below half an ulp of 1 */
  r = reduce_pio2(x, &q);
  switch (q) {
    case 0:
      return cos_kernel(r);
    case 1:
      return -sin_kernel(r);
    case 2:
      return -cos_kernel(r);
    default:
      return sin_kernel(r);
  }
}

/* erf: odd. |x| < 1 by its Maclaurin series 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n + 1)),
 * n = 0..11, the next term below 1.1e-9; 1 <= |x| < 3.92 by Abramowitz & Stegun 7.1.26
 * (Hastings): 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) e^(-x^2), t = 1 / (1 + p |x|),
 * absolute error below 1.5e-7 (erf is above 0.84 there: 3 ulp); beyond, erfc(x) is below
 * half an ulp of 1, so +-1. */
float tgrs_erff(float x) {
  const float a = x < 0.0f ? -x : x;
  float y;
  if (x != x) return x + x;
  if (a < 0x1p-12f) return 0x1.20dd76p+0f * x; /* x^3/3 is below half an ulp; keeps -0 */
  if (a < 1.0f) {
    const float z = x * x;
    float p = 0x1.2b6732p-30f;                 /* 1/918086400 = 1/(11! 23) */
    p = -p * z + 0x1.c2e306p-27f;              /* 1/76204800 = 1/(10! 21) */
    p = -p * z + 0x1.3777c6p-23f;              /* 1/6894720 = 1/(9! 19) */
    p = -p * z + 0x1.87a002p-20f;              /* 1/685440 = 1/(8! 17) */
    p = -p * z + 0x1.bbd77ap-17f;              /* 1/75600 = 1/(7! 15) */
    p = -p * z + 0x1.c01c02p-14f;              /* 1/9360 = 1/(6! 13) */
    p = -p * z + 0x1.8d3018p-11f;              /* 1/1320 = 1/(5! 11) */
    p = -p * z + 0x1.2f684cp-8f;               /* 1/216 = 1/(4! 9) */
    p = -p * z + 0x1.861862p-6f;               /* 1/42 = 1/(3! 7) */
    p = -p * z + 0x1.99999ap-4f;               /* 1/10 = 1/(2! 5) */
    p = -p * z + 0x1.555556p-2f;               /* 1/3 */
    return 0x1.20dd76p+0f * (x - x * (z * p)); /* 2/sqrt(pi) */
  }
  if (a >= 0x1.f5c29p+1f) return x < 0.0f ? -1.0f : 1.0f; /* 3.92 */
  {
    /* A&S's p and a1..a5 (0.3275911, 0.254829592, -0.284496736, 1.421413741,
     * -1.453152027, 1.061405429), rounded to float. */
    const float t = 1.0f / (1.0f + 0x1.4f740ap-2f * a);
    float p = 0x1.0fb844p+0f;
    p = p * t - 0x1.7401c6p+0f;
    p = p * t + 0x1.6be1c6p+0f;
    p = p * t - 0x1.23531cp-2f;
    p = p * t + 0x1.04f20cp-2f;
    y = 1.0f - (t * p) * tgrs_expf(-(a * a));
  }
  return x < 0.0f ? -y : y;
}
