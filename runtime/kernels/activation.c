/*
 * Elementwise activations: float32 computed directly, int8 clamps. The int8
 * non-piecewise-linear activations go through tgrs_lut_s8 (lut.c). exp and tanh are the
 * runtime's own (tgrs_math.h), not libm's, so every target produces the same bits.
 */
#include "tgrs_kernels.h"
#include "tgrs_math.h"

void tgrs_clip_f32(float min, float max, size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    float v = input[i];
    if (v < min) v = min;
    if (v > max) v = max;
    output[i] = v;
  }
}

void tgrs_relu_f32(size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) output[i] = input[i] > 0.0f ? input[i] : 0.0f;
}

void tgrs_relu6_f32(size_t count, const float* input, float* output) {
  tgrs_clip_f32(0.0f, 6.0f, count, input, output);
}

void tgrs_leaky_relu_f32(float alpha, size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) output[i] = input[i] >= 0.0f ? input[i] : alpha * input[i];
}

void tgrs_selu_f32(float alpha, float gamma, size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = gamma * (x > 0.0f ? x : alpha * (tgrs_expf(x) - 1.0f));
  }
}

void tgrs_sigmoid_f32(size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    /* Evaluate exp on a non-positive argument so it never overflows. */
    const float x = input[i];
    if (x >= 0.0f) {
      output[i] = 1.0f / (1.0f + tgrs_expf(-x));
    } else {
      const float e = tgrs_expf(x);
      output[i] = e / (1.0f + e);
    }
  }
}

void tgrs_hard_sigmoid_f32(float alpha, float beta, size_t count, const float* input,
                           float* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    float v = alpha * input[i] + beta;
    if (v < 0.0f) v = 0.0f;
    if (v > 1.0f) v = 1.0f;
    output[i] = v;
  }
}

void tgrs_hard_swish_f32(size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    /* ONNX HardSwish: x * HardSigmoid(x) with alpha = 1/6, beta = 0.5. */
    float g = input[i] * (1.0f / 6.0f) + 0.5f;
    if (g < 0.0f) g = 0.0f;
    if (g > 1.0f) g = 1.0f;
    output[i] = input[i] * g;
  }
}

void tgrs_tanh_f32(size_t count, const float* input, float* output) {
  size_t i;
  for (i = 0; i < count; ++i) output[i] = tgrs_tanhf(input[i]);
}

void tgrs_clip_s8(int32_t min, int32_t max, size_t count, const int8_t* input, int8_t* output) {
  size_t i;
  for (i = 0; i < count; ++i) {
    int32_t v = input[i];
    if (v < min) v = min;
    if (v > max) v = max;
    output[i] = (int8_t)v;
  }
}
