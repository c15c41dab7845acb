// split-to-slice (an added pass, before qdq-fold; pipeline.cc): a Split with N outputs
// becomes N Slice ops along the same axis, one per output.
//
// The runtime's ops have one output each (runtime/src/exec_internal.h); a Slice is a
// strided copy the runtime runs as SLICE, and a row-tileable one when the axis is not H
// (analysis/tileability.cc). torchvision's ShuffleNetV2 splits channels in two (`chunk`):
//
//   before:  x[1,116,28,28] -> Split(axis 1, split [58, 58]) -> a[1,58,28,28], b[1,58,28,28]
//   after:   x -> Slice(starts [0],  ends [58],  axes [1]) -> a
//            x -> Slice(starts [58], ends [116], axes [1]) -> b
//
// Each Slice keeps its output tensor (name, shape, quantization), so a QDQ model's
// DequantizeLinear -> Split -> QuantizeLinear becomes one int8 Slice per output in qdq-fold.
// The output extents are the shapes the loader resolved (onnx/shape_rules_shape_ops.cc,
// SplitRule), so every split form (sizes input, split attribute, num_outputs) is covered.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

ir::TensorId Int64Constant(ir::Graph& graph, const std::string& base, int64_t value) {
  ir::Tensor t;
  t.SetData(std::vector<int64_t>{value});
  return graph.AddConstant(base, ir::DType::kInt64, {1}, std::move(t.data));
}

// The Slice ops replacing `split`, in output order.
std::vector<ir::Op> SlicesOf(ir::Graph& graph, const ir::Op& split, OpNamer& namer) {
  // A copy: adding the constants below may move graph.tensors.
  const ir::Shape in_shape = graph.tensor(split.input(0)).shape;
  const int64_t rank = static_cast<int64_t>(in_shape.size());
  int64_t axis = split.attrs.GetInt("axis", 0);
  if (axis < -rank || axis >= rank) {
    throw Error(Status::kInvalidModel, DescribeOp(split) + ": axis " + std::to_string(axis) +
                                           " is out of range for rank " + std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  const ir::TensorId axes = Int64Constant(graph, split.name + "_axes", axis);
  std::vector<ir::Op> slices;
  int64_t offset = 0;
  for (size_t i = 0; i < split.outputs.size(); ++i) {
    const ir::TensorId out = split.outputs[i];
    if (out == ir::kNoTensor) {
      throw Error(Status::kInvalidModel,
                  DescribeOp(split) + ": output " + std::to_string(i) + " has no tensor");
    }
    const int64_t extent = graph.tensor(out).shape[static_cast<size_t>(axis)];
    ir::Op slice;
    slice.type = ir::OpType::kSlice;
    slice.name = namer.Unique(split.name + "_slice" + std::to_string(i));
    slice.inputs = {split.input(0), Int64Constant(graph, slice.name + "_starts", offset),
                    Int64Constant(graph, slice.name + "_ends", offset + extent), axes};
    slice.outputs = {out};
    slices.push_back(std::move(slice));
    offset += extent;
  }
  if (offset != in_shape[static_cast<size_t>(axis)]) {
    throw Error(Status::kInvalidModel, DescribeOp(split) + ": outputs cover " +
                                           std::to_string(offset) + " of the " +
                                           std::to_string(in_shape[static_cast<size_t>(axis)]) +
                                           " entries of axis " + std::to_string(axis));
  }
  return slices;
}

}  // namespace

void SplitToSlice(ir::Graph& graph) {
  bool any = false;
  for (const ir::Op& op : graph.ops) any = any || op.type == ir::OpType::kSplit;
  if (!any) return;
  OpNamer namer(graph);
  std::vector<ir::Op> ops;
  ops.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kSplit) {
      ops.push_back(std::move(op));
      continue;
    }
    for (ir::Op& slice : SlicesOf(graph, op, namer)) ops.push_back(std::move(slice));
  }
  graph.ops = std::move(ops);
}

}  // namespace tigris::passes
