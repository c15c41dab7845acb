/*
 * MatMul. tgrs_matmul_{s8,f32}: two activations as matrices (rank <= 3 with B's batch
 * broadcast), B [K, N] row-major, so the inner loop walks a column of B with stride N: for
 * small activation matmuls (attention-style), not the weight path (that is
 * tgrs_fully_connected_*). tgrs_matmul_strided_{s8,f32}: operands of ranks 1 to 4 stored in
 * any layout, addressed through per-axis strides the compiler derived.
 */
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

static int matmul_args_ok(int32_t batch, int32_t m, int32_t k, int32_t n, int32_t b_batch,
                          const void* a, const void* b, const void* out) {
  return batch >= 1 && m >= 1 && k >= 1 && n >= 1 && (b_batch == batch || b_batch == 1) &&
         a != NULL && b != NULL && out != NULL;
}

tgrs_kernel_status tgrs_matmul_s8(const tgrs_matmul_quant_s8* quant, int32_t batch, int32_t m,
                                  int32_t k, int32_t n, int32_t b_batch, const int8_t* a,
                                  const int8_t* b, int8_t* output) {
  int32_t i, r, c, t;
  if (quant == NULL || !matmul_args_ok(batch, m, k, n, b_batch, a, b, output) ||
      quant->act_min < -128 || quant->act_max > 127 || quant->act_min > quant->act_max ||
      !tgrs_zero_point_s8_valid(quant->a_zero_point) ||
      !tgrs_zero_point_s8_valid(quant->b_zero_point) ||
      !tgrs_zero_point_s8_valid(quant->output_zero_point)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (i = 0; i < batch; ++i) {
    const int8_t* a_i = a + (size_t)i * m * k;
    const int8_t* b_i = b + (b_batch == 1 ? 0 : (size_t)i * k * n);
    int8_t* out_i = output + (size_t)i * m * n;
    for (r = 0; r < m; ++r) {
      for (c = 0; c < n; ++c) {
        int32_t acc = 0;
        for (t = 0; t < k; ++t) {
          acc = tgrs_wrapping_add(acc, ((int32_t)a_i[(size_t)r * k + t] - quant->a_zero_point) *
                                           ((int32_t)b_i[(size_t)t * n + c] - quant->b_zero_point));
        }
        out_i[(size_t)r * n + c] =
            tgrs_requantize_s8_as(quant->rounding, acc, quant->rq.multiplier, quant->rq.shift,
                                  quant->output_zero_point, quant->act_min, quant->act_max);
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_matmul_f32(int32_t batch, int32_t m, int32_t k, int32_t n, int32_t b_batch,
                                   const float* a, const float* b, float* output) {
  int32_t i, r, c, t;
  if (!matmul_args_ok(batch, m, k, n, b_batch, a, b, output)) return TGRS_KERNEL_BAD_ARGUMENT;
  for (i = 0; i < batch; ++i) {
    const float* a_i = a + (size_t)i * m * k;
    const float* b_i = b + (b_batch == 1 ? 0 : (size_t)i * k * n);
    float* out_i = output + (size_t)i * m * n;
    for (r = 0; r < m; ++r) {
      for (c = 0; c < n; ++c) {
        float acc = 0.0f;
        for (t = 0; t < k; ++t) acc += a_i[(size_t)r * k + t] * b_i[(size_t)t * n + c];
        out_i[(size_t)r * n + c] = acc;
      }
    }
  }
  return TGRS_KERNEL_OK;
}

/* The largest element offset a geometry reaches through `stride` (extents batch0, batch1,
 * rows, cols), or -1 when a stride is negative. */
static int64_t last_offset(const int32_t extent[4], const int32_t stride[4]) {
  int64_t at = 0;
  int d;
  for (d = 0; d < 4; ++d) {
    if (stride[d] < 0) return -1;
    at += (int64_t)(extent[d] - 1) * stride[d];
  }
  return at;
}

/* Every read and write of `g` inside its operand, whatever the strides say; extents at
 * least 1. */
static int strided_geometry_ok(const tgrs_matmul_geometry* g, size_t a_count, size_t b_count,
                               size_t output_count) {
  if (g == NULL || g->batch[0] < 1 || g->batch[1] < 1 || g->m < 1 || g->k < 1 || g->n < 1) {
    return 0;
  }
  {
    const int32_t a_extent[4] = {g->batch[0], g->batch[1], g->m, g->k};
    const int32_t b_extent[4] = {g->batch[0], g->batch[1], g->k, g->n};
    const int32_t y_extent[4] = {g->batch[0], g->batch[1], g->m, g->n};
    const int64_t a_last = last_offset(a_extent, g->a_stride);
    const int64_t b_last = last_offset(b_extent, g->b_stride);
    const int64_t y_last = last_offset(y_extent, g->y_stride);
    return a_last >= 0 && b_last >= 0 && y_last >= 0 && (uint64_t)a_last < a_count &&
           (uint64_t)b_last < b_count && (uint64_t)y_last < output_count;
  }
}

/* One output element of the strided kernels: K products along a row of A and a column of
 * B, walked by pointer steps. A leaf of its own (TGRS_NOINLINE) so that its loop keeps
 * both steps in registers: inlined into the kernels' four loops around it, GCC at -Os
 * reloads them from the stack on every multiply-accumulate. */
static TGRS_NOINLINE float dot_strided_f32(const float* pa, ptrdiff_t a_step, const float* pb,
                                           ptrdiff_t b_step, int32_t k) {
  float acc = 0.0f;
  for (; k > 0; --k, pa += a_step, pb += b_step) acc += *pa * *pb;
  return acc;
}

static TGRS_NOINLINE int32_t dot_strided_s8(const int8_t* pa, ptrdiff_t a_step, int32_t a_zp,
                                            const int8_t* pb, ptrdiff_t b_step, int32_t b_zp,
                                            int32_t k) {
  int32_t acc = 0;
  for (; k > 0; --k, pa += a_step, pb += b_step) {
    acc = tgrs_wrapping_add(acc, ((int32_t)*pa - a_zp) * ((int32_t)*pb - b_zp));
  }
  return acc;
}

tgrs_kernel_status tgrs_matmul_strided_f32(const tgrs_matmul_geometry* g, const float* a,
                                           size_t a_count, const float* b, size_t b_count,
                                           float* output, size_t output_count) {
  int32_t i0, i1, r, c;
  if (a == NULL || b == NULL || output == NULL ||
      !strided_geometry_ok(g, a_count, b_count, output_count)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  {
    const int32_t m = g->m, k = g->k, n = g->n;
    const ptrdiff_t a_row = g->a_stride[2], a_step = g->a_stride[3];
    const ptrdiff_t b_step = g->b_stride[2], b_col = g->b_stride[3];
    const ptrdiff_t y_row = g->y_stride[2], y_col = g->y_stride[3];
    for (i0 = 0; i0 < g->batch[0]; ++i0) {
      for (i1 = 0; i1 < g->batch[1]; ++i1) {
        const float* a_i = a + (size_t)i0 * g->a_stride[0] + (size_t)i1 * g->a_stride[1];
        const float* b_i = b + (size_t)i0 * g->b_stride[0] + (size_t)i1 * g->b_stride[1];
        float* y_i = output + (size_t)i0 * g->y_stride[0] + (size_t)i1 * g->y_stride[1];
        for (r = 0; r < m; ++r) {
          for (c = 0; c < n; ++c) {
            y_i[r * y_row + c * y_col] =
                dot_strided_f32(a_i + r * a_row, a_step, b_i + c * b_col, b_step, k);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_matmul_strided_s8(const tgrs_matmul_geometry* g, const tgrs_quant_s8* quant,
                                          const tgrs_per_channel_quant* pcq, const int8_t* a,
                                          size_t a_count, const int8_t* b, size_t b_count,
                                          int8_t* output, size_t output_count) {
  int32_t i0, i1, r, c, q_step, zp_step;
  const int32_t* b_zp = NULL;
  if (a == NULL || b == NULL || output == NULL || quant == NULL || pcq == NULL ||
      !strided_geometry_ok(g, a_count, b_count, output_count) || !tgrs_quant_s8_valid(quant)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* One multiplier/shift and one B zero point per column of B, or one for all. */
  q_step = tgrs_pcq_step(pcq, g->n);
  zp_step = tgrs_filter_zp_step(pcq, g->n, &b_zp);
  if (q_step < 0 || zp_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  {
    const int32_t m = g->m, k = g->k, n = g->n, a_zp = quant->input_zero_point;
    const ptrdiff_t a_row = g->a_stride[2], a_step = g->a_stride[3];
    const ptrdiff_t b_step = g->b_stride[2], b_col = g->b_stride[3];
    const ptrdiff_t y_row = g->y_stride[2], y_col = g->y_stride[3];
    for (i0 = 0; i0 < g->batch[0]; ++i0) {
      for (i1 = 0; i1 < g->batch[1]; ++i1) {
        const int8_t* a_i = a + (size_t)i0 * g->a_stride[0] + (size_t)i1 * g->a_stride[1];
        const int8_t* b_i = b + (size_t)i0 * g->b_stride[0] + (size_t)i1 * g->b_stride[1];
        int8_t* y_i = output + (size_t)i0 * g->y_stride[0] + (size_t)i1 * g->y_stride[1];
        for (r = 0; r < m; ++r) {
          for (c = 0; c < n; ++c) {
            const int32_t acc = dot_strided_s8(a_i + r * a_row, a_step, a_zp, b_i + c * b_col,
                                               b_step, b_zp[c * zp_step], k);
            y_i[r * y_row + c * y_col] = tgrs_requantize_s8_as(
                quant->rounding, acc, pcq->multiplier[c * q_step], pcq->shift[c * q_step],
                quant->output_zero_point, quant->act_min, quant->act_max);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
