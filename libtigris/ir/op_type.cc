#include "ir/op_type.h"

#include <array>

namespace tigris::ir {
namespace {

struct OpTypeInfo {
  OpType type;
  std::string_view name;
  bool runtime;
  bool in_table;  // a row of the op table (tgrs_ops.def)
  OpTableRow row;
};

constexpr std::array kOpTypes = {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES)                                     \
  OpTypeInfo{OpType::k##Ir, #Ir, TGRS_OP_KIND_##KIND != TGRS_OP_KIND_RESERVED, true, \
             OpTableRow{TGRS_OP_##NAME, TGRS_OP_KIND_##KIND, TGRS_OP_TILES_##TILES}},
#include "tgrs_ops.def"
#undef TGRS_OP
#define TIGRIS_X(name, str, runtime) OpTypeInfo{OpType::k##name, str, runtime, false, {}},
    TIGRIS_IR_ONLY_OP_TYPES(TIGRIS_X)
#undef TIGRIS_X
};

// The table is indexed by OpType, and the op table's rows come first in code order.
constexpr bool InEnumOrder() {
  for (size_t i = 0; i < kOpTypes.size(); ++i) {
    if (static_cast<size_t>(kOpTypes[i].type) != i) return false;
    if (kOpTypes[i].in_table && static_cast<size_t>(kOpTypes[i].row.code) != i) return false;
  }
  return true;
}
static_assert(InEnumOrder(), "tgrs_ops.def: entries in code order, codes dense from 0");

const OpTypeInfo& Info(OpType type) { return kOpTypes[static_cast<size_t>(type)]; }

}  // namespace

std::string_view OpTypeName(OpType type) { return Info(type).name; }

bool IsRuntimeOp(OpType type) { return Info(type).runtime; }

const OpTableRow* OpTableRowOf(OpType type) {
  if (type == OpType::kChannelShuffle) return OpTableRowOf(OpType::kReshape);
  return Info(type).in_table ? &Info(type).row : nullptr;
}

bool IsUnaryOp(OpType type) {
  const OpTableRow* row = OpTableRowOf(type);
  return row != nullptr && row->kind == TGRS_OP_KIND_UNARY;
}

bool IsBinaryOp(OpType type) {
  const OpTableRow* row = OpTableRowOf(type);
  return row != nullptr && row->kind == TGRS_OP_KIND_BINARY;
}

bool IsComparisonOp(OpType type) {
  return type == OpType::kEqual || type == OpType::kGreater || type == OpType::kLess ||
         type == OpType::kGreaterOrEqual || type == OpType::kLessOrEqual;
}

bool IsReduceOp(OpType type) {
  const OpTableRow* row = OpTableRowOf(type);
  return row != nullptr && row->kind == TGRS_OP_KIND_REDUCE;
}

std::optional<OpType> OpTypeFromOnnx(std::string_view onnx_op_type) {
  // IR-only names produced by normalization; an ONNX file that uses them as op_type is not
  // standard ONNX and is rejected.
  for (const std::string_view ir_only :
       {"DepthwiseConv", "Conv1D", "Relu6", "ChannelShuffle", "Quantize", "Dequantize"}) {
    if (onnx_op_type == ir_only) return std::nullopt;
  }
  for (const OpTypeInfo& info : kOpTypes) {
    if (info.name == onnx_op_type) return info.type;
  }
  return std::nullopt;
}

}  // namespace tigris::ir
