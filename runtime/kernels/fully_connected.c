/*
 * Fully connected (Gemm / MatMul with constant weights), int8 per-channel and float32.
 * Weights [N_OUT, K] (Gemm canonical transB = 1): each output reads one contiguous row.
 */
#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

tgrs_kernel_status tgrs_fully_connected_s8(const tgrs_quant_s8* quant,
                                           const tgrs_per_channel_quant* pcq, int32_t batch,
                                           int32_t k, int32_t n_out, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias,
                                           int8_t* output) {
  int32_t b, o, i, zp_step;
  const int32_t* filter_zp = NULL;
  const int32_t q_step = tgrs_pcq_step(pcq, n_out);
  if (q_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  zp_step = tgrs_filter_zp_step(pcq, n_out, &filter_zp);
  if (!tgrs_quant_s8_valid(quant) || batch < 1 || k < 1 || n_out < 1 || zp_step < 0 ||
      input == NULL || filter == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (b = 0; b < batch; ++b) {
    const int8_t* x = input + (size_t)b * k;
    int8_t* y = output + (size_t)b * n_out;
    o = 0;
    /* Symmetric filters (the common case), four outputs at a time (dot_s8.h). */
    for (; pcq->filter_zero_point_count == 0u && o + 4 <= n_out; o += 4) {
      int32_t acc[4], j;
      for (j = 0; j < 4; ++j) acc[j] = bias != NULL ? bias[o + j] : 0;
      tgrs_dot4_s8(x, filter + (size_t)o * k, (size_t)k, k, quant->input_zero_point, acc);
      for (j = 0; j < 4; ++j) {
        y[o + j] = tgrs_requantize_s8(acc[j], pcq->multiplier[(o + j) * q_step],
                                      pcq->shift[(o + j) * q_step], quant->output_zero_point,
                                      quant->act_min, quant->act_max);
      }
    }
    for (; o < n_out; ++o) {
      const int8_t* w = filter + (size_t)o * k;
      const int32_t w_zp = filter_zp[o * zp_step];
      int32_t acc = bias != NULL ? bias[o] : 0;
      if (w_zp == 0) {
        acc = tgrs_dot_s8(x, w, k, quant->input_zero_point, acc);
      } else {
        for (i = 0; i < k; ++i) {
          acc = tgrs_wrapping_add(
              acc, ((int32_t)x[i] - quant->input_zero_point) * ((int32_t)w[i] - w_zp));
        }
      }
      y[o] = tgrs_requantize_s8(acc, pcq->multiplier[o * q_step], pcq->shift[o * q_step],
                                quant->output_zero_point, quant->act_min, quant->act_max);
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_fully_connected_f32(const tgrs_act_f32* act, int32_t batch, int32_t k,
                                            int32_t n_out, const float* input, const float* filter,
                                            const float* bias, float* output) {
  int32_t b, o, i;
  if (batch < 1 || k < 1 || n_out < 1 || input == NULL || filter == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (b = 0; b < batch; ++b) {
    const float* x = input + (size_t)b * k;
    float* y = output + (size_t)b * n_out;
    for (o = 0; o < n_out; ++o) {
      const float* w = filter + (size_t)o * k;
      float acc = 0.0f;
      for (i = 0; i < k; ++i) acc += x[i] * w[i];
      if (bias != NULL) acc += bias[o];
      if (act != NULL) {
        if (acc < act->min) acc = act->min;
        if (acc > act->max) acc = act->max;
      }
      y[o] = acc;
    }
  }
  return TGRS_KERNEL_OK;
}
