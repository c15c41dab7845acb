#include "analysis/kernel_scratch.h"

#include "ir/recurrent.h"
#include "util/error.h"

namespace tigris::analysis {

int64_t KernelScratchBytes(const ir::Graph& graph, const ir::Op& op) {
  if (ir::IsRecurrentOp(op.type)) {
    const ir::TensorId r = op.input(ir::kRecurrentR);
    if (r == ir::kNoTensor || graph.tensor(r).shape.size() != 3) {
      throw Error(Status::kInvalidModel, "op '" + op.name + "' has no [D, G H, H] input R");
    }
    constexpr int64_t kFloatBytes = 4;
    return kFloatBytes * (ir::RecurrentGates(op.type) + 3) * graph.tensor(r).shape[2];
  }
  if (op.type != ir::OpType::kSoftmax && op.type != ir::OpType::kLogSoftmax) return 0;
  const ir::TensorId in = op.input(0);
  if (in == ir::kNoTensor) {
    throw Error(Status::kInvalidModel, "op '" + op.name + "' has no input");
  }
  const ir::Shape& shape = graph.tensor(in).shape;
  if (shape.empty()) return 4;  // a scalar softmax still keeps one accumulator
  const auto rank = static_cast<int64_t>(shape.size());
  // ONNX opset >= 13 default axis is -1.
  int64_t axis = op.attrs.GetInt("axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    throw Error(Status::kInvalidModel, "op '" + op.name + "' has axis " +
                                           std::to_string(op.attrs.GetInt("axis", -1)) +
                                           " outside its input's rank " + std::to_string(rank));
  }
  constexpr int64_t kFloatAccumulatorBytes = 4;
  return kFloatAccumulatorBytes * shape[static_cast<size_t>(axis)];
}

}  // namespace tigris::analysis
