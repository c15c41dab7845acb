/*
 * Fixed-point arithmetic in TensorFlow Lite's integer kernels (internal to the kernels and
 * the compiler's table builder, libtigris/emit/tflite_tables.cc).
 *
 * TFLite computes int8 softmax, logistic and tanh with gemmlowp's fixed-point functions
 * (gemmlowp fixedpoint/fixedpoint.h, used by tensorflow/lite/kernels/internal/reference/
 * softmax.h and integer_ops/{logistic,tanh}.h). A value with I integer bits is an int32 raw
 * r meaning r * 2^(I - 31) (Q(I).(31 - I)); "Q0" holds [-1, 1), and 1 itself saturates to
 * INT32_MAX. Reproducing TFLM's output bytes means reproducing each of these steps exactly:
 * products are rounding doubling high multiplies (ARM's VQRDMULH), sums wrap, and rescaling
 * to fewer integer bits is a saturating left shift, to more a rounding right shift.
 *
 * Written from the published algorithms and checked against TFLM's interpreter on every int8
 * input (tests/e2e/test_tflite.py, the single-op cases of tests/models/tflite/ops).
 */
#ifndef TGRS_KERNELS_FIXED_POINT_H_
#define TGRS_KERNELS_FIXED_POINT_H_

#include <stdint.h>

#include "kernel_util.h" /* TGRS_ALWAYS_INLINE */

#ifdef __cplusplus
extern "C" {
#endif

/* round(a * b / 2^31), ties away from zero, computed as (a * b + nudge) / 2^31 truncated
 * toward zero; INT32_MIN * INT32_MIN, the one overflow, saturates to INT32_MAX. */
static TGRS_ALWAYS_INLINE int32_t tgrs_fx_srdhm(int32_t a, int32_t b) {
  int64_t v;
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  v = (int64_t)a * (int64_t)b;
  v += v >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  /* |v| < 2^62: the quotient fits int32 */
  return (int32_t)(v >= 0 ? v >> 31 : -((-v) >> 31));
}

/* v / 2^e rounded half away from zero, e in [0, 31] (gemmlowp's RoundingDivideByPOT). */
static TGRS_ALWAYS_INLINE int32_t tgrs_fx_rdbpot(int32_t v, int32_t e) {
  const int64_t mask = ((int64_t)1 << e) - 1;
  const int64_t remainder = (int64_t)v & mask;
  const int64_t threshold = (mask >> 1) + (v < 0 ? 1 : 0);
  return (int32_t)(((int64_t)v >> e) + (remainder > threshold ? 1 : 0));
}

/* v * 2^e saturated to int32, e in [0, 31] (gemmlowp's SaturatingRoundingMultiplyByPOT for
 * a positive exponent). */
static TGRS_ALWAYS_INLINE int32_t tgrs_fx_saturating_shl(int32_t v, int32_t e) {
  const int64_t r = (int64_t)v * ((int64_t)1 << e);
  return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
}

/* TensorFlow Lite's MultiplyByQuantizedMultiplier (tensorflow/lite/kernels/internal/
 * common.h, the default build without TFLITE_SINGLE_ROUNDING, as TFLM and CMSIS-NN run
 * it): x is shifted left by max(shift, 0), then
 *   SaturatingRoundingDoublingHighMul(a, m) = (a * m + (a * m >= 0 ? 2^30 : 1 - 2^30)) / 2^31,
 *     divided truncating toward zero (INT32_MIN * INT32_MIN saturates to INT32_MAX);
 *   RoundingDivideByPOT(v, e) = (v >> e) + 1 when the remainder v & (2^e - 1) exceeds
 *     (2^e - 1) / 2, or that plus one for a negative v: half away from zero,
 * with e = max(-shift, 0). Two roundings where ONNX has one: they differ when the first
 * moves the value across a half of the second (docs/tflite.md measured it on a layer
 * whose scale left two bits to round: 6 of 128 outputs). The left shift saturates to
 * int32 instead of overflowing (TFLite's multiply would be undefined there; its
 * converter never makes such a scale). Every argument gives a defined result; the
 * verifier keeps shifts in [-31, 30]. */
int32_t tgrs_mbqm_tflite(int32_t x, int32_t multiplier, int32_t shift);

/* exp(a) in Q0 for a <= 0 given in Q(integer_bits), integer_bits in [0, 6]:
 * exp of a's remainder modulo 1/4 by a Taylor polynomial around -1/8, then one multiply by
 * exp(-2^k) per set bit k of the rest (gemmlowp's exp_on_negative_values). exp(0) = 1
 * saturates to INT32_MAX. */
int32_t tgrs_fx_exp_on_negative_values(int32_t a, int integer_bits);

/* 1 / (1 + x) in Q0 for x in Q0 within [0, 1) (gemmlowp's
 * one_over_one_plus_x_for_x_in_0_1): three Newton-Raphson steps in Q2 on the half
 * denominator (1 + x) / 2, from the estimate 48/17 - 32/17 * (1 + x) / 2. */
int32_t tgrs_fx_one_over_one_plus_x(int32_t x);

/* TFLite's GetReciprocal (tensorflow/lite/kernels/internal/common.h): for a positive sum in
 * Q(integer_bits), a Q0 value s and *bits_over_unit such that sum * s ~= 2^bits_over_unit. */
int32_t tgrs_fx_reciprocal(int32_t sum, int integer_bits, int* bits_over_unit);

/* logistic(a) and tanh(a) in Q0 for any a in Q(integer_bits), integer_bits in [0, 5]
 * (gemmlowp's logistic and tanh: by symmetry from exp of -|a|). Used by the compiler to fill
 * int8 tables; no kernel calls them, so a firmware's linker drops them. */
int32_t tgrs_fx_logistic(int32_t a, int integer_bits);
int32_t tgrs_fx_tanh(int32_t a, int integer_bits);

#ifdef __cplusplus
}
#endif

#endif /* TGRS_KERNELS_FIXED_POINT_H_ */
