// concat-split (added pass, right before concat-axis-normalize; pipeline.cc): a Concat of
// more inputs than the runtime's op call holds (kMaxOpInputs, the runtime's
// TGRS_EXEC_MAX_OPERANDS, checked equal in api/runtime_bridge.cc) becomes a chain of
// Concats of at most that many, each after the first reading the one before it:
//
//   before:  y = Concat(x0, x1, ..., x24)                       (DenseNet-121, block 3)
//   after:   p = Concat(x0, ..., x15);  y = Concat(p, x16, ..., x24)
//
// Concatenation is associative, so the bytes are the same. The partial result takes the
// output's quantization: the first link requantizes its inputs into it exactly as the
// single Concat would, and the next link copies it unchanged (same scale and zero point).
// It costs the partial tensor's bytes at that point of the schedule, which the planner
// counts like any other; without the split, compile accepted what the runtime refused
// (TGRS_ERR_UNSUPPORTED_OP at run time).
#include <algorithm>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

// Appends to `out` the chain computing `concat` (its inputs more than kMaxOpInputs).
void AppendChain(ir::Graph& graph, const ir::Op& concat, OpNamer& namer, std::vector<ir::Op>& out) {
  const ir::TensorId result = concat.outputs.at(0);
  const ir::Tensor& r = graph.tensor(result);
  const int64_t rank = static_cast<int64_t>(r.shape.size());
  int64_t axis = concat.attrs.GetInt("axis", 1);
  if (axis < -rank || axis >= rank) {
    throw Error(Status::kInvalidModel, DescribeOp(concat) + ": axis " + std::to_string(axis) +
                                           " is out of range for rank " + std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  size_t next = 0;
  ir::TensorId partial = ir::kNoTensor;
  for (int link = 0; next < concat.inputs.size(); ++link) {
    ir::Op op;
    op.type = ir::OpType::kConcat;
    op.attrs = concat.attrs;
    if (partial != ir::kNoTensor) op.inputs.push_back(partial);
    const size_t take = std::min(concat.inputs.size() - next, kMaxOpInputs - op.inputs.size());
    op.inputs.insert(op.inputs.end(), concat.inputs.begin() + static_cast<std::ptrdiff_t>(next),
                     concat.inputs.begin() + static_cast<std::ptrdiff_t>(next + take));
    next += take;
    if (next == concat.inputs.size()) {
      op.name = concat.name;  // the last link computes the Concat's own output
      op.outputs = {result};
    } else {
      ir::Tensor t;
      t.name = graph.UniqueTensorName(r.name + "_part" + std::to_string(link));
      t.dtype = r.dtype;
      t.quant = r.quant;
      t.shape = r.shape;
      t.shape[static_cast<size_t>(axis)] = 0;
      for (ir::TensorId in : op.inputs) {
        t.shape[static_cast<size_t>(axis)] += graph.tensor(in).shape[static_cast<size_t>(axis)];
      }
      op.name = namer.Unique(concat.name + "_part" + std::to_string(link));
      partial = graph.AddTensor(std::move(t));
      op.outputs = {partial};
    }
    out.push_back(std::move(op));
  }
}

}  // namespace

void ConcatSplit(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kConcat || op.inputs.size() <= kMaxOpInputs ||
        op.outputs.size() != 1) {
      rewritten.push_back(std::move(op));
      continue;
    }
    AppendChain(graph, op, namer, rewritten);
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
