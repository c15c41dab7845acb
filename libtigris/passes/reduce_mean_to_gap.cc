// Reference pass 8 (tigris-compilation-pipeline.txt, stage 2): ReduceMean over H and W
// becomes GlobalAveragePool, the runtime's pooling kernel.
//
//   before: x[1,C,H,W] -> ReduceMean(axes=[2,3] as input 1, keepdims=1) -> y[1,C,1,1]
//   after:  x[1,C,H,W] -> GlobalAveragePool -> y[1,C,1,1]
//
// With keepdims=0 the reduced axes disappear from the result, which GlobalAveragePool
// cannot express, so a Reshape to the reduced shape follows it (shape in attribute
// "shape", the form shape-op-fold gives every Reshape):
//
//   after:  x -> GlobalAveragePool -> t[1,C,1,1] -> Reshape(shape=[1,C]) -> y[1,C]
//
// Every other ReduceMean stays (it is a runtime op), but its axes move from the constant
// input 1 (the loader canonicalizes every opset to the opset-18 form) into attribute "axes"
// (non-negative, sorted) next to an explicit "keepdims", so the runtime never reads a
// constant input for it.
#include <algorithm>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

std::string Where(const ir::Graph& graph, const ir::Op& op) {
  return "ReduceMean node '" + op.name + "' of model '" + graph.name + "'";
}

// The reduced axes, non-negative and sorted; empty means "all axes" (ONNX default).
std::vector<int64_t> ReducedAxes(const ir::Graph& graph, const ir::Op& op, int64_t rank) {
  std::vector<int64_t> axes;
  ir::TensorId axes_id = op.input(1);
  if (axes_id != ir::kNoTensor) {
    if (!graph.IsConstant(axes_id)) {
      throw Error(Status::kUnsupportedOp,
                  Where(graph, op) + ": axes input '" + graph.tensor(axes_id).name +
                      "' is not a constant; only static reductions are supported");
    }
    axes = ir::ConstantAsInt64s(graph.tensor(axes_id));
  } else {
    axes = op.attrs.GetInts("axes");  // graphs built without the loader's canonical form
  }
  for (int64_t& axis : axes) {
    if (axis < -rank || axis >= rank) {
      throw Error(Status::kInvalidModel, Where(graph, op) + ": axis " + std::to_string(axis) +
                                             " is out of range for rank " + std::to_string(rank));
    }
    if (axis < 0) axis += rank;
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

}  // namespace

void ReduceMeanToGap(ir::Graph& graph) {
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kReduceMean) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::Tensor& input = graph.tensor(op.input(0));
    const int64_t rank = static_cast<int64_t>(input.shape.size());
    std::vector<int64_t> axes = ReducedAxes(graph, op, rank);
    const bool keepdims = op.attrs.GetInt("keepdims", 1) != 0;
    const bool noop_with_empty_axes = op.attrs.GetInt("noop_with_empty_axes", 0) != 0;

    if (axes.empty() && !noop_with_empty_axes) {
      for (int64_t a = 0; a < rank; ++a) axes.push_back(a);  // ONNX: reduce every axis
    }

    const ir::TensorId x = op.input(0);
    const ir::TensorId y = op.outputs.at(0);
    // Not in TFLite's arithmetic: TFLite's MEAN requantizes the sum once with 1/count folded
    // into the multiplier, its average pool divides and rounds; the GlobalAveragePool kernel
    // computes the average pool's (docs/tflite.md).
    if (rank == 4 && axes == std::vector<int64_t>{2, 3} &&
        graph.arithmetic != ir::Graph::Arithmetic::kTflite) {
      if (keepdims) {
        op.type = ir::OpType::kGlobalAveragePool;
        op.inputs = {x};
        op.attrs = {};
        rewritten.push_back(std::move(op));
        continue;
      }
      // GlobalAveragePool keeps [N,C,1,1]; the Reshape drops the two unit axes. Same
      // values, so the intermediate carries the output's dtype and quantization.
      ir::Tensor pooled = graph.tensor(y);
      pooled.name = graph.UniqueTensorName(pooled.name + "_gap");
      pooled.shape = {input.shape[0], input.shape[1], 1, 1};
      pooled.host_permutation.clear();
      const ir::TensorId pooled_id = graph.AddTensor(std::move(pooled));

      ir::Op gap;
      gap.type = ir::OpType::kGlobalAveragePool;
      gap.name = op.name;
      gap.inputs = {x};
      gap.outputs = {pooled_id};

      ir::Op reshape;
      reshape.type = ir::OpType::kReshape;
      reshape.name = op.name + "_reshape";
      reshape.inputs = {pooled_id};
      reshape.outputs = {y};
      reshape.attrs.Set("shape", graph.tensor(y).shape);
      rewritten.push_back(std::move(gap));
      rewritten.push_back(std::move(reshape));
      continue;
    }

    // Stays a ReduceMean: static axes as attributes, no constant inputs left. An empty
    // "axes" here only survives with noop_with_empty_axes=1, which is kept to say so.
    op.inputs = {x};
    op.attrs.Set("axes", axes);
    op.attrs.Set("keepdims", int64_t{keepdims ? 1 : 0});
    rewritten.push_back(std::move(op));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
