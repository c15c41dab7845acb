// input-reshape-trim (added pass, right after input-transpose-trim; pipeline.cc): a Reshape
// that alone reads a graph input moves to the host when it is a relabeling of the same
// bytes in the runtime's layout too. A Reshape never moves an element in ONNX's row-major
// order; the runtime keeps a 4-D [N, C, H, W] tensor as NHWC, which is the row-major order
// of [N, C, H, W] itself when C == 1 or H == W == 1. Then the caller's bytes are the
// runtime's input bytes as they are (ir::Tensor::host_shape), and the op is gone.
//
// TFLite converters write exactly this at the head of one-channel image models: person
// detection's [1, 96, 96, 1] NHWC input is Reshaped to [1, 1, 96, 96] for the first
// convolution, a whole-tensor copy that set its smallest budget (issue 37: "Reshape needs
// the whole tensor" at 16K).
//
//   before:  x[1,96,96,1] (graph input) -> Reshape -> r[1,1,96,96] -> Conv ...
//   after:   x[1,1,96,96] (graph input, host_shape [1,96,96,1]) -> Conv ...
//
// Conditions, besides input-transpose-trim's (one reader, neither tensor a graph output,
// one trim per input): a rank-4 result with C == 1 or H == W == 1, and a caller's shape
// the runtime's input copy takes as the same bytes: another rank, or exactly the runtime
// layout's [N, H, W, C] (runtime/src/host_io.c).
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

// The caller's shape `from` reaches `to` (NCHW) without moving a byte in the runtime.
bool SameRuntimeBytes(const ir::Shape& from, const ir::Shape& to) {
  if (to.size() != 4 || (to[1] != 1 && (to[2] != 1 || to[3] != 1))) return false;
  return from.size() != 4 || from == ir::Shape{to[0], to[2], to[3], to[1]};
}

// Trims one leading Reshape if any qualifies; returns whether it did.
bool TrimOne(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kReshape) continue;
    const auto input = LoneReadGraphInput(graph, consumers, i);
    if (input == graph.inputs.end()) continue;
    const ir::Tensor& in = graph.tensor(*input);
    ir::Tensor& out = graph.tensor(op.outputs[0]);
    if (in.dtype != out.dtype || !(in.quant == out.quant) ||
        !SameRuntimeBytes(in.shape, out.shape)) {
      continue;
    }
    out.host_shape = in.shape;
    out.host_dtype = in.host_dtype;
    MoveToHost(graph, i, input);
    return true;
  }
  return false;
}

}  // namespace

void InputReshapeTrim(ir::Graph& graph) {
  while (TrimOne(graph)) {
  }
}

}  // namespace tigris::passes
