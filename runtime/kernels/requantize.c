/*
 * Integer requantization: tgrs_mbqm and tgrs_requantize_s8 (requantize.h says why one
 * rounding, half to even).
 */
#include "requantize.h"

int32_t tgrs_round_shift_s64(int64_t value, int right) {
  const int64_t floor_q = value >> right;                            /* floor division by 2^right */
  const int64_t remainder = value - floor_q * ((int64_t)1 << right); /* in [0, 2^right) */
  const int64_t half = (int64_t)1 << (right - 1);
  const int round_up = remainder > half || (remainder == half && (floor_q & 1) != 0);
  int64_t v = floor_q + round_up;
  if (v > INT32_MAX) v = INT32_MAX;
  if (v < INT32_MIN) v = INT32_MIN;
  return (int32_t)v;
}

int32_t tgrs_mbqm(int32_t x, int32_t multiplier, int32_t shift) {
  const int64_t product = (int64_t)x * (int64_t)multiplier; /* |product| <= 2^62 */
  const int64_t right = 31 - (int64_t)shift;
  if (right <= 0) { /* a scale of 2^31 or more: saturate unless the product is tiny */
    const int64_t up = -right;
    const int64_t limit = up >= 31 ? 0 : ((int64_t)1 << (31 - up)); /* 2^31 / 2^up */
    if (product >= limit) return product == 0 ? 0 : INT32_MAX;
    if (product < -limit) return INT32_MIN;
    return (int32_t)(product * ((int64_t)1 << up)); /* |product| * 2^up <= 2^31 */
  }
  if (right > 62) return 0; /* |product| <= 2^62 rounds half to even to 0 */
  return tgrs_round_shift_s64(product, (int)right);
}

int8_t tgrs_requantize_s8(int32_t acc, int32_t multiplier, int32_t shift, int32_t zero_point,
                          int32_t act_min, int32_t act_max) {
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
