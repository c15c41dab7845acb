/*
 * Host-side quantization helpers: TFLite's QuantizeMultiplier, fused-activation ranges and
 * Add/Sub parameters. Pure functions (the emitter calls them when it writes a plan).
 */
#include <math.h>

#include "tgrs_kernels.h"

int tgrs_quantize_multiplier(double real, int32_t* multiplier, int* shift) {
  double q;
  int64_t q_fixed;
  int exponent = 0;
  int negative = real < 0.0;
  *multiplier = 0;
  *shift = 0;
  if (!isfinite(real)) return -1;
  if (real == 0.0) return 0;
  if (negative) real = -real;
  q = frexp(real, &exponent); /* real = q * 2^exponent, q in [0.5, 1) */
  /* TfLiteRound is std::round: half away from zero. */
  q_fixed = (int64_t)round(q * (double)((int64_t)1 << 31));
  if (q_fixed == ((int64_t)1 << 31)) { /* q rounded up to 1.0: carry into the exponent */
    q_fixed /= 2;
    ++exponent;
  }
  if (exponent > 30) return -1; /* a left shift of 31 overflows int32 arithmetic */
  if (exponent < -31) {         /* every bit would be shifted out (TFLite) */
    exponent = 0;
    q_fixed = 0;
  }
  *multiplier = (int32_t)(negative ? -q_fixed : q_fixed);
  *shift = exponent;
  return 0;
}

void tgrs_activation_range_s8(tgrs_fused_activation act, float output_scale,
                              int32_t output_zero_point, int32_t* act_min, int32_t* act_max) {
  int32_t lo = -128;
  int32_t hi = 127;
  if (act == TGRS_ACT_RELU || act == TGRS_ACT_RELU6) {
    if (output_zero_point > lo) lo = output_zero_point;
  }
  if (act == TGRS_ACT_RELU6) {
    const double six = (double)output_zero_point + round(6.0 / (double)output_scale);
    if (six < hi) hi = (int32_t)six;
  }
  if (hi < lo) hi = lo;
  *act_min = lo;
  *act_max = hi;
}

int tgrs_add_s8_params_init(double input1_scale, int32_t input1_zero_point, double input2_scale,
                            int32_t input2_zero_point, double output_scale,
                            int32_t output_zero_point, tgrs_add_s8_params* p) {
  /* TFLite add.cc / sub.cc (int8): left_shift 20, common scale 2 * max input scale. */
  const int left_shift = 20;
  double twice_max;
  int s1, s2, so;
  int ok = 0;
  if (!(input1_scale > 0.0) || !(input2_scale > 0.0) || !(output_scale > 0.0)) return -1;
  twice_max = 2.0 * (input1_scale > input2_scale ? input1_scale : input2_scale);
  p->input1_zero_point = input1_zero_point;
  p->input2_zero_point = input2_zero_point;
  p->output_zero_point = output_zero_point;
  p->left_shift = left_shift;
  ok |= tgrs_quantize_multiplier(input1_scale / twice_max, &p->input1.multiplier, &s1);
  ok |= tgrs_quantize_multiplier(input2_scale / twice_max, &p->input2.multiplier, &s2);
  ok |= tgrs_quantize_multiplier(twice_max / ((double)(1 << left_shift) * output_scale),
                                 &p->output.multiplier, &so);
  p->input1.shift = s1;
  p->input2.shift = s2;
  p->output.shift = so;
  p->act_min = -128;
  p->act_max = 127;
  p->rounding = TGRS_ROUNDING_ONNX; /* the caller sets TFLITE for TFLite's arithmetic */
  return ok != 0 ? -1 : 0;
}
