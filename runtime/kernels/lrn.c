/*
 * Local response normalization across channels (ONNX LRN).
 *
 * ONNX defines, for channel c of an NCHW tensor,
 *   square_sum[c] = sum of x[c']^2 for c' in [c - floor((size - 1) / 2),
 *                                             c + ceil((size - 1) / 2)] within [0, C)
 *   y[c] = x[c] / (bias + alpha / size * square_sum[c])^beta
 * Activations here are NHWC, so the window slides along the innermost axis of each pixel.
 * The power is exp(-beta * log(d)) with the runtime's own exp and log (tgrs_math.h), so the
 * host and every target produce the same bits; d > 0 is guaranteed by the parameter check
 * (bias > 0, alpha >= 0), which is also what keeps log defined.
 *
 * int8 is QDQ semantics, as onnxruntime evaluates DequantizeLinear -> LRN ->
 * QuantizeLinear: every input dequantized, the float formula, then one quantization.
 */
#include "kernel_util.h"
#include "tgrs_kernels.h"
#include "tgrs_math.h"

static int lrn_params_valid(const tgrs_lrn_params* p, const tgrs_dims* dims) {
  /* Written as negations so that NaN parameters are rejected too. */
  return p != NULL && dims != NULL && tgrs_dims_valid(dims) && p->size >= 1 && p->bias > 0.0f &&
         p->alpha >= 0.0f && p->beta == p->beta;
}

/* The channel window of c: [lo, hi], clipped to [0, channels). No int64 arithmetic: the
 * terms are compared before they are added. */
static void lrn_window(const tgrs_lrn_params* p, int32_t channels, int32_t c, int32_t* lo,
                       int32_t* hi) {
  const int32_t before = (p->size - 1) / 2; /* floor((size - 1) / 2) */
  const int32_t after = p->size / 2;        /* ceil((size - 1) / 2) */
  *lo = c > before ? c - before : 0;
  *hi = channels - 1 - c > after ? c + after : channels - 1;
}

/* x * d^-beta with d = bias + alpha / size * square_sum. */
static float lrn_value(const tgrs_lrn_params* p, float x, float square_sum) {
  const float d = p->bias + p->alpha / (float)p->size * square_sum;
  return x * tgrs_expf(-p->beta * tgrs_logf(d));
}

tgrs_kernel_status tgrs_lrn_f32(const tgrs_lrn_params* params, const tgrs_dims* dims,
                                const float* input, float* output) {
  size_t pixel, pixels;
  int32_t c, k, lo, hi;
  if (!lrn_params_valid(params, dims) || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  pixels = (size_t)dims->n * (size_t)dims->h * (size_t)dims->w;
  for (pixel = 0; pixel < pixels; ++pixel) {
    const float* x = input + pixel * (size_t)dims->c;
    float* y = output + pixel * (size_t)dims->c;
    for (c = 0; c < dims->c; ++c) {
      float square_sum = 0.0f;
      lrn_window(params, dims->c, c, &lo, &hi);
      for (k = lo; k <= hi; ++k) square_sum += x[k] * x[k];
      y[c] = lrn_value(params, x[c], square_sum);
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_lrn_s8(const tgrs_lrn_params* params, const tgrs_lrn_quant_s8* quant,
                               const tgrs_dims* dims, const int8_t* input, int8_t* output) {
  size_t pixel, pixels;
  int32_t c, k, lo, hi;
  if (!lrn_params_valid(params, dims) || quant == NULL || !(quant->input_scale > 0.0f) ||
      !(quant->output_scale > 0.0f) || !tgrs_zero_point_s8_valid(quant->input_zero_point) ||
      !tgrs_zero_point_s8_valid(quant->output_zero_point) || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  pixels = (size_t)dims->n * (size_t)dims->h * (size_t)dims->w;
  for (pixel = 0; pixel < pixels; ++pixel) {
    const int8_t* x = input + pixel * (size_t)dims->c;
    int8_t* y = output + pixel * (size_t)dims->c;
    for (c = 0; c < dims->c; ++c) {
      float square_sum = 0.0f;
      lrn_window(params, dims->c, c, &lo, &hi);
      for (k = lo; k <= hi; ++k) {
        const float v = (float)(x[k] - quant->input_zero_point) * quant->input_scale;
        square_sum += v * v;
      }
      y[c] = tgrs_quantize_value_s8(
          lrn_value(params, (float)(x[c] - quant->input_zero_point) * quant->input_scale,
                    square_sum) /
              quant->output_scale,
          quant->output_zero_point);
    }
  }
  return TGRS_KERNEL_OK;
}
