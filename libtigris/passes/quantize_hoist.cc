// Quantize hoist (an added pass, not in the reference): a runtime Quantize that reads pure
// data movement of a float tensor moves in front of it, so the data movement runs on int8.
//
//   before: x[1,49,10] f32 -> Reshape -> m[1,1,49,10] f32 -> Quantize -> q[1,1,49,10] i8 {s,zp}
//   after:  x[1,49,10] f32 -> Quantize -> x_quantized[1,49,10] i8 {s,zp} -> Reshape -> q
//   then:   x[1,49,10] i8 {s,zp} (graph input: the host quantizes) -> Reshape -> q
//
// TensorFlow QDQ exports start with a float Reshape or Transpose of the graph input before
// the first QuantizeLinear; qdq-fold leaves it float (it reads no DequantizeLinear), so the
// plan would need float32 kernels for an otherwise all-int8 model and the input would
// travel as 4x the bytes. Quantization maps each element on its own (q = sat(round(x / s)
// + zp)) and Reshape / Transpose only move elements, so both orders give identical bytes.
//
// Conditions, each needed for that identity or for the graph to stay valid:
//  - the Quantize is per tensor: a per-axis scale follows its axis, which a Reshape or
//    Transpose would move (remapping it is not done);
//  - the data movement is Reshape or Transpose: reshape-canonicalize, which runs first,
//    has turned every Squeeze, Unsqueeze and Flatten into Reshape;
//  - the Quantize is the data movement's only reader and its output is no graph output:
//    otherwise the float result is still needed and moving the Quantize duplicates work.
// It repeats until nothing matches, so a chain (Transpose -> Reshape -> Quantize) is
// crossed. The Quantize's output tensor keeps its name, dtype, shape and parameters (now
// written by the data movement); the new int8 tensor between them has x's shape.
//
// Finally, qdq-fold's rule for graph inputs applies to the Quantizes this exposes: a graph
// input read only by a Quantize (and no graph output) becomes that int8 tensor under its
// public name, so the host quantizes and no float op remains.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool IsDataMovement(ir::OpType type) {
  return type == ir::OpType::kReshape || type == ir::OpType::kTranspose;
}

bool IsPerTensor(const ir::Tensor& t) {
  return t.quant && t.quant->scales.size() == 1 && t.quant->zero_points.size() == 1 &&
         t.quant->axis < 0;
}

// A well-formed runtime Quantize: one float input, one per-tensor int8 output.
bool IsPerTensorQuantize(const ir::Graph& graph, const ir::Op& op) {
  if (op.type != ir::OpType::kQuantize || op.inputs.size() != 1 || op.outputs.size() != 1 ||
      op.inputs[0] == ir::kNoTensor || op.outputs[0] == ir::kNoTensor) {
    return false;
  }
  const ir::Tensor& out = graph.tensor(op.outputs[0]);
  return out.dtype == ir::DType::kInt8 && IsPerTensor(out);
}

// Moves one Quantize in front of the data movement it reads; false when none qualifies.
bool HoistOnce(ir::Graph& graph) {
  const std::vector<int> producer = graph.ProducerIndex();
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t qi = 0; qi < graph.ops.size(); ++qi) {
    if (!IsPerTensorQuantize(graph, graph.ops[qi])) continue;
    const ir::TensorId moved = graph.ops[qi].inputs[0];
    const int di = producer[static_cast<size_t>(moved)];
    if (di < 0) continue;
    const ir::Op& dm = graph.ops[static_cast<size_t>(di)];
    if (!IsDataMovement(dm.type) || dm.outputs.size() != 1 || dm.input(0) == ir::kNoTensor ||
        graph.IsConstant(dm.input(0)) || graph.tensor(dm.input(0)).dtype != ir::DType::kFloat32 ||
        SoleConsumer(graph, consumers, moved) != static_cast<int>(qi)) {
      continue;
    }
    const ir::TensorId x = dm.input(0);
    const ir::TensorId q = graph.ops[qi].outputs[0];
    ir::Tensor between;
    between.name = graph.UniqueTensorName(graph.tensor(x).name + "_quantized");
    between.dtype = graph.tensor(q).dtype;
    between.shape = graph.tensor(x).shape;
    between.quant = graph.tensor(q).quant;
    const ir::TensorId t = graph.AddTensor(std::move(between));
    // Swap the two ops' slots: the Quantize takes the data movement's earlier position (x is
    // ready there) and the data movement the Quantize's (every reader of q comes later), so
    // execution order stays topological. `moved` is left unreferenced; Compact drops it.
    ir::Op quantize = std::move(graph.ops[qi]);
    ir::Op movement = std::move(graph.ops[static_cast<size_t>(di)]);
    quantize.inputs = {x};
    quantize.outputs = {t};
    movement.inputs[0] = t;
    movement.outputs = {q};
    graph.ops[static_cast<size_t>(di)] = std::move(quantize);
    graph.ops[qi] = std::move(movement);
    return true;
  }
  return false;
}

// qdq-fold's graph-input rule (qdq_fold.cc, FinishQuantizes) for the Quantizes hoisting
// brought next to a graph input.
void FoldInputQuantizes(ir::Graph& graph) {
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (!IsPerTensorQuantize(graph, op)) continue;
    const ir::TensorId x = op.inputs[0];
    auto input = std::find(graph.inputs.begin(), graph.inputs.end(), x);
    if (input == graph.inputs.end() || SoleConsumer(graph, consumers, x) != static_cast<int>(i) ||
        graph.IsGraphOutput(op.outputs[0])) {
      continue;
    }
    const ir::TensorId q = op.outputs[0];
    const std::string name = graph.tensor(x).name;
    graph.tensor(x).name = graph.UniqueTensorName(name + "_float");
    graph.tensor(q).name = name;
    *input = q;
    dead[i] = true;
  }
  graph.EraseOps(dead);
}

}  // namespace

void QuantizeHoist(ir::Graph& graph) {
  while (HoistOnce(graph)) {
  }
  FoldInputQuantizes(graph);
}

}  // namespace tigris::passes
