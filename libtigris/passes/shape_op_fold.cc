// Reference pass 9 (tigris-compilation-pipeline.txt, stage 2): shape-computation chains
// fold away and every Reshape carries its static target shape as an attribute.
//
// torch exports Flatten as a chain that computes the target shape at run time:
//
//   before: x[1,1280,1,1] -> Shape -> Gather(0) -> Unsqueeze -> Concat([.., -1]) --+
//           x ------------------------------------------------------------------> Reshape ->
//           y[1,1280]
//   after:  x -> Reshape(shape=[1,1280]) -> y
//
// The loader already resolved every tensor's shape, the Reshape's output included, so the
// target needs no evaluation: the Reshape takes its output shape as attribute "shape" and
// drops its second input, and dead-op elimination then removes the whole chain.
//
// Chains that feed something other than a Reshape (Resize "sizes", Slice bounds) are
// evaluated by ConstantExpressionFold (constant_expression_fold.cc), which runs first.
#include "passes/dead_code.h"
#include "passes/passes.h"

namespace tigris::passes {

void ShapeOpFold(ir::Graph& graph) {
  ConstantExpressionFold(graph);

  // Every remaining Reshape gets its static target; its shape operand (constant or the
  // tail of a chain) is no longer read, so the chain dies below.
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kReshape) continue;
    op.attrs = {};
    op.attrs.Set("shape", graph.tensor(op.outputs.at(0)).shape);
    op.inputs.resize(1);
  }
  EraseDeadOps(graph);
}

}  // namespace tigris::passes
