// DepthwiseConv relabel (tigris-compilation-pipeline.txt, stage 2, pass 5): a Conv whose
// group equals its input channel count convolves every channel on its own, which the
// runtime runs with its depthwise kernel (and the emitter lays out as [KH, KW, C]).
//
// Before:  Conv(x [N, C_in, H, W], w [C_out, 1, KH, KW], group = C_in)
// After:   DepthwiseConv(same inputs and attributes)
//
// Depth multiplier: C_out may be any multiple m of C_in (Keras DepthwiseConv2D with
// depth_multiplier = m exports this way); output channel c reads input channel c / m.
// The op keeps its ONNX weight [C_out, 1, KH, KW], so m = C_out / C_in is read off the
// shapes and needs no attribute.
//
// Not relabeled (stay Conv): group = 1 (a single-channel input is an ordinary Conv), any
// other group (grouped convolution), and 1-D convolutions (input rank 3): the runtime's
// depthwise kernel is 2-D, so conv1d-relabel turns those into Conv1D with their group.
#include <string>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool IsDepthwise(const ir::Graph& graph, const ir::Op& op) {
  const int64_t group = op.attrs.GetInt("group", 1);
  if (group <= 1 || op.input(0) == ir::kNoTensor || op.input(1) == ir::kNoTensor) return false;
  const ir::Shape& x = graph.tensor(op.input(0)).shape;
  const ir::Shape& w = graph.tensor(op.input(1)).shape;
  if (x.size() != 4 || w.size() != 4 || x[1] != group) return false;
  if (w[1] != 1 || w[0] % group != 0) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + ": group " + std::to_string(group) +
                                           " equals C_in but weight " + ir::ShapeToString(w) +
                                           " is not [m * C_in, 1, KH, KW]");
  }
  return true;
}

}  // namespace

void DepthwiseConvRelabel(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type == ir::OpType::kConv && IsDepthwise(graph, op)) {
      op.type = ir::OpType::kDepthwiseConv;
    }
  }
}

}  // namespace tigris::passes
