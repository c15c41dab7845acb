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
  int32_t c, q_step;
  if (!tgrs_quant_s8_valid(quant) || offset == NULL || !tgrs_dims_valid(dims) || input == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* tgrs_pcq_step also keeps every shift in [-31, 30]: right = 31 - shift in 1..62. */
  q_step = tgrs_pcq_step(pcq, dims->c);
  if (q_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  pixels = tgrs_dims_count(dims) / (size_t)dims->c;
  for (px = 0; px < pixels; ++px) {
    for (c = 0; c < dims->c; ++c) {
      /* One rounding of (x - zp) * A + O at the fixed point 2^(shift - 31): the offset
       * shares the multiplier's scale (the emitter chose both; plan-format.md). |A|, |O|
       * < 2^31 and |x - zp| < 2^9 keep the sum within 2^41. */
      const int right = 31 - (int)pcq->shift[c * q_step];
      const int64_t acc =
          ((int64_t)*input++ - quant->input_zero_point) * pcq->multiplier[c * q_step] + offset[c];
      int64_t v = (int64_t)tgrs_round_shift_s64(acc, right) + quant->output_zero_point;
      if (v < quant->act_min) v = quant->act_min;
      if (v > quant->act_max) v = quant->act_max;
      *output++ = (int8_t)v;
    }
  }
  return TGRS_KERNEL_OK;
}
