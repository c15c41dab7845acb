// input-transpose-trim (added pass, right after output-transpose-trim; pipeline.cc): the
// mirror of reference pass 12 at the graph's other end. A graph input read only by a
// Transpose (models exported with an NWC or NHWC input transpose it first) becomes the
// Transpose's output, with the permutation recorded in ir::Tensor::host_permutation:
// normalized input = transpose(ONNX input, host_permutation). The caller still passes the
// ONNX layout; the runtime's input copy, which transposes into its own layout anyway,
// applies the composed permutation (emit/plan_writer.cc, docs/plan-format.md). On the MCU
// the Transpose would copy the whole input with input and output co-resident: that copy
// was conv1d_small's entire smallest budget.
//
//   before:  x[1,10,4] (graph input) -> Transpose(perm=[0,2,1]) -> t[1,4,10] -> Conv1D ...
//   after:   x[1,4,10] (graph input, host_permutation=[0,2,1]) -> Conv1D ...
//
// Conditions: the input is read by that Transpose only and is not a graph output; the
// Transpose's output is not a graph output (a model that only transposes keeps its op).
// The input tensor the user addresses keeps its name.
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

// Trims one leading Transpose if any qualifies; returns whether it did.
bool TrimOne(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kTranspose) continue;
    const auto input = LoneReadGraphInput(graph, consumers, i);
    if (input == graph.inputs.end()) continue;
    graph.tensor(op.outputs[0]).host_permutation =
        TransposePermutation(graph, op, graph.tensor(*input).shape.size());
    MoveToHost(graph, i, input);
    return true;
  }
  return false;
}

}  // namespace

void InputTransposeTrim(ir::Graph& graph) {
  while (TrimOne(graph)) {
  }
}

}  // namespace tigris::passes
