#include "api/model_json.h"

#include <map>
#include <string>

namespace tigris::api {
namespace {

using Json = nlohmann::ordered_json;

Json AttrToJson(const ir::AttrValue& value) {
  return std::visit([](const auto& v) { return Json(v); }, value);
}

Json TensorRef(const ir::Graph& g, ir::TensorId id) {
  if (id == ir::kNoTensor) return nullptr;
  return g.tensor(id).name;
}

// A graph input with a host permutation (input-transpose-trim) reports the shape the
// caller passes, the ONNX model's: the normalized input is transpose(it, permutation). An
// input or output with a host shape (the planner's rewrites) reports that.
ir::Shape CallerShape(const ir::Tensor& t, bool is_input) {
  if (!t.host_shape.empty()) return t.host_shape;
  if (!is_input || t.host_permutation.size() != t.shape.size()) return t.shape;
  ir::Shape shape(t.shape.size());
  for (size_t i = 0; i < t.shape.size(); ++i) {
    shape[static_cast<size_t>(t.host_permutation[i])] = t.shape[i];
  }
  return shape;
}

Json IoEntry(const ir::Tensor& t, bool is_input) {
  Json j = {
      {"name", t.name}, {"shape", CallerShape(t, is_input)}, {"dtype", ir::DTypeName(t.dtype)}};
  if (t.quant) {
    j["scale"] = t.quant->scales.front();
    j["zero_point"] = t.quant->zero_points.front();
  }
  if (!t.host_permutation.empty()) j["host_permutation"] = t.host_permutation;
  return j;
}

Json TensorToJson(const ir::Tensor& t) {
  Json j = {{"name", t.name},
            {"dtype", ir::DTypeName(t.dtype)},
            {"shape", t.shape},
            {"bytes", t.byte_size()},
            {"constant", t.is_constant}};
  if (t.quant) {
    j["quant"] = {{"scales", t.quant->scales},
                  {"zero_points", t.quant->zero_points},
                  {"axis", t.quant->axis}};
  }
  return j;
}

}  // namespace

nlohmann::ordered_json ModelToJson(const ir::Graph& g, bool with_graph) {
  std::map<std::string, int> op_types;  // sorted: stable output
  for (const ir::Op& op : g.ops) ++op_types[std::string(ir::OpTypeName(op.type))];
  int64_t weight_bytes = 0;
  for (const ir::Tensor& t : g.tensors) {
    if (t.is_constant) weight_bytes += static_cast<int64_t>(t.data.size());
  }

  Json model;
  model["name"] = g.name;
  model["ops"] = g.ops.size();
  model["op_types"] = op_types;
  model["tensors"] = g.tensors.size();
  model["dtype"] = g.ComputeDTypeName();
  model["opset"] = g.opset;
  model["weight_bytes"] = weight_bytes;
  Json inputs = Json::array(), outputs = Json::array();
  for (ir::TensorId id : g.inputs) inputs.push_back(IoEntry(g.tensor(id), true));
  for (ir::TensorId id : g.outputs) outputs.push_back(IoEntry(g.tensor(id), false));
  model["inputs"] = inputs;
  model["outputs"] = outputs;

  if (with_graph) {
    Json ops = Json::array();
    for (const ir::Op& op : g.ops) {
      Json in = Json::array(), out = Json::array(), attrs = Json::object();
      for (ir::TensorId id : op.inputs) in.push_back(TensorRef(g, id));
      for (ir::TensorId id : op.outputs) out.push_back(TensorRef(g, id));
      for (const auto& [k, v] : op.attrs.values()) attrs[k] = AttrToJson(v);
      ops.push_back({{"name", op.name},
                     {"type", ir::OpTypeName(op.type)},
                     {"inputs", in},
                     {"outputs", out},
                     {"fused_activation", ir::ActivationName(op.fused_activation)},
                     {"attributes", attrs}});
    }
    Json tensors = Json::array();
    for (const ir::Tensor& t : g.tensors) tensors.push_back(TensorToJson(t));
    model["graph"] = {{"ops", ops}, {"tensors", tensors}};
  }
  return model;
}

}  // namespace tigris::api
