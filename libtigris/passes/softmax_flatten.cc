// softmax-flatten: Softmax and LogSoftmax before opset 13 are not per-axis operators. ONNX
// Softmax-1/-11 "coerces" the input to 2-D, [prod(shape[:axis]), prod(shape[axis:])], and
// normalizes each row of that matrix, so with axis = 1 on [N, C, H, W] one softmax runs
// over all C * H * W values of each image, not over C per pixel (opset 13 changed this,
// and its default axis from 1 to -1). The runtime's kernel normalizes along one axis; the
// old form is that axis of the coerced matrix:
//
//   before (opset < 13):  x[N, C, H, W] -> Softmax(axis = 1) -> y[N, C, H, W]
//   after:                x -> Reshape([N, C*H*W]) -> Softmax(axis = 1) -> Reshape([N, C, H, W]) ->
//   y
//
// Exact (Reshape moves no values); the intermediates carry the input's and output's dtype
// and quantization. A softmax already over the last axis is left alone: there the two
// definitions agree. SqueezeNet 1.0 from the ONNX model zoo (opset 7) ends this way.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {

void SoftmaxFlatten(ir::Graph& graph) {
  if (graph.opset == 0 || graph.opset >= 13) return;
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    const bool softmax = op.type == ir::OpType::kSoftmax || op.type == ir::OpType::kLogSoftmax;
    if (!softmax || op.input(0) == ir::kNoTensor || op.outputs.size() != 1) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId x = op.inputs[0], y = op.outputs[0];
    const ir::Shape shape = graph.tensor(x).shape;
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = op.attrs.GetInt("axis", 1);  // the default before opset 13
    if (axis < -rank || axis >= rank) {
      throw Error(Status::kInvalidModel, DescribeOp(op) + ": axis " + std::to_string(axis) +
                                             " is out of range for rank " + std::to_string(rank));
    }
    if (axis < 0) axis += rank;
    if (axis == rank - 1) {
      op.attrs.Set("axis", axis);  // explicit: the emitter's default depends on the opset
      rewritten.push_back(std::move(op));
      continue;
    }
    int64_t rows = 1, cols = 1;
    for (int64_t d = 0; d < rank; ++d) (d < axis ? rows : cols) *= shape[static_cast<size_t>(d)];
    const ir::Shape matrix = {rows, cols};
    const ir::TensorId x2 = AddTensorLike(graph, x, graph.tensor(x).name + "_2d", matrix);
    const ir::TensorId y2 = AddTensorLike(graph, y, graph.tensor(y).name + "_2d", matrix);
    rewritten.push_back(MakeReshape(namer.Unique(op.name + "_coerce"), x, x2, matrix));
    op.inputs = {x2};
    op.outputs = {y2};
    op.attrs.Set("axis", int64_t{1});
    const std::string name = op.name;
    rewritten.push_back(std::move(op));
    rewritten.push_back(MakeReshape(namer.Unique(name + "_restore"), y2, y, graph.tensor(y).shape));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
