/*
 * Helpers shared by the kernels (internal): argument checks and row-window coverage.
 */
#ifndef TGRS_KERNELS_KERNEL_UTIL_H_
#define TGRS_KERNELS_KERNEL_UTIL_H_

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "tgrs_kernels.h"

/* For a few lines in an inner loop that -Os would otherwise call (with six arguments, two
 * on the stack: more instructions than the body). */
/* And the other way: a small leaf loop kept a function of its own, so that it holds its
 * pointers and steps in registers rather than share them with the loops around it. */
#if defined(__GNUC__) || defined(__clang__)
#define TGRS_ALWAYS_INLINE inline __attribute__((always_inline))
#define TGRS_NOINLINE __attribute__((noinline))
#else
#define TGRS_ALWAYS_INLINE inline
#define TGRS_NOINLINE
#endif

int tgrs_dims_valid(const tgrs_dims* d);

/* The output positions [*lo, *hi) within [begin, end) whose taps all lie inside [0, in):
 * pos * stride - pad >= 0 and pos * stride - pad + (k - 1) * dilation < in (a convolution's
 * interior, along one axis). */
void tgrs_interior(int32_t begin, int32_t end, int32_t stride, int32_t pad, int32_t k,
                   int32_t dilation, int32_t in, int32_t* lo, int32_t* hi);

/* Banded reductions (global pools, a Gemm over a map; tgrs_kernels.h): whether `box` lies
 * inside the rows and columns of `in` with at least one of each, and whether it is the first
 * box (it starts the accumulators) or the last (it writes the output). */
int tgrs_box_inside(const tgrs_dims* in, const tgrs_pool_box* box);
static inline int tgrs_box_first(const tgrs_pool_box* box) {
  return box->row_begin == 0 && box->col_begin == 0;
}
static inline int tgrs_box_last(const tgrs_dims* in, const tgrs_pool_box* box) {
  return box->row_begin + box->rows == in->h && box->col_begin + box->cols == in->w;
}

static inline size_t tgrs_dims_count(const tgrs_dims* d) {
  return (size_t)d->n * (size_t)d->h * (size_t)d->w * (size_t)d->c;
}

/* Checks a row window against the tensors' full heights. */
tgrs_kernel_status tgrs_window_bounds(const tgrs_row_window* win, int32_t in_h, int32_t out_h);

/* Whether the coordinates a sliding window computes in int32 along one axis,
 * o * stride - pad + k * dilation for o < out and k < kernel, stay in int32 (kernel, stride
 * and dilation >= 1, pad >= 0). A plan may declare any geometry its verifier lets through;
 * a stride of 2^30 made o * stride overflow (found by fuzz_plan, fuzz/regressions/plan). */
static inline int tgrs_axis_fits(int32_t out, int32_t kernel, int32_t stride, int32_t dilation,
                                 int32_t pad) {
  const int64_t last = out > 0 ? (int64_t)out - 1 : 0;
  return pad >= 0 && last * stride + (int64_t)(kernel - 1) * dilation <= INT32_MAX;
}

/* Checks that the input buffer of `win` holds every real row that output rows
 * [out_row_begin, out_row_end) read through a (kernel, stride, dilation, pad_top) window:
 * [a * stride - pad_top, (b - 1) * stride - pad_top + (kernel - 1) * dilation + 1) clipped
 * to [0, in_h) (plan/tile_plan.h, TileRows). */
tgrs_kernel_status tgrs_window_covers(const tgrs_row_window* win, int32_t in_h, int32_t out_h,
                                      int32_t kernel, int32_t stride, int32_t dilation,
                                      int32_t pad_top);

static inline int tgrs_conv_params_valid(const tgrs_conv_params* p) {
  return p != NULL && p->stride_h >= 1 && p->stride_w >= 1 && p->dilation_h >= 1 &&
         p->dilation_w >= 1 && p->pad_top >= 0 && p->pad_left >= 0;
}

/* acc + term with two's complement wrap-around, what the hardware's add does. The int8
 * kernels' terms are products of two int8 differences (|term| <= 255 * 255, the zero points
 * being checked to lie in int8), so only a plan made to overflow reaches the wrap: a bias
 * near INT32_MIN, or a dot product of more than 33,000 terms. Signed overflow would be
 * undefined behaviour, which a compiler may assume never happens (found by fuzz_plan,
 * fuzz/regressions/plan). Converting the sum back to int32 is implementation-defined in C99;
 * every compiler the runtime is built with wraps. */
static inline int32_t tgrs_wrapping_add(int32_t acc, int32_t term) {
  return (int32_t)((uint32_t)acc + (uint32_t)term);
}

/* An int8 zero point: the differences (x - zp) the kernels multiply then fit in 9 bits. */
static inline int tgrs_zero_point_s8_valid(int32_t zp) { return zp >= -128 && zp <= 127; }

int tgrs_quant_s8_valid(const tgrs_quant_s8* q);

/* Checks a per-channel quant for `channels` output channels and returns the step that
 * indexes it: 1 when it holds one pair per channel, 0 when its single pair serves every
 * channel, so kernels read multiplier[c * step] with no branch in the inner loop. Returns -1
 * (the caller's TGRS_KERNEL_BAD_ARGUMENT) for NULL arrays, a count that is neither 1 nor
 * `channels`, or a shift outside [-31, 30]: tgrs_quantize_multiplier and the emitter never
 * produce one, and requantize.h shifts by 31 - shift, which must stay in [1, 62]. */
int32_t tgrs_pcq_step(const tgrs_per_channel_quant* pcq, int32_t channels);

/* The filter zero points of `pcq` for `channels` output channels: *zp points at them and
 * the result is the step between channels (0: one entry for all; a symmetric filter reads
 * a shared 0). -1 (the caller's TGRS_KERNEL_BAD_ARGUMENT) for a count that is neither 0, 1
 * nor `channels`, a NULL array with a count, or a zero point outside int8 (w - zp must stay
 * within [-255, 255] so that every product fits the int32 accumulator's arithmetic). */
int32_t tgrs_filter_zp_step(const tgrs_per_channel_quant* pcq, int32_t channels,
                            const int32_t** zp);

/* ONNX QuantizeLinear: saturate(round_half_even(v) + zero_point) to int8. Rounding is done
 * explicitly (not rintf) so it never depends on the FPU rounding mode; v - floorf(v) is
 * exact for every float. NaN maps to the zero point. A zero point is an int8 value (the
 * plan verifier holds every plan's there); one a kernel caller passes from outside int8 is
 * saturated to int8 first, which keeps q + zero_point defined (a zero point near INT32_MAX
 * overflowed it: found by fuzz_plan_fields) without 64-bit conversions on the target. */
int8_t tgrs_quantize_value_s8(float v, int32_t zero_point);

#endif /* TGRS_KERNELS_KERNEL_UTIL_H_ */
