/*
 * 2-D convolution (any number of groups) and Conv1D, int8 and float32. Direct loops, no
 * im2col, so no scratch (analysis/kernel_scratch.cc). Row-windowed: see tgrs_kernels.h.
 * Groups follow from the dims: groups = C_IN / filter C; output channel co reads the input
 * channels of group co / (C_OUT / groups) (ONNX Conv `group`; AlexNet splits in two).
 */
#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

static tgrs_kernel_status check_conv(const tgrs_conv_params* conv, const tgrs_row_window* window,
                                     const tgrs_dims* in, const tgrs_dims* filter,
                                     const tgrs_dims* out) {
  if (!tgrs_conv_params_valid(conv) || !tgrs_dims_valid(in) || !tgrs_dims_valid(filter) ||
      !tgrs_dims_valid(out)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* Grouped: C_IN = groups * filter C and C_OUT a multiple of groups. */
  if (in->c % filter->c != 0 || filter->n != out->c || out->c % (in->c / filter->c) != 0 ||
      in->n != out->n ||
      !tgrs_axis_fits(out->w, filter->w, conv->stride_w, conv->dilation_w, conv->pad_left)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  return tgrs_window_covers(window, in->h, out->h, filter->h, conv->stride_h, conv->dilation_h,
                            conv->pad_top);
}

/* What every output pixel of one int8 convolution call shares, fixed before its loops:
 * the filter as `rows` runs of `run` contiguous bytes per output channel (a run is a row of
 * kw taps x C_IN channels; the runs are `x_row` bytes apart in the input), and each output
 * channel's bias and requantization. */
typedef struct conv_s8_pixel {
  const int8_t* filter;
  size_t filter_elems; /* bytes per output channel's filter */
  size_t x_row;
  int32_t rows, run, c_out, q_step;
  const int32_t* bias;
  const int32_t* multiplier;
  const int8_t* shift;
  int32_t in_zp, out_zp, act_min, act_max;
} conv_s8_pixel;

/* All output channels of one pixel whose taps lie inside the input, symmetric filters and
 * one group: four channels at a time, their sums in registers across the runs
 * (tgrs_dot4_s8_inline), then requantized. The same products as the tap-by-tap loop of
 * tgrs_conv2d_s8, and int32 wrap-around sums do not depend on their order: the same bytes. */
static TGRS_NOINLINE void conv_pixel_s8(const conv_s8_pixel* p, const int8_t* x, int8_t* out) {
  /* Locals, not p->: the int8 output stores may alias anything, so fields read through p
   * would be read again after every store. */
  const int8_t* w = p->filter;
  const size_t filter_elems = p->filter_elems, x_row = p->x_row;
  const int32_t rows = p->rows, run = p->run, c_out = p->c_out, q_step = p->q_step;
  const int32_t in_zp = p->in_zp, out_zp = p->out_zp, act_min = p->act_min;
  const int32_t act_max = p->act_max;
  const int32_t* bias = p->bias;
  const int32_t* multiplier = p->multiplier;
  const int8_t* shift = p->shift;
  int32_t co, r;
  for (co = 0; co + 4 <= c_out; co += 4, w += 4 * filter_elems) {
    int32_t acc[4];
    const int8_t* xr = x;
    const int8_t* wr = w;
    int32_t j;
    for (j = 0; j < 4; ++j) acc[j] = bias != NULL ? bias[co + j] : 0;
    for (r = 0; r < rows; ++r, xr += x_row, wr += run) {
      tgrs_dot4_s8_inline(xr, wr, filter_elems, run, in_zp, acc);
    }
    for (j = 0; j < 4; ++j, multiplier += q_step, shift += q_step) {
      out[co + j] =
          tgrs_requantize_s8_inline(acc[j], *multiplier, *shift, out_zp, act_min, act_max);
    }
  }
  for (; co < c_out; ++co, w += filter_elems, multiplier += q_step, shift += q_step) {
    int32_t acc = bias != NULL ? bias[co] : 0;
    const int8_t* xr = x;
    const int8_t* wr = w;
    for (r = 0; r < rows; ++r, xr += x_row, wr += run) acc = tgrs_dot_s8(xr, wr, run, in_zp, acc);
    out[co] = tgrs_requantize_s8_inline(acc, *multiplier, *shift, out_zp, act_min, act_max);
  }
}

tgrs_kernel_status tgrs_conv2d_s8(const tgrs_conv_params* conv, const tgrs_row_window* window,
                                  const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
                                  const tgrs_dims* input_dims, const int8_t* input,
                                  const tgrs_dims* filter_dims, const int8_t* filter,
                                  const int32_t* bias, const tgrs_dims* output_dims,
                                  int8_t* output) {
  int32_t n, oy, ox, co, ky, kx, ci, q_step, zp_step;
  const int32_t* filter_zp = NULL;
  const tgrs_kernel_status st = check_conv(conv, window, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  q_step = tgrs_pcq_step(pcq, output_dims->c);
  if (q_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  zp_step = tgrs_filter_zp_step(pcq, output_dims->c, &filter_zp);
  if (!tgrs_quant_s8_valid(quant) || zp_step < 0 || input == NULL || filter == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  {
    const int32_t in_w = input_dims->w, c_in = input_dims->c, in_h = input_dims->h;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_w = output_dims->w, c_out = output_dims->c;
    const int32_t out_rows = window->out_row_end - window->out_row_begin;
    const int32_t in_zp = quant->input_zero_point;
    const size_t in_row_elems = (size_t)in_w * (size_t)c_in;
    const int32_t c_group = filter_dims->c; /* input channels per group */
    const int32_t out_per_group = c_out / (c_in / c_group);
    const size_t filter_elems = (size_t)kh * (size_t)kw * (size_t)c_group;
    const int symmetric = pcq->filter_zero_point_count == 0u;
    /* One group, columns not dilated, more than one tap per row: a row of taps is one
     * contiguous run of input channels (NHWC) and of filter bytes. */
    const int whole_rows = c_group == c_in && conv->dilation_w == 1 && kw > 1;
    /* Pixels whose taps are all inside the input go through conv_pixel_s8. */
    const int pixel_path = symmetric && c_group == c_in && conv->dilation_w == 1;
    conv_s8_pixel pixel;
    pixel.filter = filter;
    pixel.filter_elems = filter_elems;
    pixel.x_row = (size_t)conv->dilation_h * in_row_elems;
    pixel.rows = kh;
    pixel.run = kw * c_in;
    pixel.c_out = c_out;
    pixel.q_step = q_step;
    pixel.bias = bias;
    pixel.multiplier = pcq->multiplier;
    pixel.shift = pcq->shift;
    pixel.in_zp = in_zp;
    pixel.out_zp = quant->output_zero_point;
    pixel.act_min = quant->act_min;
    pixel.act_max = quant->act_max;
    for (n = 0; n < output_dims->n; ++n) {
      const int8_t* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;
      int8_t* out_batch = output + (size_t)n * (size_t)out_rows * out_w * c_out;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy0 = oy * conv->stride_h - conv->pad_top;
        int8_t* out_px = out_batch + (size_t)(oy - window->out_row_begin) * out_w * c_out;
        const int rows_inside = iy0 >= 0 && iy0 + (kh - 1) * conv->dilation_h < in_h;
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          const int32_t ix0 = ox * conv->stride_w - conv->pad_left;
          if (pixel_path && rows_inside && ix0 >= 0 && ix0 + kw <= in_w) {
            conv_pixel_s8(
                &pixel,
                in_batch + (size_t)(iy0 - window->in_row_begin) * in_row_elems + (size_t)ix0 * c_in,
                out_px);
            continue;
          }
          co = 0;
          /* Symmetric filters, four output channels of one group at a time: four
           * independent sums the CPU overlaps (int32 wrap-around sums are the same in any
           * order, so the bytes are those of the one-channel loop below). */
          for (; symmetric && co + 4 <= c_out && co / out_per_group == (co + 3) / out_per_group;
               co += 4) {
            const int8_t* w0 = filter + (size_t)co * filter_elems;
            const size_t group_offset = (size_t)(co / out_per_group) * (size_t)c_group;
            int32_t acc[4];
            int32_t j;
            for (j = 0; j < 4; ++j) acc[j] = bias != NULL ? bias[co + j] : 0;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy = iy0 + ky * conv->dilation_h;
              const int8_t* in_row;
              if (iy < 0 || iy >= in_h) continue;
              in_row = in_batch + (size_t)(iy - window->in_row_begin) * in_row_elems;
              if (whole_rows && ix0 >= 0 && ix0 + kw <= in_w) {
                /* The row's kw taps are kw * C_IN contiguous bytes in the input and in
                 * each filter: one dot product (a first layer's 3 x 3 channels: 9). */
                tgrs_dot4_s8(in_row + (size_t)ix0 * c_in, w0 + (size_t)ky * kw * c_group,
                             filter_elems, kw * c_group, in_zp, acc);
                continue;
              }
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix = ix0 + kx * conv->dilation_w;
                const int8_t* x;
                const int8_t* w;
                if (ix < 0 || ix >= in_w) continue;
                x = in_row + (size_t)ix * c_in + group_offset;
                w = w0 + ((size_t)ky * kw + kx) * c_group;
                if (c_group >= 4) {
                  tgrs_dot4_s8(x, w, filter_elems, c_group, in_zp, acc); /* dot_s8.h */
                } else { /* a few channels (a first layer): not worth the call */
                  for (ci = 0; ci < c_group; ++ci) {
                    const int32_t xv = (int32_t)x[ci] - in_zp;
                    acc[0] = tgrs_wrapping_add(acc[0], xv * (int32_t)w[ci]);
                    acc[1] = tgrs_wrapping_add(acc[1], xv * (int32_t)w[filter_elems + ci]);
                    acc[2] = tgrs_wrapping_add(acc[2], xv * (int32_t)w[2 * filter_elems + ci]);
                    acc[3] = tgrs_wrapping_add(acc[3], xv * (int32_t)w[3 * filter_elems + ci]);
                  }
                }
              }
            }
            for (j = 0; j < 4; ++j) {
              out_px[co + j] = tgrs_requantize_s8_inline(
                  acc[j], pcq->multiplier[(co + j) * q_step], pcq->shift[(co + j) * q_step],
                  quant->output_zero_point, quant->act_min, quant->act_max);
            }
          }
          for (; co < c_out; ++co) {
            const int8_t* w_co = filter + (size_t)co * filter_elems;
            const size_t group_offset = (size_t)(co / out_per_group) * (size_t)c_group;
            const int32_t w_zp = filter_zp[co * zp_step];
            int32_t acc = bias != NULL ? bias[co] : 0;
            for (ky = 0; ky < kh; ++ky) {
              const int32_t iy = iy0 + ky * conv->dilation_h;
              const int8_t* in_row;
              if (iy < 0 || iy >= in_h) continue; /* padding row: (zp - zp) * w = 0 */
              in_row = in_batch + (size_t)(iy - window->in_row_begin) * in_row_elems;
              for (kx = 0; kx < kw; ++kx) {
                const int32_t ix = ix0 + kx * conv->dilation_w;
                const int8_t* x;
                const int8_t* w;
                if (ix < 0 || ix >= in_w) continue;
                x = in_row + (size_t)ix * c_in + group_offset;
                w = w_co + ((size_t)ky * kw + kx) * c_group;
                /* Symmetric filters (the common case) keep the inner loop as it was. */
                if (w_zp == 0 && c_group >= 4) {
                  acc = tgrs_dot_s8(x, w, c_group, in_zp, acc); /* dot_s8.h */
                } else if (w_zp == 0) {
                  for (ci = 0; ci < c_group; ++ci) {
                    acc = tgrs_wrapping_add(acc, ((int32_t)x[ci] - in_zp) * (int32_t)w[ci]);
                  }
                } else {
                  for (ci = 0; ci < c_group; ++ci) {
                    acc =
                        tgrs_wrapping_add(acc, ((int32_t)x[ci] - in_zp) * ((int32_t)w[ci] - w_zp));
                  }
                }
              }
            }
            out_px[co] = tgrs_requantize_s8_inline(
                acc, pcq->multiplier[co * q_step], pcq->shift[co * q_step],
                quant->output_zero_point, quant->act_min, quant->act_max);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_conv2d_f32(const tgrs_conv_params* conv, const tgrs_row_window* window,
                                   const tgrs_act_f32* act, const tgrs_dims* input_dims,
                                   const float* input, const tgrs_dims* filter_dims,
                                   const float* filter, const float* bias,
                                   const tgrs_dims* output_dims, float* output) {
  int32_t n, oy, ox, co, ky, kx, ci;
  const tgrs_kernel_status st = check_conv(conv, window, input_dims, filter_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (input == NULL || filter == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  {
    const int32_t in_w = input_dims->w, c_in = input_dims->c, in_h = input_dims->h;
    const int32_t kh = filter_dims->h, kw = filter_dims->w;
    const int32_t out_w = output_dims->w, c_out = output_dims->c;
    const int32_t out_rows = window->out_row_end - window->out_row_begin;
    const size_t in_row_elems = (size_t)in_w * (size_t)c_in;
    const int32_t c_group = filter_dims->c; /* input channels per group */
    const int32_t out_per_group = c_out / (c_in / c_group);
    const size_t filter_elems = (size_t)kh * (size_t)kw * (size_t)c_group;
    for (n = 0; n < output_dims->n; ++n) {
      const float* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;
      float* out_batch = output + (size_t)n * (size_t)out_rows * out_w * c_out;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy0 = oy * conv->stride_h - conv->pad_top;
        float* out_px = out_batch + (size_t)(oy - window->out_row_begin) * out_w * c_out;
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          const int32_t ix0 = ox * conv->stride_w - conv->pad_left;
          co = 0;
          /* Four output channels of one group at a time: four independent sums, each in
           * exactly the order of the one-channel loop below (so the same bits), which the
           * CPU overlaps instead of waiting on one accumulator (the host latency of
           * bench/compare/latency_tigris_ml.py). */
          for (; co + 4 <= c_out && co / out_per_group == (co + 3) / out_per_group; co += 4) {
            const float* w0 = filter + (size_t)co * filter_elems;
            const size_t group_offset = (size_t)(co / out_per_group) * (size_t)c_group;
            float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
            int32_t j;
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
                x = in_row + (size_t)ix * c_in + group_offset;
                w = w0 + ((size_t)ky * kw + kx) * c_group;
                for (ci = 0; ci < c_group; ++ci) {
                  acc0 += x[ci] * w[ci];
                  acc1 += x[ci] * w[filter_elems + ci];
                  acc2 += x[ci] * w[2 * filter_elems + ci];
                  acc3 += x[ci] * w[3 * filter_elems + ci];
                }
              }
            }
            for (j = 0; j < 4; ++j) {
              float acc = j == 0 ? acc0 : j == 1 ? acc1 : j == 2 ? acc2 : acc3;
              if (bias != NULL) acc += bias[co + j];
              if (act != NULL) {
                if (acc < act->min) acc = act->min;
                if (acc > act->max) acc = act->max;
              }
              out_px[co + j] = acc;
            }
          }
          for (; co < c_out; ++co) {
            const float* w_co = filter + (size_t)co * filter_elems;
            const size_t group_offset = (size_t)(co / out_per_group) * (size_t)c_group;
            float acc = 0.0f;
            /* Fixed order (ky, kx, ci), padding taps skipped: depends only on absolute
             * coordinates, so every tiling produces the same bits. */
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
                x = in_row + (size_t)ix * c_in + group_offset;
                w = w_co + ((size_t)ky * kw + kx) * c_group;
                for (ci = 0; ci < c_group; ++ci) acc += x[ci] * w[ci];
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

/* Conv1D = Conv2D on [N, 1, L, C] with a 1-row kernel and the full row window. */
static int conv1d_shape_ok(const tgrs_conv_params* conv, const tgrs_dims* in,
                           const tgrs_dims* filter, const tgrs_dims* out) {
  return conv != NULL && in != NULL && filter != NULL && out != NULL && in->h == 1 &&
         filter->h == 1 && out->h == 1;
}

static tgrs_conv_params conv1d_params(const tgrs_conv_params* conv) {
  tgrs_conv_params p = *conv;
  p.stride_h = 1;
  p.dilation_h = 1;
  p.pad_top = 0;
  return p;
}

tgrs_kernel_status tgrs_conv1d_s8(const tgrs_conv_params* conv, const tgrs_quant_s8* quant,
                                  const tgrs_per_channel_quant* pcq, const tgrs_dims* input_dims,
                                  const int8_t* input, const tgrs_dims* filter_dims,
                                  const int8_t* filter, const int32_t* bias,
                                  const tgrs_dims* output_dims, int8_t* output) {
  tgrs_conv_params p;
  tgrs_row_window window;
  if (!conv1d_shape_ok(conv, input_dims, filter_dims, output_dims)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  p = conv1d_params(conv);
  window = tgrs_row_window_full(1, 1);
  return tgrs_conv2d_s8(&p, &window, quant, pcq, input_dims, input, filter_dims, filter, bias,
                        output_dims, output);
}

tgrs_kernel_status tgrs_conv1d_f32(const tgrs_conv_params* conv, const tgrs_act_f32* act,
                                   const tgrs_dims* input_dims, const float* input,
                                   const tgrs_dims* filter_dims, const float* filter,
                                   const float* bias, const tgrs_dims* output_dims, float* output) {
  tgrs_conv_params p;
  tgrs_row_window window;
  if (!conv1d_shape_ok(conv, input_dims, filter_dims, output_dims)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  p = conv1d_params(conv);
  window = tgrs_row_window_full(1, 1);
  return tgrs_conv2d_f32(&p, &window, act, input_dims, input, filter_dims, filter, bias,
                         output_dims, output);
}
