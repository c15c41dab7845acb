/*
 * conv_patch_s8.c: an int8 convolution pixel by pixel over its gathered patch, on the DSP
 * extension (s8_boxes.h, tgrs_conv_s8_patch). At -Os like the rest of the runtime: -O2 saved
 * 1% on the keyword-spotting model for 180 bytes more, and every firmware with a
 * convolution links it (TFLM's person-detection .text is the tightest budget).
 */
#include <string.h>

#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "s8_boxes.h"
#if TGRS_USE_DSP
/* The patch's element i (filter order: ky, kx, channel) at its slot: in each block of four,
 * elements 0 and 2 first, then 1 and 3, the order SXTB16 and its rotated form widen a
 * filter word into. */
static int32_t patch_slot(int32_t i) {
  static const int8_t kLane[4] = {0, 2, 1, 3};
  return (i & ~3) + kLane[i & 3];
}

void tgrs_conv_patch_s8_(const tgrs_conv_s8_patch* p, const int8_t* in, int32_t iy0, int32_t ix0,
                         int8_t* out) {
  int16_t e[TGRS_CONV_PATCH_MAX]; /* the patch, read two int16 lanes per word */
  const int32_t n = p->n, c_in = p->c_in, c_out = p->c_out;
  const int32_t q_step = p->ch.q_step, out_zp = p->ch.out_zp;
  const int32_t act_min = p->ch.act_min, act_max = p->ch.act_max;
  const int32_t* bias = p->ch.bias;
  const int32_t* multiplier = p->ch.multiplier;
  const int8_t* shift = p->ch.shift;
  const int8_t* w = p->filter;
  int32_t ky, kx, ci, i = 0, co;
  /* Gather: x - zp inside the input, 0 for padding (a padded tap adds nothing). */
  for (ky = 0; ky < p->kh; ++ky) {
    const int32_t iy = iy0 + ky * p->dilation_h;
    const int row_inside = iy >= 0 && iy < p->in_h;
    const int8_t* row = in + (size_t)(iy - p->in_row_begin) * p->in_line;
    for (kx = 0; kx < p->kw; ++kx) {
      const int32_t ix = ix0 + kx * p->dilation_w;
      const int inside = row_inside && ix >= 0 && ix < p->in_w;
      for (ci = 0; ci < c_in; ++ci, ++i) {
        e[patch_slot(i)] =
            (int16_t)(inside ? (int32_t)row[(size_t)ix * c_in + ci] - p->ch.in_zp : 0);
      }
    }
  }
  /* Four output channels per pass over the patch: per block of four, two patch words and
   * per filter row one word widened twice, two SMLADs. */
  for (co = 0; co + 4 <= c_out; co += 4, w += 4 * (size_t)n) {
    const int8_t* w1 = w + n;
    const int8_t* w2 = w1 + n;
    const int8_t* w3 = w2 + n;
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b;
    if (bias != NULL) {
      a0 = bias[co];
      a1 = bias[co + 1];
      a2 = bias[co + 2];
      a3 = bias[co + 3];
    }
    for (b = 0; b < n; b += 4) {
      uint32_t x02, x13, wv;
      memcpy(&x02, e + b, sizeof x02);
      memcpy(&x13, e + b + 2, sizeof x13);
      wv = tgrs_load4(w + b);
      a0 = tgrs_smlad4_s8(x02, x13, wv, a0);
      wv = tgrs_load4(w1 + b);
      a1 = tgrs_smlad4_s8(x02, x13, wv, a1);
      wv = tgrs_load4(w2 + b);
      a2 = tgrs_smlad4_s8(x02, x13, wv, a2);
      wv = tgrs_load4(w3 + b);
      a3 = tgrs_smlad4_s8(x02, x13, wv, a3);
    }
    out[co] = tgrs_requantize_s8_as(p->ch.rounding, a0, multiplier[0], shift[0], out_zp, act_min,
                                    act_max);
    out[co + 1] = tgrs_requantize_s8_as(p->ch.rounding, a1, multiplier[q_step], shift[q_step],
                                        out_zp, act_min, act_max);
    out[co + 2] = tgrs_requantize_s8_as(p->ch.rounding, a2, multiplier[2 * q_step],
                                        shift[2 * q_step], out_zp, act_min, act_max);
    out[co + 3] = tgrs_requantize_s8_as(p->ch.rounding, a3, multiplier[3 * q_step],
                                        shift[3 * q_step], out_zp, act_min, act_max);
    multiplier += 4 * q_step;
    shift += 4 * q_step;
  }
}
#else
typedef int tgrs_conv_patch_s8_unused_; /* ISO C: a translation unit is not empty */
#endif
