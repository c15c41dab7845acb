// reduce-keepdims: a reduction (the op table's REDUCE kind) with keepdims = 0 whose
// output's runtime layout does not hold the kept values in the order the kernel writes them
// keeps its reduced axes, and a Reshape drops them:
//
//   before:  x[1, 6, 5, 7] -> ReduceSum(axes [1], keepdims 0) -> y[1, 5, 7]
//   after:   x -> ReduceSum(axes [1], keepdims 1) -> y'[1, 1, 5, 7] -> Reshape -> y
//
// The runtime's reduction writes the kept values in the order of its input's runtime layout
// (runtime/kernels/reduce.c: NHWC for rank 4), which is the keepdims = 1 output's layout.
// Without the reduced axes the output may have another layout: [1, 5, 7] is held NWC,
// [1, 7, 5], and the kernel's H-major values would land transposed (ONNX's own
// test_reduce_*_do_not_keepdims cases and tests/e2e/test_reductions.py: wrong answers, not
// a refusal). Where the two shapes keep the same runtime bytes (a reduction over H and W
// of [N, C, H, W] to [N, C]) nothing changes; elsewhere the Reshape reorders the few
// reduced values. Runs after reduce-mean-to-gap (which removes the ReduceMean over H, W a
// pool then computes) and before input-reshape-trim.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {

void ReduceKeepdims(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (!ir::IsReduceOp(op.type) || op.outputs.size() != 1 || op.attrs.GetInt("keepdims", 1) != 0) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::Shape& in = graph.tensor(op.input(0)).shape;
    const ir::Shape out = graph.tensor(op.outputs[0]).shape;
    ir::Shape kept = in;  // becomes the keepdims = 1 shape: each reduced axis of extent 1
    std::vector<int64_t> axes = op.attrs.GetInts("axes");
    if (axes.empty() && op.inputs.size() > 1 && op.input(1) != ir::kNoTensor) {
      axes = ir::ConstantAsInt64s(graph.tensor(op.input(1)));
    }
    if (axes.empty()) {
      if (op.attrs.GetInt("noop_with_empty_axes", 0) != 0) {
        rewritten.push_back(std::move(op));
        continue;
      }
      kept.assign(in.size(), 1);
    }
    const int64_t rank = static_cast<int64_t>(in.size());
    for (int64_t a : axes) kept[static_cast<size_t>(a < 0 ? a + rank : a)] = 1;
    if (ir::ReshapeKeepsRuntimeBytes(kept, out)) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId y = op.outputs[0];
    const ir::TensorId wide = AddTensorLike(graph, y, graph.tensor(y).name + "_keepdims", kept);
    op.attrs.Set("keepdims", int64_t{1});
    op.outputs[0] = wide;
    const std::string name = op.name;
    rewritten.push_back(std::move(op));
    rewritten.push_back(MakeReshape(namer.Unique(name + "_dropdims"), wide, y, out));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
