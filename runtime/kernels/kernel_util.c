/*
 * The kernels' shared argument checks and quantization helpers (kernel_util.h), defined
 * once: inlined, the nine copies of tgrs_dims_valid alone cost 288 bytes of Cortex-M code.
 * They run once per kernel call, or once per value where a kernel quantizes.
 */
#include "kernel_util.h"

int tgrs_dims_valid(const tgrs_dims* d) {
  return d != NULL && d->n > 0 && d->h > 0 && d->w > 0 && d->c > 0;
}

tgrs_kernel_status tgrs_window_bounds(const tgrs_row_window* win, int32_t in_h, int32_t out_h) {
  if (win == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  if (win->in_row_begin < 0 || win->in_rows < 0 || win->in_row_begin > in_h - win->in_rows) {
    return TGRS_KERNEL_BAD_WINDOW;
  }
  if (win->out_row_begin < 0 || win->out_row_end < win->out_row_begin || win->out_row_end > out_h) {
    return TGRS_KERNEL_BAD_WINDOW;
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_window_covers(const tgrs_row_window* win, int32_t in_h, int32_t out_h,
                                      int32_t kernel, int32_t stride, int32_t dilation,
                                      int32_t pad_top) {
  int64_t lo, hi;
  const tgrs_kernel_status st = tgrs_window_bounds(win, in_h, out_h);
  if (st != TGRS_KERNEL_OK) return st;
  if (!tgrs_axis_fits(out_h, kernel, stride, dilation, pad_top)) return TGRS_KERNEL_BAD_ARGUMENT;
  if (win->out_row_end == win->out_row_begin) return TGRS_KERNEL_OK;
  lo = (int64_t)win->out_row_begin * stride - pad_top;
  hi = (int64_t)(win->out_row_end - 1) * stride - pad_top + (int64_t)(kernel - 1) * dilation + 1;
  if (lo < 0) lo = 0;
  if (hi > in_h) hi = in_h;
  if (lo >= hi) return TGRS_KERNEL_OK; /* only padding is read */
  if (lo < win->in_row_begin || hi > (int64_t)win->in_row_begin + win->in_rows) {
    return TGRS_KERNEL_BAD_WINDOW;
  }
  return TGRS_KERNEL_OK;
}

int tgrs_quant_s8_valid(const tgrs_quant_s8* q) {
  return q != NULL && q->input_zero_point >= -128 && q->input_zero_point <= 127 &&
         q->output_zero_point >= -128 && q->output_zero_point <= 127 && q->act_min >= -128 &&
         q->act_max <= 127 && q->act_min <= q->act_max &&
         (q->rounding == TGRS_ROUNDING_ONNX || q->rounding == TGRS_ROUNDING_TFLITE);
}

int32_t tgrs_pcq_step(const tgrs_per_channel_quant* pcq, int32_t channels) {
  uint32_t i;
  if (pcq == NULL || pcq->multiplier == NULL || pcq->shift == NULL || channels < 1) return -1;
  if (pcq->count != 1u && pcq->count != (uint32_t)channels) return -1;
  for (i = 0; i < pcq->count; ++i) {
    if (pcq->shift[i] > 30 || pcq->shift[i] < -31) return -1;
  }
  return pcq->count == 1u ? 0 : 1;
}

int32_t tgrs_filter_zp_step(const tgrs_per_channel_quant* pcq, int32_t channels,
                            const int32_t** zp) {
  static const int32_t kSymmetric = 0;
  uint32_t i;
  const uint32_t count = pcq->filter_zero_point_count;
  if (count == 0u) {
    *zp = &kSymmetric;
    return 0;
  }
  if (pcq->filter_zero_point == NULL || (count != 1u && count != (uint32_t)channels)) return -1;
  for (i = 0; i < count; ++i) {
    if (!tgrs_zero_point_s8_valid(pcq->filter_zero_point[i])) return -1;
  }
  *zp = pcq->filter_zero_point;
  return count == 1u ? 0 : 1;
}

int8_t tgrs_quantize_value_s8(float v, int32_t zero_point) {
  float r;
  int32_t q;
  if (zero_point < -128) zero_point = -128;
  if (zero_point > 127) zero_point = 127;
  if (v != v) return (int8_t)zero_point;
  if (v > 1000.0f) v = 1000.0f; /* beyond int8 reach either way; keeps the cast defined */
  if (v < -1000.0f) v = -1000.0f;
  /* floor(v) as the truncation, one lower when that rounded a negative v up: exact for
   * |v| <= 1000, and no libm floorf (148 bytes on Cortex-M). */
  q = (int32_t)v;
  if ((float)q > v) --q;
  r = (float)q;
  {
    /* Parity of the integer, not fmodf(r, 2): the same test without libm's fmodf (~450
     * bytes on Cortex-M); the unsigned conversion is modular, so odd negatives are odd. */
    const float frac = v - r;
    if (frac > 0.5f || (frac == 0.5f && ((uint32_t)q & 1u) != 0u)) ++q;
  }
  q += zero_point;
  if (q < -128) q = -128;
  if (q > 127) q = 127;
  return (int8_t)q;
}

int tgrs_box_inside(const tgrs_dims* in, const tgrs_pool_box* box) {
  return box->row_begin >= 0 && box->rows >= 1 && box->rows <= in->h - box->row_begin &&
         box->col_begin >= 0 && box->cols >= 1 && box->cols <= in->w - box->col_begin;
}

void tgrs_interior(int32_t begin, int32_t end, int32_t stride, int32_t pad, int32_t k,
                   int32_t dilation, int32_t in, int32_t* lo, int32_t* hi) {
  int32_t at = begin;
  while (at < end && at * stride - pad < 0) ++at;
  *lo = at;
  while (at < end && at * stride - pad + (k - 1) * dilation < in) ++at;
  *hi = at;
}
