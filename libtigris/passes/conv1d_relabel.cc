// Conv1D relabel (tigris-compilation-pipeline.txt, stage 2, pass 6): a Conv over one
// spatial dimension (input [N, C, L], weight [C_out, C_in / group, K]) runs on the
// runtime's 1-D kernel. Attributes (strides, pads, dilations, group) are kept as they are,
// each with one spatial entry (two for pads).
//
// Before:  Conv(x [N, C, L], w [C_out, C_in, K])
// After:   Conv1D(same inputs and attributes)
//
// Runs after depthwise-conv-relabel, which leaves 1-D convolutions alone, so a grouped or
// depthwise 1-D Conv becomes Conv1D with its group attribute.
#include "passes/passes.h"

namespace tigris::passes {

void Conv1dRelabel(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kConv) continue;
    if (op.input(0) == ir::kNoTensor || op.input(1) == ir::kNoTensor) continue;
    if (graph.tensor(op.input(0)).shape.size() == 3 &&
        graph.tensor(op.input(1)).shape.size() == 3) {
      op.type = ir::OpType::kConv1D;
    }
  }
}

}  // namespace tigris::passes
