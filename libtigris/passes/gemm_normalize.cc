// Gemm normalize: one Gemm form for batchnorm-fold, activation-fuse and the emitter.
//
// ONNX Gemm is Y = alpha * op(A) * op(B) + beta * C with op = transpose when transA/transB
// is set and C unidirectionally broadcast to [M, N]. The canonical form is
//   transA = 0, transB = 1, alpha = 1, beta = 1 (all set explicitly),
//   B a constant [N, K] (one row per output channel, like TFLite FullyConnected),
//   C absent or a constant vector [N],
// reached by rewriting the constants, never the arithmetic:
//   transB = 0            -> B' = B^T (a per-channel quantization axis moves with it);
//   alpha != 1            -> B' = alpha * B (float32 B; a quantized B's scales, alpha > 0);
//   beta != 1             -> C' = beta * C (float32 C; a quantized C's scales, beta > 0);
//                            beta = 0 drops C;
//   C scalar, [1], [1, N] -> C' = the [N] vector it broadcasts to.
// Example (kws_small_cnn.onnx): Gemm(transB=0, B [32, 12], C [12])
//   -> Gemm(transA=0, transB=1, alpha=1, beta=1, B' [12, 32], C [12]).
//
// Errors, naming the node: transA = 1 (kUnsupportedOp: the runtime streams A as [M, K]
// activations and exporters do not emit it for FC layers); a non-constant B that would
// need transposing or scaling, or a non-constant C (kUnsupportedOp: nothing to rewrite
// at compile time); a C that varies along M (kUnsupportedOp: not a per-channel bias);
// alpha or beta <= 0 on int8 / int32 constants, or != 1 on integers without quantization
// (kUnsupportedQuantization / kUnsupportedDType: no scale to carry the factor). A quantized
// constant's codes never change: the value each code stands for scales exactly, and
// bias-rescale then moves an int32 bias to the scaled accumulator's grid.
// A Gemm with a non-constant B already in the transB = 1, alpha = 1 form stays as it is.
#include <cstddef>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

// Multiplies constant `t` (already copied for the rewrite) by alpha or beta: float32 data
// value by value; a quantized constant through its scales (exact, and no code moves), for
// a positive factor.
void ScaleConstant(const ir::Op& op, ir::Tensor& t, const char* factor, float value) {
  if (t.dtype == ir::DType::kFloat32) {
    std::vector<float> values = FloatConstant(t);
    for (float& v : values) v *= value;
    t.SetData(values);
    return;
  }
  if (t.quant && value > 0.0f) {
    for (float& scale : t.quant->scales) scale *= value;
    return;
  }
  Status status = t.quant ? Status::kUnsupportedQuantization : Status::kUnsupportedDType;
  throw Error(status, DescribeOp(op) + ": " + factor + "=" + std::to_string(value) +
                          " cannot be folded into " + std::string(ir::DTypeName(t.dtype)) +
                          " constant '" + t.name + "'");
}

// B as [N, K] with alpha folded in. Returns B unchanged when already canonical.
ir::TensorId NormalizeWeight(ir::Graph& graph, const ir::Op& op, bool trans_b, float alpha) {
  const ir::TensorId b_id = op.input(1);
  const ir::Tensor& b = graph.tensor(b_id);
  if (!graph.IsConstant(b_id)) {
    if (!trans_b || alpha != 1.0f) {
      throw Error(Status::kUnsupportedOp,
                  DescribeOp(op) + ": B '" + b.name + "' is computed at run time and needs " +
                      (trans_b ? "alpha folded in" : "transposing (transB=0)") +
                      ", which the runtime's Gemm (B as [N, K], alpha=1) cannot do");
    }
    return b_id;
  }
  if (trans_b && alpha == 1.0f) return b_id;
  RequireConstantData(b);
  ir::Tensor nb;
  nb.name = graph.UniqueTensorName(b.name + (trans_b ? "_scaled" : "_t"));
  nb.dtype = b.dtype;
  nb.is_constant = true;
  nb.quant = b.quant;
  nb.shape = b.shape;
  nb.data = b.data;
  if (alpha != 1.0f) ScaleConstant(op, nb, "alpha", alpha);
  if (!trans_b) {
    nb.shape = {b.shape[1], b.shape[0]};
    nb.data = TransposeMatrixBytes(nb.data, b.shape[0], b.shape[1], ir::DTypeSize(b.dtype));
    if (nb.quant && nb.quant->per_channel()) {
      int32_t axis = nb.quant->axis < 0 ? nb.quant->axis + 2 : nb.quant->axis;
      if (axis != 0 && axis != 1) {
        throw Error(Status::kUnsupportedQuantization,
                    DescribeOp(op) + ": B '" + b.name + "' has quantization axis " +
                        std::to_string(nb.quant->axis) + ", which a 2-D weight does not have");
      }
      nb.quant->axis = 1 - axis;  // the channel axis moves with the transpose
    }
  }
  return graph.AddTensor(std::move(nb));
}

// C as a vector [N] with beta folded in; kNoTensor when beta = 0 or C is absent.
ir::TensorId NormalizeBias(ir::Graph& graph, const ir::Op& op, int64_t n, float beta) {
  const ir::TensorId c_id = op.input(2);
  if (c_id == ir::kNoTensor || beta == 0.0f) return ir::kNoTensor;
  const ir::Tensor& c = graph.tensor(c_id);
  if (!graph.IsConstant(c_id)) {
    throw Error(Status::kUnsupportedOp, DescribeOp(op) + ": C '" + c.name +
                                            "' is computed at run time; the runtime's Gemm "
                                            "takes a constant bias");
  }
  RequireConstantData(c);
  const int64_t count = c.num_elements();
  // Only C that is constant along M is a bias: scalar-like (one element) or [N] / [1, N].
  const bool one = count == 1;
  const bool row = count == n && (c.shape == ir::Shape{n} || c.shape == ir::Shape{1, n});
  if (!one && !row) {
    throw Error(Status::kUnsupportedOp,
                DescribeOp(op) + ": C '" + c.name + "' of shape " + ir::ShapeToString(c.shape) +
                    " is not a per-output-channel bias (expected a scalar, [" + std::to_string(n) +
                    "] or [1, " + std::to_string(n) + "])");
  }
  if (c.shape == ir::Shape{n} && beta == 1.0f) return c_id;

  ir::Tensor nc;
  nc.name = graph.UniqueTensorName(c.name + "_vec");
  nc.dtype = c.dtype;
  nc.is_constant = true;
  nc.shape = {n};
  nc.quant = c.quant;
  if (nc.quant && nc.quant->per_channel()) nc.quant->axis = 0;  // [1, N] axis 1 -> [N] axis 0
  nc.data = c.data;
  if (beta != 1.0f) ScaleConstant(op, nc, "beta", beta);
  if (one && n != 1) {
    // Broadcast the single element to every output channel.
    const size_t size = ir::DTypeSize(c.dtype);
    std::vector<uint8_t> element(nc.data.begin(),
                                 nc.data.begin() + static_cast<std::ptrdiff_t>(size));
    nc.data.clear();
    for (int64_t i = 0; i < n; ++i) nc.data.insert(nc.data.end(), element.begin(), element.end());
  }
  return graph.AddTensor(std::move(nc));
}

void NormalizeGemm(ir::Graph& graph, ir::Op& op) {
  if (op.input(0) == ir::kNoTensor || op.input(1) == ir::kNoTensor || op.outputs.size() != 1) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + " needs inputs A, B and one output");
  }
  const ir::Shape a_shape = graph.tensor(op.input(0)).shape;
  const ir::Shape b_shape = graph.tensor(op.input(1)).shape;
  if (a_shape.size() != 2 || b_shape.size() != 2) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + ": A " + ir::ShapeToString(a_shape) +
                                           " and B " + ir::ShapeToString(b_shape) +
                                           " must both be 2-D");
  }
  if (op.attrs.GetInt("transA", 0) != 0) {
    throw Error(Status::kUnsupportedOp,
                DescribeOp(op) + " has transA=1; the runtime's Gemm reads A as [M, K]");
  }
  const bool trans_b = op.attrs.GetInt("transB", 0) != 0;
  const float alpha = op.attrs.GetFloat("alpha", 1.0f);
  const float beta = op.attrs.GetFloat("beta", 1.0f);
  const int64_t n = trans_b ? b_shape[0] : b_shape[1];
  const int64_t k = trans_b ? b_shape[1] : b_shape[0];
  if (a_shape[1] != k) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + ": A " + ir::ShapeToString(a_shape) +
                                           " and B " + ir::ShapeToString(b_shape) +
                                           " disagree on K");
  }

  ir::TensorId weight = NormalizeWeight(graph, op, trans_b, alpha);
  ir::TensorId bias = NormalizeBias(graph, op, n, beta);
  op.inputs = {op.inputs[0], weight};
  if (bias != ir::kNoTensor) op.inputs.push_back(bias);
  op.attrs.Set("transA", int64_t{0});
  op.attrs.Set("transB", int64_t{1});
  op.attrs.Set("alpha", 1.0f);
  op.attrs.Set("beta", 1.0f);
}

}  // namespace

void GemmNormalize(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type == ir::OpType::kGemm) NormalizeGemm(graph, op);
  }
}

}  // namespace tigris::passes
