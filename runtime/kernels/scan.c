/*
 * Ops along one axis of [N, H, W, C]: ONNX Hardmax (float32) and CumSum (float32, int32,
 * int64). A tensor is `outer` lines of `extent` values `stride` apart, where the dims before
 * `axis` make `outer` x (the dims after it) = lines, so one loop nest serves every axis.
 */
#include "kernel_util.h"
#include "tgrs_kernels.h"

typedef struct axis_lines {
  size_t outer;  /* product of the dims before the axis */
  size_t extent; /* the axis' dim */
  size_t stride; /* product of the dims after it: the step between a line's values */
} axis_lines;

static int lines_of(int32_t axis, const tgrs_dims* dims, axis_lines* l) {
  const int32_t d[4] = {dims->n, dims->h, dims->w, dims->c};
  int32_t i;
  if (!tgrs_dims_valid(dims) || axis < 0 || axis > 3) return 0;
  l->outer = 1;
  l->stride = 1;
  for (i = 0; i < axis; ++i) l->outer *= (size_t)d[i];
  for (i = axis + 1; i < 4; ++i) l->stride *= (size_t)d[i];
  l->extent = (size_t)d[axis];
  return 1;
}

tgrs_kernel_status tgrs_hardmax_f32(int32_t axis, const tgrs_dims* dims, const float* input,
                                    float* output) {
  axis_lines l;
  size_t o, s, k;
  if (input == NULL || output == NULL || !lines_of(axis, dims, &l)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (o = 0; o < l.outer; ++o) {
    for (s = 0; s < l.stride; ++s) {
      const size_t base = o * l.extent * l.stride + s;
      size_t best = 0;
      for (k = 1; k < l.extent; ++k) {
        /* Strictly larger: the first of equal maxima wins; a NaN never does. */
        if (input[base + k * l.stride] > input[base + best * l.stride]) best = k;
      }
      for (k = 0; k < l.extent; ++k) output[base + k * l.stride] = k == best ? 1.0f : 0.0f;
    }
  }
  return TGRS_KERNEL_OK;
}

/* The running sum of one line of T, forward or reverse, inclusive or exclusive. The sum of
 * integers wraps (unsigned arithmetic, converted back), as two's complement hardware does. */
#define TGRS_CUMSUM_AS(T, ACC, ADD)                                             \
  do {                                                                          \
    const T* in = (const T*)input;                                              \
    T* out = (T*)output;                                                        \
    for (o = 0; o < l.outer; ++o) {                                             \
      for (s = 0; s < l.stride; ++s) {                                          \
        const size_t base = o * l.extent * l.stride + s;                        \
        ACC acc = 0;                                                            \
        for (k = 0; k < l.extent; ++k) {                                        \
          const size_t at = base + (reverse ? l.extent - 1 - k : k) * l.stride; \
          const T x = in[at];                                                   \
          if (exclusive) out[at] = (T)acc;                                      \
          acc = ADD(acc, x);                                                    \
          if (!exclusive) out[at] = (T)acc;                                     \
        }                                                                       \
      }                                                                         \
    }                                                                           \
  } while (0)

#define TGRS_ADD_FLOAT(acc, x) ((acc) + (x))
#define TGRS_ADD_WRAP32(acc, x) ((acc) + (uint32_t)(x))
#define TGRS_ADD_WRAP64(acc, x) ((acc) + (uint64_t)(x))

tgrs_kernel_status tgrs_cumsum(tgrs_elem_type type, int32_t axis, int exclusive, int reverse,
                               const tgrs_dims* dims, const void* input, void* output) {
  axis_lines l;
  size_t o, s, k;
  if (input == NULL || output == NULL || !lines_of(axis, dims, &l)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  switch (type) {
    case TGRS_ELEM_F32:
      TGRS_CUMSUM_AS(float, float, TGRS_ADD_FLOAT);
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_I32:
      TGRS_CUMSUM_AS(int32_t, uint32_t, TGRS_ADD_WRAP32);
      return TGRS_KERNEL_OK;
    case TGRS_ELEM_I64:
      TGRS_CUMSUM_AS(int64_t, uint64_t, TGRS_ADD_WRAP64);
      return TGRS_KERNEL_OK;
    default:
      return TGRS_KERNEL_BAD_ARGUMENT;
  }
}
