// Reference pass 12 (tigris-compilation-pipeline.txt, stage 2): a Transpose that only
// reorders a graph output is left to the host. Converters from TensorFlow end models with
// one (NCHW back to NHWC); on the MCU it would cost a full copy of the output for nothing
// the device itself needs.
//
//   before: ... -> t[1,8,4,4] -> Transpose(perm=[0,2,3,1]) -> out[1,4,4,8] (graph output)
//   after:  ... -> out[1,8,4,4] (graph output, host_permutation=[0,2,3,1])
//
// Conditions: the Transpose's output is a graph output read by no op, and its input is an
// op's result read by nothing else (not a graph input, constant or other output). The
// input tensor takes over the output's name, because users address outputs by name, and
// records the permutation in ir::Tensor::host_permutation.
//
// HOST-SIDE POST-PROCESSING MUST APPLY host_permutation: the runtime returns the tensor in
// the pre-Transpose layout, and out = transpose(runtime_output, host_permutation) in numpy
// terms gives the ONNX model's output. Chains of trailing Transposes collapse into one
// composed permutation.
#include <string>
#include <utility>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

// Trims one trailing Transpose if any qualifies; returns whether it did.
bool TrimOne(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  const std::vector<int> producers = graph.ProducerIndex();
  for (size_t i = graph.ops.size(); i-- > 0;) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kTranspose || op.outputs.size() != 1) continue;
    const ir::TensorId in = op.input(0);
    const ir::TensorId out = op.outputs[0];
    if (in == ir::kNoTensor || !graph.IsGraphOutput(out) || graph.IsGraphOutput(in)) continue;
    if (!consumers[static_cast<size_t>(out)].empty()) continue;
    if (consumers[static_cast<size_t>(in)].size() != 1) continue;
    if (producers[static_cast<size_t>(in)] < 0) continue;  // graph input or constant

    std::vector<int64_t> perm = TransposePermutation(graph, op, graph.tensor(in).shape.size());
    ir::Tensor& out_tensor = graph.tensor(out);
    ir::Tensor& in_tensor = graph.tensor(in);
    if (!out_tensor.host_permutation.empty()) {
      // out = T(T(x, perm), later) = T(x, c) with c[k] = perm[later[k]].
      const std::vector<int64_t>& later = out_tensor.host_permutation;
      std::vector<int64_t> composed(later.size());
      for (size_t k = 0; k < later.size(); ++k) {
        composed[k] = perm.at(static_cast<size_t>(later[k]));
      }
      perm = std::move(composed);
    }
    in_tensor.host_permutation = perm;
    // Swap names: the input answers to the user's output name; the old output tensor is
    // unreferenced after the rewiring below and dropped by Graph::Compact().
    std::swap(in_tensor.name, out_tensor.name);
    out_tensor.host_permutation.clear();
    graph.ReplaceUses(out, in);
    std::vector<bool> dead(graph.ops.size(), false);
    dead[i] = true;
    graph.EraseOps(dead);
    return true;
  }
  return false;
}

}  // namespace

void OutputTransposeTrim(ir::Graph& graph) {
  while (TrimOne(graph)) {
  }
}

}  // namespace tigris::passes
