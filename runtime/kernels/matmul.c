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
