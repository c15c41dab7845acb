// gemm-flatten-fold (added pass, after quantize-hoist; pipeline.cc): a classifier head's
// Flatten folds into the Gemm that reads it. After a global pool the map is [N, C, 1, 1]
// and its Flatten [N, C] has the same bytes in every layout, NCHW and the runtime's NHWC
// alike, yet as an op it copies them, with input and output co-resident: in
// MobileNetV2-0.35 that copy of 1280 floats (10 KiB) was the model's smallest budget.
// The runtime's Gemm reads A as [N, K] with K from B (ops_dense.c), so it reads the pooled
// map directly.
//
//   before:  p[1,1280,1,1] -> Reshape -> f[1,1280] -> Gemm(B [1000, 1280]) -> y[1,1000]
//   after:   p[1,1280,1,1] -> Gemm(B [1000, 1280]) -> y[1,1000]
//
// Conditions: the Gemm is canonical (gemm-normalize: B a constant [N_out, K]); its A is
// the output of a Reshape of a 4-D X = [N, K, 1, 1] (only then are the bytes the same:
// with H or W above 1 the runtime holds X as N, H, W, C, not in Flatten's C, H, W order);
// A is [N, K], read by nothing else and not a graph output; X and A carry the same
// quantization (requantize-split already split a Reshape that requantizes).
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

// The Reshape feeding Gemm `gemm` that can be folded into it, or -1.
int FoldableFlatten(const ir::Graph& graph, const std::vector<int>& producer,
                    const std::vector<std::vector<int>>& consumers, const ir::Op& gemm) {
  if (gemm.inputs.size() < 2 || gemm.input(0) == ir::kNoTensor ||
      !graph.IsConstant(gemm.input(1))) {
    return -1;
  }
  const ir::TensorId a = gemm.input(0);
  const int p = producer[static_cast<size_t>(a)];
  if (p < 0 || graph.ops[static_cast<size_t>(p)].type != ir::OpType::kReshape) return -1;
  if (graph.IsGraphOutput(a) || consumers[static_cast<size_t>(a)].size() != 1) return -1;
  const ir::TensorId x = graph.ops[static_cast<size_t>(p)].input(0);
  if (x == ir::kNoTensor) return -1;
  const ir::Shape& xs = graph.tensor(x).shape;
  const ir::Shape& as = graph.tensor(a).shape;
  const ir::Shape& bs = graph.tensor(gemm.input(1)).shape;
  if (xs.size() != 4 || xs[2] != 1 || xs[3] != 1 || as.size() != 2 || as[0] != xs[0] ||
      as[1] != xs[1] || bs.size() != 2 || bs[1] != xs[1]) {
    return -1;
  }
  if (!(graph.tensor(x).quant == graph.tensor(a).quant)) return -1;
  return p;
}

}  // namespace

void GemmFlattenFold(ir::Graph& graph) {
  const std::vector<int> producer = graph.ProducerIndex();
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  bool changed = false;
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kGemm) continue;
    const int flatten = FoldableFlatten(graph, producer, consumers, op);
    if (flatten < 0) continue;
    op.inputs[0] = graph.ops[static_cast<size_t>(flatten)].input(0);
    dead[static_cast<size_t>(flatten)] = true;
    changed = true;
  }
  if (changed) graph.EraseOps(dead);
}

}  // namespace tigris::passes
