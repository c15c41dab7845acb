// IR op -> plan op code, and the whole-op translation.
#include <string>

#include "emit/op_record.h"
#include "util/error.h"

namespace tigris::emit {

tgrs::OpCode PlanOpCode(const ir::Op& op) {
  using ir::OpType;
  using tgrs::OpCode;
  switch (op.type) {
    case OpType::kConv:
      return OpCode::CONV;
    case OpType::kDepthwiseConv:
      return OpCode::DEPTHWISE_CONV;
    case OpType::kConv1D:
      return OpCode::CONV1D;
    case OpType::kConvTranspose:
      return OpCode::CONV_TRANSPOSE;
    case OpType::kMaxPool:
      return OpCode::MAX_POOL;
    case OpType::kAveragePool:
      return OpCode::AVERAGE_POOL;
    case OpType::kGlobalAveragePool:
      return OpCode::GLOBAL_AVERAGE_POOL;
    case OpType::kGlobalMaxPool:
      return OpCode::GLOBAL_MAX_POOL;
    case OpType::kAdd:
      return OpCode::ADD;
    case OpType::kSub:
      return OpCode::SUB;
    case OpType::kMul:
      return OpCode::MUL;
    case OpType::kDiv:
      return OpCode::DIV;
    case OpType::kRelu:
      return OpCode::RELU;
    case OpType::kRelu6:
      return OpCode::RELU6;
    case OpType::kLeakyRelu:
      return OpCode::LEAKY_RELU;
    case OpType::kSelu:
      return OpCode::SELU;
    case OpType::kSigmoid:
      return OpCode::SIGMOID;
    case OpType::kHardSigmoid:
      return OpCode::HARD_SIGMOID;
    case OpType::kHardSwish:
      return OpCode::HARD_SWISH;
    case OpType::kTanh:
      return OpCode::TANH;
    case OpType::kClip:
      return OpCode::CLIP;
    case OpType::kConcat:
      return OpCode::CONCAT;
    case OpType::kPad:
      return OpCode::PAD;
    case OpType::kResize:
      return OpCode::RESIZE;
    case OpType::kReshape:
      return OpCode::RESHAPE;
    case OpType::kTranspose:
      return OpCode::TRANSPOSE;
    case OpType::kGemm:
      return OpCode::GEMM;
    case OpType::kMatMul:
      return OpCode::MATMUL;
    case OpType::kSoftmax:
      return OpCode::SOFTMAX;
    case OpType::kLogSoftmax:
      return OpCode::LOG_SOFTMAX;
    case OpType::kReduceMean:
      return OpCode::REDUCE_MEAN;
    case OpType::kLRN:
      return OpCode::LRN;
    case OpType::kSlice:
      return OpCode::SLICE;
    case OpType::kGather:
      return OpCode::GATHER;
    case OpType::kChannelShuffle:  // a transpose through a view (op_attrs.cc)
      return OpCode::RESHAPE;
    case OpType::kBatchNormalization:
      return OpCode::BATCH_NORMALIZATION;
    case OpType::kQuantize:
      return OpCode::QUANTIZE;
    case OpType::kDequantize:
      return OpCode::DEQUANTIZE;
    default:
      throw Error(Status::kUnsupportedOp, "op '" + op.name + "' (" +
                                              std::string(ir::OpTypeName(op.type)) +
                                              ") is not a runtime op; normalize the graph first");
  }
}

OpRecord TranslateOp(const ir::Graph& graph, const ir::Op& op) {
  OpRecord record;
  record.code = PlanOpCode(op);
  record.name = op.name;
  record.inputs.assign(op.inputs.begin(), op.inputs.end());
  record.outputs.assign(op.outputs.begin(), op.outputs.end());
  switch (op.fused_activation) {
    case ir::Activation::kNone:
      record.activation = tgrs::Activation::NONE;
      break;
    case ir::Activation::kRelu:
      record.activation = tgrs::Activation::RELU;
      break;
    case ir::Activation::kRelu6:
      record.activation = tgrs::Activation::RELU6;
      break;
  }
  TranslateAttrs(graph, op, record);
  TranslateQuant(graph, op, record);
  return record;
}

}  // namespace tigris::emit
