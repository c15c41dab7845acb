// Graph rewrites the planner makes on its own copy of the graph (PlanResult::graph) when a
// budget calls for them (docs/planning.md, "Rewrites"). Normalization (passes/) rewrites
// every graph the same way; a rewrite here is a planning choice: it exists because some
// strategy can tile the rewritten form and not the original, and it is made only when the
// budget needs that strategy. The plan then runs an equivalent graph and says so
// (PlanResult::rewrites, the JSON's "rewrites").
#ifndef TIGRIS_PLAN_REWRITES_H_
#define TIGRIS_PLAN_REWRITES_H_

#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/budget.h"

namespace tigris::plan {

struct Rewrite {
  std::string op;    // the op's name (rewrites keep it)
  std::string kind;  // "classifier-as-pointwise", "gemm-as-banded-reduction"
  std::string why;   // the numbers that called for it
};

// Applies every rewrite `budget` calls for, in op order, and lists them. Tensor ids stay
// valid: a rewrite may append tensors, never renumbers.
std::vector<Rewrite> RewriteForBudget(ir::Graph& graph, const Budget& budget);

// classifier-as-pointwise: a classifier Gemm over a pooled [N, K, 1, 1] map whose [N, M]
// result is a graph output becomes the 1x1 convolution it is, writing [N, M, 1, 1]. Its
// runtime bytes are the [N, M] bytes, so the caller still receives [N, M]
// (ir::Tensor::host_shape; the emitter writes it as the output's onnx_shape). A
// convolution's output channels can be cut into groups that each read the whole input
// (docs/planning.md, "Channel groups"); a Gemm's cannot, so when its input and output do
// not fit the fast budget together it has no plan as a Gemm:
//
//   before:  p[1,1280,1,1] -> Gemm(B [1000, 1280], C [1000]) -> y[1,1000] (graph output)
//   after:   p[1,1280,1,1] -> Conv(W [1000, 1280, 1, 1], C [1000]) -> y[1,1000,1,1]
//            (graph output, host_shape [1, 1000])
//
// Conditions: the Gemm is canonical (gemm-normalize: B a constant [M, K], C absent or a
// constant [M]); A is a 4-D [N, K, 1, 1] map (gemm-flatten-fold removed its Flatten); the
// output is a graph output that no op reads and has no host permutation. The op keeps its
// name, fused activation and quantization, its output tensor its name (callers address
// outputs by name); B's per-channel axis 0 is the convolution's output-channel axis too.
// Returns false, leaving the graph untouched, when op `op` does not qualify.
bool ClassifierAsPointwise(ir::Graph& graph, int op);

// gemm-as-banded-reduction: a Gemm reading a [N, C, H, W] map (H W > 1: gemm-flatten-fold
// removed its Flatten and ordered B's columns H, W, C) writes [N, M, 1, 1] instead of
// [N, M], the same bytes in every layout. Then it is a reduction over the map's rows
// (analysis/tileability.h): a tile loop feeds it bands of rows, each adding its share of
// the dot products to [N, M] accumulators, and only the output and the accumulators stay
// resident, not the whole map (AlexNet's fc6 reads 36 KiB):
//
//   before:  p[1,256,6,6] -> Gemm(B [4096, 9216]) -> y[1,4096] -> Gemm(B2 [4096, 4096])
//   after:   p[1,256,6,6] -> Gemm(B [4096, 9216]) -> y[1,4096,1,1] -> Gemm(B2 ...)
//
// Conditions: the Gemm is canonical (B a constant [M, K], C absent or constant) and reads a
// non-constant 4-D map of K = C H W values per batch with H W > 1; every reader of y is a
// canonical Gemm reading it as A (the runtime's Gemm reads A's bytes as [N, K]: [N, M] and
// [N, M, 1, 1] are the same), and y has no host permutation. A graph output keeps its
// [N, M] for the caller (host_shape). Returns false, leaving the graph untouched, when op
// `op` does not qualify.
bool GemmAsBandedReduction(ir::Graph& graph, int op);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_REWRITES_H_
