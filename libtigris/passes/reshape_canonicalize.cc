// Added pass, after shape-op-fold (pipeline.cc): the runtime has one data-relabeling op,
// Reshape with a static target. Squeeze, Unsqueeze and Flatten of activations only change
// the shape, never the bytes (NCHW order is kept: the IR shapes stay ONNX's), so each
// becomes a Reshape to its already-resolved output shape:
//
//   before: x[1,C,1,1] -> Squeeze(axes=[2,3] as input 1) -> y[1,C]
//   after:  x[1,C,1,1] -> Reshape(shape=[1,C]) -> y[1,C]
//
// Any Reshape still carrying a shape operand (graphs that skipped shape-op-fold) gets the
// same canonical form: attribute "shape", a single input. Operands dropped here that an
// op computed (a leftover axes chain) are then dead and removed.
#include <string>

#include "passes/dead_code.h"
#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {

void ReshapeCanonicalize(ir::Graph& graph) {
  bool dropped_operand = false;
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kSqueeze && op.type != ir::OpType::kUnsqueeze &&
        op.type != ir::OpType::kFlatten && op.type != ir::OpType::kReshape) {
      continue;
    }
    if (op.input(0) == ir::kNoTensor || op.outputs.size() != 1) {
      throw Error(Status::kInvalidModel, std::string(ir::OpTypeName(op.type)) + " node '" +
                                             op.name + "' of model '" + graph.name +
                                             "' needs one data input and one output");
    }
    const ir::Tensor& in = graph.tensor(op.input(0));
    const ir::Tensor& out = graph.tensor(op.outputs[0]);
    // A relabeling keeps the element count; anything else is a shape the loader got wrong.
    if (in.num_elements() != out.num_elements()) {
      throw Error(Status::kInvalidModel, std::string(ir::OpTypeName(op.type)) + " node '" +
                                             op.name + "' of model '" + graph.name + "' maps " +
                                             ir::ShapeToString(in.shape) + " ('" + in.name +
                                             "') to " + ir::ShapeToString(out.shape) + " ('" +
                                             out.name + "'), which differ in element count");
    }
    dropped_operand = dropped_operand || op.inputs.size() > 1;
    op.type = ir::OpType::kReshape;
    op.inputs.resize(1);
    op.attrs = {};
    op.attrs.Set("shape", out.shape);
  }
  if (dropped_operand) EraseDeadOps(graph);
}

}  // namespace tigris::passes
