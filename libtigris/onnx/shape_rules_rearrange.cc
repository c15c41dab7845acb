// Shape rules of the rearrangements (runtime/kernels/rearrange.c): Tile, Expand, DepthToSpace,
// SpaceToDepth. Each output element is one input element, so the dtype is the input's.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx/shape_rules.h"

namespace tigris::onnx_import {

// Tile: input 1, the repeats (one per axis, each >= 1; a 0 would make an empty tensor),
// known statically.
void TileRule(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  const std::vector<int64_t>& repeats = ctx.RequireInts(1, "repeats (input 1)");
  if (repeats.size() != x.size()) {
    ctx.Fail("has " + std::to_string(repeats.size()) + " repeats for an input of rank " +
             std::to_string(x.size()));
  }
  ir::Shape out = x;
  for (size_t i = 0; i < x.size(); ++i) {
    if (repeats[i] < 1 || repeats[i] > (int64_t{1} << 31) / std::max<int64_t>(x[i], 1)) {
      ctx.Fail("repeat " + std::to_string(repeats[i]) + " along axis " + std::to_string(i) +
               " (each must be >= 1 and keep the extent below 2^31)");
    }
    out[i] = x[i] * repeats[i];
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

// Expand: the broadcast of the input's shape and input 1 (ONNX Expand: either may be the
// larger along each axis), input 1 known statically.
void ExpandRule(ShapeContext& ctx) {
  const std::vector<int64_t>& shape = ctx.RequireInts(1, "shape (input 1)");
  for (int64_t d : shape) {
    if (d < 1) ctx.Fail("shape has an extent " + std::to_string(d) + " (each must be >= 1)");
  }
  const ir::Shape target(shape.begin(), shape.end());
  std::optional<ir::Shape> out = BroadcastShapes(ctx.InputShape(0), target);
  if (!out) {
    ctx.Fail("cannot broadcast " + ir::ShapeToString(ctx.InputShape(0)) + " to " +
             ir::ShapeToString(target));
  }
  ctx.SetOutput(0, ctx.InputDType(0), *out);
}

namespace {

int64_t BlockSize(ShapeContext& ctx) {
  if (!ctx.attrs().Has("blocksize")) ctx.Fail("attribute 'blocksize' is missing");
  const int64_t b = ctx.attrs().GetInt("blocksize");
  if (b < 1 || b > 4096) ctx.Fail("blocksize " + std::to_string(b) + " is not in [1, 4096]");
  return b;
}

const ir::Shape& Rank4Input(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  if (x.size() != 4) ctx.Fail("needs a rank-4 [N, C, H, W] input, got " + ir::ShapeToString(x));
  return x;
}

// The channel order of a block (DepthToSpace's mode; SpaceToDepth's since opset 25).
void CheckMode(ShapeContext& ctx) {
  const std::string mode = ctx.attrs().GetString("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") ctx.Fail("mode '" + mode + "' is neither DCR nor CRD");
}

}  // namespace

// DepthToSpace: [N, C, H, W] -> [N, C / b^2, H b, W b]; mode DCR (default) or CRD.
void DepthToSpaceRule(ShapeContext& ctx) {
  const ir::Shape& x = Rank4Input(ctx);
  const int64_t b = BlockSize(ctx);
  CheckMode(ctx);
  if (x[1] % (b * b) != 0) {
    ctx.Fail("channels " + std::to_string(x[1]) + " are not a multiple of blocksize^2 " +
             std::to_string(b * b));
  }
  ctx.SetOutput(0, ctx.InputDType(0), {x[0], x[1] / (b * b), x[2] * b, x[3] * b});
}

// SpaceToDepth: [N, C, H, W] -> [N, C b^2, H / b, W / b]; mode DCR (default) or CRD.
void SpaceToDepthRule(ShapeContext& ctx) {
  const ir::Shape& x = Rank4Input(ctx);
  const int64_t b = BlockSize(ctx);
  CheckMode(ctx);
  if (x[2] % b != 0 || x[3] % b != 0) {
    ctx.Fail("H and W (" + std::to_string(x[2]) + ", " + std::to_string(x[3]) +
             ") are not multiples of blocksize " + std::to_string(b));
  }
  ctx.SetOutput(0, ctx.InputDType(0), {x[0], x[1] * b * b, x[2] / b, x[3] / b});
}

}  // namespace tigris::onnx_import
