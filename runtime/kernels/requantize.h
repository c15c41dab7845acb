/*
 * Integer requantization (internal to the kernels).
 *
 * tgrs_mbqm(x, multiplier, shift) = x * multiplier * 2^(shift - 31), rounded ONCE, half to
 * even, and saturated to int32. multiplier is the Q0.31 mantissa and shift the exponent of
 * the real scale (tgrs_quantize_multiplier; shift > 0 scales up).
 *
 * Two arithmetics, chosen per op by the plan (tgrs_rounding, Op.rounding): plans compiled
 * from ONNX round once, half to even; plans compiled from a .tflite use TFLite's
 * MultiplyByQuantizedMultiplier (tgrs_mbqm_tflite, below), so their bytes are TensorFlow
 * Lite Micro's. Why ONNX plans do not use TFLite's: ONNX QDQ semantics round a real value
 * once, half to even (QuantizeLinear), and onnxruntime is the oracle those plans are held
 * to. TFLite rounds twice (SaturatingRoundingDoublingHighMul,
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

#include "fixed_point.h"    /* tgrs_mbqm_tflite */
#include "kernel_util.h"    /* TGRS_ALWAYS_INLINE */
#include "tgrs_kernels.h"   /* tgrs_rounding */
#include "tgrs_op_select.h" /* TGRS_WITH_TFLITE_ROUNDING: 0 compiles TFLite's forms out */

/* Defined once in requantize.c rather than inline in every kernel: each inlined copy cost
 * about 270 bytes of Cortex-M code, and the call is once per output value, not per MAC. */

#ifdef __cplusplus
extern "C" {
#endif

/* value / 2^right rounded half to even (right in 1..62), saturated to int32. */
int32_t tgrs_round_shift_s64(int64_t value, int right);

/* Total for every shift, although tgrs_quantize_multiplier and the plan verifier keep it in
 * [-31, 30] (right in 1..62): the kernels are a public API, and a caller's out-of-range shift
 * must saturate, not overflow (found by fuzz_plan). */
int32_t tgrs_mbqm(int32_t x, int32_t multiplier, int32_t shift);

/* Requantize an accumulator to int8: clamp(mbqm(acc) + zero_point, act_min, act_max). */
int8_t tgrs_requantize_s8(int32_t acc, int32_t multiplier, int32_t shift, int32_t zero_point,
                          int32_t act_min, int32_t act_max);

/* ---- TFLite's arithmetic (tgrs_rounding TGRS_ROUNDING_TFLITE) ----------------------
 * tgrs_mbqm_tflite, TFLite's MultiplyByQuantizedMultiplier, lives with the rest of TFLite's
 * fixed point in fixed_point.h. */

/* clamp(tgrs_mbqm_tflite(acc) + zero_point, act_min, act_max) */
int8_t tgrs_requantize_s8_tflite(int32_t acc, int32_t multiplier, int32_t shift, int32_t zero_point,
                                 int32_t act_min, int32_t act_max);

/* TFLite's integer average pool (reference_integer_ops::AveragePool): the sum of the raw
 * int8 taps divided by their count, rounded half away from zero, for input and output of
 * one scale and zero point (TFLite requires it). `acc` holds the sum of
 * (x - input_zero_point); the caller clamps. */
int32_t tgrs_average_tflite(int32_t acc, int32_t input_zero_point, int32_t count);

/* tgrs_requantize_s8, the same result for every argument, inline and cheap for the scales a
 * quantized convolution or dense layer has: below 1/2 (shift in [-31, -1]), where the
 * general path's 64-bit rounding costs about 110 Cortex-M4 instructions per output value
 * (issue 40's profile). With right = 31 - shift = 31 + s, s in [1, 31], and p = acc * m
 * (|p| <= 2^62 unless both are INT32_MIN, which takes the general path):
 *   u = floor(p / 2^31)       fits int32: the high word shifted left once, the low word's top bit
 *   q = floor(p / 2^right)    = u >> s (arithmetic)
 *   p mod 2^right = r * 2^31 + t,  r = u - q * 2^s in [0, 2^s),  t = p mod 2^31
 * and the one rounding, half to even, rounds q up iff the fraction (r * 2^31 + t) / 2^right
 * exceeds 1/2, or equals it with q odd; with half = 2^(s - 1) that is
 *   r > half  or  (r == half and (t != 0 or q odd))  <=>  r + (t != 0 or q odd) > half,
 * since r and half are integers. |q| <= 2^30, so adding the zero point cannot overflow and
 * the general path's saturation to int32 never applies (tgrs_mbqm_below_half_, below).
 * tests/runtime/kernel_arithmetic_edges_test.cc holds it to the general path and to an
 * independent long-double reference. */
static TGRS_ALWAYS_INLINE int32_t tgrs_mbqm_below_half_(int64_t p, uint32_t s, uint32_t half) {
  const uint32_t lo = (uint32_t)p;
  const int32_t u = (int32_t)(((uint32_t)(p >> 32) << 1) | (lo >> 31));
  const int32_t q = u >> s;
  const uint32_t r = (uint32_t)u - ((uint32_t)q << s); /* in [0, 2^s): r + 1 does not wrap */
  const uint32_t tie_break = (lo << 1) != 0u || (q & 1) != 0;
  return q + (r + tie_break > half);
}

static TGRS_ALWAYS_INLINE int8_t tgrs_requantize_s8_inline(int32_t acc, int32_t multiplier,
                                                           int32_t shift, int32_t zero_point,
                                                           int32_t act_min, int32_t act_max) {
  int32_t v;
  if (shift > -1 || shift < -31 || (multiplier == INT32_MIN && acc == INT32_MIN)) {
    return tgrs_requantize_s8(acc, multiplier, shift, zero_point, act_min, act_max);
  }
  v = tgrs_mbqm_below_half_((int64_t)acc * (int64_t)multiplier, (uint32_t)-shift,
                            1u << (-shift - 1)) +
      zero_point;
  if (v < act_min) v = act_min;
  if (v > act_max) v = act_max;
  return (int8_t)v;
}

/* tgrs_mbqm, the same result for every argument, inline for shifts -31..0: below 1/2 as
 * above, and for a scale in [1/2, 1) (shift 0, right = 31: an Add's larger input scale)
 * q = u rounded up iff t > 2^30, or t == 2^30 and u is odd. There |u| < 2^31 - 1, so q
 * fits int32 and the general path's saturation never applies. */
static TGRS_ALWAYS_INLINE int32_t tgrs_mbqm_inline(int32_t x, int32_t multiplier, int32_t shift) {
  int64_t p;
  if (shift > 0 || shift < -31 || (multiplier == INT32_MIN && x == INT32_MIN)) {
    return tgrs_mbqm(x, multiplier, shift);
  }
  p = (int64_t)x * (int64_t)multiplier;
  if (shift == 0) {
    const uint32_t lo = (uint32_t)p, t = lo & 0x7FFFFFFFu;
    const int32_t u = (int32_t)(((uint32_t)(p >> 32) << 1) | (lo >> 31));
    return u + (t > 0x40000000u || (t == 0x40000000u && (u & 1) != 0));
  }
  return tgrs_mbqm_below_half_(p, (uint32_t)-shift, 1u << (-shift - 1));
}

/* One output channel's requantization prepared once per kernel call, for the loops that
 * requantize many pixels of it (conv2d.c, depthwise_conv2d.c): the fast form's constants
 * s = -shift and 2^(s-1) where it applies (shift in [-31, -1], multiplier not INT32_MIN, so
 * acc * multiplier is never 2^62), else the general path on every value. */
typedef struct tgrs_requant_ch {
  int32_t multiplier, shift;
  uint32_t s, half;
  int fast;
  int tflite; /* TFLite's arithmetic (tgrs_requantize_s8_tflite) on every value */
} tgrs_requant_ch;

static inline tgrs_requant_ch tgrs_requant_prepare(int32_t multiplier, int32_t shift,
                                                   int32_t rounding) {
  tgrs_requant_ch ch;
  ch.multiplier = multiplier;
  ch.shift = shift;
  ch.tflite = TGRS_WITH_TFLITE_ROUNDING && rounding == TGRS_ROUNDING_TFLITE;
  ch.fast = !ch.tflite && shift <= -1 && shift >= -31 && multiplier != INT32_MIN;
  ch.s = ch.fast ? (uint32_t)-shift : 1u;
  ch.half = 1u << (ch.s - 1u);
  return ch;
}

/* tgrs_requantize_s8(acc, ch->multiplier, ch->shift, ...), the same bytes (or
 * tgrs_requantize_s8_tflite's, as prepared). */
static TGRS_ALWAYS_INLINE int8_t tgrs_requantize_s8_ch(int32_t acc, const tgrs_requant_ch* ch,
                                                       int32_t zero_point, int32_t act_min,
                                                       int32_t act_max) {
  int32_t v;
  if (!ch->fast) {
    return ch->tflite
               ? tgrs_requantize_s8_tflite(acc, ch->multiplier, ch->shift, zero_point, act_min,
                                           act_max)
               : tgrs_requantize_s8(acc, ch->multiplier, ch->shift, zero_point, act_min, act_max);
  }
  v = tgrs_mbqm_below_half_((int64_t)acc * (int64_t)ch->multiplier, ch->s, ch->half) + zero_point;
  if (v < act_min) v = act_min;
  if (v > act_max) v = act_max;
  return (int8_t)v;
}

/* tgrs_mbqm_tflite, the same result for every argument, inline for the scales below 1 an
 * int8 op has (shift in [-31, 0]: no left shift). The high product's truncation toward
 * zero is an arithmetic shift after adding 2^31 - 1 to a negative value. */
static TGRS_ALWAYS_INLINE int32_t tgrs_mbqm_tflite_inline(int32_t x, int32_t multiplier,
                                                          int32_t shift) {
  int64_t v;
  int32_t high;
  uint32_t mask, remainder, threshold;
  if (shift > 0 || shift < -31 || (x == INT32_MIN && multiplier == INT32_MIN)) {
    return tgrs_mbqm_tflite(x, multiplier, shift);
  }
  v = (int64_t)x * (int64_t)multiplier;
  v += v >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  high = (int32_t)((v + (v < 0 ? 0x7FFFFFFF : 0)) >> 31);
  mask = (uint32_t)((((uint64_t)1) << -shift) - 1u);
  remainder = (uint32_t)high & mask;
  threshold = (mask >> 1) + (high < 0 ? 1u : 0u);
  return (high >> -shift) + (remainder > threshold ? 1 : 0);
}

/* The op's arithmetic chosen per call: the ONNX forms above, or TFLite's. */
static TGRS_ALWAYS_INLINE int8_t tgrs_requantize_s8_as(int32_t rounding, int32_t acc,
                                                       int32_t multiplier, int32_t shift,
                                                       int32_t zero_point, int32_t act_min,
                                                       int32_t act_max) {
  /* TFLite's form out of line: inlined at every call site of every kernel it cost about
   * 2.9 KB of Cortex-M4 code in each firmware (the kernels library serves every plan),
   * for a call per output value. */
  if (TGRS_WITH_TFLITE_ROUNDING && rounding == TGRS_ROUNDING_TFLITE) {
    return tgrs_requantize_s8_tflite(acc, multiplier, shift, zero_point, act_min, act_max);
  }
  return tgrs_requantize_s8_inline(acc, multiplier, shift, zero_point, act_min, act_max);
}

static TGRS_ALWAYS_INLINE int32_t tgrs_mbqm_as(int32_t rounding, int32_t x, int32_t multiplier,
                                               int32_t shift) {
  return TGRS_WITH_TFLITE_ROUNDING && rounding == TGRS_ROUNDING_TFLITE
             ? tgrs_mbqm_tflite_inline(x, multiplier, shift)
             : tgrs_mbqm_inline(x, multiplier, shift);
}

/* The int8 average acc * (multiplier * 2^(shift - 31)) / count (count >= 1) with ONE
 * rounding, half to even, saturated to int32: what onnxruntime computes (the float average
 * of the dequantized values, then QuantizeLinear); average pools and ReduceMean share it. TFLite
 * rounds twice (requantize, then divide rounding half away), which put 1 LSB errors on 1% of a
 * global average pool's outputs (mlperf_ic_resnet8 from
 * ../shared/models/onnx-from-tflite) and 2 LSB on the logits after it. Exact integer
 * arithmetic, no 128-bit type: with P = acc * multiplier and right = 31 - shift,
 * P / 2^right = Q1 + R1 / 2^right, Q1 = a * count + b, and the fraction
 * (b + R1 / 2^right) / count is compared with 1/2 without forming b * 2^right. */
int32_t tgrs_average_requant(int32_t acc, int32_t multiplier, int32_t shift, int32_t count);

#ifdef __cplusplus
}
#endif

#endif /* TGRS_KERNELS_REQUANTIZE_H_ */
