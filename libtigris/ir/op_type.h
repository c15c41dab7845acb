// The operator vocabulary of the IR.
//
// Two groups share one enum:
//  - runtime ops: what a normalized graph may contain and the runtime executes
//    (the verifier, passes/verify.cc, rejects anything else);
//  - transient ops: ONNX ops the loader accepts only so that normalization can fold or
//    rewrite them away (Constant, QDQ pairs, Identity, Shape chains, ...).
// New ops are appended; the numeric values are internal (the plan format has its own).
#ifndef TIGRIS_IR_OP_TYPE_H_
#define TIGRIS_IR_OP_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace tigris::ir {

// X(enum name, ONNX / display name, is a runtime op)
#define TIGRIS_IR_OP_TYPES(X)                                                      \
  X(Conv, "Conv", true)                                                            \
  X(DepthwiseConv, "DepthwiseConv", true)                                          \
  X(Conv1D, "Conv1D", true)                                                        \
  X(ConvTranspose, "ConvTranspose", true)                                          \
  X(MaxPool, "MaxPool", true)                                                      \
  X(AveragePool, "AveragePool", true)                                              \
  X(GlobalAveragePool, "GlobalAveragePool", true)                                  \
  X(GlobalMaxPool, "GlobalMaxPool", true)                                          \
  X(Add, "Add", true)                                                              \
  X(Sub, "Sub", true)                                                              \
  X(Mul, "Mul", true)                                                              \
  X(Div, "Div", true)                                                              \
  X(Relu, "Relu", true)                                                            \
  X(Relu6, "Relu6", true)                                                          \
  X(LeakyRelu, "LeakyRelu", true)                                                  \
  X(Selu, "Selu", true)                                                            \
  X(Sigmoid, "Sigmoid", true)                                                      \
  X(HardSigmoid, "HardSigmoid", true)                                              \
  X(HardSwish, "HardSwish", true)                                                  \
  X(Tanh, "Tanh", true)                                                            \
  X(Clip, "Clip", true)                                                            \
  X(Concat, "Concat", true)                                                        \
  X(Pad, "Pad", true)                                                              \
  X(Resize, "Resize", true)                                                        \
  X(Reshape, "Reshape", true)                                                      \
  X(Transpose, "Transpose", true)                                                  \
  X(Gemm, "Gemm", true)                                                            \
  X(MatMul, "MatMul", true)                                                        \
  X(Softmax, "Softmax", true)                                                      \
  X(LogSoftmax, "LogSoftmax", true)                                                \
  X(ReduceMean, "ReduceMean", true)                                                \
  X(BatchNormalization, "BatchNormalization", true)                                \
  /* int8 <-> float32 at the edges of float islands in an int8 graph (QDQ fold) */ \
  X(Quantize, "Quantize", true)                                                    \
  X(Dequantize, "Dequantize", true)                                                \
  /* transient: must be folded or rewritten by normalization */                    \
  X(Constant, "Constant", false)                                                   \
  X(ConstantOfShape, "ConstantOfShape", false)                                     \
  X(QuantizeLinear, "QuantizeLinear", false)                                       \
  X(DequantizeLinear, "DequantizeLinear", false)                                   \
  X(Identity, "Identity", false)                                                   \
  X(Dropout, "Dropout", false)                                                     \
  X(Silu, "Silu", false)                                                           \
  X(Sum, "Sum", false)                                                             \
  X(Flatten, "Flatten", false)                                                     \
  X(Squeeze, "Squeeze", false)                                                     \
  X(Unsqueeze, "Unsqueeze", false)                                                 \
  X(Shape, "Shape", false)                                                         \
  /* run-time only as an embedding lookup (passes/verify.cc) */                    \
  X(Gather, "Gather", true)                                                        \
  X(Slice, "Slice", true)                                                          \
  X(Cast, "Cast", false)                                                           \
  X(Upsample, "Upsample", false)                                                   \
  X(Split, "Split", false)                                                         \
  X(LRN, "LRN", true)                                                              \
  /* IR-only: Reshape -> Transpose -> Reshape of a channel shuffle                 \
   * (passes/channel_shuffle_fuse.cc) */                                           \
  X(ChannelShuffle, "ChannelShuffle", true)

enum class OpType : uint8_t {
#define TIGRIS_X(name, str, runtime) k##name,
  TIGRIS_IR_OP_TYPES(TIGRIS_X)
#undef TIGRIS_X
};

// "Conv", "DepthwiseConv", ...
std::string_view OpTypeName(OpType type);
// True for the ops a normalized graph may contain (the runtime's operator set).
bool IsRuntimeOp(OpType type);
// Maps an ONNX op_type of the default domain ("" or "ai.onnx") to the IR op; nullopt for
// anything the loader does not accept (the caller reports it as unsupported).
std::optional<OpType> OpTypeFromOnnx(std::string_view onnx_op_type);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_OP_TYPE_H_
