// Op attributes in the runtime layout (docs/plan-format.md, "Ops"). Axis-valued attributes
// move with the NCHW -> NHWC layout (emit/layout.h); window attributes (kernel, strides,
// pads, dilations) are per spatial dimension, whose order (H, W) NHWC keeps.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "analysis/weight_prefix.h"
#include "emit/layout.h"
#include "emit/lut.h"
#include "emit/op_record.h"
#include "emit/weight_layout.h"
#include "ir/recurrent.h"
#include "ir/slice.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

using ir::OpType;

[[noreturn]] void Fail(const ir::Op& op, Status status, const std::string& what) {
  throw Error(status,
              "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + "): " + what);
}

std::vector<int32_t> Int32s(const ir::Op& op, const std::vector<int64_t>& values) {
  std::vector<int32_t> out;
  for (int64_t v : values) {
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      Fail(op, Status::kInvalidModel, "attribute value " + std::to_string(v) + " exceeds int32");
    }
    out.push_back(static_cast<int32_t>(v));
  }
  return out;
}

const ir::Shape& InputShape(const ir::Graph& g, const ir::Op& op, size_t i = 0) {
  if (op.input(i) == ir::kNoTensor)
    Fail(op, Status::kInvalidModel, "missing input " + std::to_string(i));
  return g.tensor(op.input(i)).shape;
}
const ir::Shape& OutputShape(const ir::Graph& g, const ir::Op& op) {
  if (op.outputs.empty()) Fail(op, Status::kInvalidModel, "no output");
  return g.tensor(op.outputs[0]).shape;
}

int64_t NormalizeAxis(const ir::Op& op, int64_t axis, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    Fail(op, Status::kInvalidModel, "axis " + std::to_string(axis) + " out of range");
  return axis < 0 ? axis + r : axis;
}

// kernel, strides, dilations, explicit pads (auto_pad resolved as ONNX defines it).
void WindowAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const ir::Shape& in = InputShape(g, op);
  const ir::Shape& out = OutputShape(g, op);
  if (in.size() < 3 || in.size() != out.size())
    Fail(op, Status::kInvalidModel, "window op needs NC[H]W input and output");
  const size_t n = in.size() - 2;  // spatial dims
  std::vector<int64_t> kernel = op.attrs.GetInts("kernel_shape");
  if (kernel.empty() && op.input(1) != ir::kNoTensor) {
    const ir::Shape& w = g.tensor(op.input(1)).shape;
    if (w.size() == n + 2) kernel.assign(w.begin() + 2, w.end());
  }
  if (kernel.size() != n)
    Fail(op, Status::kInvalidModel, "kernel_shape must have one entry per spatial dim");
  std::vector<int64_t> strides = op.attrs.GetInts("strides", std::vector<int64_t>(n, 1));
  std::vector<int64_t> dilations = op.attrs.GetInts("dilations", std::vector<int64_t>(n, 1));
  std::vector<int64_t> pads = op.attrs.GetInts("pads", std::vector<int64_t>(2 * n, 0));
  if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n) {
    Fail(op, Status::kInvalidModel, "strides, dilations and pads must match the spatial rank");
  }
  const std::string auto_pad = op.attrs.GetString("auto_pad", "NOTSET");
  if (auto_pad == "VALID") {
    std::fill(pads.begin(), pads.end(), 0);
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    if (op.type == OpType::kConvTranspose)
      Fail(op, Status::kUnsupportedOp, "auto_pad SAME on ConvTranspose");
    for (size_t d = 0; d < n; ++d) {
      // total = (out - 1) * stride + (kernel - 1) * dilation + 1 - in (ONNX auto_pad)
      const int64_t total = std::max<int64_t>(
          0, (out[d + 2] - 1) * strides[d] + (kernel[d] - 1) * dilations[d] + 1 - in[d + 2]);
      pads[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[d + n] = total - pads[d];
    }
  }
  a.kernel = Int32s(op, kernel);
  a.strides = Int32s(op, strides);
  a.dilations = Int32s(op, dilations);
  a.pads = Int32s(op, pads);
  a.group = static_cast<int32_t>(op.attrs.GetInt("group", 1));
  a.ceil_mode = op.attrs.GetInt("ceil_mode", 0) != 0;
  a.count_include_pad = op.attrs.GetInt("count_include_pad", 0) != 0;
  if (op.type == OpType::kConvTranspose) {  // one group (passes/runtime_forms.cc)
    a.output_padding = Int32s(op, op.attrs.GetInts("output_padding", std::vector<int64_t>(n, 0)));
  }
}

// Reshape keeps the logical (ONNX row-major) element order. The runtime stores rank-4/3
// tensors channels-last, so when the input's or the output's runtime bytes are not in
// ONNX order the reshape must reorder: it is then executed as one transpose of a view
// (perm over view_shape), writing straight into the output buffer (docs/plan-format.md).
void ReshapeAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const ir::Shape& in = InputShape(g, op);
  const ir::Shape& out = OutputShape(g, op);
  a.shape = Int32s(op, RuntimeShape(out));
  const bool in_keeps = PermKeepsBytes(in, RuntimeLayout(in.size()));
  const bool out_keeps = PermKeepsBytes(out, RuntimeLayout(out.size()));
  if (in_keeps && out_keeps) return;
  if (!in_keeps && !out_keeps) {
    // Same shape, or shapes whose runtime bytes agree ([N, C, L] -> [N, C, 1, L]): a copy.
    if (in == out || ir::ReshapeKeepsRuntimeBytes(in, out)) return;
    // passes/runtime_forms.cc refuses these before planning; this guards the emitter.
    Fail(op, Status::kUnsupportedOp,
         "Reshape " + ir::ShapeToString(in) + " -> " + ir::ShapeToString(out) +
             " between two channels-last layouts needs two transposes; not supported");
  }
  if (!in_keeps) {  // e.g. flatten [N, C, H, W] -> [N, C*H*W]: NHWC bytes back to NCHW order
    a.perm = Int32s(op, InversePerm(RuntimeLayout(in.size())));
    a.view_shape = Int32s(op, RuntimeShape(in));
  } else {  // e.g. [N, K] -> [N, C, H, W]: the input's bytes are NCHW order, lay them out NHWC
    a.perm = Int32s(op, RuntimeLayout(out.size()));
    a.view_shape = Int32s(op, out);
  }
}

// runtime_out = transpose(runtime_in, Linv_in o p o L_out) (emit/layout.h).
void TransposeAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const size_t rank = InputShape(g, op).size();
  Perm p = op.attrs.GetInts("perm");
  if (p.empty()) {
    for (size_t i = rank; i-- > 0;) p.push_back(static_cast<int64_t>(i));
  }
  if (p.size() != rank || rank > 4)
    Fail(op, Status::kInvalidModel, "perm must match the input rank (<= 4)");
  Perm sorted = p;
  std::sort(sorted.begin(), sorted.end());
  if (!IsIdentity(sorted)) Fail(op, Status::kInvalidModel, "perm is not a permutation");
  const Perm composed = Compose(Compose(InversePerm(RuntimeLayout(rank)), p),
                                RuntimeLayout(OutputShape(g, op).size()));
  a.perm = Int32s(op, composed);
}

std::vector<int64_t> ConstantInts(const ir::Graph& g, const ir::Op& op, size_t i) {
  if (op.input(i) == ir::kNoTensor) return {};
  if (!g.IsConstant(op.input(i)))
    Fail(op, Status::kUnsupportedOp, "input " + std::to_string(i) + " must be a constant");
  return ir::ConstantAsInt64s(g.tensor(op.input(i)));
}

// Slice with constant starts/ends/axes/steps: first index and step per runtime axis
// (ir/slice.h resolves ONNX's clamping); the extents are the output's shape.
void SliceAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const ir::Shape& in = InputShape(g, op);
  const size_t rank = in.size();
  if (rank == 0 || rank > 4) Fail(op, Status::kUnsupportedOp, "Slice of rank 0 or > 4");
  ir::SliceWindow w;
  const std::string error = ir::ResolveSlice(in, ConstantInts(g, op, 1), ConstantInts(g, op, 2),
                                             ConstantInts(g, op, 3), ConstantInts(g, op, 4), &w);
  if (!error.empty()) Fail(op, Status::kInvalidModel, error);
  if (w.extent != OutputShape(g, op)) {
    Fail(op, Status::kInternal, "the resolved extents disagree with the output shape");
  }
  const Perm L = RuntimeLayout(rank);
  std::vector<int64_t> starts, steps;
  for (size_t i = 0; i < rank; ++i) {
    starts.push_back(w.first[static_cast<size_t>(L[i])]);
    steps.push_back(w.step[static_cast<size_t>(L[i])]);
  }
  a.starts = Int32s(op, starts);
  a.strides = Int32s(op, steps);
}

void PadAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const size_t rank = InputShape(g, op).size();
  std::vector<int64_t> given = op.attrs.GetInts("pads");
  if (given.empty()) given = ConstantInts(g, op, 1);
  std::vector<int64_t> pads;
  const std::string error = ir::ResolvePads(rank, given, ConstantInts(g, op, 3), &pads);
  if (!error.empty()) Fail(op, Status::kInvalidModel, error);
  const Perm L = RuntimeLayout(rank);
  std::vector<int64_t> out(2 * rank);
  for (size_t i = 0; i < rank; ++i) {  // begins then ends, per runtime axis
    out[i] = pads[static_cast<size_t>(L[i])];
    out[i + rank] = pads[static_cast<size_t>(L[i]) + rank];
  }
  a.pads = Int32s(op, out);
  a.mode = op.attrs.GetString("mode", "constant");
  a.pad_value = op.attrs.GetFloat("value", 0.0f);
  if (op.input(2) != ir::kNoTensor) {
    if (!g.IsConstant(op.input(2)))
      Fail(op, Status::kUnsupportedOp, "constant_value must be a constant");
    std::vector<double> v = ir::ConstantAsDoubles(g.tensor(op.input(2)));
    if (!v.empty()) a.pad_value = static_cast<float>(v[0]);
  }
}

// ChannelShuffle(group G) on [N, C, H, W] is, in the runtime's NHWC bytes, the transpose of
// each pixel's channels viewed as [G, C/G]: a RESHAPE with view [N, H*W, G, C/G] and perm
// [0, 1, 3, 2] (docs/plan-format.md "Reshape across layouts"), output shape [N, H, W, C].
void ChannelShuffleAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const ir::Shape& x = InputShape(g, op);
  const int64_t group = op.attrs.GetInt("group", 0);
  if (x.size() != 4 || group < 1 || x[1] % group != 0) {
    Fail(op, Status::kInternal, "ChannelShuffle needs [N, C, H, W] with group | C");
  }
  a.shape = Int32s(op, {x[0], x[2], x[3], x[1]});
  a.view_shape = Int32s(op, {x[0], x[2] * x[3], group, x[1] / group});
  a.perm = {0, 1, 3, 2};
}

// ONNX LRN defaults: alpha 1e-4, beta 0.75, bias 1. The runtime computes d^-beta as
// exp(-beta log d) and needs d = bias + alpha / size * (sum of squares) > 0, which bias > 0
// and alpha >= 0 guarantee; other values are refused here rather than produce NaN there.
void LrnAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const size_t rank = InputShape(g, op).size();
  if (rank != 3 && rank != 4) {
    Fail(op, Status::kUnsupportedOp,
         "LRN over a rank-" + std::to_string(rank) + " tensor (rank 3 or 4 only)");
  }
  a.kernel = Int32s(op, {op.attrs.GetInt("size", 0)});
  a.alpha = op.attrs.GetFloat("alpha", 1e-4f);
  a.beta = op.attrs.GetFloat("beta", 0.75f);
  a.bias = op.attrs.GetFloat("bias", 1.0f);
  if (!(a.bias > 0.0f) || !(a.alpha >= 0.0f) || !std::isfinite(a.beta)) {
    Fail(op, Status::kUnsupportedOp,
         "LRN with bias " + std::to_string(a.bias) + ", alpha " + std::to_string(a.alpha) +
             ", beta " + std::to_string(a.beta) +
             " (needs bias > 0, alpha >= 0 and a finite beta)");
  }
}

// Every reduction of the op table (ONNX Reduce*-18: axes as input 1, keepdims,
// noop_with_empty_axes).
void ReduceAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const size_t rank = InputShape(g, op).size();
  std::vector<int64_t> axes = op.attrs.GetInts("axes");
  if (axes.empty()) axes = ConstantInts(g, op, 1);
  if (axes.empty() && op.attrs.GetInt("noop_with_empty_axes", 0) == 0) {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  std::vector<int64_t> mapped;
  for (int64_t axis : axes) mapped.push_back(RuntimeAxis(NormalizeAxis(op, axis, rank), rank));
  std::sort(mapped.begin(), mapped.end());
  a.axes = Int32s(op, mapped);
  a.keepdims = op.attrs.GetInt("keepdims", 1) != 0;
  // ArgMax / ArgMin: which of equal extremes (tgrs_arg_extreme).
  if (op.attrs.GetInt("select_last_index", 0) != 0) a.mode = "last";
}

// Hardmax and CumSum: the axis in the runtime layout; CumSum's flags as attrs.mode. Before
// opset 13 Hardmax works on the 2-D coercion around its axis, which is one axis only when
// it is the last (runtime_forms.cc refuses the others).
// Element strides of each ONNX axis of a tensor of `shape` stored transposed by `perm`.
std::vector<int64_t> AxisStrides(const ir::Shape& shape, const Perm& perm) {
  const Perm inverse = InversePerm(perm);
  const ir::Shape stored = PermuteShape(shape, perm);
  std::vector<int64_t> stored_stride(stored.size(), 1);
  for (size_t i = stored.size(); i-- > 1;) stored_stride[i - 1] = stored_stride[i] * stored[i];
  std::vector<int64_t> strides(shape.size());
  for (size_t a = 0; a < shape.size(); ++a) {
    strides[a] = stored_stride[static_cast<size_t>(inverse[a])];
  }
  return strides;
}

// The same for input `index` as the plan stores it: an activation in its runtime layout, a
// constant in its weight role's (emit/weight_layout.h).
std::vector<int64_t> StoredStrides(const ir::Graph& g, const ir::Op& op, size_t index) {
  const ir::Shape& shape = InputShape(g, op, index);
  Perm perm = RuntimeLayout(shape.size());
  if (g.IsConstant(op.input(index))) {
    size_t broadcast_rank = 0;
    const WeightRole role = ConstantRole(g, op, index, &broadcast_rank);
    if (role == WeightRole::kAsIs) perm = IdentityPerm(shape.size());
    if (role == WeightRole::kMatMulB) perm = {1, 0};
  }
  return AxisStrides(shape, perm);
}

// MatMul beyond two matrices, with numpy's rules (ONNX MatMul): a rank-1 A is a row and a
// rank-1 B a column, each dropped from the output; the batch axes (at most two: ranks <= 4)
// broadcast. attrs.shape = [batch0, batch1, M, K, N], attrs.strides = A's, B's and the
// output's element strides along (batch0, batch1, rows, columns), 0 along an axis an
// operand lacks or broadcasts (ops_dense.c, tgrs_matmul_strided_f32).
void MatMulStridedAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const ir::Shape& sa = InputShape(g, op, 0);
  const ir::Shape& sb = InputShape(g, op, 1);
  const ir::Shape& sy = OutputShape(g, op);
  if (sa.size() > 4 || sb.size() > 4 || sa.empty() || sb.empty()) {
    Fail(op, Status::kUnsupportedOp, "MatMul of a scalar or of rank > 4");
  }
  const std::vector<int64_t> st_a = StoredStrides(g, op, 0), st_b = StoredStrides(g, op, 1);
  const std::vector<int64_t> st_y = AxisStrides(sy, RuntimeLayout(sy.size()));
  const bool a_row = sa.size() == 1, b_col = sb.size() == 1;
  const int64_t m = a_row ? 1 : sa[sa.size() - 2];
  const int64_t k = sa.back();
  const int64_t n = b_col ? 1 : sb.back();
  // The output's axes: its batch axes, then M unless A is a row, then N unless B a column.
  const size_t y_batch = sy.size() - (a_row ? 0 : 1) - (b_col ? 0 : 1);
  if (y_batch > 2) Fail(op, Status::kUnsupportedOp, "MatMul with more than two batch axes");
  std::vector<int64_t> shape = {1, 1, m, k, n};
  std::vector<int64_t> stride(12, 0);
  // Batch axis j of the output (right-aligned to the two slots) and of each operand.
  const size_t a_batch = a_row ? 0 : sa.size() - 2, b_batch = b_col ? 0 : sb.size() - 2;
  for (size_t j = 0; j < y_batch; ++j) {
    const size_t slot = 2 - y_batch + j;
    shape[slot] = sy[j];
    const size_t from_end = y_batch - j;  // 1 for the innermost batch axis
    if (from_end <= a_batch && sa[a_batch - from_end] != 1) {
      stride[slot] = st_a[a_batch - from_end];
    }
    if (from_end <= b_batch && sb[b_batch - from_end] != 1) {
      stride[4 + slot] = st_b[b_batch - from_end];
    }
    stride[8 + slot] = st_y[j];
  }
  stride[2] = a_row ? 0 : st_a[sa.size() - 2];
  stride[3] = st_a[sa.size() - 1];
  stride[6] = st_b[b_col ? 0 : sb.size() - 2];
  stride[7] = b_col ? 0 : st_b[sb.size() - 1];
  stride[10] = a_row ? 0 : st_y[y_batch];
  stride[11] = b_col ? 0 : st_y[sy.size() - 1];
  a.shape = Int32s(op, shape);
  a.strides = Int32s(op, stride);
}

// RNN, GRU, LSTM (ops_recurrent.c): where each ONNX axis of X, Y and the states sits in its
// runtime layout, the direction, the clip, the gate functions, the outputs' roles.
void RecurrentAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  ir::RecurrentShape s;
  std::string error = ir::ResolveRecurrentShape(op.type, InputShape(g, op, ir::kRecurrentX),
                                                InputShape(g, op, ir::kRecurrentR),
                                                op.attrs.GetInt("layout", 0), &s);
  std::vector<ir::RecurrentFunction> functions;
  if (error.empty()) error = ir::ResolveRecurrentFunctions(op, s.directions, &functions);
  if (!error.empty()) Fail(op, Status::kInvalidModel, error);
  std::vector<int64_t> axes;
  for (int64_t axis : s.XAxes()) axes.push_back(RuntimeAxis(axis, 3));
  for (int64_t axis : s.YAxes()) axes.push_back(RuntimeAxis(axis, 4));
  for (int64_t axis : s.StateAxes()) axes.push_back(RuntimeAxis(axis, 3));
  a.axes = Int32s(op, axes);
  const std::string direction = op.attrs.GetString("direction", "forward");
  if (direction != "forward") a.mode = direction;
  if (op.attrs.Has("clip")) a.max = op.attrs.GetFloat("clip");
  for (const ir::RecurrentFunction& f : functions) {
    a.activations.push_back(f.code);
    a.activation_alpha.push_back(f.alpha);
    a.activation_beta.push_back(f.beta);
  }
  a.linear_before_reset = op.attrs.GetInt("linear_before_reset", 0) != 0;
  a.output_roles = Int32s(op, ir::RecurrentOutputRoles(op));
}

void ScanAttrs(const ir::Graph& g, const ir::Op& op, OpAttrsRecord& a) {
  const size_t rank = InputShape(g, op).size();
  int64_t axis = 0;
  if (op.type == OpType::kCumSum) {
    const std::vector<int64_t> given = ir::ConstantAsInt64s(g.tensor(op.input(1)));
    if (given.size() != 1) Fail(op, Status::kInvalidModel, "axis must be one constant value");
    axis = given[0];
    const bool exclusive = op.attrs.GetInt("exclusive", 0) != 0;
    const bool reverse = op.attrs.GetInt("reverse", 0) != 0;
    a.mode = exclusive && reverse ? "exclusive reverse"
             : exclusive          ? "exclusive"
             : reverse            ? "reverse"
                                  : "";
  } else {
    axis = op.attrs.GetInt("axis", g.opset != 0 && g.opset < 13 ? 1 : -1);
  }
  a.axis = static_cast<int32_t>(RuntimeAxis(NormalizeAxis(op, axis, rank), rank));
}

}  // namespace

void TranslateAttrs(const ir::Graph& g, const ir::Op& op, OpRecord& r) {
  OpAttrsRecord& a = r.attrs;
  switch (op.type) {
    case OpType::kConv:
    case OpType::kDepthwiseConv:
    case OpType::kConv1D:
    case OpType::kConvTranspose:
    case OpType::kMaxPool:
    case OpType::kAveragePool:
      WindowAttrs(g, op, a);
      break;
    case OpType::kConcat: {
      const size_t rank = OutputShape(g, op).size();
      int64_t axis = NormalizeAxis(op, op.attrs.GetInt("axis", 0), rank);
      // concat-axis-normalize already rewrote rank 3/4 axes to NHWC/NWC ("layout" set).
      if (!op.attrs.Has("layout")) axis = RuntimeAxis(axis, rank);
      a.axis = static_cast<int32_t>(axis);
      break;
    }
    case OpType::kSoftmax:
    case OpType::kLogSoftmax: {
      const size_t rank = InputShape(g, op).size();
      const int64_t fallback = g.opset != 0 && g.opset < 13 ? 1 : -1;  // ONNX default by opset
      const int64_t axis = NormalizeAxis(op, op.attrs.GetInt("axis", fallback), rank);
      if (g.opset != 0 && g.opset < 13 && axis != static_cast<int64_t>(rank) - 1) {
        Fail(op, Status::kUnsupportedOp,
             "opset < 13 Softmax over a non-last axis flattens; not supported");
      }
      a.axis = static_cast<int32_t>(RuntimeAxis(axis, rank));
      break;
    }
    case OpType::kReshape:
      ReshapeAttrs(g, op, a);
      break;
    case OpType::kTranspose:
      TransposeAttrs(g, op, a);
      break;
    case OpType::kGemm:
      if (op.attrs.GetInt("transA", 0) != 0 || op.attrs.GetInt("transB", 1) != 1) {
        Fail(op, Status::kUnsupportedOp, "Gemm must be canonical (transA 0, transB 1)");
      }
      a.alpha = op.attrs.GetFloat("alpha", 1.0f);
      a.beta = op.attrs.GetFloat("beta", 1.0f);
      break;
    case OpType::kMatMul:
      // Two matrices: the fully connected layer or tgrs_matmul_*; anything else through
      // strides.
      if (InputShape(g, op, 0).size() != 2 || InputShape(g, op, 1).size() != 2) {
        MatMulStridedAttrs(g, op, a);
      }
      break;
    case OpType::kLeakyRelu:
      a.alpha = op.attrs.GetFloat("alpha", 0.01f);
      break;
    case OpType::kSelu:
      a.alpha = op.attrs.GetFloat("alpha", 1.67326319217681884765625f);
      a.gamma = op.attrs.GetFloat("gamma", 1.05070102214813232421875f);
      break;
    case OpType::kGelu:
      if (op.attrs.GetString("approximate", "none") == "tanh") a.mode = "tanh";
      break;
    case OpType::kHardmax:
    case OpType::kCumSum:
      ScanAttrs(g, op, a);
      break;
    case OpType::kRNN:
    case OpType::kGRU:
    case OpType::kLSTM:
      RecurrentAttrs(g, op, a);
      break;
    case OpType::kDepthToSpace:
    case OpType::kSpaceToDepth: {
      // The b x b block as a kernel; the shape rule checked b (shape_rules_rearrange.cc).
      const int32_t b = static_cast<int32_t>(op.attrs.GetInt("blocksize", 1));
      a.kernel = {b, b};
      if (op.attrs.GetString("mode", "DCR") == "CRD") a.mode = "CRD";
      break;
    }
    case OpType::kElu:
    case OpType::kCelu:  // ONNX's default alpha is 1 for both (lut.h)
      a.alpha = op.attrs.GetFloat("alpha", kEluAlpha);
      break;
    case OpType::kHardSigmoid:
      a.alpha = op.attrs.GetFloat("alpha", 0.2f);
      a.beta = op.attrs.GetFloat("beta", 0.5f);
      break;
    case OpType::kLRN:
      LrnAttrs(g, op, a);
      break;
    case OpType::kChannelShuffle:
      ChannelShuffleAttrs(g, op, a);
      break;
    case OpType::kClip:
      a.min = op.attrs.GetFloat("min", -std::numeric_limits<float>::max());
      a.max = op.attrs.GetFloat("max", std::numeric_limits<float>::max());
      break;
    case OpType::kResize: {
      const size_t rank = InputShape(g, op).size();
      std::vector<float> scales = op.attrs.GetFloats("scales");
      if (scales.size() != rank)
        Fail(op, Status::kInvalidModel, "scales must have one entry per axis");
      const Perm L = RuntimeLayout(rank);
      for (size_t i = 0; i < rank; ++i) a.scales.push_back(scales[static_cast<size_t>(L[i])]);
      a.mode = op.attrs.GetString("mode", "nearest");
      a.coordinate_transformation_mode =
          op.attrs.GetString("coordinate_transformation_mode", "half_pixel");
      a.nearest_mode = op.attrs.GetString("nearest_mode", "round_prefer_floor");
      break;
    }
    case OpType::kPad:
      PadAttrs(g, op, a);
      break;
    case OpType::kSlice:
      SliceAttrs(g, op, a);
      break;
    case OpType::kGatherElements: {
      // Data, indices and output share a rank, so one runtime layout: the axis moves with it.
      const size_t rank = OutputShape(g, op).size();
      a.axis = static_cast<int32_t>(
          RuntimeAxis(NormalizeAxis(op, op.attrs.GetInt("axis", 0), rank), rank));
      break;
    }
    case OpType::kGather:
      // The kernel reads table and indices in ONNX order (rank <= 2, passes/verify.cc) and
      // writes the output through its runtime layout.
      a.perm = Int32s(op, RuntimeLayout(OutputShape(g, op).size()));
      break;
    default:
      if (ir::IsReduceOp(op.type)) ReduceAttrs(g, op, a);
      break;
  }
  // The operands just turned into attributes (and BatchNormalization's statistics, folded
  // into channel_scale / channel_shift) are not inputs of the written op: the planner
  // reserves no weight bytes for them either (analysis/weight_prefix.h).
  if (analysis::OperandsBecomeAttributes(op.type)) r.inputs.resize(1);
}

}  // namespace tigris::emit
