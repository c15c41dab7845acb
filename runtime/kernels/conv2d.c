/*
 * 2-D convolution (any number of groups) and Conv1D, int8 and float32. Direct loops, no
 * im2col, so no scratch (analysis/kernel_scratch.cc). Row-windowed: see tgrs_kernels.h.
 * Groups follow from the dims: groups = C_IN / filter C; output channel co reads the input
 * channels of group co / (C_OUT / groups) (ONNX Conv `group`; AlexNet splits in two).
 * int8 with symmetric filters and one group: the pixels whose taps lie inside the input run
 * as one box (conv_box_s8.c), or, for a first layer's short runs of taps, every pixel over
 * its gathered patch (conv_patch_s8.c); the loops here do the border around the box and
 * everything else.
 */
#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "s8_boxes.h"
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
    /* One group, columns not dilated: a row's taps inside the input are one contiguous
     * run of input channels (NHWC) and of filter bytes. */
    const int runs = c_group == c_in && conv->dilation_w == 1;
    /* At most one of the two fast paths per call, so their parameters share the frame (the
     * deepest stack use runs through here: docs/cortex-m.md, "Stack"). */
    union {
      tgrs_conv_s8_box box;
#if TGRS_USE_DSP
      tgrs_conv_s8_patch patch;
#endif
    } fast;
#if TGRS_USE_DSP
    /* Short runs of taps (a first layer: 10 x 4 taps of one channel) and many output
     * channels to share one gathered patch: every pixel through tgrs_conv_patch_s8_,
     * borders included. With few output channels (vww's first layer: 8) the gather costs
     * more than the box saves (measured: 2.50 -> 4.31 M instructions). */
    const int patch_path = symmetric && c_group == c_in && kw * c_in < 16 && c_out >= 32 &&
                           c_out % 4 == 0 && filter_elems % 4 == 0 &&
                           filter_elems <= (size_t)TGRS_CONV_PATCH_MAX;
#else
    const int patch_path = 0;
#endif
    /* Otherwise the interior box (taps all inside the input) goes through
     * tgrs_conv_box_s8_, the border pixels around it through the loops below. */
    const int box_path = !patch_path && symmetric && c_group == c_in && conv->dilation_w == 1;
    int32_t oy_lo = 0, oy_hi = 0, ox_lo = 0, ox_hi = 0;
    if (box_path) {
      tgrs_interior(window->out_row_begin, window->out_row_end, conv->stride_h, conv->pad_top, kh,
                    conv->dilation_h, in_h, &oy_lo, &oy_hi);
      tgrs_interior(0, out_w, conv->stride_w, conv->pad_left, kw, 1, in_w, &ox_lo, &ox_hi);
      fast.box.filter = filter;
      fast.box.filter_elems = filter_elems;
      fast.box.x_row = (size_t)conv->dilation_h * in_row_elems;
      fast.box.x_col = (size_t)conv->stride_w * (size_t)c_in;
      fast.box.x_line = (size_t)conv->stride_h * in_row_elems;
      fast.box.rows = kh;
      fast.box.run = kw * c_in;
      fast.box.c_out = c_out;
      fast.box.ch = tgrs_s8_channels_of(quant, pcq, bias, q_step);
    }
#if TGRS_USE_DSP
    if (patch_path) {
      fast.patch.filter = filter;
      fast.patch.n = (int32_t)filter_elems;
      fast.patch.kh = kh;
      fast.patch.kw = kw;
      fast.patch.c_in = c_in;
      fast.patch.c_out = c_out;
      fast.patch.dilation_h = conv->dilation_h;
      fast.patch.dilation_w = conv->dilation_w;
      fast.patch.in_h = in_h;
      fast.patch.in_w = in_w;
      fast.patch.in_row_begin = window->in_row_begin;
      fast.patch.in_line = in_row_elems;
      fast.patch.ch = tgrs_s8_channels_of(quant, pcq, bias, q_step);
    }
#endif
    for (n = 0; n < output_dims->n; ++n) {
      const int8_t* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;
      int8_t* out_batch = output + (size_t)n * (size_t)out_rows * out_w * c_out;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy0 = oy * conv->stride_h - conv->pad_top;
        int8_t* out_px = out_batch + (size_t)(oy - window->out_row_begin) * out_w * c_out;
        const int line_inside = oy >= oy_lo && oy < oy_hi;
        for (ox = 0; ox < out_w; ++ox, out_px += c_out) {
          const int32_t ix0 = ox * conv->stride_w - conv->pad_left;
          int32_t kx0 = 0, kx1 = kw; /* the taps inside the input along the row */
#if TGRS_USE_DSP
          if (patch_path) {
            tgrs_conv_patch_s8_(&fast.patch, in_batch, iy0, ix0, out_px);
            continue;
          }
#endif
          while (kx0 < kw && ix0 + kx0 < 0) ++kx0;
          while (kx1 > kx0 && ix0 + kx1 - 1 >= in_w) --kx1;
          if (line_inside && ox == ox_lo && ox_hi > ox_lo) { /* tgrs_conv_box_s8_'s, below */
            out_px += (size_t)(ox_hi - 1 - ox_lo) * c_out;
            ox = ox_hi - 1;
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
              if (runs) {
                /* The row's taps inside the input, [kx0, kx1), are (kx1 - kx0) * C_IN
                 * contiguous bytes in the input and in each filter: one dot product. */
                if (kx1 > kx0) {
                  tgrs_dot4_s8(in_row + (size_t)(ix0 + kx0) * c_in,
                               w0 + ((size_t)ky * kw + kx0) * c_group, filter_elems,
                               (kx1 - kx0) * c_group, in_zp, acc);
                }
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
              out_px[co + j] =
                  tgrs_requantize_s8_as(quant->rounding, acc[j], pcq->multiplier[(co + j) * q_step],
                                        pcq->shift[(co + j) * q_step], quant->output_zero_point,
                                        quant->act_min, quant->act_max);
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
            out_px[co] = tgrs_requantize_s8_as(quant->rounding, acc, pcq->multiplier[co * q_step],
                                               pcq->shift[co * q_step], quant->output_zero_point,
                                               quant->act_min, quant->act_max);
          }
        }
      }
      if (oy_hi > oy_lo && ox_hi > ox_lo) {
        tgrs_conv_box_s8_(
            &fast.box,
            in_batch +
                (size_t)(oy_lo * conv->stride_h - conv->pad_top - window->in_row_begin) *
                    in_row_elems +
                (size_t)(ox_lo * conv->stride_w - conv->pad_left) * c_in,
            out_batch + ((size_t)(oy_lo - window->out_row_begin) * out_w + ox_lo) * c_out,
            (size_t)out_w * c_out, oy_hi - oy_lo, ox_hi - ox_lo);
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
