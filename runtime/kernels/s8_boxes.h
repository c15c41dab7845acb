/*
 * s8_boxes.h: the int8 convolution inner loops that run most of an int8 model's
 * instructions (issue 40, docs/cortex-m.md "Speed"), internal to the kernels. They live in
 * files of their own (conv_box_s8.c, depthwise_box_s8.c, conv_patch_s8.c) so that the
 * build can compile just the first two with -O2 (cmake/TigrisRuntime.cmake,
 * TIGRIS_RUNTIME_HOT_SOURCES): at -Os GCC spills their sums and pointers to the stack inside
 * the innermost loop, while -O2 on the whole kernel files made the float32 kernels slower.
 * The callers (conv2d.c, depthwise_conv2d.c) decide where they apply and fill the structs
 * once per call.
 */
#ifndef TGRS_KERNELS_S8_BOXES_H_
#define TGRS_KERNELS_S8_BOXES_H_

#include <stddef.h>
#include <stdint.h>

#include "dot_s8.h" /* TGRS_USE_DSP */
#include "tgrs_kernels.h"

/* Each output channel's bias and requantization, and the zero points and activation range,
 * as a convolution call has them (channel c at bias[c], multiplier[c * q_step]). */
typedef struct tgrs_s8_channels {
  const int32_t* bias; /* NULL: no bias */
  const int32_t* multiplier;
  const int8_t* shift;
  int32_t q_step, in_zp, out_zp, act_min, act_max;
  int32_t rounding; /* tgrs_rounding */
} tgrs_s8_channels;

static inline tgrs_s8_channels tgrs_s8_channels_of(const tgrs_quant_s8* quant,
                                                   const tgrs_per_channel_quant* pcq,
                                                   const int32_t* bias, int32_t q_step) {
  tgrs_s8_channels ch;
  ch.bias = bias;
  ch.multiplier = pcq->multiplier;
  ch.shift = pcq->shift;
  ch.q_step = q_step;
  ch.in_zp = quant->input_zero_point;
  ch.out_zp = quant->output_zero_point;
  ch.act_min = quant->act_min;
  ch.act_max = quant->act_max;
  ch.rounding = quant->rounding;
  return ch;
}

/* An int8 convolution's interior: the output box whose pixels' taps all lie inside the
 * input, with symmetric filters, one group and undilated columns. Each output channel's
 * filter is then `rows` runs of `run` contiguous bytes (a run is a row of kw taps x C_IN
 * channels), matched by runs `x_row` bytes apart in the input. */
typedef struct tgrs_conv_s8_box {
  const int8_t* filter;
  size_t filter_elems; /* bytes per output channel's filter: rows * run */
  size_t x_row;        /* input bytes between runs */
  size_t x_col;        /* input bytes between neighbouring output pixels (stride_w * C_IN) */
  size_t x_line;       /* input bytes between output rows (stride_h input rows) */
  int32_t rows, run, c_out;
  tgrs_s8_channels ch;
} tgrs_conv_s8_box;

/* The box's `lines` x `cols` output pixels of an int8 convolution, from x (the first
 * pixel's first tap) to out, `out_line` bytes between output rows (conv_box_s8.c). */
void tgrs_conv_box_s8_(const tgrs_conv_s8_box* p, const int8_t* x, int8_t* out, size_t out_line,
                       int32_t lines, int32_t cols);

#if TGRS_USE_DSP
/* A convolution whose patch (kh x kw x C_IN taps, one group, symmetric filters) has at most
 * TGRS_CONV_PATCH_MAX elements, a multiple of 4, and whose output channels are a multiple
 * of 4: a first layer such as the keyword-spotting DS-CNN's (10 x 4 x 1, 64 channels). Per output
 * pixel its taps are gathered once, as x - zp in int16 lanes on the stack (padding 0), and every
 * output channel's filter row runs over them: one widening per input byte for all channels, and no
 * zero-point arithmetic in the inner loop. */
enum { TGRS_CONV_PATCH_MAX = 64 };
typedef struct tgrs_conv_s8_patch {
  const int8_t* filter;
  int32_t n; /* kh * kw * C_IN */
  int32_t kh, kw, c_in, c_out, dilation_h, dilation_w, in_h, in_w, in_row_begin;
  size_t in_line; /* input bytes per input row */
  tgrs_s8_channels ch;
} tgrs_conv_s8_patch;

/* All output channels of the pixel whose first tap is at (iy0, ix0) (may be outside the
 * input), `in` the window's first input row (conv_patch_s8.c). */
void tgrs_conv_patch_s8_(const tgrs_conv_s8_patch* p, const int8_t* in, int32_t iy0, int32_t ix0,
                         int8_t* out);

/* What every output pixel of one int8 depthwise call shares (symmetric filters, one filter
 * per channel), fixed before its loops. */
typedef struct tgrs_depthwise_s8_pixel {
  size_t x_row, w_row;  /* bytes between tap rows, in the input and the filter */
  size_t step;          /* bytes between taps in a row: C in both (no dilation, no groups) */
  size_t x_col, x_line; /* input bytes between output pixels, and between output rows */
  int32_t c_out;
  tgrs_s8_channels ch;
} tgrs_depthwise_s8_pixel;

/* One output pixel of an int8 depthwise convolution over its rows x cols taps inside the
 * input (depthwise_box_s8.c); returns the channels done, a multiple of 4. */
int32_t tgrs_depthwise_pixel_s8_(const tgrs_depthwise_s8_pixel* p, const int8_t* x, const int8_t* w,
                                 int32_t rows, int32_t cols, int8_t* out);
/* The interior box of an int8 depthwise convolution (depthwise_box_s8.c); returns the
 * channels done, a multiple of 4. */
int32_t tgrs_depthwise_box_s8_(const tgrs_depthwise_s8_pixel* p, const int8_t* x, const int8_t* w,
                               int32_t kh, int32_t kw, int8_t* out, size_t out_line, int32_t lines,
                               int32_t cols);
#endif

#endif /* TGRS_KERNELS_S8_BOXES_H_ */
