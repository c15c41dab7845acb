/* Standalone BatchNormalization with precomputed per-channel affine terms. */
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

tgrs_kernel_status tgrs_batch_norm_f32(const tgrs_dims* dims, const float* scale,
                                       const float* shift, const float* input, float* output) {
  size_t px, pixels;
  int32_t c;
  if (!tgrs_dims_valid(dims) || scale == NULL || shift == NULL || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  pixels = tgrs_dims_count(dims) / (size_t)dims->c;
  for (px = 0; px < pixels; ++px) {
    for (c = 0; c < dims->c; ++c) *output++ = *input++ * scale[c] + shift[c];
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_batch_norm_s8(const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
                                      const int32_t* offset, const tgrs_dims* dims,
                                      const int8_t* input, int8_t* output) {
  size_t px, pixels;
  int32_t c;
  if (!tgrs_quant_s8_valid(quant) || pcq == NULL || pcq->multiplier == NULL || pcq->shift == NULL ||
      offset == NULL || !tgrs_dims_valid(dims) || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  pixels = tgrs_dims_count(dims) / (size_t)dims->c;
  for (px = 0; px < pixels; ++px) {
    for (c = 0; c < dims->c; ++c) {
      /* 64-bit sum: offset is any int32 the emitter chose. */
      int64_t v = (int64_t)tgrs_mbqm((int32_t)*input++ - quant->input_zero_point,
                                     pcq->multiplier[c], pcq->shift[c]) +
                  quant->output_zero_point + offset[c];
      if (v < quant->act_min) v = quant->act_min;
      if (v > quant->act_max) v = quant->act_max;
      *output++ = (int8_t)v;
    }
  }
  return TGRS_KERNEL_OK;
}
