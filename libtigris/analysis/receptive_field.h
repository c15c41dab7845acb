// Receptive field and halo along the tiled (row, H) dimension (tigris-tiling.txt,
// "Receptive field and halo").
#ifndef TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_
#define TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace tigris::analysis {

// How an op maps output rows to input rows along H: output row r reads input rows
// r * stride - pad_top + j * dilation for j in [0, kernel). Pointwise ops are the
// identity window (1, 1, 1, 0, 0).
struct RowWindow {
  int64_t kernel = 1;
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t pad_top = 0;
  int64_t pad_bottom = 0;

  // eff_kernel = kernel + (kernel - 1) * (dilation - 1) (tigris-tiling.txt)
  int64_t effective_kernel() const { return (kernel - 1) * dilation + 1; }
  // Exact input rows for `rows` consecutive output rows (rows >= 1):
  // (rows - 1) * stride + (kernel - 1) * dilation + 1. The reference's
  // rows * stride + (kernel - 1) * dilation over-allocates a row when stride > 1.
  int64_t InputRows(int64_t rows) const { return (rows - 1) * stride + effective_kernel(); }
};

// Row window of a Conv, DepthwiseConv, MaxPool or AveragePool from its ONNX attributes
// (kernel_shape, else the weight's KH; strides; dilations; pads [top, left, bottom,
// right]; auto_pad SAME_UPPER/SAME_LOWER/VALID resolved from the shapes). Throws
// kInvalidModel naming the node when the op is not a 2-D window op or its attributes are
// malformed.
RowWindow SpatialRowWindow(const ir::Graph& graph, const ir::Op& op);
// The same window along W (kernel KW, strides[1], dilations[1], pads left and right, in
// the pad_top / pad_bottom fields): what a 2-D tile's column bands walk back through.
RowWindow SpatialColumnWindow(const ir::Graph& graph, const ir::Op& op);

struct ReceptiveField {
  int64_t rows = 1;  // RF
  int64_t halo = 0;  // RF - 1: overlap rows at each tile boundary
};

// Reverse walk over the spatial windows of a stage or chain, given in execution order
// (tigris-tiling.txt):
//   RF = 1; cumulative_stride = 1
//   for each op in reverse: RF += (eff_kernel - 1) * cumulative_stride;
//                           cumulative_stride *= stride
ReceptiveField ComputeReceptiveField(const std::vector<RowWindow>& windows_in_order);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_
