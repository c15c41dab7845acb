/*
 * Depthwise 2-D convolution with channel multiplier, int8 and float32, row-windowed.
 * Output channel co = ci * M + m reads input channel ci (ONNX group = C_IN, TFLite
 * depth_multiplier). Channels are processed in blocks of kChannelBlock with the block's
 * accumulators on the stack (no scratch), so the innermost loop runs over contiguous
 * channels of one tap. Per channel the sum order is (ky, kx), whatever the block size.
 * With the DSP extension an int8 layer with symmetric filters and one filter per channel
 * runs four channels per tap word instead (depthwise_box_s8.c: the interior as a box, the
 * border pixel by pixel); the loops here then do the channels left over, if any.
 */
#include "dot_s8.h" /* TGRS_USE_DSP */
#include "kernel_util.h"
#include "requantize.h"
#include "s8_boxes.h"
#include "tgrs_kernels.h"

enum { kChannelBlock = 32 };

static tgrs_kernel_status check_depthwise(const tgrs_conv_params* conv,
                                          const tgrs_row_window* window, const tgrs_dims* in,
                                          const tgrs_dims* filter, const tgrs_dims* out) {
  if (!tgrs_conv_params_valid(conv) || !tgrs_dims_valid(in) || !tgrs_dims_valid(filter) ||
      !tgrs_dims_valid(out)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (filter->n != 1 || filter->c != out->c || out->c % in->c != 0 || in->n != out->n ||
      conv->filter_channels < 0 || (conv->filter_channels > 0 && conv->filter_channels < out->c) ||
      !tgrs_axis_fits(out->w, filter->w, conv->stride_w, conv->dilation_w, conv->pad_left)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  return tgrs_window_covers(window, in->h, out->h, filter->h, conv->stride_h, conv->dilation_h,
                            conv->pad_top);
}

tgrs_kernel_status tgrs_depthwise_conv2d_s8(
    const tgrs_conv_params* conv, const tgrs_row_window* window, const tgrs_quant_s8* quant,
    const tgrs_per_channel_quant* pcq, const tgrs_dims* input_dims, const int8_t* input,
    const tgrs_dims* filter_dims, const int8_t* filter, const int32_t* bias,
    const tgrs_dims* output_dims, int8_t* output) {
  int32_t n, oy, ox, c0, ky, kx, j, q_step, zp_step;
  int32_t acc[kChannelBlock];
  const int32_t* filter_zp = NULL;
  const tgrs_kernel_status st = check_depthwise(conv, window, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  q_step = tgrs_pcq_step(pcq, output_dims->c);
  if (q_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  zp_step = tgrs_filter_zp_step(pcq, output_dims->c, &filter_zp);
  if (!tgrs_quant_s8_valid(quant) || zp_step < 0 || input == NULL || filter == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  {
    /* No filter zero points (what the compiler writes for symmetric weights). */
    const int symmetric = pcq->filter_zero_point_count == 0u;
    const int32_t in_w = input_dims->w, c_in = input_dims->c, in_h = input_dims->h;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_w = output_dims->w, c_out = output_dims->c;
    const int32_t mult = c_out / c_in;
    const int32_t out_rows = window->out_row_end - window->out_row_begin;
    const int32_t in_zp = quant->input_zero_point;
    const int32_t w_stride = conv->filter_channels > 0 ? conv->filter_channels : c_out;
    const size_t in_row_elems = (size_t)in_w * (size_t)c_in;
#if TGRS_USE_DSP
    tgrs_depthwise_s8_pixel pixel;
    pixel.x_row = (size_t)conv->dilation_h * in_row_elems;
    pixel.w_row = (size_t)kw * (size_t)w_stride;
    pixel.step = (size_t)c_in;
    pixel.x_col = (size_t)conv->stride_w * (size_t)c_in;
    pixel.x_line = (size_t)conv->stride_h * in_row_elems;
    pixel.c_out = c_out;
    pixel.ch = tgrs_s8_channels_of(quant, pcq, bias, q_step);
    /* The interior box (every tap inside the input) goes through tgrs_depthwise_box_s8_, the
     * border around it pixel by pixel. */
    const int dsp_path = symmetric && mult == 1 && conv->dilation_w == 1 && w_stride == c_in;
    int32_t oy_lo = 0, oy_hi = 0, ox_lo = 0, ox_hi = 0;
    if (dsp_path && c_out % 4 == 0) {
      tgrs_interior(window->out_row_begin, window->out_row_end, conv->stride_h, conv->pad_top, kh,
                    conv->dilation_h, in_h, &oy_lo, &oy_hi);
      tgrs_interior(0, out_w, conv->stride_w, conv->pad_left, kw, 1, in_w, &ox_lo, &ox_hi);
    }
#endif
    for (n = 0; n < output_dims->n; ++n) {
      const int8_t* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;
      int8_t* out_batch = output + (size_t)n * (size_t)out_rows * out_w * c_out;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy0 = oy * conv->stride_h - conv->pad_top;
        int8_t* out_px = out_batch + (size_t)(oy - window->out_row_begin) * out_w * c_out;
#if TGRS_USE_DSP
        const int line_inside = oy >= oy_lo && oy < oy_hi;
#endif
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          const int32_t ix0 = ox * conv->stride_w - conv->pad_left;
          c0 = 0;
#if TGRS_USE_DSP
          if (line_inside && ox == ox_lo && ox_hi > ox_lo) { /* tgrs_depthwise_box_s8_'s, below */
            out_px += (size_t)(ox_hi - 1 - ox_lo) * c_out;
            ox = ox_hi - 1;
            continue;
          }
          if (dsp_path) {
            /* The taps inside the input: rows [ky0, ky1), columns [kx0, kx1). */
            int32_t ky0 = 0, ky1 = kh, kx0 = 0, kx1 = kw;
            while (ky0 < kh && iy0 + ky0 * conv->dilation_h < 0) ++ky0;
            while (ky1 > ky0 && iy0 + (ky1 - 1) * conv->dilation_h >= in_h) --ky1;
            while (kx0 < kw && ix0 + kx0 * conv->dilation_w < 0) ++kx0;
            while (kx1 > kx0 && ix0 + (kx1 - 1) * conv->dilation_w >= in_w) --kx1;
            if (ky1 > ky0 && kx1 > kx0) {
              c0 = tgrs_depthwise_pixel_s8_(
                  &pixel,
                  in_batch +
                      (size_t)(iy0 + ky0 * conv->dilation_h - window->in_row_begin) * in_row_elems +
                      (size_t)(ix0 + kx0 * conv->dilation_w) * c_in,
                  filter + ((size_t)ky0 * kw + kx0) * w_stride, ky1 - ky0, kx1 - kx0, out_px);
            }
          }
#endif
          for (; c0 < c_out; c0 += kChannelBlock) {
            const int32_t block = c_out - c0 < kChannelBlock ? c_out - c0 : kChannelBlock;
            for (j = 0; j < block; ++j) acc[j] = bias != NULL ? bias[c0 + j] : 0;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy = iy0 + ky * conv->dilation_h;
              const int8_t* in_row;
              if (iy < 0 || iy >= in_h) continue; /* padding contributes (zp - zp) * w = 0 */
              in_row = in_batch + (size_t)(iy - window->in_row_begin) * in_row_elems;
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix = ix0 + kx * conv->dilation_w;
                const int8_t* x;
                const int8_t* w;
                if (ix < 0 || ix >= in_w) continue;
                x = in_row + (size_t)ix * c_in;
                w = filter + ((size_t)ky * kw + kx) * w_stride + c0;
                if (symmetric && mult == 1) { /* the common case: the loop as it was */
                  for (j = 0; j < block; ++j) {
                    acc[j] =
                        tgrs_wrapping_add(acc[j], ((int32_t)x[c0 + j] - in_zp) * (int32_t)w[j]);
                  }
                } else if (mult == 1) {
                  for (j = 0; j < block; ++j) {
                    acc[j] = tgrs_wrapping_add(acc[j],
                                               ((int32_t)x[c0 + j] - in_zp) *
                                                   ((int32_t)w[j] - filter_zp[(c0 + j) * zp_step]));
                  }
                } else {
                  for (j = 0; j < block; ++j) {
                    acc[j] = tgrs_wrapping_add(acc[j],
                                               ((int32_t)x[(c0 + j) / mult] - in_zp) *
                                                   ((int32_t)w[j] - filter_zp[(c0 + j) * zp_step]));
                  }
                }
              }
            }
            for (j = 0; j < block; ++j) {
              out_px[c0 + j] =
                  tgrs_requantize_s8_as(quant->rounding, acc[j], pcq->multiplier[(c0 + j) * q_step],
                                        pcq->shift[(c0 + j) * q_step], quant->output_zero_point,
                                        quant->act_min, quant->act_max);
            }
          }
        }
      }
#if TGRS_USE_DSP
      if (oy_hi > oy_lo && ox_hi > ox_lo) {
        (void)tgrs_depthwise_box_s8_(
            &pixel,
            in_batch +
                (size_t)(oy_lo * conv->stride_h - conv->pad_top - window->in_row_begin) *
                    in_row_elems +
                (size_t)(ox_lo * conv->stride_w - conv->pad_left) * c_in,
            filter, kh, kw,
            out_batch + ((size_t)(oy_lo - window->out_row_begin) * out_w + ox_lo) * c_out,
            (size_t)out_w * c_out, oy_hi - oy_lo, ox_hi - ox_lo);
      }
#endif
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_depthwise_conv2d_f32(const tgrs_conv_params* conv,
                                             const tgrs_row_window* window, const tgrs_act_f32* act,
                                             const tgrs_dims* input_dims, const float* input,
                                             const tgrs_dims* filter_dims, const float* filter,
                                             const float* bias, const tgrs_dims* output_dims,
                                             float* output) {
  int32_t n, oy, ox, c0, ky, kx, j;
  float acc[kChannelBlock];
  const tgrs_kernel_status st = check_depthwise(conv, window, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (input == NULL || filter == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  {
    const int32_t in_w = input_dims->w, c_in = input_dims->c, in_h = input_dims->h;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_w = output_dims->w, c_out = output_dims->c;
    const int32_t mult = c_out / c_in;
    const int32_t out_rows = window->out_row_end - window->out_row_begin;
    const size_t in_row_elems = (size_t)in_w * (size_t)c_in;
    const int32_t w_stride = conv->filter_channels > 0 ? conv->filter_channels : c_out;
    for (n = 0; n < output_dims->n; ++n) {
      const float* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;
      float* out_batch = output + (size_t)n * (size_t)out_rows * out_w * c_out;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy0 = oy * conv->stride_h - conv->pad_top;
        float* out_px = out_batch + (size_t)(oy - window->out_row_begin) * out_w * c_out;
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          const int32_t ix0 = ox * conv->stride_w - conv->pad_left;
          for (c0 = 0; c0 < c_out; c0 += kChannelBlock) {
            const int32_t block = c_out - c0 < kChannelBlock ? c_out - c0 : kChannelBlock;
            for (j = 0; j < block; ++j) acc[j] = 0.0f;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy = iy0 + ky * conv->dilation_h;
              const float* in_row;
              if (iy < 0 || iy >= in_h) continue;
              in_row = in_batch + (size_t)(iy - window->in_row_begin) * in_row_elems;
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix = ix0 + kx * conv->dilation_w;
                const float* x;
                const float* w;
                if (ix < 0 || ix >= in_w) continue;
                x = in_row + (size_t)ix * c_in;
                w = filter + ((size_t)ky * kw + kx) * w_stride + c0;
                if (mult == 1) {
                  for (j = 0; j < block; ++j) acc[j] += x[c0 + j] * w[j];
                } else {
                  for (j = 0; j < block; ++j) acc[j] += x[(c0 + j) / mult] * w[j];
                }
              }
            }
            for (j = 0; j < block; ++j) {
              float v = acc[j];
              if (bias != NULL) v += bias[c0 + j];
              if (act != NULL) {
                if (v < act->min) v = act->min;
                if (v > act->max) v = act->max;
              }
              out_px[c0 + j] = v;
            }
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
