// fdt-fan-out-fan-in: the FDT paper's split of the buffer between two dense layers
// (fused-depthwise-tiling-paper.txt, section 3: "FDT fan-out", "FDT fan-in", Fig. 4), a
// planner rewrite (plan/rewrites.h) on float32 and int8 graphs.
//
// Feature-map tiling cannot cut the vector between two fully connected layers: every
// output of the second reads all of it. The paper cuts it along its neurons instead. The
// first Gemm's output neurons are split into N parts (its weight rows and bias with them,
// its fused activation applied per part: "fan-out"). The second Gemm's input dimension is
// split the same way, so each part yields a partial result of the whole output, and the
// partials are summed ("fan-in" and "Merge"):
//
//   before:  x -> Gemm_a(B_a [M, K], C_a) -> h[n, M] -> Gemm_b(B_b [L, M], C_b) -> y[n, L]
//   after:   for k < N:  h_k = Gemm_a(x; B_a rows of part k, C_a of part k)   [n, M_k]
//                        (then on h_k any per-element ops between the two: Sigmoid, Tanh,
//                        Clip, ..., or arithmetic with a constant scalar)
//                        p_k = Gemm_b(h_k; B_b columns of part k, C_b for k = 0 only)
//                        acc_k = acc_{k-1} + p_k  (acc_0 = p_0; acc_{N-1} is y)
//            then Gemm_b's fused activation (Relu / Relu6), if any, on y
//
// Every multiply-accumulate is made once, so the MACs are the unsplit graph's; the float
// sum is the same sum in another order (parts of the dot products, then their total).
// Only x, one part h_k and two partial results are live at once instead of x and all of h,
// then h and y: the rewrite pays where y is small (the MLP 128-2048-2048-10's last pair:
// 16 KiB -> 8.8 KiB with 16 parts).
//
// int8 pairs keep their partial sums in int32, as the paper's int8 Merge does, so the split
// layer's bytes are the unsplit one's: part k's Gemm_b adds its products to an int32 [n, L]
// sum, its C the bias on part 0 and the sums of the parts before after it, and the last
// part requantizes the total once with Gemm_b's fused activation (the runtime's int8 GEMM
// parts, tgrs_fully_connected_part_s8). No Add or activation op is added.
//
// The same split applies to convolutions with one group: every output channel reads every
// input channel, so their output channels fan out (weight rows) and their input channels
// fan in (weight columns of kh kw taps) like a dense layer's, each part keeping the
// strides, padding and dilations (zero padding adds zero to every partial sum). The
// paper's FDT block has a depthwise convolution between two pointwise ones (Fig. 4;
// MobileNet's blocks): per-channel ops between the two (depthwise convolutions with one
// output channel per input channel, max, average and global pools) run on each part with
// their own channels' filters, bias and group, so h, the block's widest map, is never
// whole:
//
//   x[n, K, H, W] -> Conv(W_a [M, K, kh, kw]) -> h[n, M, H1, W1] -> DepthwiseConv(W_d [M, 1,
//   dh, dw]) -> d[n, M, H2, W2] -> Conv(W_b [L, M, kh', kw']) -> y[n, L, H3, W3]
//
// becomes per part k: Conv (W_a's rows of part k) -> DepthwiseConv (W_d's rows, group
// M_k) -> Conv (W_b's columns), the partial results summed as above. float32 only (int8
// parts would need int32 outputs from the convolution kernels); the maps' rows can still
// be tiled after the split (the paper's combined FDT and FFMT).
#ifndef TIGRIS_PLAN_DENSE_SPLIT_H_
#define TIGRIS_PLAN_DENSE_SPLIT_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/rewrites.h"

namespace tigris::plan {

// Rewrite::kind of this rewrite.
inline constexpr char kDenseSplitRewrite[] = "fdt-fan-out-fan-in";

// Parts the paper's search tries (section 4.3: N in 2..25).
inline constexpr int kMinDenseParts = 2;
inline constexpr int kMaxDenseParts = 25;

// A candidate pair: Gemm_a (op index a) whose output reaches Gemm_b (op index b), as A,
// through the ops `between` (in order; often none), each the only reader of what it reads:
// the paper's PART blocks, run on each part (per-element ops unchanged, per-channel ops on
// their part's channels). Both are Gemms or both convolutions with one group.
struct DensePair {
  int a = -1;
  int b = -1;
  std::vector<int> between;
};

// Every pair fdt-fan-out-fan-in may split, in op order: both Gemms canonical
// (gemm-normalize: B a constant [M, K], C absent or a constant [M]) and either float32
// without quantization or int8 (activations per tensor, B per tensor or per row, C the int32
// bias); h = Gemm_a's output, a 2-D [n, M] read only by Gemm_b, as A, or by a chain
// of per-element ops (DensePair::between) that ends in Gemm_b, none of it a graph output;
// y = Gemm_b's output, 2-D [n, L] with no host view. Or both float32 convolutions with
// one group (weights [M, K, kh, kw] and [L, M, kh', kw']), the chain between them
// per-element or per-channel ops on maps of M channels.
std::vector<DensePair> FindDensePairs(const ir::Graph& graph);

// The fast bytes the pair needs unsplit (16-byte aligned: x + h while Gemm_a runs, an op
// between them its input and output, Gemm_b's input + y while it runs) and, split into
// `parts`, the estimate the planner chooses by: x + Gemm_b's input part + acc + p_k while
// part k of Gemm_b runs, float; that input part + two int32 sums, int8 (x stays live until
// the last part). Neither counts row tiling, which may follow.
int64_t UnsplitPairBytes(const ir::Graph& graph, const DensePair& pair);
int64_t SplitPairBytes(const ir::Graph& graph, const DensePair& pair, int parts);

// Splits `pair` into `parts` parts (2 <= parts <= M) as above. Ops keep their order
// otherwise; the parts take Gemm_b's place. Tensors are only appended (ids stay valid);
// h and the unsplit weights are left without readers.
void SplitDensePair(ir::Graph& graph, const DensePair& pair, int parts);

// The rewrite as RewriteForBudget makes it (PlanModel then keeps the plan without it when
// that is as good: plan/planner.h): each pair whose unsplit bytes exceed the fast
// budget is split into the fewest parts whose estimate fits it, or else the parts with the
// lowest estimate, if that is below the unsplit bytes; one Rewrite per split pair.
std::vector<Rewrite> SplitDensePairsForBudget(ir::Graph& graph, const Budget& budget);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_DENSE_SPLIT_H_
