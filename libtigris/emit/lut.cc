#include "emit/lut.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "util/error.h"

namespace tigris::emit {

// ONNX defaults (operators.md): Selu alpha/gamma are the float32 constants of the spec.
constexpr float kLeakyReluAlpha = 0.01f;
constexpr float kSeluAlpha = 1.67326319217681884765625f;
constexpr float kSeluGamma = 1.05070102214813232421875f;
constexpr float kHardSigmoidAlpha = 0.2f;
constexpr float kHardSigmoidBeta = 0.5f;

namespace {

// log(1 + e^x) without overflowing e^x (ONNX Softplus; Mish is x tanh(Softplus(x))).
double Softplus(double x) {
  return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

}  // namespace

int8_t QuantizeToInt8(double real, AffineQuant q) {
  // nearbyint rounds half to even in the default rounding mode, as QuantizeLinear does.
  const double rounded = std::nearbyint(real / q.scale) + q.zero_point;
  if (std::isnan(rounded)) return static_cast<int8_t>(std::clamp(q.zero_point, -128, 127));
  return static_cast<int8_t>(std::clamp(rounded, -128.0, 127.0));
}

Lut BuildLut(const std::function<double(double)>& f, AffineQuant in, AffineQuant out) {
  Lut lut{};
  for (int i = 0; i < 256; ++i) {
    const int q = i - 128;
    const double x = static_cast<double>(q - in.zero_point) * in.scale;
    lut[static_cast<size_t>(i)] = QuantizeToInt8(f(x), out);
  }
  return lut;
}

Lut BuildRequantizeLut(AffineQuant in, AffineQuant out) {
  const float s_in = static_cast<float>(in.scale);
  const float s_out = static_cast<float>(out.scale);
  Lut lut{};
  for (int i = 0; i < 256; ++i) {
    const float real = static_cast<float>(i - 128 - in.zero_point) * s_in;  // one rounding
    const float scaled = real / s_out;                                      // and another
    const double rounded = std::nearbyint(static_cast<double>(scaled)) + out.zero_point;
    lut[static_cast<size_t>(i)] = static_cast<int8_t>(std::clamp(rounded, -128.0, 127.0));
  }
  return lut;
}

bool IsLutOp(ir::OpType type) {
  // Every unary op of the op table (tgrs_ops.def) but the clamps, which take a table only
  // when their input and output quantization differ (op_quant.cc).
  return ir::IsUnaryOp(type) && type != ir::OpType::kRelu && type != ir::OpType::kRelu6 &&
         type != ir::OpType::kClip;
}

std::function<double(double)> LutFunction(const ir::Op& op) {
  const ir::Attributes& a = op.attrs;
  switch (op.type) {
    case ir::OpType::kSigmoid:
      return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
    case ir::OpType::kTanh:
      return [](double x) { return std::tanh(x); };
    case ir::OpType::kHardSigmoid: {
      const double alpha = a.GetFloat("alpha", kHardSigmoidAlpha);
      const double beta = a.GetFloat("beta", kHardSigmoidBeta);
      return [alpha, beta](double x) { return std::clamp(alpha * x + beta, 0.0, 1.0); };
    }
    case ir::OpType::kHardSwish:  // ONNX: x * max(0, min(1, x / 6 + 0.5))
      return [](double x) { return x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0); };
    case ir::OpType::kSelu: {
      const double alpha = a.GetFloat("alpha", kSeluAlpha);
      const double gamma = a.GetFloat("gamma", kSeluGamma);
      return
          [alpha, gamma](double x) { return gamma * (x > 0.0 ? x : alpha * (std::exp(x) - 1.0)); };
    }
    case ir::OpType::kLeakyRelu: {
      const double alpha = a.GetFloat("alpha", kLeakyReluAlpha);
      return [alpha](double x) { return x >= 0.0 ? x : alpha * x; };
    }
    // Elementwise math: ONNX's definitions (operators.md), in double.
    case ir::OpType::kAbs:
      return [](double x) { return std::fabs(x); };
    case ir::OpType::kNeg:
      return [](double x) { return -x; };
    case ir::OpType::kExp:
      return [](double x) { return std::exp(x); };
    case ir::OpType::kLog:  // -inf at 0 saturates to -128; NaN below 0 quantizes to zp
      return [](double x) { return std::log(x); };
    case ir::OpType::kSqrt:
      return [](double x) { return std::sqrt(x); };
    case ir::OpType::kReciprocal:
      return [](double x) { return 1.0 / x; };
    case ir::OpType::kFloor:
      return [](double x) { return std::floor(x); };
    case ir::OpType::kCeil:
      return [](double x) { return std::ceil(x); };
    case ir::OpType::kRound:  // half to even
      return [](double x) { return std::nearbyint(x); };
    case ir::OpType::kSign:
      return [](double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); };
    case ir::OpType::kElu: {
      const double alpha = a.GetFloat("alpha", kEluAlpha);
      return [alpha](double x) { return x >= 0.0 ? x : alpha * (std::exp(x) - 1.0); };
    }
    case ir::OpType::kCelu: {
      const double alpha = a.GetFloat("alpha", kEluAlpha);
      return [alpha](double x) { return x >= 0.0 ? x : alpha * (std::exp(x / alpha) - 1.0); };
    }
    case ir::OpType::kSoftplus:
      return Softplus;
    case ir::OpType::kSoftsign:
      return [](double x) { return x / (1.0 + std::fabs(x)); };
    case ir::OpType::kMish:
      return [](double x) { return x * std::tanh(Softplus(x)); };
    case ir::OpType::kErf:
      return [](double x) { return std::erf(x); };
    case ir::OpType::kGelu:
      if (a.GetString("approximate", "none") == "tanh") {
        return [](double x) {
          const double k = std::sqrt(2.0 / std::acos(-1.0));  // sqrt(2 / pi)
          return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
        };
      }
      return [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); };
    case ir::OpType::kSin:
      return [](double x) { return std::sin(x); };
    case ir::OpType::kCos:
      return [](double x) { return std::cos(x); };
    case ir::OpType::kRelu:
      return [](double x) { return std::max(x, 0.0); };
    case ir::OpType::kRelu6:
      return [](double x) { return std::clamp(x, 0.0, 6.0); };
    case ir::OpType::kClip: {
      const double lo = a.GetFloat("min", -FLT_MAX);
      const double hi = a.GetFloat("max", FLT_MAX);
      return [lo, hi](double x) { return std::min(std::max(x, lo), hi); };
    }
    default:
      throw Error(Status::kUnsupportedOp, "op '" + op.name + "' (" +
                                              std::string(ir::OpTypeName(op.type)) +
                                              ") has no int8 lookup-table form");
  }
}

}  // namespace tigris::emit
