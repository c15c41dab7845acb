// identity-dropout-elim (added pass, before qdq-fold and batchnorm-fold; pipeline.cc):
// Identity, Dropout at inference (output = input; ONNX Dropout with training_mode
// false, the default) and a Cast or CastLike to the dtype its input has are removed by rewiring
// their readers to the input, so the folds that follow see the real producer of each operand (torch
// puts Identity between shared weights and their users).
//
//   before:  Conv(x, w) -> a;  Identity 'id' (a) -> b;  Relu(b) -> y
//   after:   Conv(x, w) -> a;  Relu(a) -> y
//
// Graph outputs keep their public name (the name users see must not change):
//  - input produced by an op:  that op writes the output tensor instead
//        Conv -> a -> Identity -> out(graph output)   =>   Conv -> out
//  - input is a constant:      the output becomes a constant copy of it
//  - input is a graph input, or itself a graph output: the op becomes a copy, a Reshape to
//    its own shape (canonical form: attribute "shape", one input; reshape_canonicalize.cc).
//    Rewiring would make one tensor both input and output (or two outputs), so one of the
//    public names would disappear and a host writing the input buffer would alias the
//    output buffer. A copy is the smallest runtime op that keeps both names and buffers.
//
// Dropout's optional mask output must be unused: at inference it is all-true, a value we
// would have to materialize; a model reading it is reported naming the node.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool IsRead(const ir::Graph& graph, ir::TensorId id) {
  if (id == ir::kNoTensor) return false;
  if (graph.IsGraphOutput(id)) return true;
  for (const ir::Op& op : graph.ops) {
    for (ir::TensorId in : op.inputs) {
      if (in == id) return true;
    }
  }
  return false;
}

// A Cast or CastLike to the dtype its input already has: an Identity (function bodies
// write CastLike(x, x) to stay type-generic).
bool IsSameTypeCast(const ir::Graph& graph, const ir::Op& op) {
  if (op.type != ir::OpType::kCast && op.type != ir::OpType::kCastLike) return false;
  if (op.input(0) == ir::kNoTensor || op.outputs.empty()) return false;
  return graph.tensor(op.input(0)).dtype == graph.tensor(op.outputs[0]).dtype;
}

// Dropout's inputs 1 (ratio) and 2 (training_mode) and output 1 (mask).
void CheckInferenceDropout(const ir::Graph& graph, const ir::Op& op) {
  ir::TensorId training_mode = op.input(2);
  if (training_mode != ir::kNoTensor) {
    if (!graph.IsConstant(training_mode)) {
      throw Error(Status::kUnsupportedOp,
                  "Dropout node '" + op.name + "' has a computed training_mode input '" +
                      graph.tensor(training_mode).name + "'; only inference (false) is supported");
    }
    for (int64_t v : ir::ConstantAsInt64s(graph.tensor(training_mode))) {
      if (v != 0) {
        throw Error(Status::kUnsupportedOp, "Dropout node '" + op.name +
                                                "' runs in training mode; only inference "
                                                "(training_mode = false) is supported");
      }
    }
  }
  if (op.outputs.size() > 1 && IsRead(graph, op.outputs[1])) {
    throw Error(Status::kUnsupportedOp, "Dropout node '" + op.name + "' has its mask output '" +
                                            graph.tensor(op.outputs[1]).name +
                                            "' read; only the data output can be removed");
  }
}

// Removes op `index` (marked dead) or turns it into a copy; see the file comment.
void Eliminate(ir::Graph& graph, size_t index, std::vector<bool>& dead) {
  ir::Op& op = graph.ops[index];
  ir::TensorId in = op.input(0);
  ir::TensorId out = op.outputs.empty() ? ir::kNoTensor : op.outputs[0];
  if (in == ir::kNoTensor || out == ir::kNoTensor) {
    throw Error(Status::kInvalidModel, std::string(ir::OpTypeName(op.type)) + " node '" + op.name +
                                           "' needs a data input and a data output");
  }
  if (!graph.IsGraphOutput(out)) {
    dead[index] = true;
    op.inputs.clear();  // a dead op must not show up as a producer or reader below
    op.outputs.clear();
    graph.ReplaceUses(out, in);
    return;
  }
  if (graph.IsConstant(in)) {
    const ir::Tensor& source = graph.tensor(in);
    ir::Tensor& copy = graph.tensor(out);
    copy.dtype = source.dtype;
    copy.shape = source.shape;
    copy.quant = source.quant;
    copy.data = source.data;
    copy.is_constant = true;
    dead[index] = true;
    op.inputs.clear();
    op.outputs.clear();
    return;
  }
  int producer = graph.ProducerIndex()[static_cast<size_t>(in)];
  if (producer >= 0 && !graph.IsGraphOutput(in)) {
    dead[index] = true;
    op.inputs.clear();
    op.outputs.clear();
    for (ir::TensorId& t : graph.ops[static_cast<size_t>(producer)].outputs) {
      if (t == in) t = out;
    }
    graph.ReplaceUses(in, out);  // the producer's other readers come after it: still topological
    return;
  }
  op.type = ir::OpType::kReshape;
  op.inputs = {in};
  op.outputs = {out};
  op.attrs = {};
  op.attrs.Set("shape", graph.tensor(out).shape);
}

}  // namespace

void IdentityDropoutElim(ir::Graph& graph) {
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    ir::OpType type = graph.ops[i].type;
    if (type != ir::OpType::kIdentity && type != ir::OpType::kDropout &&
        !IsSameTypeCast(graph, graph.ops[i])) {
      continue;
    }
    if (type == ir::OpType::kDropout) CheckInferenceDropout(graph, graph.ops[i]);
    Eliminate(graph, i, dead);
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
