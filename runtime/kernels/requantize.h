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
