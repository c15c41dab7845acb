#include "analysis/tileability.h"

#include <vector>

#include "ir/slice.h"

namespace tigris::analysis {
namespace {

using ir::OpType;

RowTileability Untileable(const ir::Op& op, const std::string& why) {
  RowTileability t;
  t.reason = std::string(ir::OpTypeName(op.type)) + " " + why;
  return t;
}

// Activations and elementwise math: one value in, one value out, no per-channel parameter
// (the op table's UNARY kind, tgrs_ops.def).
bool IsActivation(OpType type) { return ir::IsUnaryOp(type); }

bool IsElementwise(OpType type) {
  if (IsActivation(type)) return true;
  switch (type) {
    case OpType::kBatchNormalization:
    case OpType::kQuantize:
    case OpType::kDequantize:
    case OpType::kLRN:  // mixes channels of one pixel only: every row is independent
      return true;
    default:
      return false;
  }
}

bool IsBinary(OpType type) { return ir::IsBinaryOp(type); }

// True when the op's kernel computes a tile of `tiles` (or wider) exactly: the op table's
// TILES column, the upper bound of everything below.
bool KernelTiles(OpType type, tgrs_op_tiles tiles) {
  const ir::OpTableRow* row = ir::OpTableRowOf(type);
  return row != nullptr && row->tiles >= tiles;
}

// Extent along H of a constant broadcast against a rank-4 output (1 if it has no H axis).
int64_t BroadcastRows(const ir::Shape& shape) {
  return shape.size() >= 2 ? shape[shape.size() - 2] : 1;
}

// A Slice of a rank-4 NCHW tensor that keeps every row of H in place.
bool SliceKeepsRows(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& in = graph.tensor(op.input(0));
  if (in.shape.size() != 4 || in.is_constant) return false;
  std::vector<std::vector<int64_t>> operands(5);
  for (size_t i = 1; i < 5; ++i) {
    if (op.input(i) == ir::kNoTensor) continue;
    if (!graph.IsConstant(op.input(i))) return false;
    operands[i] = ir::ConstantAsInt64s(graph.tensor(op.input(i)));
  }
  ir::SliceWindow w;
  if (!ir::ResolveSlice(in.shape, operands[1], operands[2], operands[3], operands[4], &w).empty()) {
    return false;
  }
  return w.first[2] == 0 && w.step[2] == 1 && w.extent[2] == in.shape[2];
}

// A window padded by its whole extent or more on a side: the output rows (or columns) at
// that edge read only padding, and a tile of them would read no input row at all. ONNX
// allows it (a fuzzed model had 65 rows of top padding on a 3-row kernel); no real model
// does, and such ops keep whole tensors.
bool PadsAWholeWindow(const RowWindow& w) {
  return w.pad_top >= w.effective_kernel() || w.pad_bottom >= w.effective_kernel();
}

}  // namespace

bool BroadcastsAlongRows(const ir::Graph& graph, const ir::Op& op, ir::TensorId input) {
  if (!IsBinary(op.type) || input == ir::kNoTensor || op.outputs.empty()) return false;
  const ir::Tensor& t = graph.tensor(input);
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  return !t.is_constant && t.shape.size() == 4 && out.size() == 4 && t.shape[2] == 1 && out[2] > 1;
}

RowTileability ClassifyRowTiling(const ir::Graph& graph, const ir::Op& op) {
  if (op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor) {
    return Untileable(op, "has more than one output");
  }
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  if (out.size() != 4) return Untileable(op, "output is not a 4-D NCHW tensor");

  RowTileability t;
  switch (op.type) {
    case OpType::kConv:
    case OpType::kDepthwiseConv:
    case OpType::kMaxPool:
    case OpType::kAveragePool:
      t.kind = RowTileClass::kSpatial;
      t.window = SpatialRowWindow(graph, op);
      if (PadsAWholeWindow(t.window)) {
        return Untileable(op, "pads a whole window of rows or more (" +
                                  std::to_string(t.window.pad_top) + " above, " +
                                  std::to_string(t.window.pad_bottom) +
                                  " below): its edge rows read no input row");
      }
      return t;
    case OpType::kGlobalAveragePool:
    case OpType::kGlobalMaxPool: {
      const ir::Tensor& in = graph.tensor(op.input(0));
      if (in.shape.size() != 4 || in.is_constant) return Untileable(op, "input is not 4-D NCHW");
      t.kind = RowTileClass::kReduction;  // identity window over its input rows
      return t;
    }
    case OpType::kGemm: {
      // A fully connected layer reading a [N, C, H, W] map as [N, K] (gemm-flatten-fold put
      // B's columns in the runtime's H, W, C order) and writing [N, M, 1, 1] (the planner's
      // gemm-as-banded-reduction, plan/rewrites.h): each band of rows adds its share of the
      // dot products to [N, M] accumulators, like a global pool (tgrs_fully_connected_band).
      const ir::TensorId x = op.input(0);
      const ir::TensorId w = op.inputs.size() > 1 ? op.input(1) : ir::kNoTensor;
      const ir::TensorId b = op.inputs.size() > 2 ? op.input(2) : ir::kNoTensor;
      if (x == ir::kNoTensor || graph.tensor(x).is_constant || graph.tensor(x).shape.size() != 4 ||
          w == ir::kNoTensor || !graph.IsConstant(w) ||
          (b != ir::kNoTensor && !graph.IsConstant(b)) || out[2] != 1 || out[3] != 1) {
        return Untileable(op, "needs the whole tensor");
      }
      const ir::Shape& xs = graph.tensor(x).shape;
      const ir::Shape& ws = graph.tensor(w).shape;
      if (ws.size() != 2 || ws[1] != xs[1] * xs[2] * xs[3] || ws[0] != out[1]) {
        return Untileable(op, "needs the whole tensor");
      }
      t.kind = RowTileClass::kReduction;
      return t;
    }
    case OpType::kGather: {
      // The row form of an embedding lookup (the planner's embedding-as-rows,
      // plan/rewrites.h): out[n, :, h, w] = table[ids[n, 0, h, w], :], so row h of the
      // output is the lookup of row h of the ids, and a strip of ids rows makes the strip.
      const ir::TensorId table = op.input(0);
      const ir::TensorId ids = op.inputs.size() > 1 ? op.input(1) : ir::kNoTensor;
      if (table == ir::kNoTensor || ids == ir::kNoTensor || !graph.IsConstant(table) ||
          graph.tensor(table).shape.size() != 2 || graph.tensor(ids).is_constant) {
        return Untileable(op, "needs the whole tensor");
      }
      const ir::Shape& is = graph.tensor(ids).shape;
      if (is.size() != 4 || is[1] != 1 || is[0] != out[0] || is[2] != out[2] || is[3] != out[3] ||
          out[1] != graph.tensor(table).shape[1]) {
        return Untileable(op, "has indices that are not a map of rows (embedding-as-rows)");
      }
      t.kind = RowTileClass::kPointwise;
      return t;
    }
    case OpType::kResize: {
      // Scaling H, a band of output rows reads the band of input rows its resample map
      // names (nearest: one source row each; linear: two); the kernel keeps the full width.
      const ir::Tensor& in = graph.tensor(op.input(0));
      if (in.shape.size() != 4 || in.is_constant) return Untileable(op, "input is not 4-D NCHW");
      if (in.shape[2] == out[2]) break;  // H unchanged: row by row, with the pointwise ops
      if (in.shape[0] != out[0] || in.shape[1] != out[1]) {
        return Untileable(op, "scales N or C");
      }
      t.kind = RowTileClass::kSpatial;
      t.window.kernel = 2;  // for the halo estimate only (ComputeReceptiveField)
      t.window.resample = ResizeMap(graph, op, 0);
      return t;
    }
    case OpType::kSlice:
      // A strided copy: row y of the output is row y of the input when H is kept whole
      // (first 0, step 1); along N, C or W it slices within each row.
      if (!SliceKeepsRows(graph, op)) return Untileable(op, "slices along H");
      t.kind = RowTileClass::kPointwise;
      return t;
    default:
      break;
  }
  // A channel shuffle moves channels within each pixel (tgrs_op_reshape on the strip).
  const bool pointwise = IsElementwise(op.type) || IsBinary(op.type) ||
                         op.type == OpType::kConcat || op.type == OpType::kPad ||
                         op.type == OpType::kResize || op.type == OpType::kChannelShuffle;
  if (!pointwise) return Untileable(op, "needs the whole tensor");

  // Only input 0 carries data for the elementwise ops; the rest are parameters.
  const size_t data_inputs = IsElementwise(op.type) || op.type == OpType::kPad ||
                                     op.type == OpType::kResize ||
                                     op.type == OpType::kChannelShuffle
                                 ? 1
                                 : op.inputs.size();
  for (size_t i = 0; i < data_inputs; ++i) {
    const ir::TensorId in = op.input(i);
    if (in == ir::kNoTensor) continue;
    const ir::Tensor& tensor = graph.tensor(in);
    if (tensor.is_constant) {
      if (op.type == OpType::kConcat) return Untileable(op, "concatenates a constant");
      if (BroadcastRows(tensor.shape) != 1) return Untileable(op, "has a constant varying along H");
      continue;
    }
    if (tensor.shape.size() != 4) return Untileable(op, "has an input that is not 4-D NCHW");
    if (tensor.shape[2] != out[2] && !BroadcastsAlongRows(graph, op, in)) {
      if (op.type == OpType::kPad) return Untileable(op, "pads along H");
      if (op.type == OpType::kConcat) return Untileable(op, "joins along H");
      return Untileable(op, "broadcasts an activation along H");
    }
  }
  // Parameter operands (Clip bounds, BatchNorm statistics, Pad values, Resize scales)
  // must be constants: a strip kernel cannot index a whole activation by row.
  for (size_t i = data_inputs; i < op.inputs.size(); ++i) {
    const ir::TensorId in = op.input(i);
    if (in != ir::kNoTensor && !graph.IsConstant(in)) {
      return Untileable(op, "has a non-constant parameter operand");
    }
  }
  t.kind = RowTileClass::kPointwise;
  return t;
}

ColumnTileability ClassifyColumnTiling(const ir::Graph& graph, const ir::Op& op) {
  ColumnTileability t;
  auto refuse = [&](const std::string& why) {
    t.reason = std::string(ir::OpTypeName(op.type)) + " " + why;
    return t;
  };
  // The op table's bound (tgrs_ops.def): the runtime refuses a column view to any other
  // op (stage_tiled.c reads the same column).
  if (!KernelTiles(op.type, TGRS_OP_TILES_COLUMNS)) return refuse("runs on whole rows only");
  const RowTileability rows = ClassifyRowTiling(graph, op);
  if (rows.kind == RowTileClass::kUntileable) return refuse("is not row-tileable either");
  if (rows.kind == RowTileClass::kReduction) {
    t.tileable = true;  // box by box into its accumulators, like its bands of rows
    return t;
  }
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  switch (op.type) {
    case OpType::kConv:
    case OpType::kDepthwiseConv:
    case OpType::kMaxPool:
    case OpType::kAveragePool:
      t.window = SpatialColumnWindow(graph, op);
      if (PadsAWholeWindow(t.window)) {
        return refuse("pads a whole window of columns or more: its edge columns read no input");
      }
      t.tileable = true;
      return t;
    case OpType::kConcat:
      // Along C (or N) a column of the output is the same column of every input, as a row
      // is for row tiles (ClassifyRowTiling refused constants and joins along H); each
      // input's column view is concatenated into the output's (tgrs_concat on the views).
      for (const ir::TensorId in : op.inputs) {
        if (graph.tensor(in).shape[3] != out[3]) return refuse("joins along W");
      }
      t.tileable = true;
      return t;
    case OpType::kChannelShuffle:  // within each pixel, as for rows
      t.tileable = true;
      return t;
    default:
      break;
  }
  if (!IsElementwise(op.type) && !IsBinary(op.type)) return refuse("keeps whole rows");
  const size_t data_inputs = IsElementwise(op.type) ? 1 : op.inputs.size();
  for (size_t i = 0; i < data_inputs; ++i) {
    const ir::TensorId in = op.input(i);
    if (in == ir::kNoTensor) continue;
    const ir::Shape& shape = graph.tensor(in).shape;
    const int64_t cols = shape.empty() ? 1 : shape.back();
    if (graph.tensor(in).is_constant) {
      if (cols != 1) return refuse("has a constant varying along W");
      continue;
    }
    const bool pixel = shape.size() == 4 && shape[2] == 1 && shape[3] == 1;
    if (shape.size() != 4 || (shape[3] != out[3] && !pixel) ||
        (shape[2] == 1 && out[2] > 1 && !pixel)) {
      return refuse("broadcasts an activation along W");
    }
  }
  t.tileable = true;
  return t;
}

ChannelTileability ClassifyChannelTiling(const ir::Graph& graph, const ir::Op& op) {
  ChannelTileability t;
  auto refuse = [&](const std::string& why) {
    t.reason = std::string(ir::OpTypeName(op.type)) + " " + why;
    return t;
  };
  // The op table's bound, as for columns.
  if (!KernelTiles(op.type, TGRS_OP_TILES_CHANNELS)) return refuse("mixes or indexes channels");
  const RowTileability rows = ClassifyRowTiling(graph, op);
  if (rows.kind == RowTileClass::kUntileable) return refuse("is not row-tileable either");
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  if (op.type == OpType::kDepthwiseConv) {
    // Channel c from channel c (multiplier 1); its per-channel filter, bias and
    // requantization are offset to the group by the runtime (ops_conv.c).
    const ir::TensorId x = op.input(0);
    if (x == ir::kNoTensor || graph.tensor(x).shape.size() != 4 ||
        graph.tensor(x).shape[1] != out[1]) {
      return refuse("has a channel multiplier");
    }
    for (size_t i = 1; i < op.inputs.size(); ++i) {
      if (op.input(i) != ir::kNoTensor && !graph.IsConstant(op.input(i))) {
        return refuse("has a non-constant filter or bias");
      }
    }
    t.tileable = true;
    return t;
  }
  if (op.type == OpType::kConv) {
    // Output-channel groups: each reads every input channel; the runtime offsets the
    // filter (OHWI), bias and requantization to the group (ops_conv.c). Groups of the
    // convolution's own would have to line up with the tiles': not done.
    const ir::TensorId x = op.input(0);
    const ir::TensorId w = op.inputs.size() > 1 ? op.input(1) : ir::kNoTensor;
    if (x == ir::kNoTensor || w == ir::kNoTensor || graph.tensor(x).shape.size() != 4 ||
        graph.tensor(w).shape.size() != 4 || graph.tensor(w).shape[1] != graph.tensor(x).shape[1]) {
      return refuse("is a grouped convolution");
    }
    for (size_t i = 1; i < op.inputs.size(); ++i) {
      if (op.input(i) != ir::kNoTensor && !graph.IsConstant(op.input(i))) {
        return refuse("has a non-constant filter or bias");
      }
    }
    t.tileable = true;
    t.reads_all_channels = true;
    return t;
  }
  const bool channel_wise = IsActivation(op.type) || IsBinary(op.type) ||
                            op.type == OpType::kGlobalAveragePool ||
                            op.type == OpType::kGlobalMaxPool || op.type == OpType::kMaxPool ||
                            op.type == OpType::kAveragePool;
  if (!channel_wise) return refuse("mixes or indexes channels");
  const size_t data_inputs = IsBinary(op.type) ? op.inputs.size() : 1;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const ir::TensorId in = op.input(i);
    if (in == ir::kNoTensor) continue;
    const ir::Tensor& tensor = graph.tensor(in);
    if (tensor.is_constant) {
      if (tensor.num_elements() != 1) return refuse("has a constant with several values");
      continue;
    }
    if (i >= data_inputs) return refuse("has a non-constant parameter operand");
    if (tensor.shape.size() != 4 || tensor.shape[1] != out[1]) {
      return refuse("changes or broadcasts channels");
    }
    if (IsBinary(op.type) && tensor.shape != out) return refuse("broadcasts an activation");
  }
  t.tileable = true;
  return t;
}

}  // namespace tigris::analysis
