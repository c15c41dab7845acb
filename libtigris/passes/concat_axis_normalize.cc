// Reference pass 11 (tigris-compilation-pipeline.txt, stage 2): Concat's axis is
// rewritten from ONNX's channels-first numbering to the runtime's channels-last one.
//
// The IR keeps every shape in ONNX order (NCHW, ir/shape.h); only emission lays
// activations out NHWC (reference stage 7, "layout transpose"). The Concat kernel walks
// NHWC bytes, so the axis it needs is the position of the same dimension in NHWC order:
//
//   rank 4, NCHW -> NHWC: 0 (N) -> 0, 1 (C) -> 3, 2 (H) -> 1, 3 (W) -> 2
//   rank 3, NCW  -> NWC:  0 (N) -> 0, 1 (C) -> 2, 2 (W) -> 1   (Conv1D activations)
//
//   before: a[1,8,16,16], b[1,4,16,16] -> Concat(axis=1)  -> y[1,12,16,16]
//   after:  a, b -> Concat(axis=3, layout="NHWC")           -> y[1,12,16,16] (shape unchanged)
//
// So one attribute is deliberately in a different convention from the shapes around it;
// attribute "layout" records that ("NHWC" or "NWC") so no reader mistakes the axis for an
// NCHW one, and marks the op as done (the pass is idempotent). Negative axes are
// normalized first. Rank 1 and 2 ([N,C] features) are laid out the same in both
// conventions: the axis is only made non-negative and no "layout" is set.
#include <string>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {

void ConcatAxisNormalize(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kConcat || op.attrs.Has("layout")) continue;
    const std::string where = "Concat node '" + op.name + "' of model '" + graph.name + "'";
    if (op.outputs.size() != 1) {
      throw Error(Status::kInvalidModel, where + " must have exactly one output");
    }
    const int64_t rank = static_cast<int64_t>(graph.tensor(op.outputs[0]).shape.size());
    int64_t axis = op.attrs.GetInt("axis", 1);  // Concat-1 defaulted to 1
    if (axis < -rank || axis >= rank) {
      throw Error(Status::kInvalidModel, where + ": axis " + std::to_string(axis) +
                                             " is out of range for rank " + std::to_string(rank));
    }
    if (axis < 0) axis += rank;
    if (rank == 3 || rank == 4) {
      // Channels (axis 1) move last; the spatial axes each move one place forward.
      axis = axis == 0 ? 0 : (axis == 1 ? rank - 1 : axis - 1);
      op.attrs.Set("layout", std::string(rank == 4 ? "NHWC" : "NWC"));
    } else if (rank > 4) {
      throw Error(Status::kUnsupportedOp,
                  where + ": rank " + std::to_string(rank) + " (the runtime lays out rank <= 4)");
    }
    op.attrs.Set("axis", axis);
  }
}

}  // namespace tigris::passes
