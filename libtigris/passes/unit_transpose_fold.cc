// unit-transpose-fold (added pass, after quantize-hoist and before gemm-flatten-fold;
// pipeline.cc): a Transpose that moves only axes of extent 1 reorders no element, so a
// Reshape reading it may read its input instead. TFLite models converted to ONNX end their
// classifier with one (tflite2onnx's layout Transposes around a pooled [N, C, 1, 1] map):
//
//   before:  p[1,256,1,1] -> Transpose(0,2,3,1) -> t[1,1,1,256] -> Reshape -> f[1,256]
//   after:   p[1,256,1,1] -> Reshape -> f[1,256]
//
// and gemm-flatten-fold then folds the Reshape into the Gemm, leaving neither op nor its
// copy of the map (and no Transpose kernel in a firmware that selects its ops).
//
// Element order (ir::PermKeepsBytes): a permutation that keeps the axes of extent > 1 in
// their order walks the elements in the same row-major order before and after, since axes
// of extent 1 add no stride. A Reshape keeps row-major order, so Reshape(Transpose(x)) ==
// Reshape(x).
//
// Conditions: the Transpose's only reader is a Reshape and its output is no graph output
// (else its value is still needed), and it relabels only: input and output have the same
// dtype and quantization (a requantizing one is split by requantize-split first).
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {

void UnitTransposeFold(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  bool changed = false;
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kTranspose || op.outputs.size() != 1 ||
        op.input(0) == ir::kNoTensor) {
      continue;
    }
    const ir::TensorId in = op.input(0), out = op.outputs[0];
    const int reader = SoleConsumer(graph, consumers, out);
    if (reader < 0 || graph.ops[static_cast<size_t>(reader)].type != ir::OpType::kReshape ||
        graph.ops[static_cast<size_t>(reader)].input(0) != out) {
      continue;
    }
    const ir::Tensor& x = graph.tensor(in);
    const ir::Tensor& y = graph.tensor(out);
    if (x.dtype != y.dtype || !(x.quant == y.quant) ||
        !ir::PermKeepsBytes(x.shape, TransposePermutation(graph, op, x.shape.size()))) {
      continue;
    }
    graph.ops[static_cast<size_t>(reader)].inputs[0] = in;
    dead[i] = true;
    changed = true;
  }
  if (changed) graph.EraseOps(dead);
}

}  // namespace tigris::passes
