// Shape rules of ops whose output has the input's shape (activations, Clip, Softmax,
// Identity, Dropout, BatchNormalization, LRN, Cast, Not, Q/DQ) or the broadcast of their
// inputs' shapes (Add, Sub, Mul, Div, Max, Min, Pow, PRelu, Sum, Mean, the comparisons, And,
// Or, Xor, Where; ONNX Broadcasting.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "onnx/shape_rules.h"
#include "onnx/tensor_import.h"

namespace tigris::onnx_import {
namespace {

bool IsIntegerDType(ir::DType d) {
  switch (d) {
    case ir::DType::kInt8:
    case ir::DType::kUInt8:
    case ir::DType::kInt16:
    case ir::DType::kUInt16:
    case ir::DType::kInt32:
    case ir::DType::kInt64:
    case ir::DType::kBool:
      return true;
    default:
      return false;
  }
}

// Element i of `values` broadcast from `shape` into `out_shape` (values in row-major order).
int64_t BroadcastAt(const std::vector<int64_t>& values, const ir::Shape& shape,
                    const ir::Shape& out_shape, int64_t flat) {
  int64_t index = 0;
  int64_t stride = 1;
  size_t offset = out_shape.size() - shape.size();
  for (size_t d = out_shape.size(); d-- > 0;) {
    int64_t coord = flat % out_shape[d];
    flat /= out_shape[d];
    if (d >= offset) {
      int64_t extent = shape[d - offset];
      if (extent != 1) index += coord * stride;
      stride *= extent;
    }
  }
  return values[static_cast<size_t>(index)];
}

// Integer arithmetic on static shape values (Mul/Add/Sub/Div of small int tensors). A
// result that overflows int64 is no shape value: nullopt, so a Reshape fed by it fails as
// "not known statically" (fuzz_onnx, fuzz/regressions/onnx/shape-value-mul-overflow.onnx).
std::optional<int64_t> Apply(ir::OpType type, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (type) {
    case ir::OpType::kAdd:
    case ir::OpType::kSum:
      if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ir::OpType::kSub:
      if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ir::OpType::kMul:
      if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
      return r;
    case ir::OpType::kDiv:
      if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
      return a / b;  // integer Div truncates (as C and onnxruntime do)
    case ir::OpType::kMax:
      return std::max(a, b);
    case ir::OpType::kMin:
      return std::min(a, b);
    // Comparisons and logic on static values (an exporter's shape checks): 1 or 0, bool.
    case ir::OpType::kEqual:
      return a == b;
    case ir::OpType::kGreater:
      return a > b;
    case ir::OpType::kLess:
      return a < b;
    case ir::OpType::kGreaterOrEqual:
      return a >= b;
    case ir::OpType::kLessOrEqual:
      return a <= b;
    case ir::OpType::kAnd:
      return (a != 0) && (b != 0);
    case ir::OpType::kOr:
      return (a != 0) || (b != 0);
    case ir::OpType::kXor:
      return (a != 0) != (b != 0);
    default:
      return std::nullopt;
  }
}

// The broadcast of every input's shape (ONNX multidirectional broadcasting).
ir::Shape BroadcastInputShapes(ShapeContext& ctx) {
  const ir::Op& op = ctx.op();
  if (op.inputs.empty()) ctx.Fail("has no inputs");
  ir::Shape shape = ctx.InputShape(0);
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    std::optional<ir::Shape> b = BroadcastShapes(shape, ctx.InputShape(i));
    if (!b) {
      ctx.Fail("cannot broadcast " + ir::ShapeToString(shape) + " with " +
               ir::ShapeToString(ctx.InputShape(i)) + " (input '" + ctx.Input(i).name + "')");
    }
    shape = *b;
  }
  return shape;
}

// Output 0's static values when every input's are known and the op has an integer rule
// (Apply), folded left to right over the broadcast inputs.
void PropagateStaticValues(ShapeContext& ctx, const ir::Shape& shape) {
  const ir::Op& op = ctx.op();
  if (!IsIntegerDType(ctx.InputDType(0))) return;
  int64_t count = ir::NumElements(shape);
  if (count > kMaxStaticElements) return;
  std::vector<int64_t> acc;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const std::vector<int64_t>* v = ctx.InputInts(i);
    if (!v || static_cast<int64_t>(v->size()) != ir::NumElements(ctx.InputShape(i))) return;
    std::vector<int64_t> next(static_cast<size_t>(count));
    for (int64_t e = 0; e < count; ++e) {
      int64_t x = BroadcastAt(*v, ctx.InputShape(i), shape, e);
      if (i == 0) {
        next[static_cast<size_t>(e)] = x;
      } else {
        std::optional<int64_t> r = Apply(op.type, acc[static_cast<size_t>(e)], x);
        if (!r) return;
        next[static_cast<size_t>(e)] = *r;
      }
    }
    acc = std::move(next);
  }
  ctx.SetOutputInts(0, std::move(acc));
}

// Fails unless input i has dtype `want` (`role` names it in the message).
void RequireInputDType(ShapeContext& ctx, size_t i, ir::DType want, const std::string& role) {
  if (ctx.InputDType(i) != want) {
    ctx.Fail(role + " '" + ctx.Input(i).name + "' is " +
             std::string(ir::DTypeName(ctx.InputDType(i))) + "; it must be " +
             std::string(ir::DTypeName(want)));
  }
}

}  // namespace

void SameShapeRule(ShapeContext& ctx) {
  ctx.SetOutput(0, ctx.InputDType(0), ctx.InputShape(0));
  if (ctx.op().type == ir::OpType::kIdentity) {
    if (const auto* v = ctx.InputInts(0)) ctx.SetOutputInts(0, *v);
  }
}

void BroadcastRule(ShapeContext& ctx) {
  const ir::Shape shape = BroadcastInputShapes(ctx);
  ctx.SetOutput(0, ctx.InputDType(0), shape);
  PropagateStaticValues(ctx, shape);
}

// Equal, Greater, Less, GreaterOrEqual, LessOrEqual (ONNX: both operands of one type T, a
// bool output); And, Or, Xor (bool operands).
void CompareRule(ShapeContext& ctx) {
  if (ctx.op().inputs.size() != 2) ctx.Fail("needs two inputs");
  const bool logical = !ir::IsComparisonOp(ctx.op().type);
  if (logical) {
    RequireInputDType(ctx, 0, ir::DType::kBool, "input");
    RequireInputDType(ctx, 1, ir::DType::kBool, "input");
  } else {
    RequireInputDType(ctx, 1, ctx.InputDType(0), "its second operand");
  }
  const ir::Shape shape = BroadcastInputShapes(ctx);
  ctx.SetOutput(0, ir::DType::kBool, shape);
  PropagateStaticValues(ctx, shape);
}

// Not: a bool input, its negation.
void NotRule(ShapeContext& ctx) {
  RequireInputDType(ctx, 0, ir::DType::kBool, "input");
  ctx.SetOutput(0, ir::DType::kBool, ctx.InputShape(0));
}

// Where(condition, X, Y): a bool condition, X and Y of one type, all three broadcast.
void WhereRule(ShapeContext& ctx) {
  if (ctx.op().inputs.size() != 3) ctx.Fail("needs three inputs (condition, X, Y)");
  RequireInputDType(ctx, 0, ir::DType::kBool, "its condition");
  RequireInputDType(ctx, 2, ctx.InputDType(1), "Y");
  const ir::Shape shape = BroadcastInputShapes(ctx);
  ctx.SetOutput(0, ctx.InputDType(1), shape);
  // Static values through a selection of shape values (torch's expand(-1, ...) exports
  // Where(Equal(shape, -1), ones, shape) as Expand's shape).
  const int64_t count = ir::NumElements(shape);
  if (!IsIntegerDType(ctx.InputDType(1)) || count > kMaxStaticElements) return;
  std::vector<const std::vector<int64_t>*> v;
  for (size_t i = 0; i < 3; ++i) {
    v.push_back(ctx.InputInts(i));
    if (!v.back() || static_cast<int64_t>(v.back()->size()) != ir::NumElements(ctx.InputShape(i))) {
      return;
    }
  }
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t e = 0; e < count; ++e) {
    const bool pick_x = BroadcastAt(*v[0], ctx.InputShape(0), shape, e) != 0;
    values[static_cast<size_t>(e)] =
        BroadcastAt(*v[pick_x ? 1 : 2], ctx.InputShape(pick_x ? 1 : 2), shape, e);
  }
  ctx.SetOutputInts(0, std::move(values));
}

void DropoutRule(ShapeContext& ctx) {
  ctx.SetOutput(0, ctx.InputDType(0), ctx.InputShape(0));
  ctx.SetOutput(1, ir::DType::kBool, ctx.InputShape(0));  // mask
}

void BatchNormRule(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  if (x.size() < 2) ctx.Fail("input must have a channel dimension, got " + ir::ShapeToString(x));
  ctx.SetOutput(0, ctx.InputDType(0), x);
  // Training-mode outputs (running/saved mean and variance) are per channel.
  for (size_t i = 1; i < ctx.num_outputs(); ++i) ctx.SetOutput(i, ctx.InputDType(0), {x[1]});
}

// ONNX LRN: X is [N, C, D1, ...]; `size` (required) is the channel window.
void LrnRule(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  if (x.size() < 3) ctx.Fail("input must be [N, C, D1, ...], got " + ir::ShapeToString(x));
  if (!ctx.attrs().Has("size")) ctx.Fail("attribute 'size' is missing");
  const int64_t size = ctx.attrs().GetInt("size");
  if (size < 1) ctx.Fail("attribute 'size' must be >= 1, got " + std::to_string(size));
  ctx.SetOutput(0, ctx.InputDType(0), x);
}

// The IR's ChannelShuffle (passes/channel_shuffle_fuse.cc): [N, C, H, W], C a multiple of
// `group`; the output has the input's shape.
void ChannelShuffleRule(ShapeContext& ctx) {
  const ir::Shape& x = ctx.InputShape(0);
  const int64_t group = ctx.attrs().GetInt("group", 0);
  if (x.size() != 4 || group < 1 || x[1] % group != 0) {
    ctx.Fail("needs [N, C, H, W] with C a multiple of group " + std::to_string(group) + ", got " +
             ir::ShapeToString(x));
  }
  ctx.SetOutput(0, ctx.InputDType(0), x);
}

namespace {

// Cast's output: input 0's shape in `to`, and its static values where they are integers.
void CastTo(ShapeContext& ctx, ir::DType to) {
  ctx.SetOutput(0, to, ctx.InputShape(0));
  if (!IsIntegerDType(to) || to == ir::DType::kBool) return;
  if (const auto* v = ctx.InputInts(0)) {
    ctx.SetOutputInts(0, *v);
  } else if (auto d = ctx.InputConstantDoubles(0);
             d && static_cast<int64_t>(d->size()) <= kMaxStaticElements) {
    std::vector<int64_t> ints;
    for (double x : *d) {
      if (!std::isfinite(x) || std::fabs(x) > 9.0e18) return;
      ints.push_back(static_cast<int64_t>(x));  // float -> int Cast truncates
    }
    ctx.SetOutputInts(0, std::move(ints));
  }
}

}  // namespace

void CastRule(ShapeContext& ctx) {
  if (!ctx.attrs().Has("to")) ctx.Fail("attribute 'to' is missing");
  CastTo(ctx, RequireDType(static_cast<int32_t>(ctx.attrs().GetInt("to")),
                           "Cast node '" + ctx.op().name + "' target"));
}

void CastLikeRule(ShapeContext& ctx) {
  if (!ctx.HasInput(1)) ctx.Fail("needs input 1 (target_type)");
  CastTo(ctx, ctx.InputDType(1));
}

void QuantizeLinearRule(ShapeContext& ctx) {
  // Output type follows the zero point; uint8 when it is omitted (ONNX QuantizeLinear).
  ir::DType out = ctx.HasInput(2) ? ctx.InputDType(2) : ir::DType::kUInt8;
  if (ctx.attrs().GetInt("output_dtype", 0) != 0) {
    out = RequireDType(static_cast<int32_t>(ctx.attrs().GetInt("output_dtype")),
                       "QuantizeLinear node '" + ctx.op().name + "' output_dtype");
  }
  ctx.SetOutput(0, out, ctx.InputShape(0));
}

void DequantizeLinearRule(ShapeContext& ctx) {
  ctx.SetOutput(0, ir::DType::kFloat32, ctx.InputShape(0));
}

void QuantizeRule(ShapeContext& ctx) { ctx.SetOutput(0, ir::DType::kInt8, ctx.InputShape(0)); }

void DequantizeRule(ShapeContext& ctx) { ctx.SetOutput(0, ir::DType::kFloat32, ctx.InputShape(0)); }

}  // namespace tigris::onnx_import
