/*
 * conv_box_s8.c: the interior of an int8 convolution, channels outer, the input zero point
 * folded into the bias (s8_boxes.h says why this file is apart).
 */
#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "s8_boxes.h"

/* The filter sums of four output channels (mod 2^32): with the DSP extension four bytes per
 * step, each pair of int16 lanes multiplied by one and added (SMLAD). */
static void filter_sums4(const int8_t* w, size_t filter_elems, uint32_t sums[4]) {
  int j;
  for (j = 0; j < 4; ++j, w += filter_elems) {
    size_t i = 0;
    uint32_t sum = 0;
#if TGRS_USE_DSP
    int32_t simd = 0;
    for (; i + 4 <= filter_elems; i += 4) {
      const uint32_t wv = tgrs_load4(w + i);
      simd = tgrs_smlad(tgrs_sxtb16(wv), 0x00010001u, simd);
      simd = tgrs_smlad(tgrs_sxtb16_ror8(wv), 0x00010001u, simd);
    }
    sum = (uint32_t)simd;
#endif
    for (; i < filter_elems; ++i) sum += (uint32_t)(int32_t)w[i];
    sums[j] = sum;
  }
}

/* The box's `lines` x `cols` output pixels, from x (the first pixel's first tap) to out,
 * four output channels at a time and every pixel of the box for each four. Per channel
 *     sum (x - zp) * w + bias  =  sum x * w + (bias - zp * sum w)      (mod 2^32),
 * so the input zero point is folded into the bias once per channel and call, and the
 * inner loop (tgrs_dot4_raw_s8) multiplies the input bytes as they are. int32 sums wrap in
 * both forms alike: the same bytes as the tap-by-tap loop of tgrs_conv2d_s8. The fields
 * are copied to locals: the int8 output stores may alias anything, so a field read through
 * p would be read again after every store. */
void tgrs_conv_box_s8_(const tgrs_conv_s8_box* p, const int8_t* x, int8_t* out, size_t out_line,
                       int32_t lines, int32_t cols) {
  const int8_t* w = p->filter;
  const size_t filter_elems = p->filter_elems, x_row = p->x_row, x_col = p->x_col;
  const size_t x_line = p->x_line;
  const int32_t rows = p->rows, run = p->run, c_out = p->c_out, q_step = p->ch.q_step;
  const int32_t in_zp = p->ch.in_zp, out_zp = p->ch.out_zp, act_min = p->ch.act_min;
  const int32_t act_max = p->ch.act_max;
  const int32_t* bias = p->ch.bias;
  const int32_t* multiplier = p->ch.multiplier;
  const int8_t* shift = p->ch.shift;
  int32_t co, line, col, r, j;
  for (co = 0; co + 4 <= c_out; co += 4, w += 4 * filter_elems) {
    uint32_t sums[4];
    int32_t folded[4];
    tgrs_requant_ch rq[4];
    filter_sums4(w, filter_elems, sums);
    for (j = 0; j < 4; ++j) {
      const uint32_t b = bias != NULL ? (uint32_t)bias[co + j] : 0u;
      folded[j] = (int32_t)(b - (uint32_t)in_zp * sums[j]);
      rq[j] = tgrs_requant_prepare(multiplier[(co + j) * q_step], shift[(co + j) * q_step],
                                   p->ch.rounding);
    }
    for (line = 0; line < lines; ++line) {
      const int8_t* xp = x + (size_t)line * x_line;
      int8_t* op = out + (size_t)line * out_line + co;
      for (col = 0; col < cols; ++col, xp += x_col, op += c_out) {
        int32_t acc[4];
        const int8_t* xr = xp;
        const int8_t* wr = w;
        acc[0] = folded[0];
        acc[1] = folded[1];
        acc[2] = folded[2];
        acc[3] = folded[3];
        for (r = 0; r < rows; ++r, xr += x_row, wr += run) {
          tgrs_dot4_raw_s8(xr, wr, filter_elems, run, acc);
        }
        for (j = 0; j < 4; ++j) {
          op[j] = tgrs_requantize_s8_ch(acc[j], &rq[j], out_zp, act_min, act_max);
        }
      }
    }
  }
  for (; co < c_out; ++co, w += filter_elems) {
    const int32_t m0 = multiplier[co * q_step], sh0 = shift[co * q_step];
    for (line = 0; line < lines; ++line) {
      const int8_t* xp = x + (size_t)line * x_line;
      int8_t* op = out + (size_t)line * out_line + co;
      for (col = 0; col < cols; ++col, xp += x_col, op += c_out) {
        int32_t acc = bias != NULL ? bias[co] : 0;
        const int8_t* xr = xp;
        const int8_t* wr = w;
        for (r = 0; r < rows; ++r, xr += x_row, wr += run) {
          acc = tgrs_dot_s8(xr, wr, run, in_zp, acc);
        }
        *op = tgrs_requantize_s8_as(p->ch.rounding, acc, m0, sh0, out_zp, act_min, act_max);
      }
    }
  }
}
