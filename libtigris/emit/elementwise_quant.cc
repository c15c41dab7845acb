#include "emit/elementwise_quant.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace tigris::emit {
namespace {

void RequirePositive(double s, const std::string& what, const char* which) {
  if (!(s > 0.0) || !std::isfinite(s)) {
    throw Error(Status::kUnsupportedQuantization,
                what + ": " + which + " scale must be positive and finite");
  }
}

}  // namespace

AddSubQuant ComputeAddSubQuant(double s1, double s2, double s_out, const std::string& what) {
  RequirePositive(s1, what, "input 0");
  RequirePositive(s2, what, "input 1");
  RequirePositive(s_out, what, "output");
  const double twice_max = 2.0 * std::max(s1, s2);
  AddSubQuant q;
  q.input1 = QuantizeMultiplierOrThrow(s1 / twice_max, what + " input 0");
  q.input2 = QuantizeMultiplierOrThrow(s2 / twice_max, what + " input 1");
  q.output = QuantizeMultiplierOrThrow(
      twice_max / (static_cast<double>(int64_t{1} << q.left_shift) * s_out), what + " output");
  return q;
}

AddSubQuant ComputeExtremeQuant(double s1, double s2, double s_out, const std::string& what) {
  RequirePositive(s1, what, "input 0");
  RequirePositive(s2, what, "input 1");
  RequirePositive(s_out, what, "output");
  // |x - zp| <= 255, shifted left by left_shift, then by at most log2(2 ratio) inside the
  // rescaling (tgrs_mbqm_inline): the product must stay below 2^31.
  const double bound = 255.0 * 2.0 * std::max(s1, s2) / s_out;
  AddSubQuant q;
  q.left_shift = 22;
  while (q.left_shift > 0 && bound * std::ldexp(1.0, q.left_shift) >= 2147483648.0) {
    --q.left_shift;
  }
  if (bound >= 2147483648.0) {
    throw Error(Status::kUnsupportedQuantization,
                what + ": an input scale is over 2^22 times the output's; int8 values would " +
                    "overflow the rescaling");
  }
  q.input1 = QuantizeMultiplierOrThrow(s1 / s_out, what + " input 0");
  q.input2 = QuantizeMultiplierOrThrow(s2 / s_out, what + " input 1");
  q.output = QuantizedMultiplier{int32_t{1} << 30, 1 - q.left_shift};  // 2^-left_shift
  return q;
}

QuantizedMultiplier ComputeMulQuant(double s1, double s2, double s_out, const std::string& what) {
  RequirePositive(s1, what, "input 0");
  RequirePositive(s2, what, "input 1");
  RequirePositive(s_out, what, "output");
  return QuantizeMultiplierOrThrow(s1 * s2 / s_out, what);
}

ActivationRange Int8ActivationRange(ir::Activation activation, float output_scale,
                                    int32_t output_zero_point) {
  ActivationRange r;
  if (activation == ir::Activation::kRelu || activation == ir::Activation::kRelu6) {
    r.min = std::max(output_zero_point, -128);
  }
  if (activation == ir::Activation::kRelu6) {
    // Computed as the runtime's tgrs_activation_range_s8 does: double, round half away.
    const double six = static_cast<double>(output_zero_point) +
                       std::round(6.0 / static_cast<double>(output_scale));
    if (six < r.max) r.max = static_cast<int32_t>(six);
  }
  if (r.max < r.min) r.max = r.min;
  return r;
}

}  // namespace tigris::emit
