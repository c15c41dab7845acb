// SiLU decompose (tigris-compilation-pipeline.txt, stage 2, pass 4): the runtime has no
// Silu kernel; it has Sigmoid (an int8 lookup table in int8 graphs) and Mul, and
// silu(x) = x * sigmoid(x).
//
// Before:  x -> Silu -> y
// After:   x -> Sigmoid -> s;  Mul(x, s) -> y
//
// s is new: same shape and dtype as x. In int8 graphs it gets the fixed quantization
// TFLite uses for int8 LOGISTIC outputs, scale 1/256 and zero point -128, which maps the
// int8 range exactly onto sigmoid's [0, 1) range. y keeps the Silu output's tensor (name,
// quantization), so nothing downstream changes.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

ir::TensorId AddSigmoidOutput(ir::Graph& graph, ir::TensorId x, const ir::Op& silu) {
  const ir::Tensor& in = graph.tensor(x);
  ir::Tensor s;
  s.name = graph.UniqueTensorName(silu.name + "_sigmoid");
  s.dtype = in.dtype;
  s.shape = in.shape;
  if (in.quant) s.quant = ir::QuantParams{{1.0f / 256.0f}, {-128}, -1};
  return graph.AddTensor(std::move(s));
}

}  // namespace

void SiluDecompose(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kSilu) {
      rewritten.push_back(std::move(op));
      continue;
    }
    if (op.inputs.size() != 1 || op.input(0) == ir::kNoTensor || op.outputs.size() != 1) {
      throw Error(Status::kInvalidModel, DescribeOp(op) + " needs one input and one output");
    }
    const ir::TensorId x = op.inputs[0];
    const ir::TensorId s = AddSigmoidOutput(graph, x, op);

    ir::Op sigmoid;
    sigmoid.type = ir::OpType::kSigmoid;
    sigmoid.name = namer.Unique(op.name + "_sigmoid");
    sigmoid.inputs = {x};
    sigmoid.outputs = {s};

    ir::Op mul;
    mul.type = ir::OpType::kMul;
    mul.name = op.name;
    mul.inputs = {x, s};
    mul.outputs = op.outputs;

    rewritten.push_back(std::move(sigmoid));
    rewritten.push_back(std::move(mul));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
