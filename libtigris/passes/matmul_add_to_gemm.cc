// MatMul (+ bias Add) to Gemm: a fully connected layer exported as MatMul with a constant
// weight becomes the one canonical Gemm form the runtime and the emitter know:
// y = A * B'^T + C with transA = 0, transB = 1, alpha = beta = 1, B' = B^T of shape [N, K]
// (one row per output channel, like TFLite FullyConnected) and C absent or [N].
//
// Before:  A[M,K] -> MatMul(B[K,N]) -> t[M,N] -> Add(bias [N] or [1,N]) -> y
// After:   A[M,K] -> Gemm(B'[N,K], bias[N]) -> y
// (mnist8.onnx: Times212 on a 1x256 input, then Plus214 with a [1,10] bias.)
//
// Also rewritten: a MatMul with a constant 2-D B and no bias Add (Gemm without C). One
// FC form means one kernel, one weight layout in the emitter, and that batchnorm-fold and
// activation-fuse (which match Gemm, not MatMul) apply to it as well.
//
// Left as MatMul (a runtime op): non-constant B (activation x activation), and A or B of
// rank other than 2 (batched MatMul).
//
// int8 graphs: the weight's per-channel quantization axis moves with the transpose
// (axis 1 of [K, N] is axis 0 of [N, K]). The bias Add is fused only when t is float32:
// with a quantized t the model rounds t to int8 before adding the bias, which a fused
// Gemm would skip, and the bias would need the int32 (scale = s_A * s_B) form anyway. So
// an int8 MatMul becomes a bias-less Gemm followed by its own Add.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

// The constant bias operand of `add` (the operand that is not `t`) as a float vector of N
// elements, when it is float32 of shape [N] or [1, N] and the Add does not broadcast its
// result beyond t's shape. Otherwise empty.
std::vector<float> BiasOperand(const ir::Graph& graph, const ir::Op& add, ir::TensorId t,
                               int64_t n) {
  if (add.inputs.size() != 2 || add.outputs.size() != 1) return {};
  ir::TensorId other = add.inputs[0] == t ? add.inputs[1] : add.inputs[0];
  if (other == t || !graph.IsConstant(other)) return {};
  const ir::Tensor& bias = graph.tensor(other);
  if (bias.dtype != ir::DType::kFloat32) return {};
  const bool vector_shape = bias.shape == ir::Shape{n} || bias.shape == ir::Shape{1, n};
  if (!vector_shape || graph.tensor(add.outputs[0]).shape != graph.tensor(t).shape) return {};
  return FloatConstant(bias);
}

// B^T as a new constant of shape [N, K], with a per-channel quantization axis moved along.
ir::TensorId TransposedWeight(ir::Graph& graph, ir::TensorId b_id, const ir::Op& op) {
  const ir::Tensor& b = graph.tensor(b_id);
  RequireConstantData(b);
  const int64_t k = b.shape[0];
  const int64_t n = b.shape[1];
  ir::Tensor bt;
  bt.name = graph.UniqueTensorName(b.name + "_t");
  bt.dtype = b.dtype;
  bt.shape = {n, k};
  bt.is_constant = true;
  bt.data = TransposeMatrixBytes(b.data, k, n, ir::DTypeSize(b.dtype));
  bt.quant = b.quant;
  if (bt.quant && bt.quant->per_channel()) {
    int32_t axis = bt.quant->axis < 0 ? bt.quant->axis + 2 : bt.quant->axis;
    if (axis != 0 && axis != 1) {
      throw Error(Status::kUnsupportedQuantization,
                  DescribeOp(op) + ": weight '" + b.name + "' has quantization axis " +
                      std::to_string(bt.quant->axis) + ", which a 2-D weight does not have");
    }
    bt.quant->axis = 1 - axis;
  }
  return graph.AddTensor(std::move(bt));
}

void MakeCanonicalGemm(ir::Op& op) {
  op.type = ir::OpType::kGemm;
  op.attrs = {};
  op.attrs.Set("transA", int64_t{0});
  op.attrs.Set("transB", int64_t{1});
  op.attrs.Set("alpha", 1.0f);
  op.attrs.Set("beta", 1.0f);
}

}  // namespace

void MatMulAddToGemm(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (graph.ops[i].type != ir::OpType::kMatMul) continue;
    const ir::Op& mm = graph.ops[i];
    ir::TensorId a = mm.input(0);
    ir::TensorId b = mm.input(1);
    if (a == ir::kNoTensor || b == ir::kNoTensor || mm.outputs.size() != 1) {
      throw Error(Status::kInvalidModel, DescribeOp(mm) + " needs inputs A, B and one output");
    }
    if (!graph.IsConstant(b)) continue;
    const ir::Shape& a_shape = graph.tensor(a).shape;
    const ir::Shape& b_shape = graph.tensor(b).shape;
    if (a_shape.size() != 2 || b_shape.size() != 2) continue;
    if (a_shape[1] != b_shape[0]) {
      throw Error(Status::kInvalidModel, DescribeOp(mm) + ": A " + ir::ShapeToString(a_shape) +
                                             " and B " + ir::ShapeToString(b_shape) +
                                             " disagree on K");
    }
    const int64_t n = b_shape[1];
    const ir::TensorId t = mm.outputs[0];

    std::vector<float> bias;
    int add = SoleConsumer(graph, consumers, t);
    if (add >= 0 && graph.ops[static_cast<size_t>(add)].type == ir::OpType::kAdd &&
        !graph.tensor(t).quant && graph.tensor(b).dtype == ir::DType::kFloat32) {
      bias = BiasOperand(graph, graph.ops[static_cast<size_t>(add)], t, n);
    }

    ir::TensorId weight = TransposedWeight(graph, b, graph.ops[i]);
    ir::Op& gemm = graph.ops[i];
    MakeCanonicalGemm(gemm);
    gemm.inputs = {a, weight};
    if (!bias.empty()) {
      gemm.inputs.push_back(AddFloatConstant(graph, gemm.name + "_bias", {n}, bias));
      AbsorbSuccessor(graph, static_cast<int>(i), add, dead);
    }
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
