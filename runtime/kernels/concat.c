/* Concat along one NHWC axis and Reshape: byte copies, dtype-agnostic; and the int8 concat
 * that requantizes inputs of another quantization. */
#include <float.h>
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

static int32_t dim_at(const tgrs_dims* d, int32_t axis) {
  return axis == 0 ? d->n : axis == 1 ? d->h : axis == 2 ? d->w : d->c;
}

/* The checks both concats share: an axis of [N, H, W, C], inputs that agree off the axis. */
static int concat_args_ok(int32_t axis, int32_t num_inputs, const tgrs_dims* const* input_dims,
                          const void* const* inputs, const void* output) {
  int32_t i, a;
  if (axis < 0 || axis > 3 || num_inputs < 1 || input_dims == NULL || inputs == NULL ||
      output == NULL) {
    return 0;
  }
  for (i = 0; i < num_inputs; ++i) {
    if (!tgrs_dims_valid(input_dims[i]) || inputs[i] == NULL) return 0;
    for (a = 0; a < 4; ++a) {
      if (a != axis && dim_at(input_dims[i], a) != dim_at(input_dims[0], a)) return 0;
    }
  }
  return 1;
}

/* Elements of input i per index of the dims before the axis (its contiguous chunk). */
static size_t chunk_elems(const tgrs_dims* d, int32_t axis) {
  size_t n = 1;
  int32_t a;
  for (a = axis; a < 4; ++a) n *= (size_t)dim_at(d, a);
  return n;
}

tgrs_kernel_status tgrs_concat(size_t elem_size, int32_t axis, int32_t num_inputs,
                               const tgrs_dims* const* input_dims, const void* const* inputs,
                               void* output) {
  int32_t i, a;
  size_t outer = 1, o;
  unsigned char* dst = (unsigned char*)output;
  if (elem_size == 0 || !concat_args_ok(axis, num_inputs, input_dims, inputs, output)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (a = 0; a < axis; ++a) outer *= (size_t)dim_at(input_dims[0], a);
  /* Row-major: for each index of the dims before the axis, each input contributes one
   * contiguous chunk of (its axis extent x the dims after the axis). */
  for (o = 0; o < outer; ++o) {
    for (i = 0; i < num_inputs; ++i) {
      size_t chunk = elem_size;
      for (a = axis; a < 4; ++a) chunk *= (size_t)dim_at(input_dims[i], a);
      memcpy(dst, (const unsigned char*)inputs[i] + o * chunk, chunk);
      dst += chunk;
    }
  }
  return TGRS_KERNEL_OK;
}

static int concat_quant_ok(const tgrs_concat_quant_s8* q) {
  return tgrs_zero_point_s8_valid(q->zero_point) && q->scale > 0.0f && q->scale <= FLT_MAX;
}

tgrs_kernel_status tgrs_concat_s8(int32_t axis, int32_t num_inputs,
                                  const tgrs_dims* const* input_dims, const int8_t* const* inputs,
                                  const tgrs_concat_quant_s8* input_quant,
                                  tgrs_concat_quant_s8 output_quant, int8_t* output) {
  int32_t i, a, v;
  size_t outer = 1, row = 0, prefix = 0, o, e;
  int8_t lut[256];
  if (!concat_args_ok(axis, num_inputs, input_dims, (const void* const*)inputs, output) ||
      input_quant == NULL || !concat_quant_ok(&output_quant)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (i = 0; i < num_inputs; ++i) {
    if (!concat_quant_ok(&input_quant[i])) return TGRS_KERNEL_BAD_ARGUMENT;
    row += chunk_elems(input_dims[i], axis);
  }
  for (a = 0; a < axis; ++a) outer *= (size_t)dim_at(input_dims[0], a);
  /* Input by input (one table each), writing its chunk of every output row. */
  for (i = 0; i < num_inputs; ++i) {
    const size_t chunk = chunk_elems(input_dims[i], axis);
    const int8_t* src = inputs[i];
    for (v = -128; v <= 127; ++v) {
      /* DequantizeLinear, then QuantizeLinear (which divides), in float32 as ONNX states. */
      const float real = (float)(v - input_quant[i].zero_point) * input_quant[i].scale;
      lut[v + 128] = tgrs_quantize_value_s8(real / output_quant.scale, output_quant.zero_point);
    }
    for (o = 0; o < outer; ++o) {
      int8_t* dst = output + o * row + prefix;
      for (e = 0; e < chunk; ++e) dst[e] = lut[*src++ + 128];
    }
    prefix += chunk;
  }
  return TGRS_KERNEL_OK;
}

void tgrs_reshape(size_t bytes, const void* input, void* output) {
  if (output != input) memmove(output, input, bytes);
}
