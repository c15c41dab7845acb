#include "emit/weight_layout.h"

#include "ir/recurrent.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

// The operands broadcast against the output: every one of the op table's broadcasting ops,
// and Expand's data (input 0; its input 1, the shape, is not).
bool IsBroadcastOperand(const ir::Op& op, size_t index) {
  return ir::IsBinaryOp(op.type) || (op.type == ir::OpType::kExpand && index == 0);
}

[[noreturn]] void BadShape(const ir::Tensor& t, const std::string& what) {
  throw Error(Status::kInvalidModel,
              "constant '" + t.name + "' (" + ir::ShapeToString(t.shape) + "): " + what);
}

}  // namespace

WeightRole ConstantRole(const ir::Graph& graph, const ir::Op& op, size_t index,
                        size_t* broadcast_rank) {
  using ir::OpType;
  if (index == 0 && op.type == OpType::kGather) return WeightRole::kAsIs;  // table rows
  // A recurrent op's W, R, B and P are dense in ONNX's order (ops_recurrent.c); its X and
  // states are activations, sequence_lens a vector.
  if (ir::IsRecurrentOp(op.type) && (index == ir::kRecurrentW || index == ir::kRecurrentR ||
                                     index == ir::kRecurrentB || index == ir::kRecurrentP)) {
    return WeightRole::kAsIs;
  }
  if (index == 1) {
    switch (op.type) {
      case OpType::kDepthwiseConv:
        return WeightRole::kDepthwiseFilter;
      case OpType::kConvTranspose:
        return WeightRole::kConvTransposeFilter;
      case OpType::kGemm:
        return WeightRole::kAsIs;
      case OpType::kMatMul:
        if (graph.tensor(op.inputs[1]).shape.size() == 2) return WeightRole::kMatMulB;
        return WeightRole::kAsIs;
      default:
        break;
    }
  }
  if (index == 2 && (op.type == OpType::kConv || op.type == OpType::kDepthwiseConv ||
                     op.type == OpType::kConv1D || op.type == OpType::kConvTranspose ||
                     op.type == OpType::kGemm)) {
    return WeightRole::kAsIs;  // bias [C_out]
  }
  if (IsBroadcastOperand(op, index) && !op.outputs.empty()) {
    const size_t out_rank = graph.tensor(op.outputs[0]).shape.size();
    if (graph.tensor(op.inputs[index]).shape.size() < out_rank) {
      *broadcast_rank = out_rank;
      return WeightRole::kBroadcastOperand;
    }
  }
  return WeightRole::kActivationLike;
}

LaidOutConstant LayOutConstant(const ir::Tensor& t, WeightRole role, size_t broadcast_rank) {
  const size_t elem = ir::DTypeSize(t.dtype);
  if (elem == 0 || t.data.size() != static_cast<size_t>(t.num_elements()) * elem) {
    BadShape(t, "data size does not match shape and dtype");
  }
  ir::Shape shape = t.shape;
  Perm perm;
  bool drop_leading_one = false;
  switch (role) {
    case WeightRole::kActivationLike:
      perm = RuntimeLayout(shape.size());
      break;
    case WeightRole::kAsIs:
      perm = IdentityPerm(shape.size());
      break;
    case WeightRole::kDepthwiseFilter:
      if (shape.size() != 4 || shape[1] != 1)
        BadShape(t, "depthwise filter must be [C, 1, KH, KW]");
      perm = {1, 2, 3, 0};
      drop_leading_one = true;
      break;
    case WeightRole::kConvTransposeFilter:
      if (shape.size() != 4) BadShape(t, "conv transpose filter must be [I, O, KH, KW]");
      perm = {1, 2, 3, 0};
      break;
    case WeightRole::kMatMulB:
      perm = {1, 0};
      break;
    case WeightRole::kBroadcastOperand:
      shape.insert(shape.begin(), broadcast_rank - shape.size(), 1);
      perm = RuntimeLayout(shape.size());
      break;
  }
  LaidOutConstant out;
  out.data = TransposeBytes(t.data, shape, perm, elem);
  out.shape = PermuteShape(shape, perm);
  const size_t prepended = shape.size() - t.shape.size();
  if (drop_leading_one) out.shape.erase(out.shape.begin());
  if (t.quant) {
    out.quant = t.quant;
    if (t.quant->axis >= 0) {
      int64_t axis = InversePerm(perm)[static_cast<size_t>(t.quant->axis) + prepended];
      if (drop_leading_one) --axis;
      out.quant->axis = static_cast<int32_t>(axis);
    }
  }
  return out;
}

}  // namespace tigris::emit
