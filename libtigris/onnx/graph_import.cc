#include "onnx/graph_import.h"

#include <unordered_map>
#include <unordered_set>

#include "onnx/attribute_import.h"
#include "onnx/input_shapes.h"
#include "onnx/opset_canonicalize.h"
#include "util/error.h"

namespace tigris::onnx_import {
namespace {

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// IR-only op names (produced by normalization); a file using them is not standard ONNX.
bool IsIrOnlyOpName(const std::string& op_type) {
  return op_type == "DepthwiseConv" || op_type == "Conv1D" || op_type == "Relu6" ||
         op_type == "Quantize" || op_type == "Dequantize";
}

class GraphImporter {
 public:
  GraphImporter(const onnx::ModelProto& model, const LoadOptions& options,
                const ExternalDataSource& external)
      : model_(model), proto_(model.graph()), options_(options), external_(external) {}

  ImportedGraph Run(const std::string& fallback_name) {
    graph_.name = proto_.name().empty() ? fallback_name : proto_.name();
    graph_.opset = DefaultDomainOpset(model_);
    if (proto_.node_size() == 0) {
      throw Error(Status::kInvalidModel, "model '" + graph_.name + "' has a graph with no nodes");
    }
    if (proto_.output_size() == 0) {
      throw Error(Status::kInvalidModel, "model '" + graph_.name + "' declares no graph outputs");
    }
    NameNodes();
    CheckOpsSupported();
    ImportInitializers();
    ImportInputs();
    DeclareNodeOutputs();
    for (int i = 0; i < proto_.node_size(); ++i) ImportNode(i);
    ImportOutputs();
    return {std::move(graph_), std::move(symbols_)};
  }

 private:
  ir::TensorId Add(ir::Tensor tensor) {
    std::string name = tensor.name;
    ir::TensorId id = graph_.AddTensor(std::move(tensor));
    by_name_[name] = id;
    return id;
  }

  std::string UniqueTensorName(const std::string& base) const {
    if (!by_name_.count(base)) return base;
    for (int i = 1;; ++i) {
      std::string candidate = base + "_" + std::to_string(i);
      if (!by_name_.count(candidate)) return candidate;
    }
  }

  // Keeps ONNX names; empty or repeated ones become "<OpType>_<index>" (index in the ONNX
  // node list), suffixed further in the unlikely case that name is taken too.
  void NameNodes() {
    std::unordered_set<std::string> taken;
    for (const auto& node : proto_.node()) {
      if (!node.name().empty()) taken.insert(node.name());
    }
    std::unordered_set<std::string> used;
    for (int i = 0; i < proto_.node_size(); ++i) {
      const std::string& given = proto_.node(i).name();
      std::string name = given;
      if (name.empty() || used.count(name)) {
        std::string base = proto_.node(i).op_type() + "_" + std::to_string(i);
        name = base;
        for (int k = 1; used.count(name) || (taken.count(name) && name != given); ++k) {
          name = base + "_" + std::to_string(k);
        }
      }
      used.insert(name);
      node_names_.push_back(name);
    }
  }

  void CheckOpsSupported() {
    for (int i = 0; i < proto_.node_size(); ++i) {
      const auto& node = proto_.node(i);
      std::string where = "' at node '" + node_names_[i] + "' in model '" + graph_.name + "'";
      if (!IsDefaultDomain(node.domain())) {
        throw Error(Status::kUnsupportedOp, "unsupported op '" + node.op_type() + "' (domain '" +
                                                node.domain() + "')" + where.substr(1));
      }
      std::optional<ir::OpType> type = ir::OpTypeFromOnnx(node.op_type());
      if (!type || IsIrOnlyOpName(node.op_type())) {
        throw Error(Status::kUnsupportedOp, "unsupported op '" + node.op_type() + where);
      }
      op_types_.push_back(*type);
    }
  }

  void ImportInitializers() {
    if (proto_.sparse_initializer_size() > 0) {
      throw Error(Status::kInvalidModel, "model '" + graph_.name + "' has sparse initializer '" +
                                             proto_.sparse_initializer(0).values().name() +
                                             "'; sparse initializers are not supported");
    }
    for (const auto& init : proto_.initializer()) {
      if (init.name().empty()) {
        throw Error(Status::kInvalidModel,
                    "model '" + graph_.name + "' has an initializer without a name");
      }
      if (by_name_.count(init.name())) {
        throw Error(Status::kInvalidModel, "initializer '" + init.name() + "' is defined twice");
      }
      Add(TensorFromProto(init, init.name(), external_));
    }
  }

  void ImportInputs() {
    std::unordered_set<std::string> seen;
    for (const auto& input : proto_.input()) {
      if (!seen.insert(input.name()).second) {
        throw Error(Status::kInvalidModel, "graph input '" + input.name() + "' is declared twice");
      }
      // IR version < 4 lists initializers among the inputs too; they are constants.
      if (by_name_.count(input.name())) {
        if (options_.input_shapes.count(input.name())) {
          throw Error(Status::kInvalidArgument,
                      "input_shapes names '" + input.name() +
                          "', which is an initializer (a weight), not a graph input");
        }
        continue;
      }
      ir::Tensor t;
      t.name = input.name();
      if (!input.type().has_tensor_type()) {
        throw Error(Status::kUnsupportedDType,
                    "graph input '" + input.name() + "' is not a tensor");
      }
      t.dtype = RequireDType(input.type().tensor_type().elem_type(),
                             "graph input '" + input.name() + "'");
      t.shape = PinnedInputShape(input, options_, symbols_);
      graph_.inputs.push_back(Add(std::move(t)));
    }
    for (const auto& [name, shape] : options_.input_shapes) {
      if (!seen.count(name)) {
        std::string known;
        for (ir::TensorId id : graph_.inputs) {
          known += (known.empty() ? "'" : ", '") + graph_.tensor(id).name + "'";
        }
        throw Error(Status::kInvalidArgument, "input_shapes names '" + name +
                                                  "', which is not a graph input of model '" +
                                                  graph_.name + "' (inputs: " + known + ")");
      }
    }
    for (const auto& [name, value] : options_.dims) symbols_.emplace(name, value);
  }

  void DeclareNodeOutputs() {
    std::unordered_map<std::string, int> producer;
    for (int i = 0; i < proto_.node_size(); ++i) {
      for (const std::string& out : proto_.node(i).output()) {
        if (out.empty()) continue;  // an omitted optional output
        auto p = producer.find(out);
        if (p != producer.end()) {
          throw Error(Status::kInvalidModel, "tensor '" + out + "' is produced by both node '" +
                                                 node_names_[p->second] + "' and node '" +
                                                 node_names_[i] + "'");
        }
        if (by_name_.count(out)) {
          throw Error(Status::kInvalidModel, "tensor '" + out +
                                                 "' is a graph input or initializer and is also "
                                                 "produced by node '" +
                                                 node_names_[i] + "'");
        }
        producer[out] = i;
        ir::Tensor t;
        t.name = out;
        Add(std::move(t));
      }
    }
  }

  void ImportNode(int index) {
    const onnx::NodeProto& node = proto_.node(index);
    ir::Op op;
    op.type = op_types_[index];
    op.name = node_names_[index];
    for (const std::string& in : node.input()) {
      if (in.empty()) {
        op.inputs.push_back(ir::kNoTensor);
        continue;
      }
      auto it = by_name_.find(in);
      if (it == by_name_.end()) {
        throw Error(Status::kDanglingInput, "node '" + op.name + "' (" + node.op_type() +
                                                ") reads tensor '" + in +
                                                "', which no node, initializer or graph input "
                                                "produces");
      }
      op.inputs.push_back(it->second);
    }
    for (const std::string& out : node.output()) {
      op.outputs.push_back(out.empty() ? ir::kNoTensor : by_name_.at(out));
    }
    // An unnamed trailing output is an omitted optional one (ONNX IR): dropped here, it
    // never reaches a later phase or the plan. A MaxPool written with outputs [y, ""] gave a
    // plan whose op listed tensor -1, which the runtime rejected (found by fuzz_onnx).
    while (!op.outputs.empty() && op.outputs.back() == ir::kNoTensor) op.outputs.pop_back();
    op.attrs = ImportAttributes(node);
    if (op.type == ir::OpType::kConstant) MaterializeConstant(node, op);
    if (op.type == ir::OpType::kConstantOfShape) AddFillValueInput(node, op);
    CanonicalizeOpsetForm(op, graph_.opset,
                          [this](const std::string& base, ir::DType dtype, ir::Shape shape,
                                 std::vector<uint8_t> data) {
                            ir::Tensor t;
                            t.name = UniqueTensorName(base);
                            t.dtype = dtype;
                            t.shape = std::move(shape);
                            t.is_constant = true;
                            t.data = std::move(data);
                            return Add(std::move(t));
                          });
    DropEmptyReduceAxes(op);
    graph_.ops.push_back(std::move(op));
  }

  // A reduction's axes given as an empty constant (ReduceSum-13 and Reduce*-18's default
  // axes in ONNX's own cases) mean what an absent input means, "all axes" or, with
  // noop_with_empty_axes, "none": the input becomes absent, so no zero-extent tensor (which
  // the IR does not hold) reaches a later phase.
  void DropEmptyReduceAxes(ir::Op& op) {
    if (!ir::IsReduceOp(op.type) || op.inputs.size() < 2 || op.inputs[1] == ir::kNoTensor) return;
    const ir::Tensor& axes = graph_.tensor(op.inputs[1]);
    if (axes.is_constant && axes.shape.size() == 1 && axes.shape[0] == 0) {
      op.inputs[1] = ir::kNoTensor;
    }
  }

  // Constant: the value goes into the op's output tensor (see onnx_loader.h).
  void MaterializeConstant(const onnx::NodeProto& node, ir::Op& op) {
    if (op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor) {
      throw Error(Status::kInvalidModel,
                  "Constant node '" + op.name + "' must have exactly one output");
    }
    ir::Tensor& out = graph_.tensor(op.outputs[0]);
    ir::Tensor value;
    bool found = false;
    for (const auto& a : node.attribute()) {
      found = true;
      if (a.name() == "value") {
        value = TensorFromProto(a.t(), out.name, external_);
      } else if (a.name() == "value_float") {
        value.dtype = ir::DType::kFloat32;
        value.data = ir::ElementBytes(std::vector<float>{a.f()});
      } else if (a.name() == "value_floats") {
        value.dtype = ir::DType::kFloat32;
        value.shape = {a.floats_size()};
        value.data = ir::ElementBytes(std::vector<float>(a.floats().begin(), a.floats().end()));
      } else if (a.name() == "value_int") {
        value.dtype = ir::DType::kInt64;
        value.data = ir::ElementBytes(std::vector<int64_t>{a.i()});
      } else if (a.name() == "value_ints") {
        value.dtype = ir::DType::kInt64;
        value.shape = {a.ints_size()};
        value.data = ir::ElementBytes(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
      } else if (a.name() == "value_string" || a.name() == "value_strings") {
        throw Error(Status::kUnsupportedDType,
                    "Constant node '" + op.name + "' holds strings (" + a.name() + ")");
      } else if (a.name() == "sparse_value") {
        throw Error(Status::kUnsupportedDType,
                    "Constant node '" + op.name + "' holds a sparse_value, which is not supported");
      } else {
        found = false;
        continue;
      }
      break;
    }
    if (!found) {
      throw Error(Status::kInvalidModel, "Constant node '" + op.name + "' has no value attribute");
    }
    out.dtype = value.dtype;
    out.shape = value.shape;
    out.data = std::move(value.data);
    out.is_constant = false;  // constant-op-fold flips it (onnx_loader.h)
    op.attrs = {};
  }

  // ConstantOfShape: the fill value becomes input 1 (see onnx_loader.h).
  void AddFillValueInput(const onnx::NodeProto& node, ir::Op& op) {
    ir::Tensor value;
    value.dtype = ir::DType::kFloat32;
    value.shape = {1};
    value.data = ir::ElementBytes(std::vector<float>{0.0f});  // ONNX default: float32 zero
    for (const auto& a : node.attribute()) {
      if (a.name() == "value") value = TensorFromProto(a.t(), "", external_);
    }
    if (value.num_elements() != 1) {
      throw Error(Status::kInvalidModel, "ConstantOfShape node '" + op.name +
                                             "' has a value with " +
                                             std::to_string(value.num_elements()) +
                                             " elements; ONNX requires exactly one");
    }
    value.name = UniqueTensorName(op.name + "_value");
    value.is_constant = true;
    op.attrs.Erase("value");
    op.inputs.resize(1, ir::kNoTensor);
    op.inputs.push_back(Add(std::move(value)));
  }

  void ImportOutputs() {
    for (const auto& output : proto_.output()) {
      auto it = by_name_.find(output.name());
      if (output.name().empty() || it == by_name_.end()) {
        throw Error(Status::kDanglingInput, "graph output '" + output.name() +
                                                "' is produced by no node, initializer or "
                                                "graph input");
      }
      graph_.outputs.push_back(it->second);
    }
  }

  const onnx::ModelProto& model_;
  const onnx::GraphProto& proto_;
  const LoadOptions& options_;
  const ExternalDataSource& external_;
  ir::Graph graph_;
  std::map<std::string, int64_t> symbols_;
  std::unordered_map<std::string, ir::TensorId> by_name_;
  std::vector<std::string> node_names_;
  std::vector<ir::OpType> op_types_;
};

}  // namespace

int64_t DefaultDomainOpset(const onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import()) {
    if (IsDefaultDomain(opset.domain())) return opset.version();
  }
  throw Error(Status::kInvalidModel,
              "model declares no opset for the default ONNX domain (opset_import)");
}

ImportedGraph ImportGraph(const onnx::ModelProto& model, const std::string& fallback_name,
                          const LoadOptions& options, const ExternalDataSource& external) {
  return GraphImporter(model, options, external).Run(fallback_name);
}

}  // namespace tigris::onnx_import
