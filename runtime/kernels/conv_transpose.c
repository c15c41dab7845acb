/*
 * Transposed 2-D convolution (ONNX ConvTranspose, group 1), int8 and float32, computed as a
 * gather so each output element has its own accumulator (int8 requantizes it like a conv).
 * Output row oy receives input row iy through tap ky when oy = iy * stride - pad_top +
 * ky * dilation. Not row-tileable (docs/planning.md), so there is no row window.
 */
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

/* Input index reached by output coordinate o through tap k, or -1 if none. */
static int32_t source_index(int32_t o, int32_t k, int32_t stride, int32_t dilation, int32_t pad,
                            int32_t extent) {
  const int32_t t = o + pad - k * dilation;
  int32_t i;
  if (t < 0 || t % stride != 0) return -1;
  i = t / stride;
  return i < extent ? i : -1;
}

static tgrs_kernel_status check_transpose(const tgrs_conv_params* conv, const tgrs_dims* in,
                                          const tgrs_dims* filter, const tgrs_dims* out) {
  if (!tgrs_conv_params_valid(conv) || !tgrs_dims_valid(in) || !tgrs_dims_valid(filter) ||
      !tgrs_dims_valid(out)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (filter->c != in->c || filter->n != out->c || in->n != out->n) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* source_index computes o + pad - k * dilation in int32. */
  if ((int64_t)out->h + conv->pad_top > INT32_MAX || (int64_t)out->w + conv->pad_left > INT32_MAX ||
      (int64_t)(filter->h - 1) * conv->dilation_h > INT32_MAX ||
      (int64_t)(filter->w - 1) * conv->dilation_w > INT32_MAX) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_conv_transpose2d_s8(
    const tgrs_conv_params* conv, const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
    const tgrs_dims* input_dims, const int8_t* input, const tgrs_dims* filter_dims,
    const int8_t* filter, const int32_t* bias, const tgrs_dims* output_dims, int8_t* output) {
  int32_t n, oy, ox, co, ky, kx, ci, q_step;
  const tgrs_kernel_status st = check_transpose(conv, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  q_step = tgrs_pcq_step(pcq, output_dims->c);
  /* Symmetric filters only (the compiler refuses others for ConvTranspose). */
  if (!tgrs_quant_s8_valid(quant) || q_step < 0 || pcq->filter_zero_point_count != 0u ||
      input == NULL || filter == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  {
    const int32_t in_h = input_dims->h, in_w = input_dims->w, c_in = input_dims->c;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, c_out = output_dims->c;
    const int32_t in_zp = quant->input_zero_point;
    int8_t* out_px = output;
    for (n = 0; n < output_dims->n; ++n) {
      const int8_t* in_batch = input + (size_t)n * in_h * in_w * c_in;
      for (oy = 0; oy < out_h; ++oy) {
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          for (co = 0; co < c_out; ++co) {
            const int8_t* w_co = filter + (size_t)co * kh * kw * c_in;
            int32_t acc = bias != NULL ? bias[co] : 0;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy =
                  source_index(oy, ky, conv->stride_h, conv->dilation_h, conv->pad_top, in_h);
              if (iy < 0) continue;
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix =
                    source_index(ox, kx, conv->stride_w, conv->dilation_w, conv->pad_left, in_w);
                const int8_t* x;
                const int8_t* w;
                if (ix < 0) continue;
                x = in_batch + ((size_t)iy * in_w + ix) * c_in;
                w = w_co + ((size_t)ky * kw + kx) * c_in;
                for (ci = 0; ci < c_in; ++ci) {
                  acc = tgrs_wrapping_add(acc, ((int32_t)x[ci] - in_zp) * (int32_t)w[ci]);
                }
              }
            }
            out_px[co] = tgrs_requantize_s8_as(quant->rounding, acc, pcq->multiplier[co * q_step],
                                               pcq->shift[co * q_step], quant->output_zero_point,
                                               quant->act_min, quant->act_max);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_conv_transpose2d_f32(const tgrs_conv_params* conv, const tgrs_act_f32* act,
                                             const tgrs_dims* input_dims, const float* input,
                                             const tgrs_dims* filter_dims, const float* filter,
                                             const float* bias, const tgrs_dims* output_dims,
                                             float* output) {
  int32_t n, oy, ox, co, ky, kx, ci;
  const tgrs_kernel_status st = check_transpose(conv, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (input == NULL || filter == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  {
    const int32_t in_h = input_dims->h, in_w = input_dims->w, c_in = input_dims->c;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_h = output_dims->h, out_w = output_dims->w, c_out = output_dims->c;
    float* out_px = output;
    for (n = 0; n < output_dims->n; ++n) {
      const float* in_batch = input + (size_t)n * in_h * in_w * c_in;
      for (oy = 0; oy < out_h; ++oy) {
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          for (co = 0; co < c_out; ++co) {
            const float* w_co = filter + (size_t)co * kh * kw * c_in;
            float acc = 0.0f;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy =
                  source_index(oy, ky, conv->stride_h, conv->dilation_h, conv->pad_top, in_h);
              if (iy < 0) continue;
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix =
                    source_index(ox, kx, conv->stride_w, conv->dilation_w, conv->pad_left, in_w);
                const float* x;
                const float* w;
                if (ix < 0) continue;
                x = in_batch + ((size_t)iy * in_w + ix) * c_in;
                w = w_co + ((size_t)ky * kw + kx) * c_in;
                for (ci = 0; ci < c_in; ++ci) acc += x[ci] * w[ci];
              }
            }
            if (bias != NULL) acc += bias[co];
            if (act != NULL) {
              if (acc < act->min) acc = act->min;
              if (acc > act->max) acc = act->max;
            }
            out_px[co] = acc;
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
