// Shape rule of the reductions (ONNX Reduce*-18 form: axes as input 1, which the loader
// canonicalizes older models, and ArgMax / ArgMin's axis, into; opset_canonicalize.h).
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {

void ReduceRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  // ArgMax / ArgMin: int64 indices along their one axis (input 1 from the loader).
  const bool arg = ctx.op().type == ir::OpType::kArgMax || ctx.op().type == ir::OpType::kArgMin;
  const ir::DType dtype = arg ? ir::DType::kInt64 : ctx.InputDType(0);
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

}  // namespace tigris::onnx_import
