// Row (H) tileability of an op (tigris-tiling.txt, "Op tileability").
//
// Spatial ops (Conv, DepthwiseConv, MaxPool, AveragePool) read a window of rows and
// contribute to the halo. Pointwise and channel-wise ops map each output row to the same
// input row. Everything else needs the whole tensor. Deviations from the reference table,
// all because a row strip cannot be computed from a row strip of the input:
//  - GlobalAveragePool / GlobalMaxPool reduce over every row: a tile loop can still feed
//    them band by band into per-channel accumulators (kReduction), as its last op; their
//    one output row appears with the last band (docs/planning.md, "Banded reductions").
//  - Resize is spatial when it scales H: its window is the resample map of ONNX's
//    coordinate transform (RowWindow::resample), not a kernel and a stride.
//  - Pad is tileable only when it leaves H unchanged (padding H changes the row mapping).
//  - Add/Sub/Mul/Div need every activation operand with the output's H or with one row
//    (a squeeze-excite scale, BroadcastsAlongRows: each tile reads it whole); constant
//    operands must not vary along H.
//  - Concat is tileable unless it joins along H (checked from the shapes, so it does not
//    depend on the axis convention).
//  - Conv1D and ConvTranspose are not row-tileable yet.
// Every tileable op works on rank-4 NCHW tensors.
#ifndef TIGRIS_ANALYSIS_TILEABILITY_H_
#define TIGRIS_ANALYSIS_TILEABILITY_H_

#include <string>

#include "analysis/receptive_field.h"
#include "ir/graph.h"

namespace tigris::analysis {

enum class RowTileClass { kSpatial, kPointwise, kReduction, kUntileable };

struct RowTileability {
  RowTileClass kind = RowTileClass::kUntileable;
  RowWindow window;    // identity for pointwise ops
  std::string reason;  // why not, for kUntileable ("Gather needs the whole tensor")
};

RowTileability ClassifyRowTiling(const ir::Graph& graph, const ir::Op& op);

// Column (W) tileability of an op already row-tileable, for 2-D tiles (docs/planning.md,
// "2-D tiles"): the ops whose runtime kernels run on a column view unchanged. Conv,
// DepthwiseConv, MaxPool and AveragePool walk their W window; elementwise ops and
// Add/Sub/Mul/Div map each column to itself, with every activation operand either full
// width or a single pixel (a squeeze-excite scale) and constants not varying along W.
// Everything else (Concat, Pad, Resize, Slice, the global pools) keeps whole rows.
struct ColumnTileability {
  bool tileable = false;
  RowWindow window;    // along W; identity for pointwise ops
  std::string reason;  // why not
};
ColumnTileability ClassifyColumnTiling(const ir::Graph& graph, const ir::Op& op);

// Channel tileability, for channel groups: ops whose output channel c depends only on
// input channel c and that carry no per-channel parameters, so a kernel run on a group of
// channels is the kernel on the whole tensor restricted to them: GlobalAveragePool and
// GlobalMaxPool (banded reductions with one accumulator per channel), MaxPool and
// AveragePool, the unary activations (Relu ... Clip with constant bounds),
// Add/Sub/Mul/Div of full-shape activations and scalar constants, and DepthwiseConv with
// multiplier 1 (the runtime offsets its per-channel filter, bias and requantization to the
// group). Other convolutions mix channels; BatchNormalization, LRN and per-channel
// quantization index per-channel parameters the runtime does not offset.
struct ChannelTileability {
  bool tileable = false;
  // A group of its output channels reads every input channel (a convolution: output-
  // channel groups); otherwise it reads the channels it writes.
  bool reads_all_channels = false;
  std::string reason;  // why not
};
ChannelTileability ClassifyChannelTiling(const ir::Graph& graph, const ir::Op& op);

// An activation operand of a tileable binary op that has one row where the output has
// several (a squeeze-excite scale [N, C, 1, 1]): every tile reads its one row whole.
bool BroadcastsAlongRows(const ir::Graph& graph, const ir::Op& op, ir::TensorId input);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_TILEABILITY_H_
