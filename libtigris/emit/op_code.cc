// IR op -> plan op code (the op table), and the whole-op translation.
#include <string>

#include "emit/op_record.h"
#include "util/error.h"

namespace tigris::emit {

tgrs_op_code PlanOpCode(const ir::Op& op) {
  // The op table's row (tgrs_ops.def); ChannelShuffle has RESHAPE's (a transpose through a
  // view, op_attrs.cc). A reserved code (SPLIT) and IR-only ops have no kernel.
  const ir::OpTableRow* row = ir::OpTableRowOf(op.type);
  if (row == nullptr || row->kind == TGRS_OP_KIND_RESERVED) {
    throw Error(Status::kUnsupportedOp, "op '" + op.name + "' (" +
                                            std::string(ir::OpTypeName(op.type)) +
                                            ") is not a runtime op; normalize the graph first");
  }
  return row->code;
}

OpRecord TranslateOp(const ir::Graph& graph, const ir::Op& op) {
  OpRecord record;
  record.code = PlanOpCode(op);
  record.name = op.name;
  record.inputs.assign(op.inputs.begin(), op.inputs.end());
  record.outputs.assign(op.outputs.begin(), op.outputs.end());
  record.rounding = graph.arithmetic == ir::Graph::Arithmetic::kTflite ? tgrs::Rounding::TFLITE
                                                                       : tgrs::Rounding::ONNX;
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
