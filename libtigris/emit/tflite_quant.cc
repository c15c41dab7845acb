// TFLite's int8 algorithms for the ops of tflite_quant.h. Each follows TFLM's Prepare (the
// constants, computed in the precision TFLM computes them: several in float) and its
// reference kernel (per value), as tensorflow/lite/micro/kernels/*_common.cc and
// tensorflow/lite/kernels/internal/reference/ define them; docs/tflite.md states the
// formulas. The fixed-point steps are the runtime's (runtime/kernels/fixed_point.h), so
// the compiler's tables and the runtime's softmax share one implementation.
#include "emit/tflite_quant.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "emit/requantize.h"
#include "fixed_point.h"  // the runtime's: TFLite's fixed point and MultiplyByQuantizedMultiplier
#include "util/error.h"

namespace tigris::emit {
namespace {

using ir::OpType;

std::string OpLabel(const ir::Op& op) {
  return "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + ")";
}

[[noreturn]] void Refuse(const ir::Op& op, const std::string& why) {
  throw Error(Status::kUnsupportedQuantization, OpLabel(op) + ": " + why);
}

int8_t SaturateInt8(int64_t v) { return static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127)); }

// TFLite's QuantizeMultiplier, which ours is (emit/requantize.h), refusing what TFLite's
// kernels could not use either.
QuantizedMultiplier Multiplier(const ir::Op& op, double real) {
  return QuantizeMultiplierOrThrow(real, OpLabel(op));
}

// TFLite's CalculateInputRadius(integer_bits, left_shift, 31): the largest input difference
// whose rescaled value stays below 2^integer_bits, floor((2^bits - 1) 2^(31 - bits) / 2^shift).
int32_t InputRadius(int integer_bits, int left_shift) {
  const double radius =
      std::ldexp(static_cast<double>((1 << integer_bits) - 1), 31 - integer_bits - left_shift);
  return static_cast<int32_t>(std::min(std::floor(radius), static_cast<double>(INT32_MAX)));
}

// ---- LOGISTIC and TANH (reference_integer_ops::Logistic / Tanh, int8) ------------------
// The input difference is rescaled to Q4.27 (multiplier from frexp(scale * 2^27)), outside
// +-radius the output saturates, inside gemmlowp's logistic / tanh in Q0.31 are shifted
// down to the output's fixed grid: 2^-8 with zero point -128 for LOGISTIC, 2^-7 with zero
// point 0 for TANH (TFLM assumes these; it checks LOGISTIC's zero point only).
Lut SigmoidOrTanhLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  const bool logistic = op.type == OpType::kSigmoid;
  if (logistic && out.zero_point != -128) {
    Refuse(op, "TFLite's int8 LOGISTIC needs the output zero point -128 (TFLM refuses " +
                   std::to_string(out.zero_point) + ")");
  }
  constexpr int kInputIntegerBits = 4;
  // TFLM rounds frexp's mantissa without QuantizeMultiplier's carry, which a float scale's
  // 24-bit mantissa never needs: the same multiplier.
  const QuantizedMultiplier m = Multiplier(op, in.scale * (1 << (31 - kInputIntegerBits)));
  const int32_t multiplier = m.multiplier, left_shift = m.shift;
  const int32_t radius = InputRadius(kInputIntegerBits, left_shift);
  Lut lut{};
  for (int code = -128; code <= 127; ++code) {
    const int32_t x = code - in.zero_point;
    int8_t y;
    if (x <= -radius) {
      y = -128;
    } else if (x >= radius) {
      y = 127;
    } else {
      const int32_t x_q4 = tgrs_mbqm_tflite(x, multiplier, left_shift);
      y = logistic
              ? SaturateInt8(tgrs_fx_rdbpot(tgrs_fx_logistic(x_q4, kInputIntegerBits), 23) - 128)
              : SaturateInt8(tgrs_fx_rdbpot(tgrs_fx_tanh(x_q4, kInputIntegerBits), 24));
    }
    lut[static_cast<size_t>(code + 128)] = y;
  }
  return lut;
}

// ---- HARD_SWISH (reference_ops::HardSwish, int8) -----------------------------------------
// 16-bit fixed point: the input on a "hires" scale s_in / 128, one multiplier to the output
// scale and one to a "reluish" scale where 3.0 is 32768; both multipliers are TFLite's 32-bit
// ones rounded to 16 bits (DownScaleInt32ToInt16Multiplier).

int16_t SrdhmInt16(int16_t a, int16_t b) {  // gemmlowp SaturatingRoundingDoublingHighMul
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<int16_t>((ab + nudge) / (1 << 15));
}

int16_t SdhmInt16(int16_t a, int16_t b) {  // the same, truncating (ARM's SQDMULH)
  if (a == INT16_MIN && b == INT16_MIN) return INT16_MAX;
  return static_cast<int16_t>(static_cast<int32_t>(a) * b / (1 << 15));
}

int16_t SaturatingShlInt16(int16_t v, int amount) {
  return static_cast<int16_t>(
      std::clamp<int64_t>(static_cast<int64_t>(v) * (int64_t{1} << amount), INT16_MIN, INT16_MAX));
}

int16_t ToInt16Multiplier(int32_t multiplier) {
  constexpr int32_t kRounding = 1 << 15;
  if (multiplier >= INT32_MAX - kRounding) return INT16_MAX;
  return static_cast<int16_t>((multiplier + kRounding) >> 16);
}

Lut HardSwishLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  // TFLM computes the ratios in float, then widens them.
  const float hires_scale = (1.0f / 128.0f) * static_cast<float>(in.scale);
  const float reluish_scale = 3.0f / 32768.0f;
  const QuantizedMultiplier to_output =
      Multiplier(op, static_cast<double>(hires_scale / static_cast<float>(out.scale)));
  const QuantizedMultiplier to_reluish =
      Multiplier(op, static_cast<double>(hires_scale / reluish_scale));
  if (to_output.shift > 0) {
    Refuse(op,
           "TFLite's int8 HARD_SWISH needs an output scale at least the input's / 128 "
           "(TFLM refuses this model)");
  }
  const int16_t output_m16 = ToInt16Multiplier(to_output.multiplier);
  const int16_t reluish_m16 = ToInt16Multiplier(to_reluish.multiplier);
  Lut lut{};
  for (int code = -128; code <= 127; ++code) {
    const auto x = static_cast<int16_t>(code - in.zero_point);
    const auto hires = static_cast<int16_t>(x * (1 << 7));
    const int16_t preshift_output = SrdhmInt16(hires, output_m16);
    int16_t reluish = hires;
    if (to_reluish.shift > 0) reluish = SaturatingShlInt16(reluish, to_reluish.shift - 1);
    reluish = SrdhmInt16(reluish, reluish_m16);
    if (to_reluish.shift > 0) reluish = SaturatingShlInt16(reluish, 1);
    if (to_reluish.shift < 0) {
      reluish = static_cast<int16_t>(tgrs_fx_rdbpot(reluish, -to_reluish.shift));
    }
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);  // [-1, 1] -> [0, 1]
    const int16_t preshift = SdhmInt16(reluish, preshift_output);
    const int32_t y = tgrs_fx_rdbpot(preshift, -to_output.shift) + out.zero_point;
    lut[static_cast<size_t>(code + 128)] = SaturateInt8(y);
  }
  return lut;
}

// ---- LEAKY_RELU (reference_ops::QuantizeLeakyRelu) ------------------------------------
// Two requantizations, the identity's for x >= 0 and alpha's below, multipliers from float
// ratios; a negative alpha multiplies by |alpha| and negates.
Lut LeakyReluLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  const auto s_in = static_cast<float>(in.scale);
  const auto s_out = static_cast<float>(out.scale);
  const float alpha = op.attrs.GetFloat("alpha", 0.2f);  // TFLite's LeakyReluOptions default
  const QuantizedMultiplier identity = Multiplier(op, static_cast<double>(s_in / s_out));
  const QuantizedMultiplier scaled = Multiplier(op, static_cast<double>(s_in * alpha / s_out));
  const bool negative_alpha = scaled.multiplier < 0;
  Lut lut{};
  for (int code = -128; code <= 127; ++code) {
    const int32_t x = code - in.zero_point;
    int64_t y = out.zero_point;
    if (x >= 0) {
      y += tgrs_mbqm_tflite(x, identity.multiplier, identity.shift);
    } else {
      const int32_t v = tgrs_mbqm_tflite(x, negative_alpha ? -scaled.multiplier : scaled.multiplier,
                                         scaled.shift);
      y += negative_alpha ? -static_cast<int64_t>(v) : v;
    }
    lut[static_cast<size_t>(code + 128)] = SaturateInt8(y);
  }
  return lut;
}

// ---- ELU (TFLM elu.cc): a table TFLM fills in float ------------------------------------
// dequantize in float, expm1 as expf(x) - 1, multiply by the float reciprocal of the output
// scale, round half away from zero.
Lut EluLut(AffineQuant in, AffineQuant out) {
  const auto s_in = static_cast<float>(in.scale);
  const float inverse_out = 1.0f / static_cast<float>(out.scale);
  Lut lut{};
  for (int code = -128; code <= 127; ++code) {
    const float x = s_in * static_cast<float>(code - in.zero_point);
    const float y = x < 0.0f ? std::exp(x) - 1.0f : x;
    const float rescaled = std::round(y * inverse_out);
    const auto q = static_cast<int32_t>(rescaled + static_cast<float>(out.zero_point));
    lut[static_cast<size_t>(code + 128)] = SaturateInt8(q);
  }
  return lut;
}

// ---- RELU (ReluQuantized) and RELU6 (Relu6Quantized) -----------------------------------
// RELU requantizes x - zp_in to the output (a float ratio's multiplier) and clamps below at
// the output zero point; RELU6 clamps the input code to [zp_in, zp_in + round(6 / s_in)] and
// does not requantize at all (TFLM assumes one quantization on both sides).
// The importer writes TFLite's RELU6 as Clip(0, 6) (ONNX's form); RELU_N1_TO_1, which TFLM
// has no kernel for, keeps the ONNX path.
bool IsRelu6(const ir::Op& op) {
  return op.type == OpType::kRelu6 ||
         (op.type == OpType::kClip && op.attrs.GetFloat("min", -1.0f) == 0.0f &&
          op.attrs.GetFloat("max", -1.0f) == 6.0f);
}

// RELU6's upper clamp: FloatToQuantizedType(6.0f, s_in, zp_in).
int32_t Relu6Top(AffineQuant in) {
  const float six = std::round(6.0f / static_cast<float>(in.scale));
  return std::clamp<int32_t>(static_cast<int32_t>(six + static_cast<float>(in.zero_point)), -128,
                             127);
}

Lut ReluLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  Lut lut{};
  if (IsRelu6(op)) {
    const int32_t six = Relu6Top(in);
    for (int code = -128; code <= 127; ++code) {
      lut[static_cast<size_t>(code + 128)] =
          static_cast<int8_t>(std::clamp<int32_t>(code, in.zero_point, six));
    }
    return lut;
  }
  const QuantizedMultiplier m = Multiplier(
      op, static_cast<double>(static_cast<float>(in.scale) / static_cast<float>(out.scale)));
  const int32_t lowest = std::max(-128, out.zero_point);
  for (int code = -128; code <= 127; ++code) {
    const int64_t y =
        out.zero_point + int64_t{tgrs_mbqm_tflite(code - in.zero_point, m.multiplier, m.shift)};
    lut[static_cast<size_t>(code + 128)] = SaturateInt8(std::max<int64_t>(y, lowest));
  }
  return lut;
}

// ---- ABS (elementwise.cc AbsEvalQuantized) ---------------------------------------------
// |x - zp_in| moved to the output's zero point, requantized (a float ratio's multiplier)
// only when the two scales differ.
Lut AbsLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  const auto s_in = static_cast<float>(in.scale);
  const auto s_out = static_cast<float>(out.scale);
  const QuantizedMultiplier m = Multiplier(op, static_cast<double>(s_in / s_out));
  Lut lut{};
  for (int code = -128; code <= 127; ++code) {
    const int32_t v = std::abs(code - in.zero_point);
    const int64_t y = s_in == s_out ? v : tgrs_mbqm_tflite(v, m.multiplier, m.shift);
    lut[static_cast<size_t>(code + 128)] = SaturateInt8(y + out.zero_point);
  }
  return lut;
}

// ---- SOFTMAX (softmax_common.cc CalculateSoftmaxParams, int8 -> int8) --------------------
// PreprocessSoftmaxScaling(beta, s_in, 5): beta * s_in * 2^26, capped at 2^31 - 1, as a
// multiplier >= 1 (QuantizeMultiplierGreaterThanOne).
void SoftmaxParams(const ir::Op& op, AffineQuant in, AffineQuant out, OpRecord& r) {
  if (static_cast<float>(out.scale) != 1.0f / 256.0f || out.zero_point != -128) {
    Refuse(op,
           "TFLite's int8 SOFTMAX needs the output scale 1/256 and zero point -128 (TFLM "
           "refuses scale " +
               std::to_string(out.scale) + ", zero point " + std::to_string(out.zero_point) + ")");
  }
  constexpr int kScaledDiffIntegerBits = 5;
  // TFLite caps the real multiplier at 2^31 - 1; the plan's shifts stay within 30, so the
  // refusal of QuantizeMultiplier above 2^30 comes first (an input scale of 16 or more).
  const double real = in.scale * std::ldexp(1.0, 31 - kScaledDiffIntegerBits);  // beta is 1
  const std::optional<QuantizedMultiplier> m = QuantizeMultiplier(real);
  // TFLite needs a multiplier >= 1 (QuantizeMultiplierGreaterThanOne: shift >= 0).
  if (!m || m->shift < 0) {
    Refuse(op, "input scale " + std::to_string(in.scale) +
                   " is outside what TFLite's int8 SOFTMAX scales (beta * scale * 2^26 in "
                   "[1/2, 2^30))");
  }
  r.input_multiplier = {m->multiplier};
  r.input_shift = {static_cast<int8_t>(m->shift)};
}

// ---- MEAN and SUM (reference_ops::QuantizedMeanOrSum) ----------------------------------
// The requantization s_in / s_out; MEAN folds 1/count into it by an integer division of the
// multiplier shifted left by floor(log2 count) (at most 32, and at most 31 + shift), so the
// runtime applies ONE TFLite requantization to the sum of x - zp_in.
void MeanOrSumParams(const ir::Graph& g, const ir::Op& op, AffineQuant in, AffineQuant out,
                     OpRecord& r) {
  QuantizedMultiplier m = Multiplier(op, in.scale / out.scale);
  if (op.type == OpType::kReduceMean) {
    const int64_t in_count = g.tensor(op.input(0)).num_elements();
    const int64_t out_count = g.tensor(op.outputs[0]).num_elements();
    if (out_count <= 0 || in_count % out_count != 0) {
      Refuse(op, "its input and output sizes do not divide");
    }
    const int64_t count = in_count / out_count;
    int shift = 0;
    while ((count >> (shift + 1)) != 0) ++shift;  // floor(log2 count)
    shift = std::min({shift, 32, 31 + m.shift});
    m.multiplier = static_cast<int32_t>((static_cast<int64_t>(m.multiplier) << shift) / count);
    m.shift -= shift;
  }
  r.output_multiplier = {m.multiplier};
  r.output_shift = {static_cast<int8_t>(m.shift)};
}

// TFLite's table for a unary int8 op, or nullopt when TFLite has none for `op`.
std::optional<Lut> TfliteLut(const ir::Op& op, AffineQuant in, AffineQuant out) {
  switch (op.type) {
    case OpType::kSigmoid:
    case OpType::kTanh:
      return SigmoidOrTanhLut(op, in, out);
    case OpType::kHardSwish:
      return HardSwishLut(op, in, out);
    case OpType::kLeakyRelu:
      return LeakyReluLut(op, in, out);
    case OpType::kElu:
      return EluLut(in, out);
    case OpType::kAbs:
      return AbsLut(op, in, out);
    case OpType::kRelu:
    case OpType::kRelu6:
    case OpType::kClip:
      if (op.type == OpType::kClip && !IsRelu6(op)) return std::nullopt;
      return ReluLut(op, in, out);
    default:
      return std::nullopt;
  }
}

}  // namespace

bool TfliteInt8Params(const ir::Graph& g, const ir::Op& op, AffineQuant in, AffineQuant out,
                      OpRecord& r) {
  switch (op.type) {
    case OpType::kSoftmax:
      SoftmaxParams(op, in, out, r);
      return true;
    case OpType::kLogSoftmax:
      Refuse(op,
             "TFLite's int8 LOG_SOFTMAX arithmetic is not implemented (a float model's "
             "LOG_SOFTMAX compiles)");
    case OpType::kReduceMean:
    case OpType::kReduceSum:
      MeanOrSumParams(g, op, in, out, r);
      return true;
    case OpType::kRelu:
    case OpType::kRelu6:
    case OpType::kClip:
      // One quantization on both sides: TFLM's RELU requantizes by the identity, so both are
      // clamps (cheaper than a table): RELU's is the ONNX path's, RELU6's top is TFLM's.
      if (op.type == OpType::kClip && !IsRelu6(op)) return false;
      if (in.scale == out.scale && in.zero_point == out.zero_point) {
        r.act_min = std::max(r.act_min, std::max(-128, in.zero_point));
        if (IsRelu6(op)) r.act_max = std::min(r.act_max, Relu6Top(in));
        return true;
      }
      break;
    default:
      break;
  }
  const std::optional<Lut> lut = TfliteLut(op, in, out);
  if (!lut) return false;
  r.lut.assign(lut->begin(), lut->end());
  return true;
}

}  // namespace tigris::emit
