#include "onnx/shape_resolve.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "onnx/input_shapes.h"
#include "onnx/shape_rules.h"
#include "util/error.h"

namespace tigris::onnx_import {
namespace {

bool IsIntegerDType(ir::DType d) {
  return d == ir::DType::kInt64 || d == ir::DType::kInt32 || d == ir::DType::kInt16 ||
         d == ir::DType::kUInt16 || d == ir::DType::kInt8 || d == ir::DType::kUInt8 ||
         d == ir::DType::kBool;
}

void AddHint(ShapeHints& hints, const onnx::ValueInfoProto& value,
             const std::map<std::string, int64_t>& symbols) {
  std::optional<std::vector<int64_t>> shape = DeclaredShape(value, symbols);
  if (shape) hints.shapes[value.name()] = std::move(*shape);
}

// Pools with ceil_mode follow the newer ONNX rule that libonnx 1.12 lacks.
bool LibOnnxDiffersByDesign(const ir::Op& op) {
  return (op.type == ir::OpType::kMaxPool || op.type == ir::OpType::kAveragePool) &&
         op.attrs.GetInt("ceil_mode", 0) != 0;
}

void CrossCheck(const ir::Tensor& t, const ir::Op& op, const ShapeHints& hints) {
  auto it = hints.shapes.find(t.name);
  if (it == hints.shapes.end()) return;
  const std::vector<int64_t>& other = it->second;
  bool same = other.size() == t.shape.size();
  for (size_t i = 0; same && i < other.size(); ++i) same = other[i] < 0 || other[i] == t.shape[i];
  if (same) return;
  std::string other_text;
  for (size_t i = 0; i < other.size(); ++i) {
    other_text += (i ? "x" : "") + (other[i] < 0 ? std::string("?") : std::to_string(other[i]));
  }
  if (other.empty()) other_text = "scalar";
  throw Error(Status::kShapeInference, "tensor '" + t.name + "' (output of node '" + op.name +
                                           "'): TiGrIS's shape rule gives " +
                                           ir::ShapeToString(t.shape) + ", " + hints.source +
                                           " gives " + other_text);
}

}  // namespace

ShapeHints InferWithLibOnnx(const onnx::ModelProto& model, const ir::Graph& graph) {
  ShapeHints hints;
  hints.source = "ONNX shape inference";
  const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  auto range = ranges.find(onnx::ONNX_DOMAIN);
  if (range == ranges.end() || graph.opset > range->second.second) return hints;

  try {
    onnx::ModelProto copy = model;
    onnx::GraphProto* g = copy.mutable_graph();
    for (auto& input : *g->mutable_input()) {
      std::optional<ir::TensorId> id;
      for (ir::TensorId in : graph.inputs) {
        if (graph.tensor(in).name == input.name()) id = in;
      }
      if (!id) continue;
      auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
      shape->clear_dim();
      for (int64_t d : graph.tensor(*id).shape) shape->add_dim()->set_dim_value(d);
    }
    // Start from nothing but the pinned inputs, so every hint is libonnx's own result
    // (and a stale declared shape cannot make it throw on merge).
    g->clear_value_info();
    for (auto& output : *g->mutable_output()) {
      if (output.type().has_tensor_type())
        output.mutable_type()->mutable_tensor_type()->clear_shape();
    }
    onnx::shape_inference::InferShapes(copy);
    std::map<std::string, int64_t> none;
    for (const auto& v : copy.graph().value_info()) AddHint(hints, v, none);
    for (const auto& v : copy.graph().output()) AddHint(hints, v, none);
  } catch (...) {
    // libonnx rejects some valid models (newer forms, partial support); our rules decide.
  }
  return hints;
}

ShapeHints DeclaredShapes(const onnx::ModelProto& model,
                          const std::map<std::string, int64_t>& symbols) {
  ShapeHints hints;
  hints.source = "the model's declared shape";
  for (const auto& v : model.graph().value_info()) AddHint(hints, v, symbols);
  for (const auto& v : model.graph().output()) AddHint(hints, v, symbols);
  return hints;
}

void ResolveShapes(ir::Graph& graph, const std::vector<const ShapeHints*>& cross_checks) {
  StaticValues values(graph.tensors.size());
  // Seed static values from every tensor that holds bytes: initializers, loader-made
  // constants and Constant op outputs (whose value graph_import.cc materialized).
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    const ir::Tensor& source = graph.tensors[i];
    if (!IsIntegerDType(source.dtype) || source.num_elements() > kMaxStaticElements) continue;
    if (source.data.size() != static_cast<size_t>(source.byte_size())) continue;
    ir::Tensor t = source;
    t.is_constant = true;
    values[i] = ir::ConstantAsInt64s(t);
  }

  for (size_t i = 0; i < graph.ops.size(); ++i) {
    ShapeContext ctx(graph, i, values);
    ShapeRule rule = ShapeRuleFor(graph.ops[i].type);
    if (!rule) ctx.Fail("has no shape rule");
    rule(ctx);
    const ir::Op& op = graph.ops[i];
    for (ir::TensorId out : op.outputs) {
      if (out == ir::kNoTensor) continue;
      const ir::Tensor& t = graph.tensor(out);
      if (t.dtype == ir::DType::kUnknown) {
        ctx.Fail("output '" + t.name + "' could not be resolved");
      }
      for (const ShapeHints* hints : cross_checks) {
        if (hints->source == "ONNX shape inference" && LibOnnxDiffersByDesign(op)) continue;
        CrossCheck(t, op, *hints);
      }
    }
  }
}

}  // namespace tigris::onnx_import
