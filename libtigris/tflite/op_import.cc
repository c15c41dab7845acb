// The dispatch, and the ops that are one IR op each: elementwise arithmetic, activations,
// softmax, quantize and dequantize.
#include "tflite/op_import.h"

#include "tflite/layout.h"

namespace tigris::tflite_import {
namespace {

using Act = fb::ActivationFunctionType;

// The fused activation of an op whose options table may be absent (none then).
template <typename Options>
Act ActivationOf(const Options* options) {
  return options ? options->fused_activation_function() : Act::NONE;
}

// ADD, SUB, MUL: ONNX broadcasting aligns trailing axes as TFLite does; a lower-rank
// operand of a rank-4 op is first given the leading 1s (RealOfRank).
void ImportBinary(ModelImporter& m, const OpSite& site, ir::OpType type, Act activation) {
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(y);
  const ir::TensorId a = m.RealOfRank(site, m.Input(site, 0), rank);
  const ir::TensorId b = m.RealOfRank(site, m.Input(site, 1), rank);
  m.Define(site, y, m.AddOp(site, type, {a, b}), activation);
}

// One input, one output, the same shape.
void ImportUnary(ModelImporter& m, const OpSite& site, ir::OpType type, ir::Attributes attrs = {}) {
  m.Define(site, m.Output(site, 0), m.AddOp(site, type, {m.Real(m.Input(site, 0))}, attrs));
}

// EQUAL ... LESS_EQUAL, LOGICAL_AND, LOGICAL_OR: a bool result, the operands broadcast as
// ADD's. int8 operands are compared as the values they stand for (TFLM rescales both onto
// one grid first; with one quantization for both, as a converter writes them, the order
// of the codes is the order of the values either way). NOT_EQUAL is Not(Equal).
void ImportBoolBinary(ModelImporter& m, const OpSite& site, ir::OpType type, bool negate = false) {
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(y);
  const ir::TensorId a = m.RealOfRank(site, m.Input(site, 0), rank);
  const ir::TensorId b = m.RealOfRank(site, m.Input(site, 1), rank);
  ir::TensorId result = m.AddOp(site, type, {a, b});
  m.SetDType(result, ir::DType::kBool);
  if (negate) {
    result = m.AddOp(site, ir::OpType::kNot, {result}, {}, "_not");
    m.SetDType(result, ir::DType::kBool);
  }
  m.Define(site, y, result);
}

// SELECT_V2 (and SELECT with operands of one shape): Where, broadcast as ADD's. TFLM copies
// the chosen int8 code whatever the quantizations, so a choice quantized otherwise than the
// output (a file no converter writes) is refused: its value and TFLM's bytes would differ.
void ImportSelect(ModelImporter& m, const OpSite& site) {
  const int y = m.Output(site, 0);
  const size_t rank = m.Rank(y);
  for (int i = 1; i <= 2; ++i) {
    const int operand = m.Input(site, i);
    if (!m.SameQuantization(operand, y)) {
      m.Refuse(site, Status::kUnsupportedQuantization,
               "its operand " + m.TensorLabel(operand) +
                   " is quantized otherwise than its output " + m.TensorLabel(y) +
                   "; TFLite copies the codes it selects");
    }
  }
  if (site.code == fb::BuiltinOperator::SELECT && (m.TflShape(m.Input(site, 0)) != m.TflShape(y) ||
                                                   m.TflShape(m.Input(site, 1)) != m.TflShape(y) ||
                                                   m.TflShape(m.Input(site, 2)) != m.TflShape(y))) {
    m.Refuse(site, Status::kUnsupportedOp,
             "SELECT with operands of other shapes than its output's (a rank-1 condition picks "
             "whole rows); SELECT_V2 broadcasts");
  }
  const ir::TensorId condition = m.RealOfRank(site, m.Input(site, 0), rank);
  const ir::TensorId a = m.RealOfRank(site, m.Input(site, 1), rank);
  const ir::TensorId b = m.RealOfRank(site, m.Input(site, 2), rank);
  m.Define(site, y, m.AddOp(site, ir::OpType::kWhere, {condition, a, b}));
}

void ImportSoftmax(ModelImporter& m, const OpSite& site) {
  const auto& o =
      RequireOptions(m, site, site.op->builtin_options_as_SoftmaxOptions(), "SoftmaxOptions");
  if (o.beta() != 1.0f) {
    m.Refuse(site, Status::kUnsupportedOp,
             "beta " + std::to_string(o.beta()) + " is not supported (only beta 1)");
  }
  const int x = m.Input(site, 0);
  ir::Attributes attrs;
  attrs.Set("axis", IrAxis(-1, m.Rank(x)));  // TFLite's softmax runs along the last axis
  ImportUnary(m, site, ir::OpType::kSoftmax, attrs);
}

}  // namespace

void ImportOperator(ModelImporter& m, const OpSite& site) {
  using Op = fb::BuiltinOperator;
  const fb::Operator& op = *site.op;
  if (FoldIntegerOp(m, site)) return;
  switch (site.code) {
    case Op::CONV_2D:
      return ImportConv2D(m, site);
    case Op::DEPTHWISE_CONV_2D:
      return ImportDepthwiseConv2D(m, site);
    case Op::FULLY_CONNECTED:
      return ImportFullyConnected(m, site);
    case Op::AVERAGE_POOL_2D:
    case Op::MAX_POOL_2D:
      return ImportPool2D(m, site);
    case Op::ADD:
      return ImportBinary(m, site, ir::OpType::kAdd,
                          ActivationOf(op.builtin_options_as_AddOptions()));
    case Op::SUB:
      return ImportBinary(m, site, ir::OpType::kSub,
                          ActivationOf(op.builtin_options_as_SubOptions()));
    case Op::MUL:
      return ImportBinary(m, site, ir::OpType::kMul,
                          ActivationOf(op.builtin_options_as_MulOptions()));
    case Op::RELU:
      return m.Define(site, m.Output(site, 0), m.Real(m.Input(site, 0)), Act::RELU);
    case Op::RELU6:
      return m.Define(site, m.Output(site, 0), m.Real(m.Input(site, 0)), Act::RELU6);
    case Op::RELU_N1_TO_1:
      return m.Define(site, m.Output(site, 0), m.Real(m.Input(site, 0)), Act::RELU_N1_TO_1);
    case Op::LOGISTIC:
      return ImportUnary(m, site, ir::OpType::kSigmoid);
    case Op::TANH:
      return ImportUnary(m, site, ir::OpType::kTanh);
    case Op::HARD_SWISH:
      return ImportUnary(m, site, ir::OpType::kHardSwish);
    case Op::LEAKY_RELU: {
      const auto& o =
          RequireOptions(m, site, op.builtin_options_as_LeakyReluOptions(), "LeakyReluOptions");
      ir::Attributes attrs;
      attrs.Set("alpha", o.alpha());
      return ImportUnary(m, site, ir::OpType::kLeakyRelu, attrs);
    }
    case Op::MAXIMUM:
      return ImportBinary(m, site, ir::OpType::kMax, Act::NONE);
    case Op::MINIMUM:
      return ImportBinary(m, site, ir::OpType::kMin, Act::NONE);
    case Op::DIV:
      return ImportBinary(m, site, ir::OpType::kDiv,
                          ActivationOf(op.builtin_options_as_DivOptions()));
    case Op::POW:
      return ImportBinary(m, site, ir::OpType::kPow, Act::NONE);
    case Op::PRELU:  // alpha broadcasts onto the input as a binary operand does
      return ImportBinary(m, site, ir::OpType::kPRelu, Act::NONE);
    case Op::SQUARE: {
      const ir::TensorId x = m.Real(m.Input(site, 0));
      return m.Define(site, m.Output(site, 0), m.AddOp(site, ir::OpType::kMul, {x, x}));
    }
    case Op::RSQRT: {
      if (m.IsQuantized(m.Input(site, 0))) {  // TFLM's is a fixed-point Newton iteration
        m.Refuse(site, Status::kUnsupportedOp,
                 "int8 RSQRT (TFLite's fixed-point inverse square root) is not supported");
      }
      const ir::TensorId root = m.AddOp(site, ir::OpType::kSqrt, {m.Real(m.Input(site, 0))});
      return m.Define(site, m.Output(site, 0),
                      m.AddOp(site, ir::OpType::kReciprocal, {root}, {}, "_reciprocal"));
    }
    case Op::ABS:
      return ImportUnary(m, site, ir::OpType::kAbs);
    case Op::NEG:
      return ImportUnary(m, site, ir::OpType::kNeg);
    case Op::EXP:
      return ImportUnary(m, site, ir::OpType::kExp);
    case Op::LOG:
      return ImportUnary(m, site, ir::OpType::kLog);
    case Op::SQRT:
      return ImportUnary(m, site, ir::OpType::kSqrt);
    case Op::FLOOR:
      return ImportUnary(m, site, ir::OpType::kFloor);
    case Op::CEIL:
      return ImportUnary(m, site, ir::OpType::kCeil);
    case Op::ROUND:  // half to even in both formats
      return ImportUnary(m, site, ir::OpType::kRound);
    case Op::SIGN:
      return ImportUnary(m, site, ir::OpType::kSign);
    case Op::SIN:
      return ImportUnary(m, site, ir::OpType::kSin);
    case Op::COS:
      return ImportUnary(m, site, ir::OpType::kCos);
    case Op::ELU:
      return ImportUnary(m, site, ir::OpType::kElu);
    case Op::SOFTMAX:
      return ImportSoftmax(m, site);
    case Op::LOG_SOFTMAX: {
      ir::Attributes attrs;
      attrs.Set("axis", IrAxis(-1, m.Rank(m.Input(site, 0))));
      return ImportUnary(m, site, ir::OpType::kLogSoftmax, attrs);
    }
    // QUANTIZE (float -> int8, or int8 -> int8 with other parameters) and DEQUANTIZE are
    // the QDQ nodes Define and Real already write: the output is the input's value.
    case Op::QUANTIZE:
    case Op::DEQUANTIZE:
      return m.Define(site, m.Output(site, 0), m.Real(m.Input(site, 0)));
    case Op::RESHAPE:
    case Op::SQUEEZE:  // all three are defined by the output tensor's shape
    case Op::EXPAND_DIMS:
      return ImportReshape(m, site);
    case Op::TRANSPOSE:
      return ImportTranspose(m, site);
    case Op::CONCATENATION:
      return ImportConcatenation(m, site);
    case Op::PAD:
    case Op::PADV2:  // with its constant_values
      return ImportPad(m, site);
    case Op::STRIDED_SLICE:
      return ImportStridedSlice(m, site);
    case Op::SPLIT:
      return ImportSplit(m, site);
    case Op::RESIZE_NEAREST_NEIGHBOR:
      return ImportResizeNearest(m, site);
    case Op::MEAN:
      return ImportReduce(m, site, ir::OpType::kReduceMean);
    case Op::SUM:
      return ImportReduce(m, site, ir::OpType::kReduceSum);
    case Op::REDUCE_MAX:
      return ImportReduce(m, site, ir::OpType::kReduceMax);
    case Op::REDUCE_MIN:
      return ImportReduce(m, site, ir::OpType::kReduceMin);
    case Op::REDUCE_PROD:
      return ImportReduce(m, site, ir::OpType::kReduceProd);
    case Op::ARG_MAX:
      return ImportArgExtreme(m, site, ir::OpType::kArgMax);
    case Op::ARG_MIN:
      return ImportArgExtreme(m, site, ir::OpType::kArgMin);
    case Op::EQUAL:
      return ImportBoolBinary(m, site, ir::OpType::kEqual);
    case Op::NOT_EQUAL:
      return ImportBoolBinary(m, site, ir::OpType::kEqual, /*negate=*/true);
    case Op::GREATER:
      return ImportBoolBinary(m, site, ir::OpType::kGreater);
    case Op::GREATER_EQUAL:
      return ImportBoolBinary(m, site, ir::OpType::kGreaterOrEqual);
    case Op::LESS:
      return ImportBoolBinary(m, site, ir::OpType::kLess);
    case Op::LESS_EQUAL:
      return ImportBoolBinary(m, site, ir::OpType::kLessOrEqual);
    case Op::LOGICAL_AND:
      return ImportBoolBinary(m, site, ir::OpType::kAnd);
    case Op::LOGICAL_OR:
      return ImportBoolBinary(m, site, ir::OpType::kOr);
    case Op::LOGICAL_NOT: {
      const ir::TensorId result = m.AddOp(site, ir::OpType::kNot, {m.Real(m.Input(site, 0))});
      m.SetDType(result, ir::DType::kBool);
      return m.Define(site, m.Output(site, 0), result);
    }
    case Op::SELECT:
    case Op::SELECT_V2:
      return ImportSelect(m, site);
    case Op::BROADCAST_TO:
      return ImportBroadcastTo(m, site);
    case Op::CUMSUM:
      return ImportCumsum(m, site);
    case Op::CAST:
      return ImportCast(m, site);
    case Op::DEPTH_TO_SPACE:
      return ImportBlockRearrange(m, site, ir::OpType::kDepthToSpace);
    case Op::SPACE_TO_DEPTH:
      return ImportBlockRearrange(m, site, ir::OpType::kSpaceToDepth);
    default:
      m.Refuse(site, Status::kUnsupportedOp,
               "unsupported op '" + BuiltinName(site.code) +
                   "' (the ops the .tflite front end reads are listed in docs/tflite.md)");
  }
}

}  // namespace tigris::tflite_import
