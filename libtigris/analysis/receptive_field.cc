#include "analysis/receptive_field.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "util/error.h"

namespace tigris::analysis {
namespace {

[[noreturn]] void Malformed(const ir::Op& op, const std::string& what) {
  throw Error(Status::kInvalidModel,
              "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + "): " + what);
}

// Kernel extent along spatial axis `axis` (0: H, 1: W).
int64_t KernelExtent(const ir::Graph& graph, const ir::Op& op, size_t axis) {
  std::vector<int64_t> kernel = op.attrs.GetInts("kernel_shape");
  if (kernel.size() == 2) return kernel[axis];
  if (!kernel.empty()) Malformed(op, "kernel_shape must have 2 entries for a 2-D window");
  const bool has_weight = op.type == ir::OpType::kConv || op.type == ir::OpType::kDepthwiseConv;
  const ir::TensorId weight = op.input(1);
  if (has_weight && weight != ir::kNoTensor && graph.tensor(weight).shape.size() == 4) {
    return graph.tensor(weight).shape[2 + axis];  // [Cout, Cin/group, KH, KW]
  }
  Malformed(op, "no kernel_shape attribute and no 4-D weight");
}

int64_t AttrAt(const ir::Op& op, const char* name, size_t index, size_t expected_size,
               int64_t fallback) {
  std::vector<int64_t> values = op.attrs.GetInts(name);
  if (values.empty()) return fallback;
  if (values.size() != expected_size) {
    Malformed(op, std::string(name) + " must have " + std::to_string(expected_size) +
                      " entries, has " + std::to_string(values.size()));
  }
  return values[index];
}

}  // namespace

namespace {

// The window along spatial axis `axis` (0: H, 1: W); pads are [top, left, bottom, right].
RowWindow SpatialWindow(const ir::Graph& graph, const ir::Op& op, size_t axis) {
  if (op.inputs.empty() || op.outputs.empty() || op.input(0) == ir::kNoTensor) {
    Malformed(op, "missing input or output");
  }
  const ir::Shape& in = graph.tensor(op.input(0)).shape;
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  if (in.size() != 4 || out.size() != 4) Malformed(op, "input and output must be NCHW");

  RowWindow w;
  w.kernel = KernelExtent(graph, op, axis);
  w.stride = AttrAt(op, "strides", axis, 2, 1);
  w.dilation = AttrAt(op, "dilations", axis, 2, 1);
  w.pad_top = AttrAt(op, "pads", axis, 4, 0);
  w.pad_bottom = AttrAt(op, "pads", 2 + axis, 4, 0);
  if (w.kernel < 1 || w.stride < 1 || w.dilation < 1 || w.pad_top < 0 || w.pad_bottom < 0) {
    Malformed(op, "kernel, stride and dilation must be >= 1 and pads >= 0");
  }
  const std::string auto_pad = op.attrs.GetString("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const int64_t total = std::max<int64_t>(0, w.InputRows(out[2 + axis]) - in[2 + axis]);
    w.pad_top = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    w.pad_bottom = total - w.pad_top;
  } else if (auto_pad == "VALID") {
    w.pad_top = w.pad_bottom = 0;
  }
  return w;
}

}  // namespace

RowWindow SpatialRowWindow(const ir::Graph& graph, const ir::Op& op) {
  return SpatialWindow(graph, op, 0);
}

RowWindow SpatialColumnWindow(const ir::Graph& graph, const ir::Op& op) {
  return SpatialWindow(graph, op, 1);
}

std::pair<int64_t, int64_t> RowWindow::Taps(int64_t out_begin, int64_t out_end) const {
  if (resample) {
    // Both maps are non-decreasing in the output position, so the first row's first source
    // and the last row's last source bound the window.
    return {resample->Sources(out_begin).first, resample->Sources(out_end - 1).second + 1};
  }
  const int64_t start = out_begin * stride - pad_top;
  return {start, start + InputRows(out_end - out_begin)};
}

namespace {

// onnxruntime's original coordinate of output position x, in float, as
// runtime/kernels/resize.c's original_coord computes it (no fused multiply-add can enter:
// each expression divides before it adds).
float OriginalCoord(const ResampleMap& m, int64_t x) {
  const float xf = static_cast<float>(x);
  switch (m.coord) {
    case ResampleMap::Coord::kAsymmetric:
      return xf / m.scale;
    case ResampleMap::Coord::kAlignCorners:
      return m.out_len == 1
                 ? 0.0f
                 : xf * static_cast<float>(m.in_len - 1) / static_cast<float>(m.out_len - 1);
    case ResampleMap::Coord::kPytorchHalfPixel:
      return m.out_len > 1 ? (xf + 0.5f) / m.scale - 0.5f : 0.0f;
    case ResampleMap::Coord::kHalfPixel:
      break;
  }
  return (xf + 0.5f) / m.scale - 0.5f;
}

int64_t Clamp(int64_t i, int64_t len) { return std::clamp<int64_t>(i, 0, len - 1); }

}  // namespace

std::pair<int64_t, int64_t> ResampleMap::Sources(int64_t x) const {
  float f = OriginalCoord(*this, x);
  if (mode == Mode::kLinear) {
    // The kernel clamps the coordinate first, then reads floor(f) and the row after it.
    f = std::clamp(f, 0.0f, static_cast<float>(in_len - 1));
    const int64_t i1 = Clamp(static_cast<int64_t>(f), in_len);
    return {i1, Clamp(i1 + 1, in_len)};
  }
  int64_t i = 0;
  switch (rounding) {
    case Rounding::kFloor:
      i = static_cast<int64_t>(std::floor(f));
      break;
    case Rounding::kCeil:
      i = static_cast<int64_t>(std::ceil(f));
      break;
    case Rounding::kRoundPreferCeil:
      i = static_cast<int64_t>(std::round(f));
      break;
    case Rounding::kRoundPreferFloor:
      i = f == static_cast<float>(static_cast<int32_t>(f)) + 0.5f
              ? static_cast<int64_t>(std::floor(f))
              : static_cast<int64_t>(std::round(f));
      break;
  }
  i = Clamp(i, in_len);
  return {i, i};
}

ResampleMap ResizeMap(const ir::Graph& graph, const ir::Op& op, size_t axis) {
  if (op.inputs.empty() || op.outputs.empty() || op.input(0) == ir::kNoTensor) {
    Malformed(op, "missing input or output");
  }
  const ir::Shape& in = graph.tensor(op.input(0)).shape;
  const ir::Shape& out = graph.tensor(op.outputs[0]).shape;
  const std::vector<float> scales = op.attrs.GetFloats("scales");
  if (in.size() != 4 || out.size() != 4 || scales.size() != 4) {
    Malformed(op, "input, output and scales must be NCHW");
  }
  ResampleMap m;
  m.scale = scales[2 + axis];
  m.in_len = in[2 + axis];
  m.out_len = out[2 + axis];
  if (!(m.scale > 0.0f) || m.in_len < 1 || m.out_len < 1) Malformed(op, "scales must be > 0");
  const std::string mode = op.attrs.GetString("mode", "nearest");
  const std::string coord = op.attrs.GetString("coordinate_transformation_mode", "half_pixel");
  const std::string rounding = op.attrs.GetString("nearest_mode", "round_prefer_floor");
  if (mode == "linear") {
    m.mode = ResampleMap::Mode::kLinear;
  } else if (mode != "nearest") {
    Malformed(op, "mode '" + mode + "' has no runtime kernel");
  }
  if (coord == "asymmetric") {
    m.coord = ResampleMap::Coord::kAsymmetric;
  } else if (coord == "align_corners") {
    m.coord = ResampleMap::Coord::kAlignCorners;
  } else if (coord == "pytorch_half_pixel") {
    m.coord = ResampleMap::Coord::kPytorchHalfPixel;
  } else if (coord != "half_pixel") {
    Malformed(op, "coordinate_transformation_mode '" + coord + "' has no runtime kernel");
  }
  if (rounding == "round_prefer_ceil") {
    m.rounding = ResampleMap::Rounding::kRoundPreferCeil;
  } else if (rounding == "floor") {
    m.rounding = ResampleMap::Rounding::kFloor;
  } else if (rounding == "ceil") {
    m.rounding = ResampleMap::Rounding::kCeil;
  } else if (rounding != "round_prefer_floor") {
    Malformed(op, "nearest_mode '" + rounding + "' has no runtime kernel");
  }
  return m;
}

ReceptiveField ComputeReceptiveField(const std::vector<RowWindow>& windows_in_order) {
  ReceptiveField rf;
  int64_t cumulative_stride = 1;
  for (auto it = windows_in_order.rbegin(); it != windows_in_order.rend(); ++it) {
    rf.rows += (it->effective_kernel() - 1) * cumulative_stride;
    cumulative_stride *= it->stride;
  }
  rf.halo = rf.rows - 1;
  return rf;
}

}  // namespace tigris::analysis
