// Shape rules of sliding-window ops: Conv (and its IR relabelings DepthwiseConv, Conv1D),
// ConvTranspose, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool (ONNX operator
// specs of Conv, ConvTranspose, MaxPool and AveragePool).
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -CeilDiv(-a, b); }

std::vector<int64_t> IntsOr(const ShapeContext& ctx, const std::string& name, size_t n,
                            int64_t fallback) {
  std::vector<int64_t> v = ctx.attrs().GetInts(name, std::vector<int64_t>(n, fallback));
  if (v.size() != n) {
    ctx.Fail("attribute '" + name + "' has " + std::to_string(v.size()) + " entries, expected " +
             std::to_string(n));
  }
  for (int64_t x : v) {
    if (x < 0 || (x == 0 && name != "pads" && name != "output_padding")) {
      ctx.Fail("attribute '" + name + "' has invalid entry " + std::to_string(x));
    }
  }
  return v;
}

// Spatial output extents of a window of `kernel` sliding over `in` (ONNX Conv / pool
// specs): effective kernel = (k - 1) * dilation + 1;
//   NOTSET: floor-or-ceil((in + pad_begin + pad_end - eff_k) / stride) + 1
//   VALID:  the same with zero pads
//   SAME_UPPER / SAME_LOWER: ceil(in / stride)
// With ceil_mode, a last window that would start inside the end padding is dropped (the
// ONNX pool spec since 1.16 and PyTorch); libonnx 1.12 predates that rule, which is why
// shape_resolve.cc does not cross-check pools with ceil_mode.
std::vector<int64_t> WindowOutput(const ShapeContext& ctx, const std::vector<int64_t>& in,
                                  const std::vector<int64_t>& kernel, bool ceil_mode) {
  size_t n = in.size();
  std::vector<int64_t> strides = IntsOr(ctx, "strides", n, 1);
  std::vector<int64_t> dilations = IntsOr(ctx, "dilations", n, 1);
  std::string auto_pad = ctx.attrs().GetString("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * n, 0);
  if (auto_pad == "NOTSET" || auto_pad.empty()) {
    pads = IntsOr(ctx, "pads", 2 * n, 0);
  } else if (auto_pad != "VALID" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER") {
    ctx.Fail("unknown auto_pad '" + auto_pad + "'");
  }
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out[i] = CeilDiv(in[i], strides[i]);
      continue;
    }
    int64_t eff_k = (kernel[i] - 1) * dilations[i] + 1;
    int64_t span = in[i] + pads[i] + pads[i + n] - eff_k;
    if (span < 0) {
      ctx.Fail("effective kernel " + std::to_string(eff_k) + " exceeds padded input " +
               std::to_string(in[i] + pads[i] + pads[i + n]) + " on spatial axis " +
               std::to_string(i));
    }
    out[i] = (ceil_mode ? CeilDiv(span, strides[i]) : FloorDiv(span, strides[i])) + 1;
    if (ceil_mode && (out[i] - 1) * strides[i] >= in[i] + pads[i]) --out[i];
  }
  return out;
}

std::vector<int64_t> Spatial(const ir::Shape& s) { return {s.begin() + 2, s.end()}; }

void RequireRankAtLeast3(const ShapeContext& ctx, size_t input) {
  if (ctx.InputRank(input) < 3) {
    ctx.Fail("input '" + ctx.Input(input).name + "' must be N x C x spatial..., got " +
             ir::ShapeToString(ctx.InputShape(input)));
  }
}

std::vector<int64_t> KernelShape(const ShapeContext& ctx, const ir::Shape& w) {
  std::vector<int64_t> kernel = ctx.attrs().GetInts("kernel_shape", Spatial(w));
  if (kernel != Spatial(w)) {
    ctx.Fail("kernel_shape " + ir::ShapeToString(kernel) + " disagrees with weight shape " +
             ir::ShapeToString(w));
  }
  return kernel;
}

}  // namespace

void ConvRule(ShapeContext& ctx) {
  RequireRankAtLeast3(ctx, 0);
  const ir::Shape& x = ctx.InputShape(0);
  const ir::Shape& w = ctx.InputShape(1);
  if (w.size() != x.size()) {
    ctx.Fail("weight '" + ctx.Input(1).name + "' has rank " + std::to_string(w.size()) +
             ", input has rank " + std::to_string(x.size()));
  }
  int64_t group = ctx.attrs().GetInt("group", 1);
  if (group <= 0 || x[1] != w[1] * group) {
    ctx.Fail("input channels " + std::to_string(x[1]) + " != weight channels " +
             std::to_string(w[1]) + " x group " + std::to_string(group));
  }
  ir::Shape out = {x[0], w[0]};
  for (int64_t d : WindowOutput(ctx, Spatial(x), KernelShape(ctx, w), false)) out.push_back(d);
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

void ConvTransposeRule(ShapeContext& ctx) {
  RequireRankAtLeast3(ctx, 0);
  const ir::Shape& x = ctx.InputShape(0);
  const ir::Shape& w = ctx.InputShape(1);
  if (w.size() != x.size() || w[0] != x[1]) {
    ctx.Fail("weight " + ir::ShapeToString(w) + " does not match input " + ir::ShapeToString(x) +
             " (ConvTranspose weight is C x M/group x k...)");
  }
  size_t n = x.size() - 2;
  int64_t group = ctx.attrs().GetInt("group", 1);
  ir::Shape out = {x[0], w[1] * group};
  std::vector<int64_t> kernel = KernelShape(ctx, w);
  std::vector<int64_t> output_shape = ctx.attrs().GetInts("output_shape");
  if (!output_shape.empty()) {
    if (output_shape.size() < n) ctx.Fail("output_shape has fewer entries than spatial axes");
    out.insert(out.end(), output_shape.end() - static_cast<std::ptrdiff_t>(n), output_shape.end());
    ctx.SetOutput(0, ctx.InputDType(0), out);
    return;
  }
  std::vector<int64_t> strides = IntsOr(ctx, "strides", n, 1);
  std::vector<int64_t> dilations = IntsOr(ctx, "dilations", n, 1);
  std::vector<int64_t> out_pad = IntsOr(ctx, "output_padding", n, 0);
  std::string auto_pad = ctx.attrs().GetString("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * n, 0);
  if (auto_pad == "NOTSET" || auto_pad.empty()) pads = IntsOr(ctx, "pads", 2 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out.push_back(x[i + 2] * strides[i]);
    } else {
      // stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - pad_begin - pad_end
      out.push_back(strides[i] * (x[i + 2] - 1) + out_pad[i] + (kernel[i] - 1) * dilations[i] + 1 -
                    pads[i] - pads[i + n]);
    }
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

void PoolRule(ShapeContext& ctx) {
  RequireRankAtLeast3(ctx, 0);
  const ir::Shape& x = ctx.InputShape(0);
  if (!ctx.attrs().Has("kernel_shape")) ctx.Fail("attribute 'kernel_shape' is missing");
  std::vector<int64_t> kernel = ctx.attrs().GetInts("kernel_shape");
  if (kernel.size() != x.size() - 2) {
    ctx.Fail("kernel_shape " + ir::ShapeToString(kernel) + " does not fit input " +
             ir::ShapeToString(x));
  }
  bool ceil_mode = ctx.attrs().GetInt("ceil_mode", 0) != 0;
  ir::Shape out = {x[0], x[1]};
  for (int64_t d : WindowOutput(ctx, Spatial(x), kernel, ceil_mode)) out.push_back(d);
  ctx.SetOutput(0, ctx.InputDType(0), out);
  ctx.SetOutput(1, ir::DType::kInt64, out);  // MaxPool's optional Indices
}

void GlobalPoolRule(ShapeContext& ctx) {
  RequireRankAtLeast3(ctx, 0);
  ir::Shape out = ctx.InputShape(0);
  for (size_t i = 2; i < out.size(); ++i) out[i] = 1;
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

}  // namespace tigris::onnx_import
