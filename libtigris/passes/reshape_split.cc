// reshape-split: a Reshape between two shapes the runtime holds channels-last, whose bytes
// differ, becomes two Reshapes through the flat row of its elements:
//
//   before:  x[2, 3, 4] -> Reshape -> y[4, 2, 3]
//   after:   x[2, 3, 4] -> Reshape -> flat[24] -> Reshape -> y[4, 2, 3]
//
// The runtime's Reshape copies bytes or makes one transpose of a view (emit/op_attrs.cc,
// ReshapeAttrs): from a channels-last layout to ONNX's row-major order, or back. Between
// two channels-last layouts whose bytes differ it would need both, which the verifier
// refused ("needs two transposes"): ONNX's test_reshape_reordered_*, an Unsqueeze of a
// rank-3 tensor to rank 4 ([3, 4, 5] -> [1, 3, 4, 5]: NWC [3, 5, 4] against NHWC
// [1, 4, 5, 3]). A rank-1 tensor's bytes are ONNX's order in any layout, so each half is
// one transpose. The flat tensor is an activation the size of x (the price of the second
// copy); it keeps x's dtype and quantization (a Reshape moves codes: an output quantized
// differently is requantize-split's, after this pass). Shapes whose runtime bytes agree
// ([N, C, L] -> [N, C, 1, L]) stay one copy.
#include <string>
#include <vector>

#include "ir/shape.h"
#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

// True for a Reshape the runtime cannot make in one step (passes/runtime_forms.cc,
// CheckReshape, refuses the same set).
bool NeedsTwoSteps(const ir::Shape& in, const ir::Shape& out) {
  return !ir::PermKeepsBytes(in, ir::RuntimeLayout(in.size())) &&
         !ir::PermKeepsBytes(out, ir::RuntimeLayout(out.size())) && in != out &&
         !ir::ReshapeKeepsRuntimeBytes(in, out);
}

}  // namespace

void ReshapeSplit(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kReshape || op.outputs.size() != 1 || op.input(0) == ir::kNoTensor) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId x = op.input(0);
    const ir::TensorId y = op.outputs[0];
    const ir::Shape in = graph.tensor(x).shape;
    const ir::Shape out = graph.tensor(y).shape;
    if (!NeedsTwoSteps(in, out)) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId flat =
        AddTensorLike(graph, x, graph.tensor(x).name + "_flat", {ir::NumElements(in)});
    const std::string name = op.name;
    rewritten.push_back(
        MakeReshape(namer.Unique(name + "_flatten"), x, flat, {ir::NumElements(in)}));
    rewritten.push_back(MakeReshape(name, flat, y, out));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
