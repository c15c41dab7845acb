// Shape rules of Gemm and MatMul (ONNX operator specs; MatMul follows numpy.matmul).
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {

void GemmRule(ShapeContext& ctx) {
  const ir::Shape& a = ctx.InputShape(0);
  const ir::Shape& b = ctx.InputShape(1);
  if (a.size() != 2 || b.size() != 2) {
    ctx.Fail("Gemm needs 2-D A and B, got " + ir::ShapeToString(a) + " and " +
             ir::ShapeToString(b));
  }
  bool trans_a = ctx.attrs().GetInt("transA", 0) != 0;
  bool trans_b = ctx.attrs().GetInt("transB", 0) != 0;
  // A' = transA ? A^T : A is M x K; B' = transB ? B^T : B is K x N.
  int64_t m = trans_a ? a[1] : a[0];
  int64_t k = trans_a ? a[0] : a[1];
  int64_t kb = trans_b ? b[1] : b[0];
  int64_t n = trans_b ? b[0] : b[1];
  if (k != kb) {
    ctx.Fail("inner dimensions differ: A " + ir::ShapeToString(a) + (trans_a ? " (transA)" : "") +
             ", B " + ir::ShapeToString(b) + (trans_b ? " (transB)" : ""));
  }
  if (ctx.HasInput(2) && !BroadcastShapes({m, n}, ctx.InputShape(2))) {
    ctx.Fail("bias " + ir::ShapeToString(ctx.InputShape(2)) + " does not broadcast to " +
             ir::ShapeToString({m, n}));
  }
  ctx.SetOutput(0, ctx.InputDType(0), {m, n});
}

void MatMulRule(ShapeContext& ctx) {
  ir::Shape a = ctx.InputShape(0);
  ir::Shape b = ctx.InputShape(1);
  if (a.empty() || b.empty()) ctx.Fail("MatMul operands must have rank >= 1");
  // 1-D operands are promoted (a: 1 x K, b: K x 1) and the added axis removed afterwards.
  bool a_vec = a.size() == 1;
  bool b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  if (a.back() != b[b.size() - 2]) {
    ctx.Fail("inner dimensions differ: " + ir::ShapeToString(ctx.InputShape(0)) + " x " +
             ir::ShapeToString(ctx.InputShape(1)));
  }
  ir::Shape batch_a(a.begin(), a.end() - 2);
  ir::Shape batch_b(b.begin(), b.end() - 2);
  std::optional<ir::Shape> batch = BroadcastShapes(batch_a, batch_b);
  if (!batch) {
    ctx.Fail("batch dimensions do not broadcast: " + ir::ShapeToString(ctx.InputShape(0)) + " x " +
             ir::ShapeToString(ctx.InputShape(1)));
  }
  ir::Shape out = *batch;
  if (!a_vec) out.push_back(a[a.size() - 2]);
  if (!b_vec) out.push_back(b.back());
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

}  // namespace tigris::onnx_import
