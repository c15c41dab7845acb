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
  std::string kind;  // "classifier-as-pointwise", "gemm-as-banded-reduction",
                     // "embedding-as-rows"
  std::string why;   // the numbers that called for it
};

// Rewrite::kind of embedding-as-rows (below).
inline constexpr char kEmbeddingAsRowsRewrite[] = "embedding-as-rows";

// Applies every rewrite `budget` calls for, in op order, and lists them; the split of
// dense pairs (plan/dense_split.h) last, and only with `split_dense`. Tensor ids stay
// valid: a rewrite may append tensors, never renumbers.
std::vector<Rewrite> RewriteForBudget(ir::Graph& graph, const Budget& budget,
                                      bool split_dense = true);

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

// embedding-as-rows: the text classifier's embedding lookup and mean over its tokens
// (tests/e2e/test_gather.py) become a map whose rows are the tokens and a global average
// pool over them, a banded reduction (analysis/tileability.h), so a tile loop looks up a
// band of tokens at a time and only the pooled [N, D] stays resident, not the [N, T, D]
// lookup (the FDT paper's text classifier, section 5: its largest buffer):
//
//   before:  ids[N,T] -> Gather(table [V, D]) -> e[N,T,D] -> ReduceMean(axes [1]) -> m[N,D]
//   after:   ids[N,1,T,1] (graph input, host_shape [N, T]) -> Gather(table) -> e[N,D,T,1]
//            -> GlobalAveragePool -> m[N,D,1,1]
//
// The rewritten Gather is the IR's row form of an embedding lookup: out[n, :, h, w] =
// table[ids[n, 0, h, w], :]. Every tensor keeps its bytes: ids [N, 1, T, 1] is stored as
// [N, T] (C = 1), e [N, D, T, 1] in the runtime's NHWC layout as [N, T, D] (one table row
// per token, in token order), m as [N, D].
//
// Conditions: the Gather is verify.cc's lookup (axis 0 of a constant [V, D] table) by a
// graph input [N, T] that nothing else reads and that has no host view (permutation,
// shape or dtype); e is read only by a ReduceMean over axis 1 whose [N, D] result
// (keepdims 0) has no host permutation and is read by Gemms as A only (they read A's bytes
// as [N, K]) or is a graph output (host_shape). `op` is the Gather. Returns false, leaving
// the graph untouched, when it does not qualify.
bool EmbeddingAsRows(ir::Graph& graph, int op);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_REWRITES_H_
