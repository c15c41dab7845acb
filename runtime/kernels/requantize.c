/*
 * Integer requantization: tgrs_mbqm, tgrs_requantize_s8 and tgrs_average_requant
 * (requantize.h says why one rounding, half to even), and TFLite's two-rounding forms.
 */
#include "requantize.h"

#include "fixed_point.h" /* TFLite's rounding doubling high multiply and rounding shift */

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

/* n = q * d + r for n < 2^64 and 1 <= d < 2^32, by binary long division over the two
 * 32-bit halves (32-bit shifts only): the runtime does not link libgcc's 64-bit division.
 * 64 steps; it runs once per averaged output value. */
static uint64_t udiv64_32(uint64_t n, uint32_t d, uint32_t* r) {
  const uint32_t halves[2] = {(uint32_t)(n >> 32), (uint32_t)n};
  uint32_t q[2] = {0, 0};
  uint64_t rem = 0;
  int h, bit;
  for (h = 0; h < 2; ++h) {
    for (bit = 31; bit >= 0; --bit) {
      rem = (rem << 1) | ((halves[h] >> bit) & 1u); /* < 2^33: rem < d before the shift */
      if (rem >= d) {
        rem -= d;
        q[h] |= 1u << bit;
      }
    }
  }
  *r = (uint32_t)rem;
  return ((uint64_t)q[0] << 32) | q[1];
}

/* requantize.h */
int32_t tgrs_average_requant(int32_t acc, int32_t multiplier, int32_t shift, int32_t count) {
  const int64_t product = (int64_t)acc * multiplier; /* |product| <= 2^62 */
  const int64_t right = 31 - (int64_t)shift;
  int64_t q1, r1, a, b, rest, result, half = 0;
  uint64_t magnitude, quotient;
  uint32_t remainder;
  int up;
  if (right <= 0 || right > 62) {
    /* Integer scaling (exact, saturated) or a product that rounds to 0: the division is
     * the only rounding. Not reached with the shifts the verifier allows. */
    q1 = tgrs_mbqm(acc, multiplier, shift);
    r1 = 0;
  } else {
    q1 = product >> right; /* floor */
    r1 = product - q1 * ((int64_t)1 << right);
    half = (int64_t)1 << (right - 1);
  }
  /* Floor division q1 = a * count + b, 0 <= b < count, from the magnitude's. */
  magnitude = q1 < 0 ? (uint64_t)0 - (uint64_t)q1 : (uint64_t)q1;
  quotient = udiv64_32(magnitude, (uint32_t)count, &remainder);
  if (q1 >= 0) {
    a = (int64_t)quotient;
    b = remainder;
  } else if (remainder == 0) {
    a = -(int64_t)quotient;
    b = 0;
  } else {
    a = -(int64_t)quotient - 1;
    b = (int64_t)count - remainder;
  }
  rest = count - b; /* in [1, count]; the tests below compare 2b with count without overflow */
  if (b > rest) {   /* 2b > count: the fraction exceeds 1/2 */
    up = 1;
  } else if (b + 2 <= rest) { /* 2b + 2 <= count: the fraction is below 1/2 */
    up = 0;
  } else if (b == rest) { /* 2b == count: fraction = 1/2 + r1 / (2^right * count) */
    up = r1 > 0 || (a & 1) != 0;
  } else { /* count == 2b + 1: fraction > 1/2 iff r1 / 2^right > 1/2, = 1/2 iff equal */
    up = half > 0 && (r1 > half || (r1 == half && (a & 1) != 0));
  }
  result = a + up;
  if (result > INT32_MAX) result = INT32_MAX;
  if (result < INT32_MIN) result = INT32_MIN;
  return (int32_t)result;
}

/* ---- TFLite's arithmetic --------------------------------------------------------------- */

int8_t tgrs_requantize_s8_tflite(int32_t acc, int32_t multiplier, int32_t shift, int32_t zero_point,
                                 int32_t act_min, int32_t act_max) {
  int64_t v = (int64_t)tgrs_mbqm_tflite_inline(acc, multiplier, shift) + zero_point;
  if (v < act_min) v = act_min;
  if (v > act_max) v = act_max;
  return (int8_t)v;
}

int32_t tgrs_average_tflite(int32_t acc, int32_t input_zero_point, int32_t count) {
  if (count <= 0) return 0;
  const int64_t sum = (int64_t)acc + (int64_t)input_zero_point * count;
  const int64_t half = count / 2;
  uint32_t r;
  /* Round half away from zero by integer division of |sum| +- count/2, truncating (C and
   * TFLite's / on ints); udiv64_32 avoids libgcc's 64-bit division. */
  const uint64_t magnitude = (uint64_t)(sum >= 0 ? sum + half : -(sum - half));
  const int64_t q = (int64_t)udiv64_32(magnitude, (uint32_t)count, &r);
  return (int32_t)(sum >= 0 ? q : -q);
}
