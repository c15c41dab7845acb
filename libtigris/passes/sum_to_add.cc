// Sum to Add: ONNX Sum is variadic; the runtime has a binary Add only.
//
//   Sum(a)        -> removed, readers of its output read a (BypassOp keeps a graph
//                    output's name);
//   Sum(a, b)     -> Add(a, b);
//   Sum(a, b, c)  -> t = Add(a, b); Add(t, c)   (float32 only, see below).
//
// Runs before matmul-add-to-gemm and activation-fuse so they match the Adds made here.
//
// A chain of Adds is exact for float32 up to the order of the additions (ONNX does not
// fix one). For int8 graphs the intermediate t would need quantization parameters the
// model does not have, and requantizing there adds a rounding step the QDQ reference
// lacks, so a quantized Sum of three or more inputs is rejected (kUnsupportedQuantization)
// instead of being silently approximated. A one-input Sum whose output is quantized
// differently from its input is a requantization, not a no-op, and is rejected the same way.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool IsQuantized(const ir::Graph& graph, ir::TensorId id) {
  return graph.tensor(id).quant.has_value();
}

// Appends to `out` the Adds that compute `sum` left to right; the first keeps its name.
void AppendAddChain(ir::Graph& graph, const ir::Op& sum, OpNamer& namer, std::vector<ir::Op>& out) {
  const ir::TensorId result = sum.outputs.at(0);
  ir::TensorId acc = sum.inputs[0];
  for (size_t k = 1; k < sum.inputs.size(); ++k) {
    const bool last = k + 1 == sum.inputs.size();
    ir::TensorId dest = result;
    if (!last) {
      const ir::Tensor& r = graph.tensor(result);
      ir::Tensor partial;
      partial.name = graph.UniqueTensorName(r.name + "_partial" + std::to_string(k));
      partial.dtype = r.dtype;
      partial.shape = BroadcastShapes(graph.tensor(acc).shape, graph.tensor(sum.inputs[k]).shape,
                                      DescribeOp(sum));
      dest = graph.AddTensor(std::move(partial));
    }
    ir::Op add;
    add.type = ir::OpType::kAdd;
    add.name = k == 1 ? sum.name : namer.Unique(sum.name + "_add" + std::to_string(k));
    add.inputs = {acc, sum.inputs[k]};
    add.outputs = {dest};
    out.push_back(std::move(add));
    acc = dest;
  }
}

}  // namespace

void SumToAdd(ir::Graph& graph) {
  // Pass 1: one-input Sums are removed (rewiring may touch any op, so do it before
  // rebuilding the op list).
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (op.type != ir::OpType::kSum) continue;
    for (ir::TensorId in : op.inputs) {
      if (in == ir::kNoTensor) {
        throw Error(Status::kInvalidModel, DescribeOp(op) + " has an empty input name");
      }
    }
    if (op.inputs.empty() || op.outputs.size() != 1) {
      throw Error(Status::kInvalidModel,
                  DescribeOp(op) + " needs at least one input and exactly one output");
    }
    if (op.inputs.size() == 1) {
      const ir::Tensor& in = graph.tensor(op.inputs[0]);
      const ir::Tensor& out = graph.tensor(op.outputs[0]);
      if (!(in.quant == out.quant)) {  // QuantParams has == only
        throw Error(Status::kUnsupportedQuantization,
                    DescribeOp(op) + " requantizes its only input '" + in.name +
                        "'; a one-input Sum can only be removed when it is a no-op");
      }
      BypassOp(graph, static_cast<int>(i), dead);
    } else if (op.inputs.size() > 2 && IsQuantized(graph, op.outputs[0])) {
      throw Error(Status::kUnsupportedQuantization,
                  DescribeOp(op) + " has " + std::to_string(op.inputs.size()) +
                      " int8 inputs; only a two-input quantized Sum maps exactly onto Add");
    }
  }
  graph.EraseOps(dead);

  // Pass 2: the rest become one Add or a chain of Adds, in the Sum's place.
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kSum) {
      rewritten.push_back(std::move(op));
      continue;
    }
    AppendAddChain(graph, op, namer, rewritten);
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
