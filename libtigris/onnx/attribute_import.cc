#include "onnx/attribute_import.h"

namespace tigris::onnx_import {
namespace {

// IR version 1-2 models may leave `type` unset; the populated field then says the kind.
onnx::AttributeProto::AttributeType KindOf(const onnx::AttributeProto& a) {
  if (a.type() != onnx::AttributeProto::UNDEFINED) return a.type();
  if (a.ints_size() > 0) return onnx::AttributeProto::INTS;
  if (a.floats_size() > 0) return onnx::AttributeProto::FLOATS;
  if (a.strings_size() > 0) return onnx::AttributeProto::STRINGS;
  if (a.has_s()) return onnx::AttributeProto::STRING;
  if (a.has_i()) return onnx::AttributeProto::INT;
  if (a.has_f()) return onnx::AttributeProto::FLOAT;
  if (a.has_t()) return onnx::AttributeProto::TENSOR;
  return onnx::AttributeProto::UNDEFINED;
}

}  // namespace

ir::Attributes ImportAttributes(const onnx::NodeProto& node) {
  ir::Attributes attrs;
  for (const onnx::AttributeProto& a : node.attribute()) {
    switch (KindOf(a)) {
      case onnx::AttributeProto::INT:
        attrs.Set(a.name(), static_cast<int64_t>(a.i()));
        break;
      case onnx::AttributeProto::FLOAT:
        attrs.Set(a.name(), a.f());
        break;
      case onnx::AttributeProto::STRING:
        attrs.Set(a.name(), a.s());
        break;
      case onnx::AttributeProto::INTS:
        attrs.Set(a.name(), std::vector<int64_t>(a.ints().begin(), a.ints().end()));
        break;
      case onnx::AttributeProto::FLOATS:
        attrs.Set(a.name(), std::vector<float>(a.floats().begin(), a.floats().end()));
        break;
      case onnx::AttributeProto::STRINGS:  // RNN/GRU/LSTM activations
        attrs.Set(a.name(), std::vector<std::string>(a.strings().begin(), a.strings().end()));
        break;
      default:
        break;
    }
  }
  return attrs;
}

}  // namespace tigris::onnx_import
