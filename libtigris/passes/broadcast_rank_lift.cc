// broadcast-rank-lift: a run-time operand of a broadcasting binary op (Add, Sub, Mul, Div,
// Where, ...) or the data of an Expand with a lower rank than the op's output is reshaped to
// the output's rank first.
//
// ONNX broadcasting right-aligns shapes: [3, 4, 5] + [5] adds along the last axis. The
// runtime right-aligns too, but in its own layout (emit/layout.h): the rank-3 operand is held
// NWC, [3, 5, 4], and a [5] right-aligned there would meet the 4, not the 5 (the kernel
// refuses the shapes; with equal extents it would add along the wrong axis). At equal ranks
// both operands are permuted alike, so the lift makes the layouts agree:
//
//   before:  y[5] ------------------------------> Add(x[3, 4, 5], .) -> z[3, 4, 5]
//   after:   y[5] -> Reshape([1, 1, 5]) -> y'  -> Add(x, y')         -> z
//
// The Reshape moves no values (the runtime copies the bytes; held [1, 5, 1] they are the same
// bytes as [5]). A constant operand needs no op: the emitter lays it out at the output's rank
// (emit/weight_layout.cc, kBroadcastOperand). Only outputs of rank 3 and 4 are concerned,
// the ranks whose runtime layout permutes axes. The lifted tensor keeps the operand's dtype
// and quantization.
//
// Runs before input-reshape-trim, which moves a Reshape of a graph input to the host (the
// caller then passes the [5] array as it is, and no op remains).
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool IsBroadcastingBinary(ir::OpType type) { return ir::IsBinaryOp(type); }  // the op table

// The operands the lift applies to: every one of a binary op, an Expand's data (input 1 is
// its shape; tgrs_tile reads input and output at one rank).
bool Lifts(const ir::Op& op, size_t index) {
  return IsBroadcastingBinary(op.type) || (op.type == ir::OpType::kExpand && index == 0);
}

}  // namespace

void BroadcastRankLift(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if ((IsBroadcastingBinary(op.type) || op.type == ir::OpType::kExpand) &&
        op.outputs.size() == 1) {
      const size_t rank = graph.tensor(op.outputs[0]).shape.size();
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        ir::TensorId& in = op.inputs[k];
        if (!Lifts(op, k) || in == ir::kNoTensor || graph.IsConstant(in) ||
            (rank != 3 && rank != 4)) {
          continue;
        }
        const ir::Shape& shape = graph.tensor(in).shape;
        if (shape.size() >= rank) continue;
        ir::Shape lifted(rank - shape.size(), 1);
        lifted.insert(lifted.end(), shape.begin(), shape.end());
        const ir::TensorId to = AddTensorLike(
            graph, in, graph.tensor(in).name + "_rank" + std::to_string(rank), lifted);
        rewritten.push_back(MakeReshape(namer.Unique(op.name + "_lift"), in, to, lifted));
        in = to;
      }
    }
    rewritten.push_back(std::move(op));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
