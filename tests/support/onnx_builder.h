// Builds ONNX ModelProtos in C++ for loader tests (synthetic graphs, malformed models).
// Owned by the loader tests; see tests/onnx/.
//
//   OnnxModelBuilder b("net", /*opset=*/13);
//   b.Input("x", {"batch", 3, 8, 8});
//   b.Initializer("w", {4, 3, 3, 3}, std::vector<float>(108, 0.5f));
//   b.Node("Conv", {"x", "w"}, {"y"}, "conv").Attr("pads", Ints{1, 1, 1, 1});
//   b.Output("y");
//   std::string bytes = b.Bytes();
#ifndef TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_
#define TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tigris::testing {

// Serializes a model to bytes.
std::string SerializeModel(const onnx::ModelProto& model);

using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

// One dimension of a declared shape: a number or a symbolic name.
struct Dim {
  Dim(int64_t v) : value(v) {}      // NOLINT: implicit on purpose ({1, "batch", 3})
  Dim(int v) : value(v) {}          // NOLINT
  Dim(const char* p) : param(p) {}  // NOLINT
  int64_t value = -1;
  std::string param;
};

// TensorProtos with typed-field or raw_data storage.
onnx::TensorProto FloatTensor(const std::string& name, const Ints& dims, const Floats& values,
                              bool raw = true);
onnx::TensorProto Int64Tensor(const std::string& name, const Ints& dims, const Ints& values,
                              bool raw = true);

// A node being built; Attr() calls chain.
class NodeRef {
 public:
  explicit NodeRef(onnx::NodeProto* node) : node_(node) {}
  NodeRef& Attr(const std::string& name, int64_t v);
  NodeRef& Attr(const std::string& name, int v) { return Attr(name, static_cast<int64_t>(v)); }
  NodeRef& Attr(const std::string& name, float v);
  NodeRef& Attr(const std::string& name, const char* v);
  NodeRef& Attr(const std::string& name, const Ints& v);
  NodeRef& Attr(const std::string& name, const Floats& v);
  NodeRef& Attr(const std::string& name, const onnx::TensorProto& v);
  onnx::NodeProto& proto() { return *node_; }

 private:
  onnx::NodeProto* node_;
};

class OnnxModelBuilder {
 public:
  // opset <= 0 declares no default-domain opset at all.
  explicit OnnxModelBuilder(const std::string& graph_name = "test", int64_t opset = 13);

  // Graph inputs/outputs/value_info; elem_type is an onnx::TensorProto::DataType.
  OnnxModelBuilder& Input(const std::string& name, const std::vector<Dim>& dims,
                          int elem_type = onnx::TensorProto::FLOAT);
  // An input with a tensor type but no shape at all.
  OnnxModelBuilder& InputWithoutShape(const std::string& name,
                                      int elem_type = onnx::TensorProto::FLOAT);
  // Outputs without dims declare only the element type.
  OnnxModelBuilder& Output(const std::string& name, const std::vector<Dim>& dims = {},
                           int elem_type = onnx::TensorProto::FLOAT);
  OnnxModelBuilder& ValueInfo(const std::string& name, const std::vector<Dim>& dims,
                              int elem_type = onnx::TensorProto::FLOAT);

  OnnxModelBuilder& Initializer(const std::string& name, const Ints& dims, const Floats& values);
  OnnxModelBuilder& Initializer(const std::string& name, const Ints& dims, const Ints& values);
  OnnxModelBuilder& Initializer(const onnx::TensorProto& tensor);

  // Appends a node; an empty name stays empty (the loader names it).
  NodeRef Node(const std::string& op_type, const std::vector<std::string>& inputs,
               const std::vector<std::string>& outputs, const std::string& name = "",
               const std::string& domain = "");

  onnx::ModelProto& model() { return model_; }
  std::string Bytes() const { return SerializeModel(model_); }

 private:
  onnx::ModelProto model_;
};

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_ONNX_BUILDER_H_
