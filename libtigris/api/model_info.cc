// Read access to the normalized graph: tigris_model_name, *_count, tigris_model_op,
// tigris_model_tensor, tigris_model_input/output, tigris_model_json.
#include "api/c_types.h"
#include "api/model.h"
#include "api/model_json.h"
#include "api/status.h"

using tigris::Error;
using tigris::Status;

namespace {

// Accessors on a NULL model return neutral values rather than crash: a binding that lost
// its handle gets "" / 0 / -1 and an error from the next fallible call.
size_t SafeSize(const tigris_model* m, size_t (*count)(const tigris::ir::Graph&)) {
  return m ? count(m->graph) : 0;
}

}  // namespace

extern "C" {

TIGRIS_API const char* tigris_model_name(const tigris_model* model) {
  return model ? model->graph.name.c_str() : "";
}

TIGRIS_API size_t tigris_model_op_count(const tigris_model* model) {
  return SafeSize(model, [](const tigris::ir::Graph& g) { return g.ops.size(); });
}
TIGRIS_API size_t tigris_model_tensor_count(const tigris_model* model) {
  return SafeSize(model, [](const tigris::ir::Graph& g) { return g.tensors.size(); });
}
TIGRIS_API size_t tigris_model_input_count(const tigris_model* model) {
  return SafeSize(model, [](const tigris::ir::Graph& g) { return g.inputs.size(); });
}
TIGRIS_API size_t tigris_model_output_count(const tigris_model* model) {
  return SafeSize(model, [](const tigris::ir::Graph& g) { return g.outputs.size(); });
}

TIGRIS_API int32_t tigris_model_input(const tigris_model* model, size_t i) {
  return (model && i < model->graph.inputs.size()) ? model->graph.inputs[i] : -1;
}
TIGRIS_API int32_t tigris_model_output(const tigris_model* model, size_t i) {
  return (model && i < model->graph.outputs.size()) ? model->graph.outputs[i] : -1;
}

TIGRIS_API tigris_status tigris_model_op(const tigris_model* model, size_t index,
                                         tigris_op_info* info) {
  std::string* err = model ? &const_cast<tigris_model*>(model)->last_error : nullptr;
  return tigris::api::Guard(err, [&] {
    if (!model || !info) throw Error(Status::kInvalidArgument, "tigris_model_op: NULL argument");
    tigris::api::CheckStructVersion(info->version, TIGRIS_OP_INFO_VERSION, "tigris_op_info");
    if (index >= model->graph.ops.size()) {
      throw Error(Status::kInvalidArgument, "op index " + std::to_string(index) +
                                                " out of range (model has " +
                                                std::to_string(model->graph.ops.size()) + ")");
    }
    const tigris::ir::Op& op = model->graph.ops[index];
    // OpTypeName/ActivationName view string literals, so .data() is NUL-terminated.
    info->type = tigris::ir::OpTypeName(op.type).data();
    info->name = op.name.c_str();
    info->num_inputs = op.inputs.size();
    info->inputs = op.inputs.data();
    info->num_outputs = op.outputs.size();
    info->outputs = op.outputs.data();
    info->fused_activation = tigris::ir::ActivationName(op.fused_activation).data();
  });
}

TIGRIS_API tigris_status tigris_model_tensor(const tigris_model* model, size_t index,
                                             tigris_tensor_info* info) {
  std::string* err = model ? &const_cast<tigris_model*>(model)->last_error : nullptr;
  return tigris::api::Guard(err, [&] {
    if (!model || !info) {
      throw Error(Status::kInvalidArgument, "tigris_model_tensor: NULL argument");
    }
    tigris::api::CheckStructVersion(info->version, TIGRIS_TENSOR_INFO_VERSION,
                                    "tigris_tensor_info");
    if (index >= model->graph.tensors.size()) {
      throw Error(Status::kInvalidArgument, "tensor index " + std::to_string(index) +
                                                " out of range (model has " +
                                                std::to_string(model->graph.tensors.size()) + ")");
    }
    const tigris::ir::Tensor& t = model->graph.tensors[index];
    info->name = t.name.c_str();
    info->dtype = tigris::api::ToCDType(t.dtype);
    info->rank = t.shape.size();
    info->shape = t.shape.data();
    info->is_constant = t.is_constant ? 1 : 0;
    info->num_scales = t.quant ? t.quant->scales.size() : 0;
    info->scales = t.quant ? t.quant->scales.data() : nullptr;
    info->zero_points = t.quant ? t.quant->zero_points.data() : nullptr;
    info->quant_axis = t.quant ? t.quant->axis : -1;
  });
}

TIGRIS_API const char* tigris_model_json(const tigris_model* model) {
  if (!model) return "";
  auto* m = const_cast<tigris_model*>(model);
  if (m->json.empty()) {
    tigris_status s = tigris::api::Guard(&m->last_error, [&] {
      m->json = nlohmann::ordered_json{{"model", tigris::api::ModelToJson(m->graph, true)}}.dump(
          2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    });
    if (s != TIGRIS_OK) return "";
  }
  return m->json.c_str();
}

}  // extern "C"
