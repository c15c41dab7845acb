#include "support/onnx_builder.h"

#include <cstring>

namespace tigris::testing {
namespace {

void SetType(onnx::ValueInfoProto* value, const std::string& name, const std::vector<Dim>& dims,
             int elem_type, bool with_shape) {
  value->set_name(name);
  auto* tensor = value->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elem_type);
  if (!with_shape) return;
  auto* shape = tensor->mutable_shape();
  for (const Dim& d : dims) {
    auto* dim = shape->add_dim();
    if (d.param.empty()) {
      dim->set_dim_value(d.value);
    } else {
      dim->set_dim_param(d.param);
    }
  }
}

template <typename T>
std::string Raw(const std::vector<T>& values) {
  std::string raw(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(raw.data(), values.data(), raw.size());
  return raw;
}

}  // namespace

std::string SerializeModel(const onnx::ModelProto& model) {
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}

onnx::TensorProto FloatTensor(const std::string& name, const Ints& dims, const Floats& values,
                              bool raw) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  if (raw) {
    t.set_raw_data(Raw(values));
  } else {
    for (float v : values) t.add_float_data(v);
  }
  return t;
}

onnx::TensorProto Int64Tensor(const std::string& name, const Ints& dims, const Ints& values,
                              bool raw) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t.add_dims(d);
  if (raw) {
    t.set_raw_data(Raw(values));
  } else {
    for (int64_t v : values) t.add_int64_data(v);
  }
  return t;
}

NodeRef& NodeRef::Attr(const std::string& name, int64_t v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
  return *this;
}

NodeRef& NodeRef::Attr(const std::string& name, float v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
  return *this;
}

NodeRef& NodeRef::Attr(const std::string& name, const char* v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
  return *this;
}

NodeRef& NodeRef::Attr(const std::string& name, const Ints& v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
  return *this;
}

NodeRef& NodeRef::Attr(const std::string& name, const Floats& v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float x : v) a->add_floats(x);
  return *this;
}

NodeRef& NodeRef::Attr(const std::string& name, const onnx::TensorProto& v) {
  auto* a = node_->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = v;
  return *this;
}

OnnxModelBuilder::OnnxModelBuilder(const std::string& graph_name, int64_t opset) {
  model_.set_ir_version(8);
  model_.set_producer_name("tigris-tests");
  if (opset > 0) {
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }
  model_.mutable_graph()->set_name(graph_name);
}

OnnxModelBuilder& OnnxModelBuilder::Input(const std::string& name, const std::vector<Dim>& dims,
                                          int elem_type) {
  SetType(model_.mutable_graph()->add_input(), name, dims, elem_type, true);
  return *this;
}

OnnxModelBuilder& OnnxModelBuilder::InputWithoutShape(const std::string& name, int elem_type) {
  SetType(model_.mutable_graph()->add_input(), name, {}, elem_type, false);
  return *this;
}

OnnxModelBuilder& OnnxModelBuilder::Output(const std::string& name, const std::vector<Dim>& dims,
                                           int elem_type) {
  SetType(model_.mutable_graph()->add_output(), name, dims, elem_type, !dims.empty());
  return *this;
}

OnnxModelBuilder& OnnxModelBuilder::ValueInfo(const std::string& name, const std::vector<Dim>& dims,
                                              int elem_type) {
  SetType(model_.mutable_graph()->add_value_info(), name, dims, elem_type, true);
  return *this;
}

OnnxModelBuilder& OnnxModelBuilder::Initializer(const std::string& name, const Ints& dims,
                                                const Floats& values) {
  return Initializer(FloatTensor(name, dims, values));
}

OnnxModelBuilder& OnnxModelBuilder::Initializer(const std::string& name, const Ints& dims,
                                                const Ints& values) {
  return Initializer(Int64Tensor(name, dims, values));
}

OnnxModelBuilder& OnnxModelBuilder::Initializer(const onnx::TensorProto& tensor) {
  *model_.mutable_graph()->add_initializer() = tensor;
  return *this;
}

NodeRef OnnxModelBuilder::Node(const std::string& op_type, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs, const std::string& name,
                               const std::string& domain) {
  auto* node = model_.mutable_graph()->add_node();
  node->set_op_type(op_type);
  node->set_name(name);
  if (!domain.empty()) node->set_domain(domain);
  for (const auto& i : inputs) node->add_input(i);
  for (const auto& o : outputs) node->add_output(o);
  return NodeRef(node);
}

}  // namespace tigris::testing
