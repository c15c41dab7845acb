// int8 constants of an op (tigris-compilation-pipeline.txt, stage 7 step 2) and float32
// batch normalization's per-channel scale and shift. docs/plan-format.md lists, per op
// code, which fields the runtime reads.
#include <algorithm>
#include <cmath>
#include <string>

#include "emit/elementwise_quant.h"
#include "emit/lut.h"
#include "emit/op_record.h"
#include "emit/requantize.h"
#include "emit/tflite_quant.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

using ir::OpType;

std::string OpLabel(const ir::Op& op) {
  return "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + ")";
}

[[noreturn]] void Fail(const ir::Op& op, Status status, const std::string& what) {
  throw Error(status, OpLabel(op) + ": " + what);
}

// Per-tensor scale and zero point of an int8 activation.
AffineQuant TensorQuant(const ir::Graph& g, const ir::Op& op, ir::TensorId id) {
  const ir::Tensor& t = g.tensor(id);
  if (!t.quant || t.quant->scales.size() != 1 || t.quant->zero_points.size() != 1) {
    Fail(op, Status::kUnsupportedQuantization,
         "tensor '" + t.name + "' needs one per-tensor scale and zero point");
  }
  return {static_cast<double>(t.quant->scales[0]), t.quant->zero_points[0]};
}

void Push(OpRecord& r, QuantizedMultiplier m) {
  r.output_multiplier.push_back(m.multiplier);
  r.output_shift.push_back(static_cast<int8_t>(m.shift));
}

// Conv, DepthwiseConv, Conv1D, ConvTranspose, Gemm, MatMul with a constant B:
// effective_scale[c] = input_scale * weight_scale[c] / output_scale. Weight zero points
// stay on the weight tensor, where the runtime's kernels read them (asymmetric weights,
// as onnxruntime's uint8 per-tensor quantization writes them); the transposed
// convolution's kernel takes symmetric weights only.
void WeightedRequant(const ir::Graph& g, const ir::Op& op, OpRecord& r, AffineQuant in,
                     AffineQuant out) {
  const ir::Tensor& w = g.tensor(op.input(1));
  if (!w.quant || w.quant->scales.empty()) {
    Fail(op, Status::kUnsupportedQuantization, "weight '" + w.name + "' has no int8 scales");
  }
  for (size_t c = 0; c < w.quant->scales.size(); ++c) {
    if (op.type == OpType::kConvTranspose && w.quant->zero_points.size() > c &&
        w.quant->zero_points[c] != 0) {
      Fail(op, Status::kUnsupportedQuantization,
           "weight '" + w.name +
               "' has a non-zero zero point (the transposed convolution takes symmetric weights)");
    }
    const double effective = in.scale * static_cast<double>(w.quant->scales[c]) / out.scale;
    Push(r, QuantizeMultiplierOrThrow(effective, OpLabel(op) + " channel " + std::to_string(c)));
  }
}

// Standalone float32 BatchNormalization: scale = gamma / sqrt(var + eps),
// shift = beta - mean * scale (computed in double, stored as float).
void BatchNormScaleShift(const ir::Graph& g, const ir::Op& op, std::vector<double>& scale,
                         std::vector<double>& shift) {
  for (size_t i = 1; i <= 4; ++i) {
    if (!g.IsConstant(op.input(i)))
      Fail(op, Status::kUnsupportedOp, "statistics must be constants");
  }
  const std::vector<double> gamma = ir::ConstantAsDoubles(g.tensor(op.input(1)));
  const std::vector<double> beta = ir::ConstantAsDoubles(g.tensor(op.input(2)));
  const std::vector<double> mean = ir::ConstantAsDoubles(g.tensor(op.input(3)));
  const std::vector<double> var = ir::ConstantAsDoubles(g.tensor(op.input(4)));
  const double eps = op.attrs.GetFloat("epsilon", 1e-5f);
  if (beta.size() != gamma.size() || mean.size() != gamma.size() || var.size() != gamma.size()) {
    Fail(op, Status::kInvalidModel, "scale, bias, mean and var must have one entry per channel");
  }
  for (size_t c = 0; c < gamma.size(); ++c) {
    const double s = gamma[c] / std::sqrt(var[c] + eps);
    scale.push_back(s);
    shift.push_back(beta[c] - mean[c] * s);
  }
}

void Int8Params(const ir::Graph& g, const ir::Op& op, OpRecord& r) {
  const AffineQuant out = TensorQuant(g, op, op.outputs[0]);
  const AffineQuant in = TensorQuant(g, op, op.input(0));
  const ActivationRange range =
      Int8ActivationRange(op.fused_activation, static_cast<float>(out.scale), out.zero_point);
  r.act_min = range.min;
  r.act_max = range.max;
  // A .tflite's ops that TFLite computes with algorithms of their own (tflite_quant.h).
  if (g.arithmetic == ir::Graph::Arithmetic::kTflite && TfliteInt8Params(g, op, in, out, r)) {
    return;
  }
  switch (op.type) {
    case OpType::kConv:
    case OpType::kDepthwiseConv:
    case OpType::kConv1D:
    case OpType::kConvTranspose:
    case OpType::kGemm:
      WeightedRequant(g, op, r, in, out);
      break;
    case OpType::kMatMul:
      if (g.IsConstant(op.input(1))) {
        WeightedRequant(g, op, r, in, out);
      } else {
        Push(r, ComputeMulQuant(in.scale, TensorQuant(g, op, op.input(1)).scale, out.scale,
                                OpLabel(op)));
      }
      break;
    case OpType::kMaxPool:
    case OpType::kAveragePool:
    case OpType::kGlobalAveragePool:
    case OpType::kGlobalMaxPool:
    case OpType::kReduceMean:
    case OpType::kReduceSum:
    case OpType::kReduceMax:
    case OpType::kReduceMin:
      // Identity {2^30, 1} when input and output share their scale. An int8 ReduceMean
      // (tgrs_reduce_s8, or over H, W the global average pool's kernel) needs the same
      // s_in / s_out, as ReduceSum, ReduceMax and ReduceMin (applied to the exact sum, or
      // the extreme, of x - zp_in without the division); storing it here keeps double arithmetic
      // out of the MCU runtime (docs/plan-format.md).
      Push(r, QuantizeMultiplierOrThrow(in.scale / out.scale, OpLabel(op)));
      break;
    case OpType::kAdd:
    case OpType::kSub:
    case OpType::kMax:  // Add's fields, each input rescaled to the output's grid
    case OpType::kMin: {
      const double s2 = TensorQuant(g, op, op.input(1)).scale;
      const AddSubQuant q = op.type == OpType::kMax || op.type == OpType::kMin
                                ? ComputeExtremeQuant(in.scale, s2, out.scale, OpLabel(op))
                                : ComputeAddSubQuant(in.scale, s2, out.scale, OpLabel(op));
      r.left_shift = q.left_shift;
      r.input_multiplier = {q.input1.multiplier, q.input2.multiplier};
      r.input_shift = {static_cast<int8_t>(q.input1.shift), static_cast<int8_t>(q.input2.shift)};
      Push(r, q.output);
      break;
    }
    case OpType::kMul:
      Push(r, ComputeMulQuant(in.scale, TensorQuant(g, op, op.input(1)).scale, out.scale,
                              OpLabel(op)));
      break;
    case OpType::kDiv:
    case OpType::kPow:
    case OpType::kPRelu:  // refused by the verifier first (runtime_forms.cc, CheckBinary)
      Fail(op, Status::kUnsupportedQuantization,
           "the runtime has no int8 " + std::string(ir::OpTypeName(op.type)));
    case OpType::kRelu:
    case OpType::kRelu6:
    case OpType::kClip:
      if (in.scale == out.scale && in.zero_point == out.zero_point) {
        // Same quantization: quantize is monotone and exact on the grid, so
        // quantize(clamp(x, lo, hi)) = clamp(q, quantize(lo), quantize(hi)).
        const auto f = LutFunction(op);
        r.act_min = std::max<int32_t>(r.act_min, QuantizeToInt8(f(-1e30), out));
        r.act_max = std::min<int32_t>(r.act_max, QuantizeToInt8(f(1e30), out));
      } else {
        const Lut lut = BuildLut(LutFunction(op), in, out);
        r.lut.assign(lut.begin(), lut.end());
      }
      break;
    case OpType::kConcat: {
      // Inputs whose quantization differs from the output's are rescaled (empty lists:
      // every input shares it and the concat is a byte copy).
      bool same = true;
      for (ir::TensorId id : op.inputs) {
        const AffineQuant q = TensorQuant(g, op, id);
        same = same && q.scale == out.scale && q.zero_point == out.zero_point;
      }
      if (same) break;
      for (ir::TensorId id : op.inputs) {
        const QuantizedMultiplier m =
            QuantizeMultiplierOrThrow(TensorQuant(g, op, id).scale / out.scale, OpLabel(op));
        r.input_multiplier.push_back(m.multiplier);
        r.input_shift.push_back(static_cast<int8_t>(m.shift));
      }
      break;
    }
    case OpType::kBatchNormalization: {
      std::vector<double> scale, shift;
      BatchNormScaleShift(g, op, scale, shift);
      for (size_t c = 0; c < scale.size(); ++c) {
        // out = zp_out + round_half_even(((x - zp_in) * A + O) / 2^k): ONE rounding of the
        // real x * scale + shift, as onnxruntime's float BatchNormalization followed by
        // QuantizeLinear rounds once (tgrs_batch_norm_s8). A = S * 2^k and O = B * 2^k
        // share the fixed point 2^-k, S = in_scale * scale[c] / out_scale and
        // B = shift[c] / out_scale, with the largest k (at most 62) that keeps both within
        // int32. Stored as output_multiplier = A, output_shift = 31 - k, channel_offset = O.
        const double s_real = in.scale * scale[c] / out.scale;
        const double b_real = shift[c] / out.scale;
        const double limit = 2147483647.0;
        int k = 62;
        while (k > 0 && (std::fabs(s_real) * std::ldexp(1.0, k) >= limit ||
                         std::fabs(b_real) * std::ldexp(1.0, k) >= limit)) {
          --k;
        }
        if (k == 0 || !std::isfinite(s_real) || !std::isfinite(b_real)) {
          throw Error(Status::kUnsupportedQuantization,
                      OpLabel(op) + " channel " + std::to_string(c) +
                          ": scale or offset too large for int8 batch normalization");
        }
        r.output_multiplier.push_back(static_cast<int32_t>(std::nearbyint(std::ldexp(s_real, k))));
        r.output_shift.push_back(static_cast<int8_t>(31 - k));
        r.channel_offset.push_back(static_cast<int32_t>(std::nearbyint(std::ldexp(b_real, k))));
        r.channel_scale.push_back(static_cast<float>(scale[c]));
        r.channel_shift.push_back(static_cast<float>(shift[c]));
      }
      break;
    }
    default:
      if (IsLutOp(op.type)) {  // every other unary op of the op table: a table
        const Lut lut = BuildLut(LutFunction(op), in, out);
        r.lut.assign(lut.begin(), lut.end());
      }
      break;  // data movement, resize, pad, softmax: quantization read from the tensors
  }
}

// An int8 Where (qdq_fold.cc: a bool condition, X and Y dequantized, the output quantized)
// moves values unchanged: X and Y each requantized to the output's grid by a table, the two
// tables in Op.lut (512 entries, X's first), or none when both share the output's grid and
// the selection copies codes (tgrs_where_s8).
void WhereInt8Params(const ir::Graph& g, const ir::Op& op, OpRecord& r) {
  const AffineQuant out = TensorQuant(g, op, op.outputs[0]);
  const AffineQuant x = TensorQuant(g, op, op.input(1));
  const AffineQuant y = TensorQuant(g, op, op.input(2));
  const auto same = [&](AffineQuant q) {
    return static_cast<float>(q.scale) == static_cast<float>(out.scale) &&
           q.zero_point == out.zero_point;
  };
  if (same(x) && same(y)) return;
  const Lut tx = BuildRequantizeLut(x, out);
  const Lut ty = BuildRequantizeLut(y, out);
  r.lut.assign(tx.begin(), tx.end());
  r.lut.insert(r.lut.end(), ty.begin(), ty.end());
}

}  // namespace

void TranslateQuant(const ir::Graph& g, const ir::Op& op, OpRecord& r) {
  if (op.outputs.empty() || op.input(0) == ir::kNoTensor) return;
  if (op.type == OpType::kWhere) {  // input 0 is the bool condition
    if (g.tensor(op.outputs[0]).dtype == ir::DType::kInt8) WhereInt8Params(g, op, r);
    return;
  }
  const bool int8 = g.tensor(op.outputs[0]).dtype == ir::DType::kInt8 &&
                    g.tensor(op.input(0)).dtype == ir::DType::kInt8;
  if (int8) {
    Int8Params(g, op, r);
    return;
  }
  if (op.type == OpType::kBatchNormalization) {
    std::vector<double> scale, shift;
    BatchNormScaleShift(g, op, scale, shift);
    for (size_t c = 0; c < scale.size(); ++c) {
      r.channel_scale.push_back(static_cast<float>(scale[c]));
      r.channel_shift.push_back(static_cast<float>(shift[c]));
    }
  }
}

}  // namespace tigris::emit
