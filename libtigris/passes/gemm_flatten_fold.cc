// gemm-flatten-fold (added pass, after quantize-hoist; pipeline.cc): a classifier head's
// Flatten folds into the Gemm that reads it. As an op the Flatten copies the map, with
// input and output co-resident: in MobileNetV2-0.35 that copy of 1280 floats (10 KiB) was
// the model's smallest budget, in AlexNet the 36 KiB map before fc6 set it at 72 KiB.
// The runtime's Gemm reads A's bytes as [N, K] with K from B (ops_dense.c), so it reads
// the map directly:
//
//   before:  p[1,256,6,6] -> Reshape -> f[1,9216] -> Gemm(B [4096, 9216]) -> y[1,4096]
//   after:   p[1,256,6,6] -> Gemm(B' [4096, 9216]) -> y[1,4096]
//
// Flatten orders a map [N, C, H, W] C, H, W; the runtime holds it H, W, C (NHWC). For
// H = W = 1 both orders are one; otherwise B's columns are permuted to match, exactly:
// B'[n, (h W + w) C + c] = B[n, (c H + h) W + w]. A B read by another op is copied first.
//
// Conditions: the Gemm is canonical (gemm-normalize: B a constant [N_out, K]); its A is
// the output of a Reshape of a 4-D X = [N, C, H, W] to [N, C H W]; A is read by nothing
// else and not a graph output; X and A carry the same quantization (requantize-split
// already split a Reshape that requantizes). B's quantization is per output row, so the
// permutation keeps it.
#include <algorithm>
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
  const int64_t k = xs.size() == 4 ? xs[1] * xs[2] * xs[3] : -1;
  if (xs.size() != 4 || as.size() != 2 || as[0] != xs[0] || as[1] != k || bs.size() != 2 ||
      bs[1] != k) {
    return -1;
  }
  if (!(graph.tensor(x).quant == graph.tensor(a).quant)) return -1;
  return p;
}

// B's columns from Flatten's C, H, W order to the runtime's H, W, C, in place.
void PermuteColumnsToHwc(ir::Tensor& b, int64_t c, int64_t h, int64_t w) {
  const size_t elem = ir::DTypeSize(b.dtype);
  const size_t row = static_cast<size_t>(c * h * w) * elem;
  std::vector<uint8_t> permuted(b.data.size());
  for (size_t r = 0; r < b.data.size() / row; ++r) {
    const uint8_t* from = b.data.data() + r * row;
    uint8_t* to = permuted.data() + r * row;
    for (int64_t ci = 0; ci < c; ++ci) {
      for (int64_t y = 0; y < h; ++y) {
        for (int64_t x = 0; x < w; ++x) {
          const size_t src = static_cast<size_t>((ci * h + y) * w + x) * elem;
          const size_t dst = static_cast<size_t>((y * w + x) * c + ci) * elem;
          std::copy(from + src, from + src + elem, to + dst);
        }
      }
    }
  }
  b.data = std::move(permuted);
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
    const ir::TensorId x = graph.ops[static_cast<size_t>(flatten)].input(0);
    const ir::Shape xs = graph.tensor(x).shape;
    if (xs[2] * xs[3] > 1) {
      ir::TensorId b = op.input(1);
      if (consumers[static_cast<size_t>(b)].size() > 1 || graph.IsGraphOutput(b)) {
        ir::Tensor copy = graph.tensor(b);
        copy.name = graph.UniqueTensorName(copy.name + "_hwc");
        b = graph.AddTensor(std::move(copy));
        op.inputs[1] = b;
      }
      PermuteColumnsToHwc(graph.tensor(b), xs[1], xs[2], xs[3]);
    }
    op.inputs[0] = x;
    dead[static_cast<size_t>(flatten)] = true;
    changed = true;
  }
  if (changed) graph.EraseOps(dead);
}

}  // namespace tigris::passes
