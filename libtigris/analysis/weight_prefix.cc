#include "analysis/weight_prefix.h"

#include "analysis/alignment.h"

namespace tigris::analysis {

bool OperandsBecomeAttributes(ir::OpType type) {
  if (ir::IsReduceOp(type)) return true;  // axes
  switch (type) {
    case ir::OpType::kReshape:             // target shape
    case ir::OpType::kClip:                // min / max
    case ir::OpType::kResize:              // scales
    case ir::OpType::kPad:                 // pads, constant value
    case ir::OpType::kSlice:               // starts, ends, axes, steps
    case ir::OpType::kBatchNormalization:  // statistics, folded into scale / shift
      return true;
    default:
      return false;
  }
}

std::vector<ir::TensorId> ResidentConstants(const ir::Graph& graph, const ir::Op& op) {
  std::vector<ir::TensorId> out;
  const size_t kept = OperandsBecomeAttributes(op.type) ? 1 : op.inputs.size();
  for (size_t k = 0; k < op.inputs.size() && k < kept; ++k) {
    if (graph.IsConstant(op.inputs[k])) out.push_back(op.inputs[k]);
  }
  return out;
}

void WeightPrefix::AddOp(const ir::Graph& graph, int op) {
  for (ir::TensorId t : ResidentConstants(graph, graph.ops[static_cast<size_t>(op)])) {
    if (!constants_.insert(t).second) continue;
    bytes_ += AlignUp(static_cast<int64_t>(graph.tensor(t).data.size()));
  }
}

int64_t WeightPrefixBytes(const ir::Graph& graph, const std::vector<int>& ops) {
  WeightPrefix prefix;
  for (int op : ops) prefix.AddOp(graph, op);
  return prefix.bytes();
}

}  // namespace tigris::analysis
