// Integer parameters of int8 elementwise ops and fused activations, TFLite's reference
// definitions (the runtime's tgrs_add_s8 / tgrs_mul_s8 / tgrs_activation_range_s8,
// runtime/kernels/tgrs_kernels.h):
//
//  Add/Sub (TFLite add.cc, PrepareGeneralSubOp): both inputs shifted left by
//    left_shift = 20, rescaled to the common scale 2 * max(s1, s2):
//      input_multiplier_i = s_i / (2 * max(s1, s2))                 (both <= 0.5)
//      output_multiplier  = 2 * max(s1, s2) / (2^20 * s_out)
//  Max/Min (ours; the same fields and kernel arithmetic as Add): each input rescaled
//    straight to the output grid with `left_shift` fraction bits, the extreme taken there,
//    then the fraction bits rounded off once:
//      input_multiplier_i = s_i / s_out,  output_multiplier = 2^-left_shift,
//    left_shift the largest <= 22 keeping 255 * 2^left_shift * 2 * max(s_i) / s_out in int32.
//    The result is QuantizeLinear(max(DequantizeLinear(a), DequantizeLinear(b))) but for
//    values within 2^-left_shift of a rounding tie (Add's common scale 2 max(s1, s2) would
//    round twice and miss it by 1 LSB on ~1% of inputs).
//  Mul: output_multiplier = s1 * s2 / s_out.
//  act range: none -> [-128, 127]; relu -> [max(zp, -128), 127];
//             relu6 -> [max(zp, -128), min(zp + round_half_away(6 / s), 127)].
#ifndef TIGRIS_EMIT_ELEMENTWISE_QUANT_H_
#define TIGRIS_EMIT_ELEMENTWISE_QUANT_H_

#include <cstdint>
#include <string>

#include "emit/requantize.h"
#include "ir/op.h"

namespace tigris::emit {

inline constexpr int32_t kAddLeftShift = 20;

struct AddSubQuant {
  int32_t left_shift = kAddLeftShift;
  QuantizedMultiplier input1, input2, output;
};

// `what` names the op in errors (non-positive scales, multipliers out of range).
AddSubQuant ComputeAddSubQuant(double s1, double s2, double s_out, const std::string& what);
AddSubQuant ComputeExtremeQuant(double s1, double s2, double s_out, const std::string& what);
QuantizedMultiplier ComputeMulQuant(double s1, double s2, double s_out, const std::string& what);

struct ActivationRange {
  int32_t min = -128;
  int32_t max = 127;
};
ActivationRange Int8ActivationRange(ir::Activation activation, float output_scale,
                                    int32_t output_zero_point);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_ELEMENTWISE_QUANT_H_
