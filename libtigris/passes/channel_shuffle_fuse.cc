// channel-shuffle-fuse: ShuffleNet's channel shuffle, exported by every framework as three
// ops through a rank-5 view,
//
//   before:  x[N, C, H, W] -> Reshape([N, G, C/G, H, W]) -> Transpose(perm 0,2,1,3,4)
//            -> Reshape([N, C, H, W]) -> y
//   after:   x -> ChannelShuffle(group = G) -> y        y[:, j*G + i] = x[:, i*(C/G) + j]
//
// becomes one op. The runtime holds tensors of rank <= 4, and the rank-5 intermediates
// would be two full copies of the activation; the fused op moves every byte once. In the
// runtime's NHWC layout it is a transpose of each pixel's channels viewed as [G, C/G]
// (emit/op_attrs.cc writes it as a RESHAPE through that view), so it mixes no pixels.
//
// Exact: the ops only move values. Matched only when the two intermediates have no other
// reader, are not graph outputs, and share the input's dtype and quantization; the output
// may be quantized differently (requantize-split then adds the requantization). Runs after
// reshape-canonicalize, when every Reshape's target is its output's shape.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

struct Shuffle {
  int first = -1, transpose = -1, last = -1;  // op indices
  int64_t group = 0;
};

bool SameElementType(const ir::Tensor& a, const ir::Tensor& b) {
  return a.dtype == b.dtype && a.quant == b.quant;
}

// The shuffle that starts at Reshape `index`, or group 0.
Shuffle Match(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers, int index) {
  Shuffle s;
  const ir::Op& first = graph.ops[static_cast<size_t>(index)];
  if (first.type != ir::OpType::kReshape || first.inputs.empty() || first.outputs.size() != 1 ||
      first.input(0) == ir::kNoTensor) {
    return s;
  }
  const ir::Tensor& x = graph.tensor(first.input(0));
  const ir::Tensor& view = graph.tensor(first.outputs[0]);
  if (x.shape.size() != 4 || view.shape.size() != 5) return s;
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  const int64_t g = view.shape[1];
  if (g < 1 || c % g != 0 || view.shape != ir::Shape{n, g, c / g, h, w}) return s;

  const int t = SoleConsumer(graph, consumers, first.outputs[0]);
  if (t < 0) return s;
  const ir::Op& transpose = graph.ops[static_cast<size_t>(t)];
  if (transpose.type != ir::OpType::kTranspose || transpose.outputs.size() != 1 ||
      transpose.attrs.GetInts("perm", {}) != std::vector<int64_t>{0, 2, 1, 3, 4}) {
    return s;
  }
  const ir::Tensor& swapped = graph.tensor(transpose.outputs[0]);
  if (swapped.shape != ir::Shape{n, c / g, g, h, w}) return s;

  const int l = SoleConsumer(graph, consumers, transpose.outputs[0]);
  if (l < 0) return s;
  const ir::Op& last = graph.ops[static_cast<size_t>(l)];
  if (last.type != ir::OpType::kReshape || last.outputs.size() != 1) return s;
  const ir::Tensor& y = graph.tensor(last.outputs[0]);
  if (y.shape != x.shape) return s;
  if (!SameElementType(x, view) || !SameElementType(x, swapped) || x.dtype != y.dtype) {
    return s;
  }
  s.first = index;
  s.transpose = t;
  s.last = l;
  s.group = g;
  return s;
}

}  // namespace

void ChannelShuffleFuse(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  bool changed = false;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    if (dead[i]) continue;
    const Shuffle s = Match(graph, consumers, static_cast<int>(i));
    if (s.group == 0 || dead[static_cast<size_t>(s.transpose)] ||
        dead[static_cast<size_t>(s.last)]) {
      continue;
    }
    // The last Reshape becomes the shuffle: it keeps its output tensor (a graph output
    // stays one) and its position, after the input's producer.
    ir::Op& op = graph.ops[static_cast<size_t>(s.last)];
    const ir::TensorId x = graph.ops[i].inputs[0];
    op.type = ir::OpType::kChannelShuffle;
    op.name = graph.ops[static_cast<size_t>(s.transpose)].name;
    op.inputs = {x};
    op.attrs = ir::Attributes();
    op.attrs.Set("group", s.group);
    dead[i] = true;
    dead[static_cast<size_t>(s.transpose)] = true;
    changed = true;
  }
  if (changed) graph.EraseOps(dead);
}

}  // namespace tigris::passes
