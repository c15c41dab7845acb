// Shape rules of ops that resize spatial extents: Resize, Upsample, Pad (ONNX operator
// specs). Scales and pads must be static: constants, Constant values, or shape arithmetic
// the loader can evaluate.
#include <cmath>

#include "onnx/shape_rules.h"

namespace tigris::onnx_import {
namespace {

// floor(in * scale) per axis (ONNX Resize and Upsample).
ir::Shape ScaleShape(ShapeContext& ctx, const ir::Shape& in, const std::vector<double>& scales,
                     const std::vector<int64_t>& axes) {
  if (scales.size() != axes.size()) {
    ctx.Fail("has " + std::to_string(scales.size()) + " scales for " + std::to_string(axes.size()) +
             " axes");
  }
  ir::Shape out = in;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (!(scales[i] > 0) || !std::isfinite(scales[i])) {
      ctx.Fail("scale " + std::to_string(scales[i]) + " must be positive");
    }
    size_t a = static_cast<size_t>(axes[i]);
    const double extent = std::floor(static_cast<double>(in[a]) * scales[i]);
    // Converting a double beyond int64 is undefined (found by fuzz_onnx: a scale of 1e21);
    // anything past 2^32 is rejected by SetOutput anyway.
    if (extent > static_cast<double>(ir::kMaxTensorElements)) {
      ctx.Fail("scale " + std::to_string(scales[i]) + " makes axis " + std::to_string(a) +
               " more than 2^32 long");
    }
    out[a] = static_cast<int64_t>(extent);
  }
  return out;
}

std::vector<int64_t> ResizeAxes(ShapeContext& ctx, int64_t rank) {
  std::vector<int64_t> axes;
  if (ctx.attrs().Has("axes")) {  // Resize-18
    for (int64_t a : ctx.attrs().GetInts("axes"))
      axes.push_back(ctx.NormalizeAxis(a, rank, "axis"));
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  return axes;
}

}  // namespace

void ResizeRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  std::vector<int64_t> axes = ResizeAxes(ctx, static_cast<int64_t>(in.size()));
  // Input 3 (sizes) wins when present and non-empty; an empty tensor stands for "absent".
  bool has_sizes = ctx.HasInput(3) && ir::NumElements(ctx.InputShape(3)) > 0;
  if (has_sizes) {
    const std::vector<int64_t>& sizes = ctx.RequireInts(3, "sizes");
    if (sizes.size() != axes.size()) ctx.Fail("sizes has the wrong length for the input rank");
    std::string policy = ctx.attrs().GetString("keep_aspect_ratio_policy", "stretch");
    ir::Shape out = in;
    if (policy == "stretch") {
      for (size_t i = 0; i < axes.size(); ++i) out[static_cast<size_t>(axes[i])] = sizes[i];
    } else if (policy == "not_larger" || policy == "not_smaller") {
      // Resize-18: one scale for all axes, then round(scale * in).
      double scale = policy == "not_larger" ? 1e300 : 0.0;
      for (size_t i = 0; i < axes.size(); ++i) {
        double s = static_cast<double>(sizes[i]) / static_cast<double>(in[axes[i]]);
        scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
      }
      for (int64_t a : axes) {
        const double extent = std::round(scale * static_cast<double>(in[a]));
        // Checked before converting: a zero input extent makes the scale infinite.
        if (!(extent >= 0) || extent > static_cast<double>(ir::kMaxTensorElements)) {
          ctx.Fail("sizes " + ir::ShapeToString(sizes) + " give axis " + std::to_string(a) +
                   " no valid extent");
        }
        out[static_cast<size_t>(a)] = static_cast<int64_t>(extent);
      }
    } else {
      ctx.Fail("unknown keep_aspect_ratio_policy '" + policy + "'");
    }
    ctx.SetOutput(0, ctx.InputDType(0), out);
    return;
  }
  std::optional<std::vector<double>> scales = ctx.InputConstantDoubles(2);
  if (!scales || scales->empty()) {
    ctx.Fail("needs constant scales (input 2) or sizes (input 3) to resolve its output shape");
  }
  ctx.SetOutput(0, ctx.InputDType(0), ScaleShape(ctx, in, *scales, axes));
}

void UpsampleRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  std::vector<double> scales;
  if (ctx.HasInput(1)) {  // Upsample-9
    std::optional<std::vector<double>> s = ctx.InputConstantDoubles(1);
    if (!s) ctx.Fail("scales (input 1) must be constant");
    scales = *s;
  } else {  // Upsample-7: attribute
    for (float f : ctx.attrs().GetFloats("scales")) scales.push_back(f);
  }
  std::vector<int64_t> axes;
  for (int64_t a = 0; a < static_cast<int64_t>(in.size()); ++a) axes.push_back(a);
  ctx.SetOutput(0, ctx.InputDType(0), ScaleShape(ctx, in, scales, axes));
}

void PadRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(in.size());
  const std::vector<int64_t>& pads = ctx.RequireInts(1, "pads");
  std::vector<int64_t> axes;
  if (ctx.HasInput(3)) {  // Pad-18
    for (int64_t a : ctx.RequireInts(3, "axes")) axes.push_back(ctx.NormalizeAxis(a, rank, "axis"));
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  if (pads.size() != 2 * axes.size()) {
    ctx.Fail("pads has " + std::to_string(pads.size()) + " entries, expected " +
             std::to_string(2 * axes.size()));
  }
  // pads = [x1_begin, x2_begin, ..., x1_end, x2_end, ...]; negative pads crop.
  ir::Shape out = in;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t& extent = out[static_cast<size_t>(axes[i])];
    // Pads come from the model: added with overflow checks (found by fuzz_onnx); what
    // remains too large or negative SetOutput rejects.
    if (__builtin_add_overflow(extent, pads[i], &extent) ||
        __builtin_add_overflow(extent, pads[i + axes.size()], &extent)) {
      ctx.Fail("pads " + ir::ShapeToString(pads) + " overflow axis " + std::to_string(axes[i]));
    }
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

}  // namespace tigris::onnx_import
