// One op as the plan stores it (format/tgrs.fbs table Op), built by TranslateOp from an IR
// op before serialization: code, runtime-layout attributes and int8 constants.
#ifndef TIGRIS_EMIT_OP_RECORD_H_
#define TIGRIS_EMIT_OP_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "format/tgrs_generated.h"
#include "ir/graph.h"

namespace tigris::emit {

struct OpAttrsRecord {
  std::vector<int32_t> kernel, strides, pads, dilations;
  int32_t group = 1;
  int32_t axis = 0;
  std::vector<int32_t> perm, shape;
  float alpha = 0.0f, beta = 0.0f, gamma = 0.0f, min = 0.0f, max = 0.0f;
  std::vector<float> scales;
  std::string mode, coordinate_transformation_mode, nearest_mode;
  bool count_include_pad = false, ceil_mode = false;
  std::vector<int32_t> axes;
  bool keepdims = true;
  std::vector<int32_t> output_padding;
  float pad_value = 0.0f;
  std::vector<int32_t> view_shape;  // reshape across layouts (docs/plan-format.md)
  float bias = 0.0f;                // LRN
  std::vector<int32_t> starts;      // SLICE (with strides as the steps)
  // RNN, GRU, LSTM: gate functions, their parameters, which ONNX output each output is.
  std::vector<int32_t> activations;
  std::vector<float> activation_alpha, activation_beta;
  bool linear_before_reset = false;
  std::vector<int32_t> output_roles;
};

struct OpRecord {
  tgrs_op_code code = TGRS_OP_CONV;  // the op table's (tgrs_ops.def)
  std::string name;
  std::vector<int32_t> inputs, outputs;  // IR tensor ids; -1 for absent
  OpAttrsRecord attrs;
  tgrs::Activation activation = tgrs::Activation::NONE;
  std::vector<int32_t> output_multiplier;
  std::vector<int8_t> output_shift;
  int32_t act_min = -128, act_max = 127;
  std::vector<int32_t> input_multiplier;
  std::vector<int8_t> input_shift;
  int32_t left_shift = 0;
  std::vector<int8_t> lut;
  std::vector<float> channel_scale, channel_shift;
  std::vector<int32_t> channel_offset;             // int8 batch normalization
  tgrs::Rounding rounding = tgrs::Rounding::ONNX;  // the graph's arithmetic
};

// The plan's op code for an IR runtime op; throws kUnsupportedOp naming `op` for a
// transient op that normalization should have removed.
tgrs_op_code PlanOpCode(const ir::Op& op);

// Attributes in the runtime layout (op_attrs.cc) and the inputs the plan keeps (operands
// folded into attributes, such as BatchNormalization statistics, are dropped).
void TranslateAttrs(const ir::Graph& graph, const ir::Op& op, OpRecord& record);
// int8 requantization constants, clamps and tables (op_quant.cc); float32 batch
// normalization scale and shift.
void TranslateQuant(const ir::Graph& graph, const ir::Op& op, OpRecord& record);

// All of the above.
OpRecord TranslateOp(const ir::Graph& graph, const ir::Op& op);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_OP_RECORD_H_
