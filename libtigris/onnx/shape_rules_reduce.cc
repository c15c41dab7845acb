// Shape rule of the reductions (ONNX Reduce*-18 form: axes as input 1, which the loader
// canonicalizes older models, and ArgMax / ArgMin's axis, into; opset_canonicalize.h).
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {

// Hardmax and CumSum: the input's shape and dtype. Hardmax's axis (attribute, default -1;
// before opset 13 default 1 over the 2-D coercion) and CumSum's (input 1, static, one
// value) must lie in the rank.
void AxisScanRule(ShapeContext& ctx) {
  const int64_t rank = ctx.InputRank(0);
  if (ctx.op().type == ir::OpType::kCumSum) {
    const std::vector<int64_t>& axis = ctx.RequireInts(1, "axis");
    if (axis.size() != 1) ctx.Fail("axis must be one value, got " + std::to_string(axis.size()));
    ctx.NormalizeAxis(axis[0], rank, "axis");
  } else {
    ctx.NormalizeAxis(ctx.attrs().GetInt("axis", ctx.opset() < 13 ? 1 : -1), rank, "axis");
  }
  ctx.SetOutput(0, ctx.InputDType(0), ctx.InputShape(0));
}

void ReduceRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  // ArgMax / ArgMin: int64 indices along their one axis (input 1 from the loader), or the
  // int32 ones a .tflite's ARG_MAX declares (its importer sets the output's dtype).
  const bool arg = ctx.op().type == ir::OpType::kArgMax || ctx.op().type == ir::OpType::kArgMin;
  const ir::DType dtype =
      !arg ? ctx.InputDType(0)
           : (ctx.OutputDType(0) == ir::DType::kInt32 ? ir::DType::kInt32 : ir::DType::kInt64);
  if (arg && ctx.op().inputs.size() != 2) ctx.Fail("takes one input (data)");
  int64_t rank = static_cast<int64_t>(in.size());
  bool keepdims = ctx.attrs().GetInt("keepdims", 1) != 0;
  std::vector<bool> reduced(in.size(), false);
  std::vector<int64_t> axes;
  if (ctx.HasInput(1)) axes = ctx.RequireInts(1, "axes");
  if (axes.empty()) {
    if (ctx.attrs().GetInt("noop_with_empty_axes", 0) != 0) {
      ctx.SetOutput(0, ctx.InputDType(0), in);
      return;
    }
    reduced.assign(in.size(), true);  // no axes: reduce over all
  }
  for (int64_t a : axes) reduced[static_cast<size_t>(ctx.NormalizeAxis(a, rank, "axis"))] = true;
  ir::Shape out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(in[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  ctx.SetOutput(0, dtype, out);
}

// LayerNormalization (Y, and the optional Mean and InvStdDev over the normalized axes
// [axis, rank) kept as 1s), InstanceNormalization (scale and B of [C]),
// GroupNormalization (opset 21: num_groups dividing C, scale and bias of [C]) and
// LpNormalization (p 1 or 2): Y has X's shape.
// passes/norm_decompose.cc computes them.
void NormalizationRule(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  const int64_t rank = static_cast<int64_t>(x.size());
  const ir::OpType type = ctx.op().type;
  if (type == ir::OpType::kLpNormalization) {
    const int64_t p = ctx.attrs().GetInt("p", 2);
    if (p != 1 && p != 2) ctx.Fail("p = " + std::to_string(p) + "; ONNX defines 1 and 2");
    ctx.NormalizeAxis(ctx.attrs().GetInt("axis", -1), rank, "axis");
  } else if (type == ir::OpType::kGroupNormalization) {
    if (rank < 3) ctx.Fail("needs [N, C, D1, ...], got " + ir::ShapeToString(x));
    if (!ctx.attrs().Has("num_groups")) ctx.Fail("attribute 'num_groups' is missing");
    const int64_t groups = ctx.attrs().GetInt("num_groups");
    if (groups < 1 || x[1] % groups != 0) {
      ctx.Fail("num_groups " + std::to_string(groups) + " does not divide the " +
               std::to_string(x[1]) + " channels");
    }
    // GroupNormalization-18 (scale and bias per group) is deprecated by ONNX for that
    // definition; opset 21's are per channel.
    if (ctx.opset() != 0 && ctx.opset() < 21) {
      ctx.Fail("at opset " + std::to_string(ctx.opset()) +
               ": GroupNormalization-18's per-group scale and bias are deprecated by ONNX; "
               "export at opset 21");
    }
    for (size_t i = 1; i <= 2; ++i) {
      if (ir::NumElements(ctx.InputShape(i)) != x[1] || ctx.InputShape(i).size() != 1) {
        ctx.Fail("input " + std::to_string(i) + " must be [C] = [" + std::to_string(x[1]) +
                 "], got " + ir::ShapeToString(ctx.InputShape(i)));
      }
    }
  } else if (type == ir::OpType::kInstanceNormalization) {
    if (rank < 3) ctx.Fail("needs [N, C, D1, ...], got " + ir::ShapeToString(x));
    for (size_t i = 1; i <= 2; ++i) {
      if (ir::NumElements(ctx.InputShape(i)) != x[1] || ctx.InputShape(i).size() != 1) {
        ctx.Fail("input " + std::to_string(i) + " must be [C] = [" + std::to_string(x[1]) +
                 "], got " + ir::ShapeToString(ctx.InputShape(i)));
      }
    }
  } else {
    const int64_t axis = ctx.NormalizeAxis(ctx.attrs().GetInt("axis", -1), rank, "axis");
    ir::Shape stats = x;
    for (int64_t a = axis; a < rank; ++a) stats[static_cast<size_t>(a)] = 1;
    ctx.SetOutput(1, ir::DType::kFloat32, stats);  // Mean, InvStdDev: when declared
    ctx.SetOutput(2, ir::DType::kFloat32, stats);
  }
  ctx.SetOutput(0, ctx.InputDType(0), x);
}

}  // namespace tigris::onnx_import
