#include "passes/dead_code.h"

#include <vector>

namespace tigris::passes {

size_t EraseDeadOps(ir::Graph& graph) {
  // Uses of each tensor by ops still alive, plus one pin per graph-output slot. Ops are in
  // topological order, so one sweep from the back reaches the fixed point: when an op
  // dies its inputs lose a use before their producers (which come earlier) are examined.
  std::vector<int> uses(graph.tensors.size(), 0);
  for (const ir::Op& op : graph.ops) {
    for (ir::TensorId in : op.inputs) {
      if (in != ir::kNoTensor) ++uses[static_cast<size_t>(in)];
    }
  }
  for (ir::TensorId out : graph.outputs) {
    if (out != ir::kNoTensor) ++uses[static_cast<size_t>(out)];
  }

  std::vector<bool> dead(graph.ops.size(), false);
  size_t removed = 0;
  for (size_t i = graph.ops.size(); i-- > 0;) {
    const ir::Op& op = graph.ops[i];
    bool used = false;
    for (ir::TensorId out : op.outputs) {
      if (out != ir::kNoTensor && uses[static_cast<size_t>(out)] > 0) used = true;
    }
    if (used) continue;
    dead[i] = true;
    ++removed;
    for (ir::TensorId in : op.inputs) {
      if (in != ir::kNoTensor) --uses[static_cast<size_t>(in)];
    }
  }
  if (removed > 0) graph.EraseOps(dead);
  return removed;
}

}  // namespace tigris::passes
