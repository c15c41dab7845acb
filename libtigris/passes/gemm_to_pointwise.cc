// gemm-to-pointwise (added pass, right after gemm-flatten-fold; pipeline.cc): a classifier
// Gemm over a pooled [N, K, 1, 1] map whose [N, M] result is a graph output becomes the 1x1
// convolution it is, writing a [N, M, 1, 1] map. Its runtime bytes are the [N, M] bytes, so
// the caller still receives [N, M] (ir::Tensor::host_shape; the emitter writes it as the
// output's onnx_shape). A convolution's output channels can be cut into groups that each
// read the whole input (docs/planning.md, "Channel groups"), a Gemm's cannot: MobileNetV2's
// classifier reads 1280 values and writes 1000, and with both resident at once it was the
// model's smallest budget.
//
//   before:  p[1,1280,1,1] -> Gemm(B [1000, 1280], C [1000]) -> y[1,1000] (graph output)
//   after:   p[1,1280,1,1] -> Conv(W [1000, 1280, 1, 1], C [1000]) -> y[1,1000,1,1]
//            (graph output, host_shape [1, 1000])
//
// Conditions: the Gemm is canonical (gemm-normalize: B a constant [M, K], C absent or a
// constant [M]); A is a 4-D [N, K, 1, 1] map (gemm-flatten-fold removed its Flatten); the
// output is a graph output that no op reads and has no host permutation. The Gemm keeps
// its name, its output tensor its name (users address outputs by name) and its
// quantization; B's per-channel axis 0 is the convolution's output-channel axis too.
#include <string>
#include <vector>

#include "passes/passes.h"

namespace tigris::passes {
namespace {

bool Qualifies(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
               const ir::Op& op) {
  if (op.type != ir::OpType::kGemm || op.inputs.size() < 2 || op.outputs.size() != 1) {
    return false;
  }
  const ir::TensorId a = op.input(0), b = op.input(1), y = op.outputs[0];
  if (a == ir::kNoTensor || b == ir::kNoTensor || !graph.IsConstant(b)) return false;
  if (op.inputs.size() > 2 && op.input(2) != ir::kNoTensor && !graph.IsConstant(op.input(2))) {
    return false;
  }
  const ir::Shape& as = graph.tensor(a).shape;
  const ir::Shape& bs = graph.tensor(b).shape;
  const ir::Tensor& out = graph.tensor(y);
  return as.size() == 4 && as[2] == 1 && as[3] == 1 && bs.size() == 2 && bs[1] == as[1] &&
         out.shape.size() == 2 && out.shape[0] == as[0] && out.shape[1] == bs[0] &&
         graph.IsGraphOutput(y) && consumers[static_cast<size_t>(y)].empty() &&
         out.host_permutation.empty() && out.host_shape.empty();
}

}  // namespace

void GemmToPointwise(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (ir::Op& op : graph.ops) {
    if (!Qualifies(graph, consumers, op)) continue;
    // The filter: B's bytes as [M, K, 1, 1] (the same row-major order).
    ir::Tensor filter = graph.tensor(op.input(1));
    filter.name = graph.UniqueTensorName(filter.name + "_1x1");
    filter.shape = {filter.shape[0], filter.shape[1], 1, 1};
    const ir::TensorId filter_id = graph.AddTensor(std::move(filter));
    ir::Tensor& out = graph.tensor(op.outputs[0]);
    out.host_shape = out.shape;
    out.shape = {out.shape[0], out.shape[1], 1, 1};
    op.type = ir::OpType::kConv;
    op.inputs[1] = filter_id;
    op.attrs = ir::Attributes();  // Conv's defaults: 1x1 from the filter, stride 1, no pads
  }
}

}  // namespace tigris::passes
