// recurrent-outputs: RNN, GRU and LSTM list their outputs by position (Y, Y_h, Y_c), any of
// them omitted, and exporters name outputs nothing reads (torch writes Y_h beside Y when a
// model uses only Y, and Y, the whole sequence, when it uses only Y_h). The runtime's ops
// write the outputs they list: this keeps the outputs another op reads or the graph
// returns, in order, and records which ONNX output each is (attribute "output_roles",
// ir/recurrent.h). An output nobody reads would otherwise take arena space; Y is the
// sequence length times the state.
//
// Before:  GRU(X, W, R) -> ["", Y_h]          GRU(X, W, R) -> [Y (unread), Y_h]
// After:   GRU(X, W, R) -> [Y_h], output_roles = [1]
#include <vector>

#include "ir/recurrent.h"
#include "passes/passes.h"

namespace tigris::passes {

void RecurrentOutputs(ir::Graph& graph) {
  std::vector<bool> read(graph.tensors.size(), false);
  for (const ir::Op& op : graph.ops) {
    for (ir::TensorId in : op.inputs) {
      if (in != ir::kNoTensor) read[static_cast<size_t>(in)] = true;
    }
  }
  for (ir::TensorId out : graph.outputs) {
    if (out != ir::kNoTensor) read[static_cast<size_t>(out)] = true;
  }
  for (ir::Op& op : graph.ops) {
    if (!ir::IsRecurrentOp(op.type) || op.attrs.Has("output_roles")) continue;
    std::vector<ir::TensorId> kept;
    std::vector<int64_t> roles;
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const ir::TensorId out = op.outputs[i];
      if (out == ir::kNoTensor || !read[static_cast<size_t>(out)]) continue;
      kept.push_back(out);
      roles.push_back(static_cast<int64_t>(i));
    }
    if (kept.empty()) continue;  // a dead op: the dead-code sweeps remove it whole
    op.outputs = kept;
    op.attrs.Set("output_roles", roles);
  }
}

}  // namespace tigris::passes
