/*
 * Integer requantization, TFLite's reference definitions (internal to the kernels).
 *
 * tgrs_mbqm(x, multiplier, shift) = TFLite MultiplyByQuantizedMultiplier:
 *   RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(x * 2^left, multiplier), right)
 * with left = max(shift, 0), right = max(-shift, 0). The one deviation: x * 2^left is
 * computed in 64 bits and saturated to int32, where TFLite's int32 product would overflow
 * (undefined behaviour in C); results for non-overflowing inputs are identical.
 * Right shifts of negative values are arithmetic on every compiler the runtime targets
 * (GCC, Clang, Arm Compiler 6 document it).
 */
#ifndef TGRS_KERNELS_REQUANTIZE_H_
#define TGRS_KERNELS_REQUANTIZE_H_

#include <stdint.h>

/* (a * b * 2) >> 32 with round-half-away nudging; the single overflow case
 * a == b == INT32_MIN saturates to INT32_MAX (gemmlowp). */
static inline int32_t tgrs_srdhm(int32_t a, int32_t b) {
  const int64_t ab = (int64_t)a * (int64_t)b;
  const int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  if (a == b && a == INT32_MIN) return INT32_MAX;
  /* Division truncates toward zero, as gemmlowp's (ab + nudge) / (1ll << 31). */
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* x / 2^exponent rounded half away from zero (gemmlowp RoundingDivideByPOT), 0..31. */
static inline int32_t tgrs_rounding_divide_by_pot(int32_t x, int exponent) {
  const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

static inline int32_t tgrs_mbqm(int32_t x, int32_t multiplier, int32_t shift) {
  const int left = shift > 0 ? (int)shift : 0;
  const int right = shift > 0 ? 0 : (int)-shift;
  int64_t shifted = (int64_t)x * ((int64_t)1 << left);
  if (shifted > INT32_MAX) shifted = INT32_MAX;
  if (shifted < INT32_MIN) shifted = INT32_MIN;
  return tgrs_rounding_divide_by_pot(tgrs_srdhm((int32_t)shifted, multiplier), right);
}

/* Requantize an accumulator to int8: clamp(mbqm(acc) + zero_point, act_min, act_max). */
static inline int8_t tgrs_requantize_s8(int32_t acc, int32_t multiplier, int32_t shift,
                                        int32_t zero_point, int32_t act_min, int32_t act_max) {
  int32_t v = tgrs_mbqm(acc, multiplier, shift);
  /* mbqm's result plus a zero point in [-128, 127] cannot overflow unless v is near the
   * int32 limits; saturate first so the sum is defined. */
  if (v > INT32_MAX - 128) v = INT32_MAX - 128;
  if (v < INT32_MIN + 128) v = INT32_MIN + 128;
  v += zero_point;
  if (v < act_min) v = act_min;
  if (v > act_max) v = act_max;
  return (int8_t)v;
}

#endif /* TGRS_KERNELS_REQUANTIZE_H_ */
