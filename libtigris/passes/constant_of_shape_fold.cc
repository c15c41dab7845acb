// constant-of-shape-fold (added pass, after constant-op-fold; pipeline.cc): a
// ConstantOfShape becomes a constant tensor filled with its value.
//
// The loader turns the node's TENSOR attribute "value" into constant input 1 (one
// element, ONNX's default float32 0 when absent; onnx_loader.h). Every shape is resolved at
// load time (ir/shape.h), so the output's shape is known even when the shape operand is
// computed (ConstantOfShape(Shape(x)) in torch exports): the fold needs no constant shape
// operand. When the operand is constant it must agree with the resolved shape.
//
//   before:  s[2] {int64 [2, 3]}    v[1] {float32 [0.5]}
//            ConstantOfShape 'fill' (s, v) -> y[2,3]
//   after:   y[2,3] {constant float32 [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]}
//
// A computed shape operand (a Shape -> Gather chain) is left without readers; shape-op-fold
// erases such dead chains.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

constexpr int64_t kMaxFoldedConstantBytes = int64_t{1} << 30;  // 1 GiB

void FoldOne(ir::Graph& graph, const ir::Op& op) {
  if (op.inputs.size() != 2 || op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor ||
      op.inputs[1] == ir::kNoTensor) {
    throw Error(Status::kInvalidModel, "ConstantOfShape node '" + op.name +
                                           "' must have a shape input, a fill value input "
                                           "(added by the loader) and one output");
  }
  const ir::Tensor& value = graph.tensor(op.inputs[1]);
  size_t element_size = ir::DTypeSize(value.dtype);
  if (!value.is_constant || value.num_elements() != 1 || element_size == 0 ||
      value.data.size() != element_size) {
    throw Error(Status::kInvalidModel, "ConstantOfShape node '" + op.name +
                                           "' needs a one-element constant fill value; '" +
                                           value.name + "' is not one");
  }
  ir::Tensor& out = graph.tensor(op.outputs[0]);
  if (op.inputs[0] != ir::kNoTensor && graph.IsConstant(op.inputs[0])) {
    std::vector<int64_t> dims = ir::ConstantAsInt64s(graph.tensor(op.inputs[0]));
    if (dims != out.shape) {
      throw Error(Status::kInvalidModel, "ConstantOfShape node '" + op.name + "' asks for shape " +
                                             ir::ShapeToString(dims) + " but its output '" +
                                             out.name + "' was resolved to " +
                                             ir::ShapeToString(out.shape));
    }
  }
  for (int64_t d : out.shape) {
    if (d < 0) {
      throw Error(Status::kInvalidModel, "ConstantOfShape node '" + op.name +
                                             "' has a negative dimension in output '" + out.name +
                                             "' " + ir::ShapeToString(out.shape));
    }
  }
  int64_t count = ir::NumElements(out.shape);
  // A few bytes of ONNX may ask for gigabytes (fuzz_onnx,
  // fuzz/regressions/onnx/constant-of-shape-10gb.onnx); the largest weight of a real model
  // here, VGG-19's first fully connected layer, is 411 MB.
  if (count > kMaxFoldedConstantBytes / static_cast<int64_t>(element_size)) {
    throw Error(Status::kInvalidModel,
                "ConstantOfShape node '" + op.name + "' would make a constant of " +
                    std::to_string(count) + " elements (" + ir::ShapeToString(out.shape) +
                    "), more than the " + std::to_string(kMaxFoldedConstantBytes >> 20) +
                    " MiB a folded constant may hold");
  }
  // Filled by doubling copies: element by element, a 272-byte model asking for 900 MB took
  // over 10 s under the fuzzers' sanitizers (fuzz_onnx, fuzz/regressions/onnx).
  std::vector<uint8_t> data(static_cast<size_t>(count) * element_size);
  if (!data.empty()) {
    std::memcpy(data.data(), value.data.data(), element_size);
    for (size_t filled = element_size; filled < data.size(); filled *= 2) {
      std::memcpy(data.data() + filled, data.data(), std::min(filled, data.size() - filled));
    }
  }
  out.dtype = value.dtype;
  out.is_constant = true;
  out.data = std::move(data);
}

}  // namespace

void ConstantOfShapeFold(ir::Graph& graph) {
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (graph.ops[i].type != ir::OpType::kConstantOfShape) continue;
    FoldOne(graph, graph.ops[i]);
    dead[i] = true;
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
