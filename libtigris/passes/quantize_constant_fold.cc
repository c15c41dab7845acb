// quantize-constant-fold (an added pass, before qdq-canonicalize; pipeline.cc): a
// QuantizeLinear whose input, scale and zero point are all constants becomes the integer
// constant it computes, so qdq-fold sees the form it folds (DequantizeLinear of an integer
// initializer) instead of a run-time Quantize of float weights.
//
// Exporters write this form when they keep float weights in the file and quantize them in
// the graph (onnxruntime's quantize_static for some weights, hand-written QDQ models):
//
//   before:  w[4,3,3,3] f32 (constant) -> QuantizeLinear(s_w[4], zp_w[4], axis 0) -> w_q
//            -> DequantizeLinear(s_w, zp_w, axis 0) -> Conv
//   after:   w_q[4,3,3,3] i8 (constant)                -> DequantizeLinear(...)   -> Conv
//
// A weight computed from constants (onnxruntime writes a BatchNormalization scale as
// Reshape(initializer) -> QuantizeLinear, DenseNet-121's int8 export) is a constant here
// too: the pipeline runs constant-expression-fold once before this pass.
//
// The fold computes exactly what ONNX QuantizeLinear computes (qdq_params.h,
// QuantizeConstant): saturate(round_half_even(x / scale) + zero_point) in float32, so the
// plan's weights are the bytes onnxruntime quantizes at run time. Only float32 inputs
// quantized to int8 or uint8 are folded; anything else (float16 inputs, computed scales,
// blocked quantization, int16) is left to qdq-fold, which names what it cannot fold.
#include <vector>

#include "passes/passes.h"
#include "passes/qdq_params.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool Foldable(const ir::Graph& graph, const ir::Op& op) {
  if (op.type != ir::OpType::kQuantizeLinear || op.outputs.size() != 1 ||
      op.outputs[0] == ir::kNoTensor || !graph.IsConstant(op.input(0)) ||
      !graph.IsConstant(op.input(1)) || graph.tensor(op.input(0)).dtype != ir::DType::kFloat32) {
    return false;
  }
  return op.input(2) == ir::kNoTensor || graph.IsConstant(op.input(2));
}

}  // namespace

void QuantizeConstantFold(ir::Graph& graph) {
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (!Foldable(graph, op)) continue;
    ir::Tensor& out = graph.tensor(op.outputs[0]);
    // The output has the input's shape; per-axis parameters are checked against it.
    const QdqParams params = ReadQdqParams(graph, op, out);
    if (params.quantized_dtype != ir::DType::kInt8 && params.quantized_dtype != ir::DType::kUInt8) {
      continue;  // int32: not a QuantizeLinear output type qdq-fold reads
    }
    const ir::Tensor& in = graph.tensor(op.input(0));
    if (in.shape != out.shape) {
      throw Error(Status::kInvalidModel, "QuantizeLinear node '" + op.name + "' reads '" + in.name +
                                             "' of shape " + ir::ShapeToString(in.shape) +
                                             " but its output '" + out.name + "' has shape " +
                                             ir::ShapeToString(out.shape));
    }
    std::vector<uint8_t> data = QuantizeConstant(in, params);
    out.dtype = params.quantized_dtype;
    out.is_constant = true;
    out.data = std::move(data);
    dead[i] = true;
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
