// requantize-split: Reshape, Transpose, ChannelShuffle, Slice, Gather and the rearrangements
// (Tile, Expand, DepthToSpace, SpaceToDepth) move bytes; the runtime executes them as copies
// (tgrs_reshape, tgrs_transpose, tgrs_slice, tgrs_gather, tgrs_tile, ...) that cannot
// change an int8 value's scale or zero point. A QDQ model may still give their output other
// quantization parameters than their input (DequantizeLinear -> Reshape -> QuantizeLinear with a
// new scale, as a quantizer that calibrates every tensor on its own writes), which qdq-fold turns
// into an int8 op whose input and output disagree. Copying the bytes would silently reinterpret
// them; instead the move keeps its input's parameters and an identity Clip follows:
//
//   before:  x (s_x, z_x) -> Reshape -> y (s_y, z_y)
//   after:   x -> Reshape -> y' (s_x, z_x) -> Clip() -> y (s_y, z_y)
//
// The int8 Clip with differing parameters is a 256-entry table (emit/op_quant.cc, lut.cc),
// lut[q] = saturate(round_half_even((q - z_x) * s_x / s_y) + z_y): DequantizeLinear then
// QuantizeLinear, exactly what onnxruntime computes for the unfolded model.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool MovesBytes(ir::OpType type) {
  return type == ir::OpType::kReshape || type == ir::OpType::kTranspose ||
         type == ir::OpType::kChannelShuffle || type == ir::OpType::kSlice ||
         type == ir::OpType::kGather || type == ir::OpType::kGatherElements ||
         type == ir::OpType::kTile || type == ir::OpType::kExpand ||
         type == ir::OpType::kDepthToSpace || type == ir::OpType::kSpaceToDepth;
}

}  // namespace

void RequantizeSplit(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (!MovesBytes(op.type) || op.input(0) == ir::kNoTensor || op.outputs.size() != 1) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::Tensor& x = graph.tensor(op.inputs[0]);
    const ir::TensorId y = op.outputs[0];
    if (x.dtype != graph.tensor(y).dtype || !x.quant || !graph.tensor(y).quant ||
        *x.quant == *graph.tensor(y).quant) {
      rewritten.push_back(std::move(op));
      continue;
    }
    ir::Tensor moved = graph.tensor(y);
    moved.name = graph.UniqueTensorName(moved.name + "_moved");
    moved.quant = x.quant;
    const ir::TensorId moved_id = graph.AddTensor(std::move(moved));
    ir::Op requantize;
    requantize.type = ir::OpType::kClip;
    requantize.name = namer.Unique(op.name + "_requantize");
    requantize.inputs = {moved_id};
    requantize.outputs = {y};
    op.outputs = {moved_id};
    rewritten.push_back(std::move(op));
    rewritten.push_back(std::move(requantize));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
