// constant-op-fold (tigris-compilation-pipeline.txt, stage 2, pass 1): ONNX Constant
// nodes become constant tensors, so every later pass sees a weight as data instead of as
// the output of an op.
//
// The loader already decoded the node's value into the op's output tensor (dtype, shape,
// bytes) but left is_constant false (onnx_loader.h / graph_import.cc); this pass flips the
// flag and erases the op:
//
//   before:  Constant 'c' () -> w[2] {is_constant=false, data=[1.5, -2]}
//            Mul(x, w) -> y
//   after:   w[2] {is_constant=true, data=[1.5, -2]}
//            Mul(x, w) -> y
#include <string>
#include <vector>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {

void ConstantOpFold(ir::Graph& graph) {
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kConstant) continue;
    if (!op.inputs.empty() || op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor) {
      throw Error(Status::kInvalidModel,
                  "Constant node '" + op.name + "' must have no inputs and exactly one output");
    }
    ir::Tensor& value = graph.tensor(op.outputs[0]);
    // Later passes index the bytes by shape; a mismatch would read out of bounds.
    if (value.dtype == ir::DType::kUnknown ||
        static_cast<int64_t>(value.data.size()) != value.byte_size()) {
      throw Error(Status::kInvalidModel, "Constant node '" + op.name + "' holds " +
                                             std::to_string(value.data.size()) +
                                             " bytes for tensor '" + value.name + "' of shape " +
                                             ir::ShapeToString(value.shape) + " and dtype " +
                                             std::string(ir::DTypeName(value.dtype)));
    }
    value.is_constant = true;
    dead[i] = true;
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
