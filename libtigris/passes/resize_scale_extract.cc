// Reference pass 10 (tigris-compilation-pipeline.txt, stage 2): Resize's constant scale
// operands become attributes, so the runtime kernel reads plain numbers, never tensors.
//
//   before: x[1,3,32,32] -> Resize(roi=[], scales=[], sizes=[1,3,64,64], mode=nearest)
//   after:  x[1,3,32,32] -> Resize(scales=[1,1,2,2], scale_h=2, scale_w=2, mode=nearest,
//                                  coordinate_transformation_mode=half_pixel,
//                                  nearest_mode=round_prefer_floor) -> y[1,3,64,64]
//
// Accepted forms, all ending as one Resize with a single input:
//  - Resize opset 10: (X, scales), which the loader canonicalizes to the opset-11 operand
//    positions (X, absent roi, scales); both are accepted;
//  - Resize opset 11+: (X, roi, scales, sizes), either scales or sizes given (an empty
//    tensor counts as absent); with sizes, scale = size / input extent (ONNX Resize, with
//    keep_aspect_ratio_policy and "axes" of opset 18 honoured);
//  - Upsample opset 7 (attribute "scales") and opset 9 (input scales): op type -> Resize.
// Attributes written: "scales" (floats, one per axis, N,C,H,W), "mode" (nearest|linear),
// "coordinate_transformation_mode", "nearest_mode", and for rank 4 with unit N and C
// scales and integral H and W scales the reference's "integer scale factors" as ints
// "scale_h" / "scale_w" (the runtime's fast path: every output pixel copies or blends
// from input pixel out / scale).
//
// Defaults: opset 11+ follows the ONNX spec (half_pixel, round_prefer_floor). Resize-10
// and Upsample have no such attributes; their semantics are asymmetric coordinates with
// onnxruntime's "simple" nearest rounding (floor when upsampling, ceil when downsampling,
// checked against onnxruntime 1.x), written out here as explicit attributes.
//
// Unsupported, reported with the node's name (kUnsupportedOp): scales or sizes that are
// not constants, cubic mode, tf_crop_and_resize (needs roi), antialiased downsampling.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

std::string Where(const ir::Graph& graph, const ir::Op& op) {
  return std::string(ir::OpTypeName(op.type)) + " node '" + op.name + "' of model '" + graph.name +
         "'";
}

// A constant operand's values, or empty when absent or empty; throws when it is computed
// at run time (the runtime has no dynamic resize).
std::vector<double> ConstantOperand(const ir::Graph& graph, const ir::Op& op, size_t index,
                                    const char* what) {
  const ir::TensorId id = op.input(index);
  if (id == ir::kNoTensor) return {};
  const ir::Tensor& t = graph.tensor(id);
  if (!t.is_constant) {
    throw Error(Status::kUnsupportedOp, Where(graph, op) + ": " + what + " input '" + t.name +
                                            "' is not a constant; only static resizes are "
                                            "supported");
  }
  return ir::ConstantAsDoubles(t);
}

// Expands per-axis values given for `axes` (opset 18) to the full rank, `fill` elsewhere.
std::vector<double> ExpandToRank(const ir::Graph& graph, const ir::Op& op,
                                 const std::vector<double>& values, size_t rank,
                                 const std::vector<double>& fill, const char* what) {
  const std::vector<int64_t> axes = op.attrs.GetInts("axes");
  if (axes.empty()) {
    if (values.size() != rank) {
      throw Error(Status::kInvalidModel,
                  Where(graph, op) + ": " + what + " has " + std::to_string(values.size()) +
                      " entries for an input of rank " + std::to_string(rank));
    }
    return values;
  }
  if (values.size() != axes.size()) {
    throw Error(Status::kInvalidModel,
                Where(graph, op) + ": " + what + " and attribute 'axes' differ in length");
  }
  std::vector<double> full = fill;
  const int64_t r = static_cast<int64_t>(rank);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t axis = axes[i] < 0 ? axes[i] + r : axes[i];
    if (axis < 0 || axis >= r) {
      throw Error(Status::kInvalidModel,
                  Where(graph, op) + ": axis " + std::to_string(axes[i]) + " is out of range");
    }
    full[static_cast<size_t>(axis)] = values[i];
  }
  return full;
}

// Per-axis scales from a sizes operand: size / extent, then the aspect-ratio policy of
// opset 18 (not_larger / not_smaller use one common scale over the resized axes).
std::vector<double> ScalesFromSizes(const ir::Graph& graph, const ir::Op& op,
                                    const std::vector<double>& sizes_given,
                                    const ir::Shape& in_shape) {
  const size_t rank = in_shape.size();
  std::vector<double> extents(in_shape.begin(), in_shape.end());
  const std::vector<double> sizes = ExpandToRank(graph, op, sizes_given, rank, extents, "sizes");
  std::vector<double> scales(rank, 1.0);
  for (size_t i = 0; i < rank; ++i) {
    if (in_shape[i] <= 0 || sizes[i] <= 0) {
      throw Error(Status::kInvalidModel, Where(graph, op) + ": sizes or input extent of axis " +
                                             std::to_string(i) + " is not positive");
    }
    scales[i] = sizes[i] / static_cast<double>(in_shape[i]);
  }
  const std::string policy = op.attrs.GetString("keep_aspect_ratio_policy", "stretch");
  if (policy == "stretch") return scales;
  if (policy != "not_larger" && policy != "not_smaller") {
    throw Error(Status::kInvalidModel,
                Where(graph, op) + ": unknown keep_aspect_ratio_policy '" + policy + "'");
  }
  std::vector<int64_t> axes = op.attrs.GetInts("axes");
  if (axes.empty()) {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  double common = policy == "not_larger" ? INFINITY : 0.0;
  for (int64_t a : axes) {
    const double s = scales[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(rank) : a)];
    common = policy == "not_larger" ? std::min(common, s) : std::max(common, s);
  }
  for (int64_t a : axes)
    scales[static_cast<size_t>(a < 0 ? a + static_cast<int64_t>(rank) : a)] = common;
  return scales;
}

bool IsIntegral(double v) { return v >= 1.0 && std::floor(v) == v; }

void Rewrite(ir::Graph& graph, ir::Op& op) {
  const ir::Shape& in_shape = graph.tensor(op.input(0)).shape;
  const size_t rank = in_shape.size();
  // Resize-10 semantics come from the model's opset (the loader moved its operands); a
  // graph without one (built in memory) is recognized by the raw two-operand form.
  const bool legacy = op.type == ir::OpType::kUpsample ||
                      (graph.opset != 0 ? graph.opset < 11 : op.inputs.size() == 2);

  std::vector<double> scales;
  if (op.type == ir::OpType::kUpsample && op.attrs.Has("scales")) {
    for (float s : op.attrs.GetFloats("scales")) scales.push_back(s);  // Upsample-7
  } else if (op.type == ir::OpType::kUpsample || op.inputs.size() == 2) {
    scales = ConstantOperand(graph, op, 1, "scales");  // Upsample-9, raw Resize-10 form
  } else {
    const std::vector<double> sizes = ConstantOperand(graph, op, 3, "sizes");
    scales = ConstantOperand(graph, op, 2, "scales");
    if (!sizes.empty()) {
      scales = ScalesFromSizes(graph, op, sizes, in_shape);
    } else if (!scales.empty()) {
      scales = ExpandToRank(graph, op, scales, rank, std::vector<double>(rank, 1.0), "scales");
    }
  }
  if (scales.empty()) {
    throw Error(Status::kInvalidModel, Where(graph, op) + ": has neither scales nor sizes");
  }
  if (scales.size() != rank) {
    throw Error(Status::kInvalidModel, Where(graph, op) + ": scales has " +
                                           std::to_string(scales.size()) +
                                           " entries for an input of rank " + std::to_string(rank));
  }
  bool upsampling = false, downsampling = false;
  for (double s : scales) {
    if (!(s > 0.0)) {
      throw Error(Status::kInvalidModel,
                  Where(graph, op) + ": scale " + std::to_string(s) + " is not positive");
    }
    upsampling = upsampling || s > 1.0;
    downsampling = downsampling || s < 1.0;
  }

  std::string mode = op.attrs.GetString("mode", "nearest");
  if (mode == "bilinear") mode = "linear";  // pre-opset-7 spelling kept by some converters
  if (mode != "nearest" && mode != "linear") {
    throw Error(Status::kUnsupportedOp,
                Where(graph, op) + ": mode '" + mode + "' (the runtime has nearest and linear)");
  }
  std::string coordinates, nearest;
  if (legacy) {
    if (upsampling && downsampling) {
      throw Error(Status::kUnsupportedOp,
                  Where(graph, op) +
                      ": opset-10 nearest rounding differs per axis when one "
                      "axis grows and another shrinks; re-export with opset 11+");
    }
    coordinates = "asymmetric";
    nearest = downsampling ? "ceil" : "floor";
  } else {
    coordinates = op.attrs.GetString("coordinate_transformation_mode", "half_pixel");
    nearest = op.attrs.GetString("nearest_mode", "round_prefer_floor");
  }
  if (coordinates == "tf_crop_and_resize") {
    throw Error(Status::kUnsupportedOp,
                Where(graph, op) + ": coordinate_transformation_mode 'tf_crop_and_resize'");
  }
  if (op.attrs.GetInt("antialias", 0) != 0 && downsampling && mode != "nearest") {
    throw Error(Status::kUnsupportedOp, Where(graph, op) + ": antialiased downsampling");
  }

  std::vector<float> scale_attr(scales.begin(), scales.end());
  op.attrs = {};
  op.attrs.Set("scales", scale_attr);
  op.attrs.Set("mode", mode);
  op.attrs.Set("coordinate_transformation_mode", coordinates);
  op.attrs.Set("nearest_mode", nearest);
  // Integer factors that fit int32 (a scale of 1e31 over an empty axis is a valid model;
  // converting it to an integer was undefined, found by fuzz_onnx:
  // fuzz/regressions/onnx/resize-integral-scale-1e31.onnx).
  auto factor = [](double s) { return IsIntegral(s) && s >= 1.0 && s <= 2147483647.0; };
  if (rank == 4 && scales[0] == 1.0 && scales[1] == 1.0 && factor(scales[2]) && factor(scales[3])) {
    op.attrs.Set("scale_h", static_cast<int64_t>(scales[2]));
    op.attrs.Set("scale_w", static_cast<int64_t>(scales[3]));
  }
  op.type = ir::OpType::kResize;
  op.inputs.resize(1);
}

}  // namespace

void ResizeScaleExtract(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kResize && op.type != ir::OpType::kUpsample) continue;
    // Already in extracted form (the pass ran before): nothing left to read.
    if (op.type == ir::OpType::kResize && op.inputs.size() == 1 && op.attrs.Has("scales")) {
      continue;
    }
    Rewrite(graph, op);
  }
}

}  // namespace tigris::passes
