// Clip to Relu6 (tigris-compilation-pipeline.txt, stage 2, pass 7).
//
// The loader gives every Clip the opset-11 input form: Clip(x, min, max) with absent
// bounds as kNoTensor (opset-6 attribute bounds are moved to inputs). Bounds must be
// compile-time constants; then
//   Clip(x, 0, 6)             -> Relu6(x)   (MobileNet's ReLU6; fusable by activation-fuse)
//   Clip(x, 0) / Clip(x, 0, +inf) -> Relu(x)
//   any other constant bounds -> Clip(x) with float attributes "min" and "max"
//                                (the runtime reads its bounds from attributes only;
//                                an absent bound is stored as -FLT_MAX / +FLT_MAX, which
//                                clamps every finite float exactly as -inf / +inf would)
// A non-constant bound is an error naming the node (kUnsupportedOp): the runtime's Clip
// has fixed bounds. In int8 graphs the bounds are float constants holding real values
// (qdq-fold does not quantize them), so the comparison with 0 and 6 is the same.
// A Clip that already carries "min"/"max" attributes and no bound inputs (this pass ran
// before) keeps them, so the pass is idempotent.
#include <limits>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

constexpr double kFloatMax = std::numeric_limits<float>::max();

// The bound at input `index` (1 = min, 2 = max), else attribute `attr`, else `absent`.
double ReadBound(const ir::Graph& graph, const ir::Op& op, size_t index, const char* attr,
                 double absent) {
  const ir::TensorId id = op.input(index);
  if (id == ir::kNoTensor) {
    return op.attrs.Has(attr) ? static_cast<double>(op.attrs.GetFloat(attr)) : absent;
  }
  const ir::Tensor& bound = graph.tensor(id);
  if (!bound.is_constant) {
    throw Error(Status::kUnsupportedOp,
                DescribeOp(op) + ": bound '" + std::string(attr) + "' comes from tensor '" +
                    bound.name +
                    "', which is computed at run time; the runtime's Clip needs "
                    "constant bounds");
  }
  const std::vector<double> values = ir::ConstantAsDoubles(bound);
  if (values.size() != 1) {
    throw Error(Status::kInvalidModel,
                DescribeOp(op) + ": bound '" + std::string(attr) + "' (tensor '" + bound.name +
                    "') must be a scalar, has " + std::to_string(values.size()) + " elements");
  }
  return values[0];
}

float ToFloatAttr(double v) {
  if (v >= kFloatMax) return std::numeric_limits<float>::max();
  if (v <= -kFloatMax) return std::numeric_limits<float>::lowest();
  return static_cast<float>(v);
}

}  // namespace

void ClipToRelu6(ir::Graph& graph) {
  const double inf = std::numeric_limits<double>::infinity();
  for (ir::Op& op : graph.ops) {
    if (op.type != ir::OpType::kClip) continue;
    if (op.input(0) == ir::kNoTensor || op.outputs.size() != 1) {
      throw Error(Status::kInvalidModel, DescribeOp(op) + " needs an input and one output");
    }
    const double lo = ReadBound(graph, op, 1, "min", -inf);
    const double hi = ReadBound(graph, op, 2, "max", inf);
    op.inputs.resize(1);
    op.attrs = {};
    if (lo == 0.0 && hi == 6.0) {
      op.type = ir::OpType::kRelu6;
    } else if (lo == 0.0 && hi >= kFloatMax) {
      op.type = ir::OpType::kRelu;
    } else {
      op.attrs.Set("min", ToFloatAttr(lo));
      op.attrs.Set("max", ToFloatAttr(hi));
    }
  }
}

}  // namespace tigris::passes
