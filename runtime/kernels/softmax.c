/*
 * Softmax and LogSoftmax over one axis of a tensor viewed as [outer, axis_len, inner],
 * float32 and int8. The scratch holds one float per element of the axis (the planner's
 * rule, analysis/kernel_scratch.cc): exp(x - max) for softmax, the dequantized line for
 * int8. int8 is computed in float between a dequantize and a quantize, as onnxruntime does
 * for QDQ Softmax. exp and log are the runtime's own (tgrs_math.h), so the host and the
 * microcontroller produce the same bits.
 */
#include "fixed_point.h"
#include "kernel_util.h"
#include "tgrs_kernels.h"
#include "tgrs_math.h"

size_t tgrs_softmax_scratch_bytes(int32_t axis_len) {
  return axis_len > 0 ? (size_t)4 * (size_t)axis_len : 0;
}

/* The step after the maximum: writes the softmax or the log softmax of `line` (len values,
 * their maximum `max`) back into it. A pointer rather than a flag, so that a firmware
 * linking only Softmax links no logarithm (tgrs_op_select.h). */
typedef void (*line_finish)(float* line, int32_t len, float max);

static void softmax_finish(float* line, int32_t len, float max) {
  float sum = 0.0f;
  int32_t i;
  for (i = 0; i < len; ++i) {
    line[i] = tgrs_expf(line[i] - max);
    sum += line[i];
  }
  for (i = 0; i < len; ++i) line[i] = line[i] / sum;
}

static void log_softmax_finish(float* line, int32_t len, float max) {
  float sum = 0.0f, log_sum;
  int32_t i;
  for (i = 0; i < len; ++i) sum += tgrs_expf(line[i] - max);
  log_sum = tgrs_logf(sum);
  for (i = 0; i < len; ++i) line[i] = line[i] - max - log_sum;
}

/* One line: x[i * inner] for i < len, float in `line` (may alias nothing else). */
static void softmax_line(float* line, int32_t len, line_finish finish) {
  float max = line[0];
  int32_t i;
  for (i = 1; i < len; ++i) {
    if (line[i] > max) max = line[i];
  }
  finish(line, len, max);
}

static tgrs_kernel_status softmax_f32(void* scratch, int32_t outer, int32_t axis_len, int32_t inner,
                                      const float* input, float* output, line_finish finish) {
  float* line = (float*)scratch;
  int32_t o, j, i;
  if (scratch == NULL || outer < 1 || axis_len < 1 || inner < 1 || input == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (o = 0; o < outer; ++o) {
    const size_t base = (size_t)o * axis_len * inner;
    for (j = 0; j < inner; ++j) {
      for (i = 0; i < axis_len; ++i) line[i] = input[base + (size_t)i * inner + j];
      softmax_line(line, axis_len, finish);
      for (i = 0; i < axis_len; ++i) output[base + (size_t)i * inner + j] = line[i];
    }
  }
  return TGRS_KERNEL_OK;
}

static tgrs_kernel_status softmax_s8(void* scratch, const tgrs_softmax_quant_s8* q, int32_t outer,
                                     int32_t axis_len, int32_t inner, const int8_t* input,
                                     int8_t* output, line_finish finish) {
  float* line = (float*)scratch;
  int32_t o, j, i;
  if (scratch == NULL || q == NULL || !(q->input_scale > 0.0f) || !(q->output_scale > 0.0f) ||
      outer < 1 || axis_len < 1 || inner < 1 || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (o = 0; o < outer; ++o) {
    const size_t base = (size_t)o * axis_len * inner;
    for (j = 0; j < inner; ++j) {
      for (i = 0; i < axis_len; ++i) {
        const int32_t v = input[base + (size_t)i * inner + j];
        line[i] = (float)(v - q->input_zero_point) * q->input_scale;
      }
      softmax_line(line, axis_len, finish);
      for (i = 0; i < axis_len; ++i) {
        output[base + (size_t)i * inner + j] =
            tgrs_quantize_value_s8(line[i] / q->output_scale, q->output_zero_point);
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_softmax_f32(void* scratch, int32_t outer, int32_t axis_len, int32_t inner,
                                    const float* input, float* output) {
  return softmax_f32(scratch, outer, axis_len, inner, input, output, softmax_finish);
}

tgrs_kernel_status tgrs_log_softmax_f32(void* scratch, int32_t outer, int32_t axis_len,
                                        int32_t inner, const float* input, float* output) {
  return softmax_f32(scratch, outer, axis_len, inner, input, output, log_softmax_finish);
}

tgrs_kernel_status tgrs_softmax_s8(void* scratch, const tgrs_softmax_quant_s8* quant, int32_t outer,
                                   int32_t axis_len, int32_t inner, const int8_t* input,
                                   int8_t* output) {
  return softmax_s8(scratch, quant, outer, axis_len, inner, input, output, softmax_finish);
}

tgrs_kernel_status tgrs_log_softmax_s8(void* scratch, const tgrs_softmax_quant_s8* quant,
                                       int32_t outer, int32_t axis_len, int32_t inner,
                                       const int8_t* input, int8_t* output) {
  return softmax_s8(scratch, quant, outer, axis_len, inner, input, output, log_softmax_finish);
}

/* ---- TFLite's arithmetic (tgrs_kernels.h gives the formulas) --------------------------- */

/* Q5.26 for the scaled differences, Q12.19 for their sum (TFLite's kScaledDiffIntegerBits and
 * kAccumulationIntegerBits). */
#define TGRS_SOFTMAX_DIFF_BITS 5
#define TGRS_SOFTMAX_SUM_BITS 12

tgrs_kernel_status tgrs_softmax_s8_tflite(void* scratch, const tgrs_softmax_tflite_s8* params,
                                          int32_t outer, int32_t axis_len, int32_t inner,
                                          const int8_t* input, int8_t* output) {
  int32_t* exps = (int32_t*)scratch;
  int32_t o, j, i, diff_min;
  if (scratch == NULL || params == NULL || params->input_left_shift < 0 ||
      params->input_left_shift > 31 || outer < 1 || axis_len < 1 || inner < 1 || input == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* TFLite's CalculateInputRadius(5, shift): floor((2^5 - 1) * 2^26 / 2^shift), exact here */
  diff_min =
      -(int32_t)((((uint32_t)1 << TGRS_SOFTMAX_DIFF_BITS) - 1u) << 26 >> params->input_left_shift);
  for (o = 0; o < outer; ++o) {
    const size_t base = (size_t)o * axis_len * inner;
    for (j = 0; j < inner; ++j) {
      const int8_t* x = input + base + j;
      int8_t* y = output + base + j;
      int32_t max = x[0], sum = 0, scale, exponent;
      int bits_over_unit;
      for (i = 1; i < axis_len; ++i) {
        if (x[(size_t)i * inner] > max) max = x[(size_t)i * inner];
      }
      /* e_i once, kept in the scratch for the second pass (TFLite computes it twice) */
      for (i = 0; i < axis_len; ++i) {
        const int32_t d = x[(size_t)i * inner] - max;
        exps[i] = 0;
        if (d >= diff_min) {
          const int32_t scaled = tgrs_fx_srdhm((int32_t)((uint32_t)d << params->input_left_shift),
                                               params->input_multiplier);
          exps[i] = tgrs_fx_exp_on_negative_values(scaled, TGRS_SOFTMAX_DIFF_BITS);
          sum = (int32_t)((uint32_t)sum + (uint32_t)tgrs_fx_rdbpot(exps[i], TGRS_SOFTMAX_SUM_BITS));
        }
      }
      scale = tgrs_fx_reciprocal(sum, TGRS_SOFTMAX_SUM_BITS, &bits_over_unit);
      exponent = bits_over_unit + 31 - 8;
      if (exponent < 0 || exponent > 31) return TGRS_KERNEL_BAD_ARGUMENT; /* TFLite CHECKs it */
      for (i = 0; i < axis_len; ++i) {
        const int32_t d = x[(size_t)i * inner] - max;
        int32_t v = -128;
        if (d >= diff_min) {
          v = tgrs_fx_rdbpot(tgrs_fx_srdhm(scale, exps[i]), exponent) - 128;
          if (v > 127) v = 127;
          if (v < -128) v = -128;
        }
        y[(size_t)i * inner] = (int8_t)v;
      }
    }
  }
  return TGRS_KERNEL_OK;
}
