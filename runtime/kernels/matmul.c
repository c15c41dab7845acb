/*
 * MatMul of two activations (ONNX MatMul, rank <= 3 with B's batch broadcast), int8 and
 * float32. B is [K, N] row-major, so the inner loop walks a column of B with stride N: this
 * kernel is for small activation matmuls (attention-style), not the weight path (that is
 * tgrs_fully_connected_*).
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

tgrs_kernel_status tgrs_matmul_strided_f32(const tgrs_matmul_geometry* g, const float* a,
                                           size_t a_count, const float* b, size_t b_count,
                                           float* output, size_t output_count) {
  int32_t i0, i1, r, c, t;
  if (g == NULL || a == NULL || b == NULL || output == NULL || g->batch[0] < 1 || g->batch[1] < 1 ||
      g->m < 1 || g->k < 1 || g->n < 1) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  {
    const int32_t a_extent[4] = {g->batch[0], g->batch[1], g->m, g->k};
    const int32_t b_extent[4] = {g->batch[0], g->batch[1], g->k, g->n};
    const int32_t y_extent[4] = {g->batch[0], g->batch[1], g->m, g->n};
    const int64_t a_last = last_offset(a_extent, g->a_stride);
    const int64_t b_last = last_offset(b_extent, g->b_stride);
    const int64_t y_last = last_offset(y_extent, g->y_stride);
    /* Every read and write inside its operand, whatever the strides say. */
    if (a_last < 0 || b_last < 0 || y_last < 0 || (uint64_t)a_last >= a_count ||
        (uint64_t)b_last >= b_count || (uint64_t)y_last >= output_count) {
      return TGRS_KERNEL_BAD_ARGUMENT;
    }
  }
  for (i0 = 0; i0 < g->batch[0]; ++i0) {
    for (i1 = 0; i1 < g->batch[1]; ++i1) {
      const float* a_i = a + (size_t)i0 * g->a_stride[0] + (size_t)i1 * g->a_stride[1];
      const float* b_i = b + (size_t)i0 * g->b_stride[0] + (size_t)i1 * g->b_stride[1];
      float* y_i = output + (size_t)i0 * g->y_stride[0] + (size_t)i1 * g->y_stride[1];
      for (r = 0; r < g->m; ++r) {
        for (c = 0; c < g->n; ++c) {
          float acc = 0.0f;
          for (t = 0; t < g->k; ++t) {
            acc += a_i[(size_t)r * g->a_stride[2] + (size_t)t * g->a_stride[3]] *
                   b_i[(size_t)t * g->b_stride[2] + (size_t)c * g->b_stride[3]];
          }
          y_i[(size_t)r * g->y_stride[2] + (size_t)c * g->y_stride[3]] = acc;
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
