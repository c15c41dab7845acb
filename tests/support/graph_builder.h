// Builds small IR graphs for pass, analysis and planning tests without going through
// ONNX. Ops are appended in call order, which must therefore be a topological order.
#ifndef TIGRIS_TESTS_SUPPORT_GRAPH_BUILDER_H_
#define TIGRIS_TESTS_SUPPORT_GRAPH_BUILDER_H_

#include <string>
#include <vector>

#include "ir/graph.h"

namespace tigris::testing {

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string name = "test") { graph_.name = std::move(name); }

  ir::TensorId Input(const std::string& name, ir::Shape shape,
                     ir::DType dtype = ir::DType::kFloat32) {
    ir::TensorId id = Activation(name, std::move(shape), dtype);
    graph_.inputs.push_back(id);
    return id;
  }

  ir::TensorId Activation(const std::string& name, ir::Shape shape,
                          ir::DType dtype = ir::DType::kFloat32) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    t.dtype = dtype;
    return graph_.AddTensor(std::move(t));
  }

  ir::TensorId Floats(const std::string& name, ir::Shape shape, const std::vector<float>& v) {
    return Const(name, std::move(shape), ir::DType::kFloat32, v);
  }
  ir::TensorId Int64s(const std::string& name, ir::Shape shape, const std::vector<int64_t>& v) {
    return Const(name, std::move(shape), ir::DType::kInt64, v);
  }
  template <typename T>
  ir::TensorId Const(const std::string& name, ir::Shape shape, ir::DType dtype,
                     const std::vector<T>& values) {
    ir::Tensor t;
    t.name = name;
    t.shape = std::move(shape);
    t.dtype = dtype;
    t.is_constant = true;
    t.SetData(values);
    return graph_.AddTensor(std::move(t));
  }

  // Appends an op with one output that the builder creates with the given shape.
  ir::TensorId Op(ir::OpType type, const std::string& name, std::vector<ir::TensorId> inputs,
                  const std::string& output, ir::Shape output_shape, ir::Attributes attrs = {},
                  ir::DType dtype = ir::DType::kFloat32) {
    ir::TensorId out = Activation(output, std::move(output_shape), dtype);
    OpWithOutputs(type, name, std::move(inputs), {out}, std::move(attrs));
    return out;
  }

  ir::Op& OpWithOutputs(ir::OpType type, const std::string& name, std::vector<ir::TensorId> inputs,
                        std::vector<ir::TensorId> outputs, ir::Attributes attrs = {}) {
    ir::Op op;
    op.type = type;
    op.name = name;
    op.inputs = std::move(inputs);
    op.outputs = std::move(outputs);
    op.attrs = std::move(attrs);
    graph_.ops.push_back(std::move(op));
    return graph_.ops.back();
  }

  void Output(ir::TensorId id) { graph_.outputs.push_back(id); }

  ir::Graph& graph() { return graph_; }
  ir::Graph Take() { return std::move(graph_); }

 private:
  ir::Graph graph_;
};

// Attributes from an initializer list: Attrs({{"group", int64_t{1}}, {"strides", ...}}).
inline ir::Attributes Attrs(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::Attributes a;
  for (const auto& [k, v] : kv) a.Set(k, v);
  return a;
}

// Op types of a graph in order, for compact golden comparisons.
inline std::vector<std::string> OpTypes(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const ir::Op& op : g.ops) out.emplace_back(ir::OpTypeName(op.type));
  return out;
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_GRAPH_BUILDER_H_
