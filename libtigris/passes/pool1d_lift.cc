// pool1d-lift: a MaxPool or AveragePool over one spatial axis ([N, C, L], PyTorch's
// MaxPool1d/AvgPool1d) runs as the 2-D pool over [N, C, 1, L], the runtime's only pool form
// (tgrs_op_pool: a rank-4 input, a 2-D window).
//
//   before:  x[N, C, L] -> MaxPool(kernel [k], strides [s], pads [b, e], dilations [d]) -> y[N, C,
//   L'] after:   x -> Reshape([N, C, 1, L]) -> MaxPool(kernel [1, k], strides [1, s],
//                pads [0, b, 0, e], dilations [1, d]) -> y'[N, C, 1, L'] -> Reshape -> y
//
// Exact: the window along the unit axis is one element with no padding, so every output
// reads the same inputs, in the same order, as the 1-D pool (ceil_mode, count_include_pad
// and auto_pad mean the same along L; along the new axis SAME pads nothing for a window of
// one). The Reshapes move no values: the runtime holds [N, C, L] as NWC and [N, C, 1, L] as
// NHWC, the same bytes. The intermediates keep the input's and output's dtype and
// quantization. Pools of other ranks are left to the verifier (runtime_forms.cc).
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

// `values` with `fill` before each half: [b, e] -> [fill, b, fill, e] for pads (halves = 2),
// [k] -> [fill, k] otherwise. Empty stays empty (the attribute's default applies).
std::vector<int64_t> Lifted(const std::vector<int64_t>& values, int64_t fill, size_t halves) {
  if (values.empty()) return values;
  std::vector<int64_t> out;
  const size_t per_half = values.size() / halves;
  for (size_t h = 0; h < halves; ++h) {
    out.push_back(fill);
    out.insert(out.end(), values.begin() + static_cast<std::ptrdiff_t>(h * per_half),
               values.begin() + static_cast<std::ptrdiff_t>((h + 1) * per_half));
  }
  return out;
}

ir::Shape WithUnitH(const ir::Shape& ncl) { return {ncl[0], ncl[1], 1, ncl[2]}; }

}  // namespace

void Pool1dLift(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    const bool pool = op.type == ir::OpType::kMaxPool || op.type == ir::OpType::kAveragePool;
    if (!pool || op.input(0) == ir::kNoTensor || op.outputs.size() != 1 ||
        graph.tensor(op.input(0)).shape.size() != 3 ||
        graph.tensor(op.outputs[0]).shape.size() != 3) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId x = op.inputs[0], y = op.outputs[0];
    const ir::Shape x4 = WithUnitH(graph.tensor(x).shape);
    const ir::Shape y4 = WithUnitH(graph.tensor(y).shape);
    const ir::TensorId x2 = AddTensorLike(graph, x, graph.tensor(x).name + "_2d", x4);
    const ir::TensorId y2 = AddTensorLike(graph, y, graph.tensor(y).name + "_2d", y4);
    rewritten.push_back(MakeReshape(namer.Unique(op.name + "_to_2d"), x, x2, x4));
    for (const char* name : {"kernel_shape", "strides", "dilations"}) {
      if (op.attrs.Has(name)) op.attrs.Set(name, Lifted(op.attrs.GetInts(name), 1, 1));
    }
    if (op.attrs.Has("pads")) op.attrs.Set("pads", Lifted(op.attrs.GetInts("pads"), 0, 2));
    op.inputs[0] = x2;
    op.outputs[0] = y2;
    const std::string name = op.name;
    rewritten.push_back(std::move(op));
    rewritten.push_back(MakeReshape(namer.Unique(name + "_to_1d"), y2, y, graph.tensor(y).shape));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
