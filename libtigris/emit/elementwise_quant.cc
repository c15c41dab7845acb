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
