// RESHAPE (SQUEEZE, EXPAND_DIMS), TRANSPOSE, CONCATENATION, PAD, STRIDED_SLICE, SPLIT,
// RESIZE_NEAREST_NEIGHBOR, MEAN and the other reductions: the ops whose axes mean
// something, mapped from the file's channels-last axes to the IR's (layout.h). Where no
// mapping exists (a Reshape reorders elements differently in the two layouts), the op runs
// in the file's layout between two Transposes, which normalization removes when they move
// nothing.
#include <algorithm>
#include <climits>

#include "tflite/layout.h"
#include "tflite/op_import.h"

namespace tigris::tflite_import {
namespace {

// `real`, a value of tensor `index` in the IR layout, in the file's layout instead.
ir::TensorId ToFileLayout(ModelImporter& m, const OpSite& site, int index, ir::TensorId real) {
  if (m.Rank(index) != 4) return real;
  return m.Restore(index, m.Transpose(site, real, TflFromIrPerm(4), "_to_nhwc"), "_q");
}

// A result in the file's layout with the shape of tensor `out`, in the IR layout.
ir::TensorId FromFileLayout(ModelImporter& m, const OpSite& site, int out, ir::TensorId real) {
  if (m.Rank(out) != 4) return real;
  return m.Transpose(site, m.Restore(out, real, "_q"), IrFromTflPerm(4), "_to_nchw");
}

}  // namespace

// Reshape is defined on the row-major element order of the file's layout.
void ImportReshape(ModelImporter& m, const OpSite& site) {
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  ir::TensorId real = ToFileLayout(m, site, x, m.Real(x));
  const std::vector<int64_t> in = m.TflShape(x);
  const std::vector<int64_t> out = m.TflShape(y);  // the target (the operand may hold a -1)
  if (in.size() >= 3 && out.size() >= 3 && in != out) {
    // The runtime holds rank-3 and rank-4 tensors channels-last and its Reshape reorders
    // one side only (passes/runtime_forms.cc, CheckReshape): go through [N, rest].
    int64_t count = 1;
    for (int64_t d : in) count *= d;
    real =
        m.AddOp(site, ir::OpType::kReshape,
                {real, m.Int64Constant(site.name + "_rows", {in[0], count / in[0]})}, {}, "_rows");
    real = m.Restore(x, real, "_q");
  }
  real = m.AddOp(site, ir::OpType::kReshape, {real, m.Int64Constant(site.name + "_shape", out)});
  m.Define(site, y, FromFileLayout(m, site, y, real));
}

void ImportTranspose(ModelImporter& m, const OpSite& site) {
  const int x = m.Input(site, 0);
  const std::vector<int64_t> perm = m.ConstantInts(site, m.Input(site, 1));
  const size_t rank = m.Rank(x);
  std::vector<bool> seen(rank, false);
  if (perm.size() != rank) {
    m.Refuse(site, Status::kInvalidModel,
             "its permutation has " + std::to_string(perm.size()) + " entries for rank " +
                 std::to_string(rank));
  }
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(p)]) {
      m.Refuse(site, Status::kInvalidModel, "its permutation is not one of the input's axes");
    }
    seen[static_cast<size_t>(p)] = true;
  }
  // IR output axis j is file output axis in[j]; that is file input axis perm[in[j]], which
  // is IR input axis out[perm[in[j]]].
  const std::vector<int64_t> in = IrFromTflPerm(rank);
  const std::vector<int64_t> out = TflFromIrPerm(rank);
  std::vector<int64_t> ir_perm(rank);
  for (size_t j = 0; j < rank; ++j) {
    ir_perm[j] = out[static_cast<size_t>(perm[static_cast<size_t>(in[j])])];
  }
  m.Define(site, m.Output(site, 0), m.Transpose(site, m.Real(x), ir_perm, ""));
}

void ImportConcatenation(ModelImporter& m, const OpSite& site) {
  const auto& o = RequireOptions(m, site, site.op->builtin_options_as_ConcatenationOptions(),
                                 "ConcatenationOptions");
  const int y = m.Output(site, 0);
  const int64_t axis = IrAxis(o.axis(), m.Rank(y));
  if (axis < 0) m.Refuse(site, Status::kInvalidModel, "axis " + std::to_string(o.axis()));
  std::vector<ir::TensorId> inputs;
  for (size_t i = 0; i < m.NumInputs(site); ++i) inputs.push_back(m.Real(m.Input(site, i)));
  ir::Attributes attrs;
  attrs.Set("axis", axis);
  m.Define(site, y, m.AddOp(site, ir::OpType::kConcat, inputs, attrs),
           o.fused_activation_function());
}

// PAD pads with zeros, in a quantized model the zero point (the real 0), as ONNX's
// constant mode with value 0.
void ImportPad(ModelImporter& m, const OpSite& site) {
  const int x = m.Input(site, 0);
  const size_t rank = m.Rank(x);
  const std::vector<int64_t> pairs = m.ConstantInts(site, m.Input(site, 1));
  if (pairs.size() != 2 * rank) {
    m.Refuse(site, Status::kInvalidModel,
             "its paddings hold " + std::to_string(pairs.size()) + " values for rank " +
                 std::to_string(rank) + " (expected [rank, 2])");
  }
  const std::vector<int64_t> from = IrFromTflPerm(rank);
  std::vector<int64_t> pads(2 * rank);
  for (size_t i = 0; i < rank; ++i) {
    pads[i] = pairs[2 * static_cast<size_t>(from[i])];
    pads[rank + i] = pairs[2 * static_cast<size_t>(from[i]) + 1];
  }
  // PADV2's constant_values (input 2): the real value; an int8 output pads with its code.
  const int constant = m.NumInputs(site) > 2 ? m.Input(site, 2, /*optional=*/true) : -1;
  const float value = constant >= 0 ? m.ConstantScalar(site, constant) : 0.0f;
  ir::Attributes attrs;
  attrs.Set("mode", std::string("constant"));
  m.Define(site, m.Output(site, 0),
           m.AddOp(site, ir::OpType::kPad,
                   {m.Real(x), m.Int64Constant(site.name + "_pads", pads),
                    m.FloatScalar(site.name + "_value", value)},
                   attrs));
}

// Begin, end and strides per axis with TFLite's masks; shrink_axis_mask drops the axis
// after a one-element slice, which a Reshape to the output's shape does here.
void ImportStridedSlice(ModelImporter& m, const OpSite& site) {
  const auto& o = RequireOptions(m, site, site.op->builtin_options_as_StridedSliceOptions(),
                                 "StridedSliceOptions");
  if (o.ellipsis_mask() != 0 || o.new_axis_mask() != 0 || o.offset()) {
    m.Refuse(site, Status::kUnsupportedOp,
             "ellipsis_mask, new_axis_mask and offset are not supported");
  }
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(x);
  std::vector<int64_t> begin = m.ConstantInts(site, m.Input(site, 1));
  std::vector<int64_t> end = m.ConstantInts(site, m.Input(site, 2));
  std::vector<int64_t> steps = m.ConstantInts(site, m.Input(site, 3));
  if (begin.size() != rank || end.size() != rank || steps.size() != rank) {
    m.Refuse(site, Status::kInvalidModel, "begin, end and strides must have one value per axis");
  }
  if (rank > 16) m.Refuse(site, Status::kUnsupportedOp, "its input has rank over 16");
  const std::vector<int64_t> dims = m.TflShape(x);
  const int shrink = o.shrink_axis_mask();
  for (size_t i = 0; i < rank; ++i) {
    if (steps[i] == 0) m.Refuse(site, Status::kInvalidModel, "a stride is 0");
    if ((shrink & (1 << i)) && (begin[i] < -dims[i] || begin[i] >= dims[i])) {
      m.Refuse(site, Status::kInvalidModel,
               "it keeps index " + std::to_string(begin[i]) + " of axis " + std::to_string(i) +
                   " (extent " + std::to_string(dims[i]) + ")");
    }
    if (o.begin_mask() & (1 << i)) begin[i] = steps[i] > 0 ? 0 : INT64_MAX;
    if (o.end_mask() & (1 << i)) end[i] = steps[i] > 0 ? INT64_MAX : INT64_MIN;
    if (shrink & (1 << i)) {
      end[i] = begin[i] == -1 ? INT64_MAX : begin[i] + 1;
      steps[i] = 1;
    }
  }
  // Without a dropped axis the slice runs in the IR layout; with one, in the file's.
  const bool file_layout = shrink != 0 && rank == 4;
  std::vector<int64_t> axes(rank);
  for (size_t i = 0; i < rank; ++i) {
    axes[i] = file_layout ? static_cast<int64_t>(i) : IrAxis(static_cast<int64_t>(i), rank);
  }
  ir::TensorId real = m.Real(x);
  if (file_layout) real = ToFileLayout(m, site, x, real);
  real = m.AddOp(
      site, ir::OpType::kSlice,
      {real, m.Int64Constant(site.name + "_starts", begin),
       m.Int64Constant(site.name + "_ends", end), m.Int64Constant(site.name + "_axes", axes),
       m.Int64Constant(site.name + "_steps", steps)});
  if (shrink != 0) {
    if (!file_layout) real = m.Restore(y, real, "_q");
    real = m.AddOp(site, ir::OpType::kReshape,
                   {real, m.Int64Constant(site.name + "_shape", m.TflShape(y))}, {}, "_shrink");
    real = FromFileLayout(m, site, y, real);
  }
  m.Define(site, y, real);
}

void ImportSplit(ModelImporter& m, const OpSite& site) {
  const auto& o =
      RequireOptions(m, site, site.op->builtin_options_as_SplitOptions(), "SplitOptions");
  const std::vector<int64_t> axis_value = m.ConstantInts(site, m.Input(site, 0));
  const int x = m.Input(site, 1);
  const size_t rank = m.Rank(x);
  const int64_t axis = axis_value.size() == 1 ? IrAxis(axis_value[0], rank) : -1;
  const size_t count = m.NumOutputs(site);
  if (axis < 0 || o.num_splits() != static_cast<int>(count) || count == 0) {
    m.Refuse(site, Status::kInvalidModel,
             "it splits along an axis that is not one scalar in range, or num_splits " +
                 std::to_string(o.num_splits()) + " differs from its " + std::to_string(count) +
                 " outputs");
  }
  std::vector<int64_t> sizes;
  for (size_t i = 0; i < count; ++i) {
    const std::vector<int64_t> shape = m.TflShape(m.Output(site, i));
    if (shape.size() != rank) {
      m.Refuse(site, Status::kInvalidModel,
               "its output " + m.TensorLabel(m.Output(site, i)) + " has rank " +
                   std::to_string(shape.size()) + ", its input " + std::to_string(rank));
    }
    sizes.push_back(shape.at(static_cast<size_t>(IrFromTflPerm(rank)[static_cast<size_t>(axis)])));
  }
  ir::Attributes attrs;
  attrs.Set("axis", axis);
  const std::vector<ir::TensorId> outs =
      m.AddOpN(site, ir::OpType::kSplit, {m.Real(x), m.Int64Constant(site.name + "_split", sizes)},
               attrs, count);
  for (size_t i = 0; i < count; ++i) m.Define(site, m.Output(site, i), outs[i]);
}

// TFLite's nearest neighbour (reference kernel resize_nearest_neighbor.h): source index
// floor(y * in / out) by default; floor((y + 0.5) * in / out) with half_pixel_centers,
// which is ONNX's half_pixel transform rounded half up; round(y * (in-1) / (out-1)) with
// align_corners, ONNX's align_corners rounded half up.
void ImportResizeNearest(ModelImporter& m, const OpSite& site) {
  const auto* o = site.op->builtin_options_as_ResizeNearestNeighborOptions();
  const bool align = o && o->align_corners();
  const bool half = o && o->half_pixel_centers();
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  const std::vector<int64_t> size = m.ConstantInts(site, m.Input(site, 1));
  const std::vector<int64_t> in = m.TflShape(x);
  if (size.size() != 2 || in.size() != 4) {
    m.Refuse(site, Status::kInvalidModel, "it needs a [N, H, W, C] input and a [2] size");
  }
  ir::Attributes attrs;
  attrs.Set("mode", std::string("nearest"));
  attrs.Set("coordinate_transformation_mode", std::string(align  ? "align_corners"
                                                          : half ? "half_pixel"
                                                                 : "asymmetric"));
  attrs.Set("nearest_mode", std::string(align || half ? "round_prefer_ceil" : "floor"));
  const std::vector<int64_t> sizes = {in[0], in[3], size[0], size[1]};
  m.Define(site, y,
           m.AddOp(site, ir::OpType::kResize,
                   {m.Real(x), ir::kNoTensor, ir::kNoTensor,
                    m.Int64Constant(site.name + "_sizes", sizes)},
                   attrs));
}

// MEAN (SUM, REDUCE_MAX, ...) over constant axes. Reducing H and W (global average
// pooling) maps straight to the IR's axes; other axis sets whose kept axes would come out
// in another order run in the file's layout.
void ImportReduce(ModelImporter& m, const OpSite& site, ir::OpType type) {
  const auto& o =
      RequireOptions(m, site, site.op->builtin_options_as_ReducerOptions(), "ReducerOptions");
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(x);
  std::vector<int64_t> axes = m.ConstantInts(site, m.Input(site, 1));
  std::vector<bool> reduced(rank, false);
  for (int64_t& a : axes) {
    const int64_t ir_axis = IrAxis(a, rank);
    if (ir_axis < 0) m.Refuse(site, Status::kInvalidModel, "axis " + std::to_string(a));
    a = a < 0 ? a + static_cast<int64_t>(rank) : a;
    reduced[static_cast<size_t>(a)] = true;
  }
  // Kept axes, listed in IR order, must be increasing file axes for the dropped-axes
  // result to read the same in both layouts.
  bool same_order = true;
  int64_t last = -1;
  for (int64_t file_axis : IrFromTflPerm(rank)) {
    if (reduced[static_cast<size_t>(file_axis)]) continue;
    same_order = same_order && file_axis > last;
    last = file_axis;
  }
  const bool in_file_layout = !o.keep_dims() && !same_order;
  ir::TensorId real = m.Real(x);
  if (in_file_layout) {
    real = ToFileLayout(m, site, x, real);
  } else {
    for (int64_t& a : axes) a = IrAxis(a, rank);
  }
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  ir::Attributes attrs;
  attrs.Set("keepdims", int64_t{o.keep_dims() ? 1 : 0});
  real = m.AddOp(site, type, {real, m.Int64Constant(site.name + "_axes", axes)}, attrs);
  if (in_file_layout) real = FromFileLayout(m, site, y, real);
  m.Define(site, y, real);
}

// ARG_MAX / ARG_MIN: the IR's ArgMax / ArgMin over one axis, which it drops (no keepdims in
// TFLite), writing the output's int32 (TFLM's only kind) or int64 indices; ties take the
// first index in both. The result keeps the file's axis order as ImportReduce's does.
void ImportArgExtreme(ModelImporter& m, const OpSite& site, ir::OpType type) {
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(x);
  const std::vector<int64_t> axis = m.ConstantInts(site, m.Input(site, 1));
  if (axis.size() != 1 || IrAxis(axis[0], rank) < 0) {
    m.Refuse(site, Status::kInvalidModel, "its axis input must hold one axis of the input");
  }
  const fb::TensorType index_type = m.Tensor(y).type();
  if (index_type != fb::TensorType::INT32 && index_type != fb::TensorType::INT64) {
    m.Refuse(site, Status::kUnsupportedDType,
             "its output " + m.TensorLabel(y) + " is " + fb::EnumNameTensorType(index_type) +
                 "; indices are int32 or int64");
  }
  const int64_t file_axis = axis[0] < 0 ? axis[0] + static_cast<int64_t>(rank) : axis[0];
  // Dropping the axis leaves the others in one order in both layouts only when it is the
  // channels' (or the layouts agree, below rank 4).
  const bool in_file_layout = rank == 4 && file_axis != 3;
  ir::TensorId real = m.Real(x);
  int64_t ir_axis = IrAxis(file_axis, rank);
  if (in_file_layout) {
    real = ToFileLayout(m, site, x, real);
    ir_axis = file_axis;
  }
  ir::Attributes attrs;
  attrs.Set("keepdims", int64_t{0});
  real = m.AddOp(site, type, {real, m.Int64Constant(site.name + "_axis", {ir_axis})}, attrs);
  m.SetDType(real, index_type == fb::TensorType::INT32 ? ir::DType::kInt32 : ir::DType::kInt64);
  m.Define(site, y, real);
}

// DEPTH_TO_SPACE and SPACE_TO_DEPTH of a 4-D [N, H, W, C] tensor. TensorFlow orders a
// block's values depth-column-row: output[n, h*b + i, w*b + j, c] = input[n, h, w,
// (i*b + j)*C' + c], ONNX's DepthToSpace in DCR mode (SpaceToDepth, its inverse, has the
// one order). The IR ops are ONNX's, on the NCHW view Real gives.
void ImportBlockRearrange(ModelImporter& m, const OpSite& site, ir::OpType type) {
  const bool to_space = type == ir::OpType::kDepthToSpace;
  const int32_t block =
      to_space ? RequireOptions(m, site, site.op->builtin_options_as_DepthToSpaceOptions(),
                                "DepthToSpaceOptions")
                     .block_size()
               : RequireOptions(m, site, site.op->builtin_options_as_SpaceToDepthOptions(),
                                "SpaceToDepthOptions")
                     .block_size();
  const int x = m.Input(site, 0);
  if (m.Rank(x) != 4 || block < 1) {
    m.Refuse(site, Status::kInvalidModel,
             "it needs a [N, H, W, C] input and a positive block_size (has rank " +
                 std::to_string(m.Rank(x)) + ", block_size " + std::to_string(block) + ")");
  }
  ir::Attributes attrs;
  attrs.Set("blocksize", static_cast<int64_t>(block));
  if (to_space) attrs.Set("mode", std::string("DCR"));
  m.Define(site, m.Output(site, 0), m.AddOp(site, type, {m.Real(x)}, attrs));
}

// BROADCAST_TO: Expand to the output's stated shape, the input first given the output's
// rank as ADD's operands are. TFLM copies int8 codes, so the input and output must share
// one quantization (refused by name otherwise).
void ImportBroadcastTo(ModelImporter& m, const OpSite& site) {
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  if (!m.SameQuantization(x, y)) {
    m.Refuse(site, Status::kUnsupportedQuantization,
             "its input " + m.TensorLabel(x) + " is quantized otherwise than its output " +
                 m.TensorLabel(y) + "; TFLite copies the codes");
  }
  const size_t rank = m.Rank(y);
  if (m.Rank(x) > rank || rank > 4) {
    m.Refuse(site, Status::kUnsupportedOp, "it broadcasts to rank " + std::to_string(rank));
  }
  const std::vector<int64_t> shape =
      rank == 4 ? PermuteShape(m.TflShape(y), IrFromTflPerm(rank)) : m.TflShape(y);
  const ir::TensorId real = m.RealOfRank(site, x, rank);
  m.Define(
      site, y,
      m.AddOp(site, ir::OpType::kExpand, {real, m.Int64Constant(site.name + "_shape", shape)}));
}

// CUMSUM along one constant axis, with TFLite's exclusive and reverse (ONNX's attributes of
// the same names). int8 runs in TFLite's rescaled integer arithmetic, which the runtime's
// CumSum (float32, int32, int64) has not: the compiler refuses it by name.
void ImportCumsum(ModelImporter& m, const OpSite& site) {
  const auto* o = site.op->builtin_options_as_CumsumOptions();
  const int x = m.Input(site, 0);
  const size_t rank = m.Rank(x);
  const std::vector<int64_t> axis = m.ConstantInts(site, m.Input(site, 1));
  if (axis.size() != 1 || IrAxis(axis[0], rank) < 0) {
    m.Refuse(site, Status::kInvalidModel, "its axis input must hold one axis of the input");
  }
  ir::Attributes attrs;
  attrs.Set("exclusive", static_cast<int64_t>(o && o->exclusive()));
  attrs.Set("reverse", static_cast<int64_t>(o && o->reverse()));
  const ir::TensorId ir_axis = m.Int64Constant(site.name + "_axis", {IrAxis(axis[0], rank)});
  m.Define(site, m.Output(site, 0),
           m.AddOp(site, ir::OpType::kCumSum, {m.Real(x), ir_axis}, attrs));
}

// The types CAST converts between: TFLite's, the IR's and ONNX's (TensorProto) for Cast's
// `to`.
struct CastType {
  fb::TensorType tflite;
  ir::DType dtype;
  int64_t onnx;
};
constexpr CastType kCastTypes[] = {{fb::TensorType::FLOAT32, ir::DType::kFloat32, 1},
                                   {fb::TensorType::INT32, ir::DType::kInt32, 6},
                                   {fb::TensorType::INT64, ir::DType::kInt64, 7},
                                   {fb::TensorType::BOOL, ir::DType::kBool, 9}};

// CAST between float32, int32, int64 and bool: ONNX's Cast (float to integer truncates
// toward zero in both). TFLite casts a quantized tensor's codes, not its values, so a
// quantized input or output is refused by name.
void ImportCast(ModelImporter& m, const OpSite& site) {
  const int x = m.Input(site, 0);
  const int y = m.Output(site, 0);
  const CastType* to = nullptr;
  for (const int t : {x, y}) {
    const fb::TensorType type = m.Tensor(t).type();
    const CastType* known = nullptr;
    for (const CastType& c : kCastTypes) {
      if (c.tflite == type) known = &c;
    }
    if (m.IsQuantized(t) || known == nullptr) {
      m.Refuse(site, Status::kUnsupportedDType,
               m.TensorLabel(t) + " is " + (m.IsQuantized(t) ? "quantized " : "") +
                   fb::EnumNameTensorType(type) +
                   "; CAST converts float32, int32, int64 and bool (TFLite casts a quantized "
                   "tensor's codes, not its values)");
    }
    to = known;  // the output's, after the second pass
  }
  ir::Attributes attrs;
  attrs.Set("to", to->onnx);
  const ir::TensorId real = m.AddOp(site, ir::OpType::kCast, {m.Real(x)}, attrs);
  m.SetDType(real, to->dtype);
  m.Define(site, y, real);
}

}  // namespace tigris::tflite_import
