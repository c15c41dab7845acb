// A pool whose window is the whole map is a global pool:
//
//   before: x[N,C,H,W] -> AveragePool(kernel_shape=[H,W], no padding) -> y[N,C,1,1]
//   after:  x[N,C,H,W] -> GlobalAveragePool -> y[N,C,1,1]
//
// (and MaxPool likewise, as GlobalMaxPool). Keras and TFLite write a classifier's pooling
// this way (tf2onnx's MLPerf Tiny DS-CNN: AveragePool 25x5 over a 25x5 map). The two
// compute the same bytes: with no padding the window holds every element exactly once,
// whatever the strides or ceil_mode, the runtime's global kernels are its windowed ones
// over the whole map, and the int8 requantization is derived alike for both
// (emit/op_quant.cc). The planner can tile only the global form: it reduces a map band by
// band (docs/planning.md, "Banded reductions"), where a window of every row makes one tile
// of the whole map.
#include <string>
#include <vector>

#include "passes/passes.h"

namespace tigris::passes {
namespace {

bool AllEqual(const std::vector<int64_t>& values, int64_t v) {
  for (int64_t x : values) {
    if (x != v) return false;
  }
  return true;
}

bool WindowIsWholeMap(const ir::Graph& graph, const ir::Op& op) {
  if (op.inputs.empty() || op.outputs.size() != 1) return false;
  const ir::Shape& in = graph.tensor(op.input(0)).shape;
  if (in.size() != 4) return false;
  const std::string auto_pad = op.attrs.GetString("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && !auto_pad.empty()) return false;
  return op.attrs.GetInts("kernel_shape") == std::vector<int64_t>{in[2], in[3]} &&
         AllEqual(op.attrs.GetInts("pads"), 0) && AllEqual(op.attrs.GetInts("dilations"), 1);
}

}  // namespace

void FullWindowPoolToGlobal(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    const bool average = op.type == ir::OpType::kAveragePool;
    if ((!average && op.type != ir::OpType::kMaxPool) || !WindowIsWholeMap(graph, op)) continue;
    op.type = average ? ir::OpType::kGlobalAveragePool : ir::OpType::kGlobalMaxPool;
    op.inputs.resize(1);
    op.attrs = {};
  }
}

}  // namespace tigris::passes
