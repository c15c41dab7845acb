/*
 * depthwise_box_s8.c: an int8 depthwise convolution on the DSP extension, four channels per
 * tap word: its border pixel by pixel, its interior channels outer with the input zero point
 * folded into the bias (s8_boxes.h says why this file is apart). Without the DSP extension
 * (TGRS_USE_DSP 0) it is empty and depthwise_conv2d.c's portable loops do all.
 */
#include "dot_s8.h" /* TGRS_USE_DSP */
#include "dsp_ops.h"
#include "kernel_util.h"
#include "requantize.h"
#include "s8_boxes.h"

#if TGRS_USE_DSP

/* Four channels' sums over `rows` rows of taps, `row_bytes` (taps x C) each, from x and w:
 * a tap's four input and four filter bytes are one word each; SXTB16 widens channels 0 and
 * 2 (and, rotated, 1 and 3) into int16 lanes, SSUB16 takes the zero point off both (when
 * `subtract_zp`; a constant where it is inlined, so the folded form has no SSUB16), and
 * SMLABB / SMLATT add each lane's product to its own channel's sum (dsp_ops.h). The
 * reference's products, in its (ky, kx) order. One step for both (a tap is `step` bytes
 * from the next in the input and the filter alike) and the end as a pointer: 13 values
 * live in the loop. */
static TGRS_ALWAYS_INLINE void taps4(const int8_t* x, const int8_t* w, int32_t rows,
                                     size_t row_bytes, size_t x_row, size_t w_row, size_t step,
                                     int subtract_zp, uint32_t zp_pair, int32_t a[4]) {
  int32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
  for (; rows > 0; --rows, x += x_row, w += w_row) {
    const int8_t* xp = x;
    const int8_t* wp = w;
    const int8_t* const x_end = x + row_bytes;
    for (; xp != x_end; xp += step, wp += step) {
      const uint32_t xv = tgrs_load4(xp), wv = tgrs_load4(wp);
      uint32_t x02 = tgrs_sxtb16(xv), x13 = tgrs_sxtb16_ror8(xv);
      uint32_t wl = tgrs_sxtb16(wv);
      if (subtract_zp) {
        x02 = tgrs_ssub16(x02, zp_pair);
        x13 = tgrs_ssub16(x13, zp_pair);
      }
      a0 = tgrs_smlabb(x02, wl, a0);
      a2 = tgrs_smlatt(x02, wl, a2);
      wl = tgrs_sxtb16_ror8(wv);
      a1 = tgrs_smlabb(x13, wl, a1);
      a3 = tgrs_smlatt(x13, wl, a3);
    }
  }
  a[0] = a0;
  a[1] = a1;
  a[2] = a2;
  a[3] = a3;
}

/* All channels of one output pixel over its rows x cols taps inside the input, the first at
 * x (input) and w (filter), four channels per step: a tap's four input and four filter
 * bytes are one word each; SXTB16 widens channels 0 and 2 (and, rotated, 1 and 3) into
 * int16 lanes, SSUB16 takes the zero point off both, and SMLABB / SMLATT add each lane's
 * product to its own channel's sum (dsp_ops.h): the reference's products, in its (ky, kx)
 * order, so the same bytes. The channels left over (C % 4) return to the caller's loop. A
 * function of its own, with every field in a local, so the sums stay in registers. */
int32_t tgrs_depthwise_pixel_s8_(const tgrs_depthwise_s8_pixel* p, const int8_t* x, const int8_t* w,
                                 int32_t rows, int32_t cols, int8_t* out) {
  const size_t x_row = p->x_row, w_row = p->w_row, step = p->step;
  const size_t row_bytes = (size_t)cols * step;
  const int32_t c_out = p->c_out, q_step = p->ch.q_step, in_zp = p->ch.in_zp;
  const int32_t out_zp = p->ch.out_zp, act_min = p->ch.act_min, act_max = p->ch.act_max;
  const int32_t* bias = p->ch.bias;
  const int32_t* multiplier = p->ch.multiplier;
  const int8_t* shift = p->ch.shift;
  const uint32_t zp_pair = tgrs_zp_pair(in_zp);
  int32_t c;
  for (c = 0; c + 4 <= c_out; c += 4, x += 4, w += 4) {
    int32_t a[4] = {0, 0, 0, 0};
    if (bias != NULL) {
      a[0] = bias[c];
      a[1] = bias[c + 1];
      a[2] = bias[c + 2];
      a[3] = bias[c + 3];
    }
    taps4(x, w, rows, row_bytes, x_row, w_row, step, 1, zp_pair, a);
    /* Unrolled: as a loop GCC kept the four sums in memory (0.3 M more on vww). */
    out[c] = tgrs_requantize_s8_as(p->ch.rounding, a[0], multiplier[0], shift[0], out_zp, act_min,
                                   act_max);
    out[c + 1] = tgrs_requantize_s8_as(p->ch.rounding, a[1], multiplier[q_step], shift[q_step],
                                       out_zp, act_min, act_max);
    out[c + 2] = tgrs_requantize_s8_as(p->ch.rounding, a[2], multiplier[2 * q_step],
                                       shift[2 * q_step], out_zp, act_min, act_max);
    out[c + 3] = tgrs_requantize_s8_as(p->ch.rounding, a[3], multiplier[3 * q_step],
                                       shift[3 * q_step], out_zp, act_min, act_max);
    multiplier += 4 * q_step;
    shift += 4 * q_step;
  }
  return c;
}

/* An interior box of output pixels (`lines` x `cols`, every tap inside the input) from x (the
 * first pixel's first tap) to out, four channels at a time and every pixel of the box for
 * each four: per channel, sum (x - zp) * w + bias = sum x * w + (bias - zp * sum w) (mod
 * 2^32), so the zero point is folded into the bias once per channel and the taps multiply
 * the input bytes as they are, two fewer instructions and one register fewer per tap than
 * depthwise_pixel_s8. The same bytes: int32 sums wrap alike in both forms. Returns the
 * channels done (a multiple of 4); the rest are the caller's. */
int32_t tgrs_depthwise_box_s8_(const tgrs_depthwise_s8_pixel* p, const int8_t* x, const int8_t* w,
                               int32_t kh, int32_t kw, int8_t* out, size_t out_line, int32_t lines,
                               int32_t cols) {
  const size_t x_row = p->x_row, w_row = p->w_row, step = p->step;
  const size_t x_col = p->x_col, x_line = p->x_line;
  const size_t row_bytes = (size_t)kw * step;
  const int32_t c_out = p->c_out, q_step = p->ch.q_step, in_zp = p->ch.in_zp;
  const int32_t out_zp = p->ch.out_zp, act_min = p->ch.act_min, act_max = p->ch.act_max;
  const int32_t* bias = p->ch.bias;
  const int32_t* multiplier = p->ch.multiplier;
  const int8_t* shift = p->ch.shift;
  int32_t c, j;
  for (c = 0; c + 4 <= c_out; c += 4, x += 4, w += 4) {
    int32_t folded[4], line, col, r;
    tgrs_requant_ch rq[4];
    for (j = 0; j < 4; ++j) {
      uint32_t sum = 0;
      const int8_t* wr = w + j;
      for (r = 0; r < kh * kw; ++r, wr += step) sum += (uint32_t)(int32_t)*wr;
      folded[j] = (int32_t)((bias != NULL ? (uint32_t)bias[c + j] : 0u) - (uint32_t)in_zp * sum);
      rq[j] = tgrs_requant_prepare(multiplier[(c + j) * q_step], shift[(c + j) * q_step],
                                   p->ch.rounding);
    }
    for (line = 0; line < lines; ++line) {
      const int8_t* xl = x + (size_t)line * x_line;
      int8_t* op = out + (size_t)line * out_line + c;
      for (col = 0; col < cols; ++col, xl += x_col, op += c_out) {
        int32_t a[4];
        for (j = 0; j < 4; ++j) a[j] = folded[j];
        taps4(xl, w, kh, row_bytes, x_row, w_row, step, 0, 0u, a);
        for (j = 0; j < 4; ++j)
          op[j] = tgrs_requantize_s8_ch(a[j], &rq[j], out_zp, act_min, act_max);
      }
    }
  }
  return c;
}
#else
typedef int tgrs_depthwise_box_s8_unused_; /* ISO C: a translation unit is not empty */
#endif
