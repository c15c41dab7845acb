/*
 * Integer requantization (internal to the kernels).
 *
 * tgrs_mbqm(x, multiplier, shift) = x * multiplier * 2^(shift - 31), rounded ONCE, half to
 * even, and saturated to int32. multiplier is the Q0.31 mantissa and shift the exponent of
 * the real scale (tgrs_quantize_multiplier; shift > 0 scales up).
 *
 * Why one rounding, half to even, and not TFLite's MultiplyByQuantizedMultiplier: ONNX QDQ
 * semantics round a real value once, half to even (QuantizeLinear), and onnxruntime is the
 * oracle this runtime is held to. TFLite rounds twice (SaturatingRoundingDoublingHighMul,
 * then RoundingDivideByPOT, half away from zero); on the shared int8 models that drifted
 * from onnxruntime by a small upward bias per layer that compounded to 2-9 LSB at the
 * outputs, while the single rounding below matches onnxruntime's outputs bit for bit on
 * every conv/depthwise/gemm model (tests/e2e). CMSIS-NN offers the same single-rounding
 * mode (CMSIS_NN_USE_SINGLE_ROUNDING), there half up.
 *
 * The product |x * multiplier| < 2^62 is exact in int64. Right shifts of negative values
 * are arithmetic on every compiler the runtime targets (GCC, Clang, Arm Compiler 6 document
 * it).
 */
#ifndef TGRS_KERNELS_REQUANTIZE_H_
#define TGRS_KERNELS_REQUANTIZE_H_

#include <stdint.h>

/* value / 2^right rounded half to even (right in 1..62), saturated to int32. */
static inline int32_t tgrs_round_shift_s64(int64_t value, int right) {
  const int64_t floor_q = value >> right;                            /* floor division by 2^right */
  const int64_t remainder = value - floor_q * ((int64_t)1 << right); /* in [0, 2^right) */
  const int64_t half = (int64_t)1 << (right - 1);
  const int round_up = remainder > half || (remainder == half && (floor_q & 1) != 0);
  int64_t v = floor_q + round_up;
  if (v > INT32_MAX) v = INT32_MAX;
  if (v < INT32_MIN) v = INT32_MIN;
  return (int32_t)v;
}

/* Total for every shift, although tgrs_quantize_multiplier and the plan verifier keep it in
 * [-31, 30] (right in 1..62): the kernels are a public API, and a caller's out-of-range shift
 * must saturate, not overflow (found by fuzz_plan). */
static inline int32_t tgrs_mbqm(int32_t x, int32_t multiplier, int32_t shift) {
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
