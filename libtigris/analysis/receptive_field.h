// Receptive field and halo along the tiled (row, H) dimension (tigris-tiling.txt,
// "Receptive field and halo").
#ifndef TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_
#define TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "ir/graph.h"

namespace tigris::analysis {

// How a Resize maps output positions to input positions along one axis: ONNX Resize's
// coordinate transform, then nearest rounding or linear's two neighbours, clamped to the
// input. Computed in float with the very expressions of the runtime's kernel
// (runtime/kernels/resize.c), so a window holds exactly the rows the kernel reads: the
// kernel checks that every source row is inside its window and refuses the plan if not.
struct ResampleMap {
  enum class Mode { kNearest, kLinear };
  enum class Coord { kHalfPixel, kAsymmetric, kAlignCorners, kPytorchHalfPixel };
  enum class Rounding { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };
  Mode mode = Mode::kNearest;
  Coord coord = Coord::kHalfPixel;
  Rounding rounding = Rounding::kRoundPreferFloor;
  float scale = 1.0f;  // the plan's scale along the axis (output / input as ONNX states it)
  int64_t in_len = 1;
  int64_t out_len = 1;

  // The first and last input position output position `x` reads.
  std::pair<int64_t, int64_t> Sources(int64_t x) const;
};

// How an op maps output rows to input rows along H: output row r reads input rows
// r * stride - pad_top + j * dilation for j in [0, kernel). Pointwise ops are the
// identity window (1, 1, 1, 0, 0). A Resize that scales the axis reads through its
// `resample` map instead, and is never padded.
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
  // The input positions [begin, end) that output positions [out_begin, out_end) read,
  // before clipping to the input (a window's padding lies outside [0, extent)).
  std::pair<int64_t, int64_t> Taps(int64_t out_begin, int64_t out_end) const;

  std::optional<ResampleMap> resample;
};

// The map of a Resize along H (axis 0) or W (axis 1) from its normalized attributes
// (scales, mode, coordinate_transformation_mode, nearest_mode). Throws kInvalidModel naming
// the node for a mode the runtime has no kernel for.
ResampleMap ResizeMap(const ir::Graph& graph, const ir::Op& op, size_t axis);

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
// A resample counts as a 2-row window of stride 1 (a linear pair; one of nearest's rows
// per output row at most): an upsampling reads fewer rows than that, so the halo it gives
// is an upper bound, which is all the tile-height estimate needs (row_tiling.cc).
ReceptiveField ComputeReceptiveField(const std::vector<RowWindow>& windows_in_order);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_RECEPTIVE_FIELD_H_
