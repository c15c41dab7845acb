#include "ir/op_type.h"

#include <array>

namespace tigris::ir {
namespace {

struct OpTypeInfo {
  OpType type;
  std::string_view name;
  bool runtime;
};

constexpr std::array kOpTypes = {
#define TIGRIS_X(name, str, runtime) OpTypeInfo{OpType::k##name, str, runtime},
    TIGRIS_IR_OP_TYPES(TIGRIS_X)
#undef TIGRIS_X
};

}  // namespace

std::string_view OpTypeName(OpType type) { return kOpTypes[static_cast<size_t>(type)].name; }

bool IsRuntimeOp(OpType type) { return kOpTypes[static_cast<size_t>(type)].runtime; }

std::optional<OpType> OpTypeFromOnnx(std::string_view onnx_op_type) {
  // DepthwiseConv, Conv1D, Relu6, ChannelShuffle, Quantize and Dequantize are IR-only names
  // produced by normalization; an ONNX file that uses them as op_type is not standard ONNX and is
  // rejected.
  if (onnx_op_type == "DepthwiseConv" || onnx_op_type == "Conv1D" || onnx_op_type == "Relu6" ||
      onnx_op_type == "ChannelShuffle") {
    return std::nullopt;
  }
  for (const OpTypeInfo& info : kOpTypes) {
    if (info.name == onnx_op_type) return info.type;
  }
  return std::nullopt;
}

}  // namespace tigris::ir
