/* ONNX QuantizeLinear (float32 -> int8) and DequantizeLinear (int8 -> float32). */
#include "kernel_util.h"
#include "tgrs_kernels.h"

void tgrs_quantize_f32_s8(float scale, int32_t zero_point, size_t count, const float* input,
                          int8_t* output) {
  size_t i;
  /* Divide (not multiply by 1/scale) as the ONNX definition and onnxruntime do. */
  for (i = 0; i < count; ++i) output[i] = tgrs_quantize_value_s8(input[i] / scale, zero_point);
}

void tgrs_dequantize_s8_f32(float scale, int32_t zero_point, size_t count, const int8_t* input,
                            float* output) {
  size_t i;
  for (i = 0; i < count; ++i) output[i] = (float)((int32_t)input[i] - zero_point) * scale;
}
