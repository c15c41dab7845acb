#include "onnx/shape_rules.h"

#include <algorithm>

#include "util/error.h"

namespace tigris::onnx_import {

const ir::Tensor& ShapeContext::Input(size_t i) const {
  if (!HasInput(i)) Fail("required input " + std::to_string(i) + " is missing");
  return graph_.tensor(op_.input(i));
}

const std::vector<int64_t>* ShapeContext::InputInts(size_t i) const {
  if (!HasInput(i)) return nullptr;
  const auto& v = values_[static_cast<size_t>(op_.input(i))];
  return v ? &*v : nullptr;
}

const std::vector<int64_t>& ShapeContext::RequireInts(size_t i, const std::string& what) const {
  const std::vector<int64_t>* v = InputInts(i);
  if (!v) {
    Fail(what + " (input " + std::to_string(i) + ", tensor '" + Input(i).name +
         "') must be known statically; it is computed from data TiGrIS cannot evaluate");
  }
  return *v;
}

std::optional<std::vector<double>> ShapeContext::InputConstantDoubles(size_t i) const {
  if (!HasInput(i) || Input(i).num_elements() > kMaxStaticElements) return std::nullopt;
  ir::Tensor t = Input(i);
  // Constant op outputs hold their value before constant-op-fold marks them constant.
  if (t.data.size() != static_cast<size_t>(t.byte_size())) return std::nullopt;
  t.is_constant = true;
  return ir::ConstantAsDoubles(t);
}

void ShapeContext::SetOutput(size_t i, ir::DType dtype, ir::Shape shape) {
  if (i >= op_.outputs.size() || op_.outputs[i] == ir::kNoTensor) return;  // omitted optional
  for (int64_t d : shape) {
    if (d < 0) {
      Fail("output " + std::to_string(i) + " would have negative extent (" +
           ir::ShapeToString(shape) + ")");
    }
  }
  if (!ir::WithinTensorLimits(shape)) {
    Fail("output " + std::to_string(i) + " would have more than 2^32 elements (" +
         ir::ShapeToString(shape) + ")");
  }
  ir::Tensor& t = graph_.tensor(op_.outputs[i]);
  t.dtype = dtype;
  t.shape = std::move(shape);
}

void ShapeContext::SetOutputInts(size_t i, std::vector<int64_t> values) {
  if (i >= op_.outputs.size() || op_.outputs[i] == ir::kNoTensor) return;
  if (static_cast<int64_t>(values.size()) > kMaxStaticElements) return;
  values_[static_cast<size_t>(op_.outputs[i])] = std::move(values);
}

int64_t ShapeContext::NormalizeAxis(int64_t axis, int64_t rank, const std::string& what) const {
  if (axis < -rank || axis >= rank) {
    Fail(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

void ShapeContext::Fail(const std::string& why) const {
  throw Error(Status::kShapeInference,
              "node '" + op_.name + "' (" + std::string(ir::OpTypeName(op_.type)) + "): " + why);
}

std::optional<ir::Shape> BroadcastShapes(const ir::Shape& a, const ir::Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  ir::Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right (ONNX Broadcasting.md).
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

ShapeRule ShapeRuleFor(ir::OpType type) {
  using ir::OpType;
  // No default: -Wswitch (an error here) makes every new OpType need a rule.
  switch (type) {
    case OpType::kConv:
    case OpType::kDepthwiseConv:
    case OpType::kConv1D:
      return ConvRule;
    case OpType::kConvTranspose:
      return ConvTransposeRule;
    case OpType::kMaxPool:
    case OpType::kAveragePool:
      return PoolRule;
    case OpType::kGlobalAveragePool:
    case OpType::kGlobalMaxPool:
      return GlobalPoolRule;
    case OpType::kAdd:
    case OpType::kSub:
    case OpType::kMul:
    case OpType::kDiv:
    case OpType::kMax:
    case OpType::kMin:
    case OpType::kPow:
    case OpType::kPRelu:
    case OpType::kSum:
    case OpType::kMean:
      return BroadcastRule;
    case OpType::kEqual:
    case OpType::kGreater:
    case OpType::kLess:
    case OpType::kGreaterOrEqual:
    case OpType::kLessOrEqual:
    case OpType::kAnd:
    case OpType::kOr:
    case OpType::kXor:
      return CompareRule;
    case OpType::kNot:
      return NotRule;
    case OpType::kWhere:
      return WhereRule;
    case OpType::kTile:
      return TileRule;
    case OpType::kExpand:
      return ExpandRule;
    case OpType::kDepthToSpace:
      return DepthToSpaceRule;
    case OpType::kSpaceToDepth:
      return SpaceToDepthRule;
    case OpType::kHardmax:
    case OpType::kCumSum:
      return AxisScanRule;
    case OpType::kRNN:
    case OpType::kGRU:
    case OpType::kLSTM:
      return RecurrentRule;
    case OpType::kRelu:
    case OpType::kRelu6:
    case OpType::kLeakyRelu:
    case OpType::kSelu:
    case OpType::kSigmoid:
    case OpType::kHardSigmoid:
    case OpType::kHardSwish:
    case OpType::kTanh:
    case OpType::kClip:
    case OpType::kAbs:
    case OpType::kNeg:
    case OpType::kExp:
    case OpType::kLog:
    case OpType::kSqrt:
    case OpType::kReciprocal:
    case OpType::kFloor:
    case OpType::kCeil:
    case OpType::kRound:
    case OpType::kSign:
    case OpType::kElu:
    case OpType::kCelu:
    case OpType::kSoftplus:
    case OpType::kSoftsign:
    case OpType::kMish:
    case OpType::kErf:
    case OpType::kGelu:
    case OpType::kSin:
    case OpType::kCos:
    case OpType::kSoftmax:
    case OpType::kLogSoftmax:
    case OpType::kIdentity:
    case OpType::kSilu:
      return SameShapeRule;
    case OpType::kDropout:
      return DropoutRule;
    case OpType::kLRN:
      return LrnRule;
    case OpType::kChannelShuffle:
      return ChannelShuffleRule;
    case OpType::kBatchNormalization:
      return BatchNormRule;
    case OpType::kLayerNormalization:
    case OpType::kInstanceNormalization:
    case OpType::kGroupNormalization:
    case OpType::kLpNormalization:
      return NormalizationRule;
    case OpType::kCast:
      return CastRule;
    case OpType::kCastLike:
      return CastLikeRule;
    case OpType::kQuantizeLinear:
      return QuantizeLinearRule;
    case OpType::kDequantizeLinear:
      return DequantizeLinearRule;
    case OpType::kQuantize:
      return QuantizeRule;
    case OpType::kDequantize:
      return DequantizeRule;
    case OpType::kGemm:
      return GemmRule;
    case OpType::kMatMul:
      return MatMulRule;
    case OpType::kConstant:
      return ConstantRule;
    case OpType::kConstantOfShape:
      return ConstantOfShapeRule;
    case OpType::kShape:
      return ShapeOpRule;
    case OpType::kGather:
      return GatherRule;
    case OpType::kGatherElements:
      return GatherElementsRule;
    case OpType::kSqueeze:
      return SqueezeRule;
    case OpType::kUnsqueeze:
      return UnsqueezeRule;
    case OpType::kConcat:
      return ConcatRule;
    case OpType::kSplit:
      return SplitRule;
    case OpType::kSlice:
      return SliceRule;
    case OpType::kReshape:
      return ReshapeRule;
    case OpType::kFlatten:
      return FlattenRule;
    case OpType::kTranspose:
      return TransposeRule;
    case OpType::kResize:
      return ResizeRule;
    case OpType::kUpsample:
      return UpsampleRule;
    case OpType::kPad:
      return PadRule;
    case OpType::kReduceMean:
    case OpType::kReduceSum:
    case OpType::kReduceMax:
    case OpType::kReduceMin:
    case OpType::kReduceProd:
    case OpType::kReduceL1:
    case OpType::kReduceL2:
    case OpType::kReduceSumSquare:
    case OpType::kReduceLogSumExp:
    case OpType::kReduceLogSum:
    case OpType::kArgMax:
    case OpType::kArgMin:
      return ReduceRule;
  }
  return nullptr;
}

}  // namespace tigris::onnx_import
