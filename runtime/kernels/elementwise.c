/*
 * Elementwise binary ops with ONNX multidirectional broadcasting (rank <= 4, shapes
 * right-aligned into [N, H, W, C]): int8 Add/Sub/Mul (TFLite integer arithmetic) and
 * Max/Min (Add's rescaling), float32 Add/Sub/Mul/Div/Max/Min/Pow/PRelu; the loop nest is
 * broadcast.h's.
 */
#include "broadcast.h"
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"
#include "tgrs_math.h"

static int shapes_ok(const tgrs_dims* a, const tgrs_dims* b, const tgrs_dims* out) {
  return tgrs_dims_valid(out) && tgrs_broadcasts_to(a, out) && tgrs_broadcasts_to(b, out);
}

/* out[i] = EXPR(x, y) for operands of one type T (broadcast.h). */
#define TGRS_BROADCAST_LOOP(T, EXPR) TGRS_BROADCAST2_LOOP(T, T, EXPR)

/* TFLite AddElementwise / SubElementwise (int8): inputs shifted left by left_shift and
 * rescaled to the common scale, then the sum (sign = +1) or difference (-1) requantized. */
static TGRS_ALWAYS_INLINE int8_t add_one_s8(const tgrs_add_s8_params* p, int8_t x, int8_t y,
                                            int sign, int32_t rounding) {
  const int32_t shifted1 = ((int32_t)x - p->input1_zero_point) * (1 << p->left_shift);
  const int32_t shifted2 = ((int32_t)y - p->input2_zero_point) * (1 << p->left_shift);
  const int32_t scaled1 = tgrs_mbqm_as(rounding, shifted1, p->input1.multiplier, p->input1.shift);
  const int32_t scaled2 = tgrs_mbqm_as(rounding, shifted2, p->input2.multiplier, p->input2.shift);
  /* Summed in 64 bits and saturated: two scaled inputs near the int32 limits (input scales far
   * apart) must not overflow. */
  int64_t raw = sign > 0 ? (int64_t)scaled1 + scaled2 : (int64_t)scaled1 - scaled2;
  if (raw > INT32_MAX) raw = INT32_MAX;
  if (raw < INT32_MIN) raw = INT32_MIN;
  return tgrs_requantize_s8_as(rounding, (int32_t)raw, p->output.multiplier, p->output.shift,
                               p->output_zero_point, p->act_min, p->act_max);
}

/* Max (sign = +1) or Min (-1) of two int8 values on different grids: Add's arithmetic with
 * the compiler's parameters for it (emit/elementwise_quant.h): both rescaled to the output's
 * grid with left_shift fraction bits, the extreme taken there, the fraction rounded off
 * once. Every step is monotone, so this is the quantized extreme of the real values but
 * within 2^-left_shift of a rounding tie. */
static inline int8_t extreme_one_s8(const tgrs_add_s8_params* p, int8_t x, int8_t y, int sign) {
  const int32_t shifted1 = ((int32_t)x - p->input1_zero_point) * (1 << p->left_shift);
  const int32_t shifted2 = ((int32_t)y - p->input2_zero_point) * (1 << p->left_shift);
  const int32_t scaled1 =
      tgrs_mbqm_as(p->rounding, shifted1, p->input1.multiplier, p->input1.shift);
  const int32_t scaled2 =
      tgrs_mbqm_as(p->rounding, shifted2, p->input2.multiplier, p->input2.shift);
  const int32_t pick = (sign > 0) == (scaled1 > scaled2) ? scaled1 : scaled2;
  return tgrs_requantize_s8_as(p->rounding, pick, p->output.multiplier, p->output.shift,
                               p->output_zero_point, p->act_min, p->act_max);
}

static TGRS_ALWAYS_INLINE int8_t mul_one_s8(const tgrs_mul_s8_params* p, int8_t x, int8_t y,
                                            int32_t rounding) {
  const int32_t prod = ((int32_t)x - p->input1_zero_point) * ((int32_t)y - p->input2_zero_point);
  return tgrs_requantize_s8_as(rounding, prod, p->rq.multiplier, p->rq.shift, p->output_zero_point,
                               p->act_min, p->act_max);
}

static int add_params_ok(const tgrs_add_s8_params* p) {
  /* |x - zp| <= 255 < 2^8 and left_shift <= 22 keep the shifted inputs within int32. */
  return p != NULL && p->left_shift >= 0 && p->left_shift <= 22 && p->act_min >= -128 &&
         p->act_max <= 127 && p->act_min <= p->act_max &&
         tgrs_zero_point_s8_valid(p->input1_zero_point) &&
         tgrs_zero_point_s8_valid(p->input2_zero_point) &&
         tgrs_zero_point_s8_valid(p->output_zero_point) &&
         (p->rounding == TGRS_ROUNDING_ONNX || p->rounding == TGRS_ROUNDING_TFLITE);
}

/* The arguments of the kernels taking tgrs_add_s8_params (Add, Sub, Max, Min). */
static int add_args_ok(const tgrs_add_s8_params* p, const tgrs_dims* a_dims, const int8_t* a,
                       const tgrs_dims* b_dims, const int8_t* b, const tgrs_dims* output_dims,
                       const int8_t* output) {
  return add_params_ok(p) && shapes_ok(a_dims, b_dims, output_dims) && a != NULL && b != NULL &&
         output != NULL;
}

static tgrs_kernel_status add_or_sub_s8(const tgrs_add_s8_params* p, int sign,
                                        const tgrs_dims* a_dims, const int8_t* a,
                                        const tgrs_dims* b_dims, const int8_t* b,
                                        const tgrs_dims* output_dims, int8_t* output) {
  if (!add_args_ok(p, a_dims, a, b_dims, b, output_dims, output)) return TGRS_KERNEL_BAD_ARGUMENT;
  /* One loop per arithmetic: the mode is a constant inside each, not a test per element. */
  if (TGRS_WITH_TFLITE_ROUNDING && p->rounding == TGRS_ROUNDING_TFLITE) {
    TGRS_BROADCAST_LOOP(int8_t, add_one_s8(p, x, y, sign, TGRS_ROUNDING_TFLITE));
  } else {
    TGRS_BROADCAST_LOOP(int8_t, add_one_s8(p, x, y, sign, TGRS_ROUNDING_ONNX));
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_add_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output) {
  return add_or_sub_s8(p, 1, a_dims, a, b_dims, b, output_dims, output);
}

tgrs_kernel_status tgrs_sub_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output) {
  return add_or_sub_s8(p, -1, a_dims, a, b_dims, b, output_dims, output);
}

static tgrs_kernel_status extreme_s8(const tgrs_add_s8_params* p, int sign, const tgrs_dims* a_dims,
                                     const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                                     const tgrs_dims* output_dims, int8_t* output) {
  if (!add_args_ok(p, a_dims, a, b_dims, b, output_dims, output)) return TGRS_KERNEL_BAD_ARGUMENT;
  TGRS_BROADCAST_LOOP(int8_t, extreme_one_s8(p, x, y, sign));
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_max_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output) {
  return extreme_s8(p, 1, a_dims, a, b_dims, b, output_dims, output);
}

tgrs_kernel_status tgrs_min_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output) {
  return extreme_s8(p, -1, a_dims, a, b_dims, b, output_dims, output);
}

tgrs_kernel_status tgrs_mul_s8(const tgrs_mul_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output) {
  if (p == NULL || p->act_min < -128 || p->act_max > 127 || p->act_min > p->act_max ||
      !tgrs_zero_point_s8_valid(p->input1_zero_point) ||
      !tgrs_zero_point_s8_valid(p->input2_zero_point) ||
      !tgrs_zero_point_s8_valid(p->output_zero_point) || !shapes_ok(a_dims, b_dims, output_dims) ||
      (p->rounding != TGRS_ROUNDING_ONNX && p->rounding != TGRS_ROUNDING_TFLITE) || a == NULL ||
      b == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (TGRS_WITH_TFLITE_ROUNDING && p->rounding == TGRS_ROUNDING_TFLITE) {
    TGRS_BROADCAST_LOOP(int8_t, mul_one_s8(p, x, y, TGRS_ROUNDING_TFLITE));
  } else {
    TGRS_BROADCAST_LOOP(int8_t, mul_one_s8(p, x, y, TGRS_ROUNDING_ONNX));
  }
  return TGRS_KERNEL_OK;
}

#define TGRS_DEFINE_BINARY_F32(name, EXPR)                                                   \
  tgrs_kernel_status name(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,  \
                          const float* b, const tgrs_dims* output_dims, float* output) {     \
    if (!shapes_ok(a_dims, b_dims, output_dims) || a == NULL || b == NULL || output == NULL) \
      return TGRS_KERNEL_BAD_ARGUMENT;                                                       \
    TGRS_BROADCAST_LOOP(float, EXPR);                                                        \
    return TGRS_KERNEL_OK;                                                                   \
  }

TGRS_DEFINE_BINARY_F32(tgrs_add_f32, x + y)
TGRS_DEFINE_BINARY_F32(tgrs_sub_f32, x - y)
TGRS_DEFINE_BINARY_F32(tgrs_mul_f32, x* y)
TGRS_DEFINE_BINARY_F32(tgrs_div_f32, x / y)
/* NaN in either operand gives NaN (numpy's maximum/minimum, ONNX's reference). */
TGRS_DEFINE_BINARY_F32(tgrs_max_f32, (x > y || x != x) ? x : y)
TGRS_DEFINE_BINARY_F32(tgrs_min_f32, (x < y || x != x) ? x : y)
TGRS_DEFINE_BINARY_F32(tgrs_pow_f32, tgrs_powf(x, y))
/* ONNX PRelu: y = slope * x where x < 0, else x (b = the slope). */
TGRS_DEFINE_BINARY_F32(tgrs_prelu_f32, x < 0.0f ? y * x : x)
