// The operator vocabulary of the IR.
//
// Two groups share one enum:
//  - plan ops: the op table (runtime/include/tgrs_ops.def, docs/op-table.md), one per plan
//    op code, in code order: what a normalized graph may contain and the runtime executes
//    (the verifier, passes/verify.cc, rejects anything else);
//  - IR-only ops (below): ONNX ops the loader accepts only so that normalization can fold
//    or rewrite them away (Constant, QDQ pairs, Identity, Shape chains, ...), and
//    ChannelShuffle, a plan RESHAPE through a view.
// The numeric values are internal (the plan has its own codes).
#ifndef TIGRIS_IR_OP_TYPE_H_
#define TIGRIS_IR_OP_TYPE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "tgrs_op_table.h"
#include "tigris_runtime.h"

namespace tigris::ir {

// X(enum name, ONNX / display name, is a runtime op): the ops outside the op table.
#define TIGRIS_IR_ONLY_OP_TYPES(X)                                         \
  /* transient: must be folded or rewritten by normalization */            \
  X(Constant, "Constant", false)                                           \
  X(ConstantOfShape, "ConstantOfShape", false)                             \
  X(QuantizeLinear, "QuantizeLinear", false)                               \
  X(DequantizeLinear, "DequantizeLinear", false)                           \
  X(Identity, "Identity", false)                                           \
  X(Dropout, "Dropout", false)                                             \
  X(Silu, "Silu", false)                                                   \
  X(LayerNormalization, "LayerNormalization", false)                       \
  X(InstanceNormalization, "InstanceNormalization", false)                 \
  X(GroupNormalization, "GroupNormalization", false)                       \
  X(LpNormalization, "LpNormalization", false)                             \
  X(Sum, "Sum", false)                                                     \
  X(Mean, "Mean", false)                                                   \
  X(Flatten, "Flatten", false)                                             \
  X(Squeeze, "Squeeze", false)                                             \
  X(Unsqueeze, "Unsqueeze", false)                                         \
  X(Shape, "Shape", false)                                                 \
  X(CastLike, "CastLike", false)                                           \
  X(Upsample, "Upsample", false)                                           \
  /* IR-only: Reshape -> Transpose -> Reshape of a channel shuffle         \
   * (passes/channel_shuffle_fuse.cc), a plan RESHAPE (emit/op_code.cc) */ \
  X(ChannelShuffle, "ChannelShuffle", true)

enum class OpType : uint8_t {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) k##Ir,
#include "tgrs_ops.def"
#undef TGRS_OP
#define TIGRIS_X(name, str, runtime) k##name,
  TIGRIS_IR_ONLY_OP_TYPES(TIGRIS_X)
#undef TIGRIS_X
};

// "Conv", "DepthwiseConv", ...
std::string_view OpTypeName(OpType type);
// True for the ops a normalized graph may contain (the runtime's operator set).
bool IsRuntimeOp(OpType type);

// The op table's row of an IR op (tgrs_ops.def): its plan op code, kind and widest tile.
// ChannelShuffle has RESHAPE's; the other IR-only ops have none (nullptr).
struct OpTableRow {
  tgrs_op_code code;
  tgrs_op_kind kind;
  tgrs_op_tiles tiles;
};
const OpTableRow* OpTableRowOf(OpType type);

// One value in, one out, no per-channel parameter (the table's UNARY kind: activations
// and elementwise math; in int8 a lookup table, emit/lut.cc).
bool IsUnaryOp(OpType type);
// Add, Sub, Mul, Div, Max, Min, Pow, PRelu, the comparisons, And, Or, Xor and Where: every
// operand is data, broadcast against the others as ONNX does (the table's BINARY kind; two
// operands, Where three). The output's dtype is the operands' except for the comparisons
// (bool) and Where (X's, after a bool condition).

// Equal, Greater, Less, GreaterOrEqual, LessOrEqual: two operands of one dtype, a bool
// output.
bool IsComparisonOp(OpType type);
bool IsBinaryOp(OpType type);
// ReduceMean, ReduceSum, ...: ONNX Reduce* with axes (input 1 after opset
// canonicalization) and keepdims (the table's REDUCE kind).
bool IsReduceOp(OpType type);
// Maps an ONNX op_type of the default domain ("" or "ai.onnx") to the IR op; nullopt for
// anything the loader does not accept (the caller reports it as unsupported).
std::optional<OpType> OpTypeFromOnnx(std::string_view onnx_op_type);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_OP_TYPE_H_
