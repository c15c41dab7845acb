/*
 * ONNX multidirectional broadcasting in the kernels' [N, H, W, C] (internal): shapes are
 * right-aligned into four dims, and a broadcast (size-1) dim gets stride 0, so one loop nest
 * serves same-shape, scalar, per-channel and general operands. Shared by the arithmetic
 * (elementwise.c) and the logic kernels (logical.c).
 */
#ifndef TGRS_KERNELS_BROADCAST_H_
#define TGRS_KERNELS_BROADCAST_H_

#include <stddef.h>
#include <stdint.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

typedef struct tgrs_strides4 {
  size_t n, h, w, c;
} tgrs_strides4;

/* Strides of `d` read as `out`'s shape: 0 along broadcast (size-1) dimensions. */
static inline tgrs_strides4 tgrs_broadcast_strides(const tgrs_dims* d, const tgrs_dims* out) {
  tgrs_strides4 s;
  s.c = (d->c == 1 && out->c != 1) ? 0 : 1;
  s.w = (d->w == 1 && out->w != 1) ? 0 : (size_t)d->c;
  s.h = (d->h == 1 && out->h != 1) ? 0 : (size_t)d->w * d->c;
  s.n = (d->n == 1 && out->n != 1) ? 0 : (size_t)d->h * d->w * d->c;
  return s;
}

/* Whether `d` is valid and broadcasts to `out` (each dim equal or 1). */
static inline int tgrs_broadcasts_to(const tgrs_dims* d, const tgrs_dims* out) {
  return tgrs_dims_valid(d) && (d->n == out->n || d->n == 1) && (d->h == out->h || d->h == 1) &&
         (d->w == out->w || d->w == 1) && (d->c == out->c || d->c == 1);
}

/* out[i] = EXPR(x, y), x of type TA from `a` and y of type TB from `b` the broadcast operands
 * of output element i; the caller names a_dims, a, b_dims, b, output_dims and output. */
#define TGRS_BROADCAST2_LOOP(TA, TB, EXPR)                                     \
  do {                                                                         \
    const tgrs_strides4 sa_ = tgrs_broadcast_strides(a_dims, output_dims);     \
    const tgrs_strides4 sb_ = tgrs_broadcast_strides(b_dims, output_dims);     \
    int32_t n_, h_, w_, c_;                                                    \
    for (n_ = 0; n_ < output_dims->n; ++n_) {                                  \
      for (h_ = 0; h_ < output_dims->h; ++h_) {                                \
        for (w_ = 0; w_ < output_dims->w; ++w_) {                              \
          const TA* pa_ = (const TA*)a + n_ * sa_.n + h_ * sa_.h + w_ * sa_.w; \
          const TB* pb_ = (const TB*)b + n_ * sb_.n + h_ * sb_.h + w_ * sb_.w; \
          for (c_ = 0; c_ < output_dims->c; ++c_, ++output) {                  \
            const TA x = pa_[c_ * sa_.c];                                      \
            const TB y = pb_[c_ * sb_.c];                                      \
            *output = EXPR;                                                    \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  } while (0)

#endif /* TGRS_KERNELS_BROADCAST_H_ */
