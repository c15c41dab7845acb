// Shape rules of the data-movement and shape-arithmetic ops: Constant, ConstantOfShape,
// Shape, Gather, Squeeze, Unsqueeze, Concat, Slice, Reshape, Flatten, Transpose. These
// also propagate static integer values, so that a Reshape target computed by a
// Shape -> Gather -> Unsqueeze -> Concat chain resolves (tigris-compilation-pipeline.txt,
// pass 9 "Shape op fold" relies on the loader having resolved it).
#include <algorithm>
#include <numeric>

#include "ir/slice.h"
#include "onnx/shape_rules.h"

namespace tigris::onnx_import {
namespace {

int64_t Product(const ir::Shape& s, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= s[i];
  return p;
}

// Copies input 0's static value to output 0 unchanged (ops that only reshape).
void ForwardInts(ShapeContext& ctx) {
  if (const auto* v = ctx.InputInts(0)) ctx.SetOutputInts(0, *v);
}

}  // namespace

void ConstantRule(ShapeContext& ctx) {
  // Nothing to compute: the loader stored the value (dtype, shape, bytes) in the output
  // tensor when it read the node (graph_import.cc), and shape_resolve.cc seeded its
  // static value from those bytes.
}

void ConstantOfShapeRule(ShapeContext& ctx) {
  const std::vector<int64_t>& dims = ctx.RequireInts(0, "the output shape");
  for (int64_t d : dims) {
    if (d < 0) ctx.Fail("output shape " + ir::ShapeToString(dims) + " has a negative extent");
  }
  ctx.SetOutput(0, ctx.InputDType(1), dims);
  const std::vector<int64_t>* fill = ctx.InputInts(1);
  int64_t count = ir::NumElements(dims);
  if (fill && fill->size() == 1 && count <= kMaxStaticElements) {
    ctx.SetOutputInts(0, std::vector<int64_t>(static_cast<size_t>(count), (*fill)[0]));
  }
}

void ShapeOpRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(in.size());
  // Shape-15 start/end: negative counts from the back, then clamped to [0, rank].
  auto clamp = [rank](int64_t v) { return std::clamp(v < 0 ? v + rank : v, int64_t{0}, rank); };
  int64_t start = clamp(ctx.attrs().GetInt("start", 0));
  int64_t end = clamp(ctx.attrs().GetInt("end", rank));
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i) dims.push_back(in[static_cast<size_t>(i)]);
  ctx.SetOutput(0, ir::DType::kInt64, {static_cast<int64_t>(dims.size())});
  ctx.SetOutputInts(0, std::move(dims));
}

void GatherRule(ShapeContext& ctx) {
  const ir::Shape& data = ctx.InputShape(0);
  const ir::Shape& indices = ctx.InputShape(1);
  int64_t rank = static_cast<int64_t>(data.size());
  if (rank == 0) ctx.Fail("cannot gather from a scalar");
  size_t axis = static_cast<size_t>(ctx.NormalizeAxis(ctx.attrs().GetInt("axis", 0), rank, "axis"));
  ir::Shape out(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(axis));
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.end());
  ctx.SetOutput(0, ctx.InputDType(0), out);

  const auto* values = ctx.InputInts(0);
  const auto* index_values = ctx.InputInts(1);
  if (!values || !index_values || ir::NumElements(out) > kMaxStaticElements) return;
  if (static_cast<int64_t>(values->size()) != ir::NumElements(data)) return;
  int64_t outer = Product(data, 0, axis);
  int64_t extent = data[axis];
  int64_t inner = Product(data, axis + 1, data.size());
  std::vector<int64_t> result;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : *index_values) {
      if (index < -extent || index >= extent) {
        ctx.Fail("index " + std::to_string(index) + " is out of range for axis extent " +
                 std::to_string(extent));
      }
      if (index < 0) index += extent;
      for (int64_t i = 0; i < inner; ++i) {
        result.push_back((*values)[static_cast<size_t>((o * extent + index) * inner + i)]);
      }
    }
  }
  ctx.SetOutputInts(0, std::move(result));
}

// GatherElements: the output has the indices' shape (int32 or int64, the data's rank, along
// every axis but `axis` at most the data's extent) and the data's dtype.
void GatherElementsRule(ShapeContext& ctx) {
  const ir::Shape& data = ctx.InputShape(0);
  const ir::Shape& indices = ctx.InputShape(1);
  const int64_t rank = static_cast<int64_t>(data.size());
  if (rank == 0) ctx.Fail("cannot gather from a scalar");
  if (ctx.InputDType(1) != ir::DType::kInt32 && ctx.InputDType(1) != ir::DType::kInt64) {
    ctx.Fail("indices '" + ctx.Input(1).name + "' are " +
             std::string(ir::DTypeName(ctx.InputDType(1))) + "; ONNX takes int32 or int64");
  }
  if (indices.size() != data.size()) {
    ctx.Fail("indices " + ir::ShapeToString(indices) + " and data " + ir::ShapeToString(data) +
             " differ in rank");
  }
  const int64_t axis = ctx.NormalizeAxis(ctx.attrs().GetInt("axis", 0), rank, "axis");
  for (int64_t a = 0; a < rank; ++a) {
    const size_t i = static_cast<size_t>(a);
    if (a != axis && indices[i] > data[i]) {
      ctx.Fail("indices " + ir::ShapeToString(indices) + " extend past data " +
               ir::ShapeToString(data) + " along axis " + std::to_string(a));
    }
  }
  ctx.SetOutput(0, ctx.InputDType(0), indices);
}

void SqueezeRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(in.size());
  std::vector<bool> drop(in.size(), false);
  if (ctx.HasInput(1)) {
    for (int64_t a : ctx.RequireInts(1, "axes")) {
      size_t axis = static_cast<size_t>(ctx.NormalizeAxis(a, rank, "axis"));
      if (in[axis] != 1) {
        ctx.Fail("cannot squeeze axis " + std::to_string(a) + " of extent " +
                 std::to_string(in[axis]) + " (input " + ir::ShapeToString(in) + ")");
      }
      drop[axis] = true;
    }
  } else {
    for (size_t i = 0; i < in.size(); ++i) drop[i] = in[i] == 1;  // no axes: every 1
  }
  ir::Shape out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!drop[i]) out.push_back(in[i]);
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);
  ForwardInts(ctx);
}

void UnsqueezeRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  const std::vector<int64_t>& axes = ctx.RequireInts(1, "axes");
  int64_t out_rank = static_cast<int64_t>(in.size() + axes.size());
  std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
  for (int64_t a : axes) {
    size_t axis = static_cast<size_t>(ctx.NormalizeAxis(a, out_rank, "axis"));
    if (inserted[axis]) ctx.Fail("axis " + std::to_string(a) + " is repeated");
    inserted[axis] = true;
  }
  ir::Shape out;
  size_t next = 0;
  for (size_t i = 0; i < inserted.size(); ++i) out.push_back(inserted[i] ? 1 : in[next++]);
  ctx.SetOutput(0, ctx.InputDType(0), out);
  ForwardInts(ctx);
}

void ConcatRule(ShapeContext& ctx) {
  const ir::Op& op = ctx.op();
  if (op.inputs.empty()) ctx.Fail("has no inputs");
  if (!ctx.attrs().Has("axis")) ctx.Fail("attribute 'axis' is missing");
  ir::Shape out = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(out.size());
  size_t axis = static_cast<size_t>(ctx.NormalizeAxis(ctx.attrs().GetInt("axis"), rank, "axis"));
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    const ir::Shape& s = ctx.InputShape(i);
    bool fits = s.size() == out.size();
    for (size_t d = 0; fits && d < s.size(); ++d) fits = d == axis || s[d] == out[d];
    if (!fits) {
      ctx.Fail("input '" + ctx.Input(i).name + "' " + ir::ShapeToString(s) +
               " does not concatenate with " + ir::ShapeToString(ctx.InputShape(0)) +
               " along axis " + std::to_string(axis));
    }
    out[axis] += s[axis];
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);

  if (axis != 0) return;  // shape vectors are 1-D: axis 0 covers them
  std::vector<int64_t> values;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const auto* v = ctx.InputInts(i);
    if (!v) return;
    values.insert(values.end(), v->begin(), v->end());
  }
  ctx.SetOutputInts(0, std::move(values));
}

// Split (all opsets, canonicalized): sizes from input 1 when present (the `split`
// attribute of opset < 13 was moved there); otherwise equal parts, one per output, the
// last one smaller when the extent does not divide (opset 18's num_outputs rule, which is
// also the only case older opsets allow: there the extent divides).
void SplitRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(in.size());
  size_t axis = static_cast<size_t>(ctx.NormalizeAxis(ctx.attrs().GetInt("axis", 0), rank, "axis"));
  size_t parts = ctx.num_outputs();
  if (parts == 0) ctx.Fail("has no outputs");
  std::vector<int64_t> sizes;
  if (ctx.HasInput(1)) {
    sizes = ctx.RequireInts(1, "split sizes");
    if (sizes.size() != parts) {
      ctx.Fail("has " + std::to_string(parts) + " outputs but " + std::to_string(sizes.size()) +
               " split sizes");
    }
  } else {
    int64_t chunk = (in[axis] + static_cast<int64_t>(parts) - 1) / static_cast<int64_t>(parts);
    int64_t left = in[axis];
    for (size_t i = 0; i < parts; ++i) {
      sizes.push_back(std::min(chunk, left));
      left -= sizes.back();
    }
  }
  int64_t total = 0;
  for (int64_t size : sizes) {
    if (size <= 0) ctx.Fail("split sizes must be positive");
    // Compared before adding: sizes near 2^63 overflowed the sum (fuzz_onnx,
    // fuzz/regressions/onnx/split-sizes-sum-overflow.onnx).
    if (size > in[axis] - total) {
      ctx.Fail("split sizes add up to more than the " + std::to_string(in[axis]) +
               " entries of axis " + std::to_string(axis));
    }
    total += size;
  }
  if (total != in[axis]) {
    ctx.Fail("split sizes add up to " + std::to_string(total) + ", but axis " +
             std::to_string(axis) + " has extent " + std::to_string(in[axis]));
  }
  for (size_t i = 0; i < parts; ++i) {
    ir::Shape out = in;
    out[axis] = sizes[i];
    ctx.SetOutput(i, ctx.InputDType(0), out);
  }
}

void SliceRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  const std::vector<int64_t>& starts = ctx.RequireInts(1, "starts");
  const std::vector<int64_t>& ends = ctx.RequireInts(2, "ends");
  std::vector<int64_t> axes, steps;
  if (ctx.HasInput(3)) axes = ctx.RequireInts(3, "axes");
  if (ctx.HasInput(4)) steps = ctx.RequireInts(4, "steps");
  ir::SliceWindow window;
  const std::string error = ir::ResolveSlice(in, starts, ends, axes, steps, &window);
  if (!error.empty()) ctx.Fail(error);
  ctx.SetOutput(0, ctx.InputDType(0), window.extent);

  const auto* values = ctx.InputInts(0);
  if (values && in.size() == 1 && static_cast<int64_t>(values->size()) == in[0]) {
    std::vector<int64_t> sliced;
    for (int64_t k = 0; k < window.extent[0]; ++k) {
      sliced.push_back((*values)[static_cast<size_t>(window.first[0] + k * window.step[0])]);
    }
    ctx.SetOutputInts(0, std::move(sliced));
  }
}

void ReshapeRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  ir::Shape target = ctx.RequireInts(1, "the target shape");
  bool allow_zero = ctx.attrs().GetInt("allowzero", 0) != 0;
  // ONNX Reshape: 0 copies the input extent at the same index (unless allowzero), -1 is
  // inferred from the element count (at most one).
  int infer_at = -1;
  int64_t known = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == 0 && !allow_zero) {
      if (i >= in.size()) {
        ctx.Fail("target " + ir::ShapeToString(target) + " copies (0) axis " + std::to_string(i) +
                 ", which input " + ir::ShapeToString(in) + " lacks");
      }
      target[i] = in[i];
    }
    if (target[i] == -1) {
      if (infer_at >= 0) ctx.Fail("target shape has more than one -1");
      infer_at = static_cast<int>(i);
    } else if (target[i] < 0) {
      ctx.Fail("target shape has invalid extent " + std::to_string(target[i]));
    } else if (__builtin_mul_overflow(known, target[i], &known) || known > ir::kMaxTensorElements) {
      ctx.Fail("target shape " + ir::ShapeToString(target) + " has more than 2^32 elements");
    }
  }
  int64_t total = ir::NumElements(in);
  if (infer_at >= 0) {
    if (known == 0 || total % known != 0) {
      ctx.Fail("cannot infer -1: " + std::to_string(total) + " elements of " +
               ir::ShapeToString(in) + " do not divide by " + std::to_string(known));
    }
    target[static_cast<size_t>(infer_at)] = total / known;
  } else if (known != total) {
    ctx.Fail("target " + ir::ShapeToString(target) + " has " + std::to_string(known) +
             " elements, input " + ir::ShapeToString(in) + " has " + std::to_string(total));
  }
  ctx.SetOutput(0, ctx.InputDType(0), target);
  ForwardInts(ctx);
}

void FlattenRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  int64_t rank = static_cast<int64_t>(in.size());
  int64_t axis = ctx.attrs().GetInt("axis", 1);
  // Flatten accepts axis in [-rank, rank] (axis == rank gives N x 1).
  if (axis < -rank || axis > rank) {
    ctx.Fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  size_t a = static_cast<size_t>(axis);
  ctx.SetOutput(0, ctx.InputDType(0), {Product(in, 0, a), Product(in, a, in.size())});
  ForwardInts(ctx);
}

void TransposeRule(ShapeContext& ctx) {
  const ir::Shape& in = ctx.InputShape(0);
  std::vector<int64_t> perm(in.size());
  std::iota(perm.rbegin(), perm.rend(), 0);  // default: reverse the axes
  perm = ctx.attrs().GetInts("perm", perm);
  std::vector<bool> seen(in.size(), false);
  ir::Shape out;
  for (int64_t p : perm) {
    if (perm.size() != in.size() || p < 0 || p >= static_cast<int64_t>(in.size()) ||
        seen[static_cast<size_t>(p)]) {
      ctx.Fail("perm " + ir::ShapeToString(perm) + " is not a permutation of rank " +
               std::to_string(in.size()));
    }
    seen[static_cast<size_t>(p)] = true;
    out.push_back(in[static_cast<size_t>(p)]);
  }
  ctx.SetOutput(0, ctx.InputDType(0), out);
}

}  // namespace tigris::onnx_import
