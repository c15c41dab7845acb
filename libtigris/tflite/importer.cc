#include "tflite/importer.h"

#include <climits>
#include <cmath>
#include <cstring>
#include <utility>

#include "ir/shape.h"
#include "onnx/shape_resolve.h"
#include "onnx/topo_order.h"
#include "tflite/layout.h"
#include "tflite/op_import.h"

namespace tigris::tflite_import {
namespace {}  // namespace

std::string BuiltinName(fb::BuiltinOperator code) {
  const char* name = fb::EnumNameBuiltinOperator(code);
  if (name != nullptr && *name != '\0') return name;
  return "builtin " + std::to_string(static_cast<int>(code));
}

ModelImporter::ModelImporter(const fb::Model& model, const uint8_t* bytes, size_t size,
                             std::string name)
    : model_(model), subgraph_(*model.subgraphs()->Get(0)), bytes_(bytes), size_(size) {
  graph_.name = std::move(name);
  // The forms written are ONNX's newest (axes, pads, shapes and split sizes as inputs;
  // Softmax along one axis), which the passes handle whatever the opset; 18 says so.
  graph_.opset = 18;
  graph_.arithmetic = ir::Graph::Arithmetic::kTflite;
  const size_t count = subgraph_.tensors() ? subgraph_.tensors()->size() : 0;
  stored_.assign(count, ir::kNoTensor);
  real_.assign(count, ir::kNoTensor);
}

ir::Graph ModelImporter::Run() {
  if (!subgraph_.operators() || subgraph_.operators()->size() == 0) {
    throw Error(Status::kInvalidModel, "model '" + graph_.name + "' has no operators");
  }
  if (!subgraph_.outputs() || subgraph_.outputs()->size() == 0) {
    throw Error(Status::kInvalidModel, "model '" + graph_.name + "' declares no outputs");
  }
  ImportInputs();
  ImportOperators();
  ImportOutputs();
  onnx_import::SortOpsDfsReversedChildren(graph_);
  CheckShapes();
  return std::move(graph_);
}

// ---- Tensors ---------------------------------------------------------------------------

const fb::Tensor& ModelImporter::Tensor(int index) const {
  const auto* tensors = subgraph_.tensors();
  if (index < 0 || !tensors || static_cast<size_t>(index) >= tensors->size() ||
      tensors->Get(static_cast<flatbuffers::uoffset_t>(index)) == nullptr) {
    throw Error(Status::kInvalidModel, "model '" + graph_.name + "' refers to tensor " +
                                           std::to_string(index) + ", which does not exist");
  }
  return *tensors->Get(static_cast<flatbuffers::uoffset_t>(index));
}

std::string ModelImporter::TensorLabel(int index) const {
  const fb::Tensor& t = Tensor(index);
  return "tensor " + std::to_string(index) + " '" + (t.name() ? t.name()->str() : "") + "'";
}

std::vector<int64_t> ModelImporter::TflShape(int index) const {
  const fb::Tensor& t = Tensor(index);
  std::vector<int64_t> shape;
  if (t.shape()) {
    for (int32_t d : *t.shape()) {
      if (d <= 0) {
        throw Error(Status::kDynamicShape, TensorLabel(index) + " of model '" + graph_.name +
                                               "' has dimension " + std::to_string(d) +
                                               "; only static shapes are supported");
      }
      shape.push_back(d);
    }
  }
  if (!ir::WithinTensorLimits(shape)) {
    throw Error(Status::kInvalidModel, TensorLabel(index) + " of model '" + graph_.name +
                                           "' has shape " + ir::ShapeToString(shape) +
                                           ", over the 2^32 elements a tensor may hold");
  }
  return shape;
}

bool ModelImporter::IsQuantized(int index) const {
  const fb::QuantizationParameters* q = Tensor(index).quantization();
  return q && q->scale() && q->scale()->size() > 0;
}

bool ModelImporter::IsConstant(int index) const {
  const fb::Tensor& t = Tensor(index);
  if (folded_.count(index)) return true;
  const auto* buffers = model_.buffers();
  if (t.buffer() == 0 || !buffers || t.buffer() >= buffers->size()) return false;
  const fb::Buffer* b = buffers->Get(t.buffer());
  return b && ((b->data() && b->data()->size() > 0) || b->offset() > 1);
}

ir::DType ModelImporter::DTypeOf(int index, const std::string& context) const {
  const fb::TensorType type = Tensor(index).type();
  switch (type) {
    case fb::TensorType::FLOAT32:
      return ir::DType::kFloat32;
    case fb::TensorType::INT8:
      return ir::DType::kInt8;
    case fb::TensorType::UINT8:
      return ir::DType::kUInt8;
    case fb::TensorType::INT32:
      return ir::DType::kInt32;
    case fb::TensorType::INT64:
      return ir::DType::kInt64;
    case fb::TensorType::BOOL:
      return ir::DType::kBool;
    default:
      break;
  }
  const char* name = fb::EnumNameTensorType(type);
  std::string why =
      std::string(name && *name ? name : "an unknown type") + " " + TensorLabel(index) + context;
  if (type == fb::TensorType::INT16) {
    why +=
        ": 16x8 quantization (int16 activations) is not supported; convert with int8 "
        "activations";
  } else if (type == fb::TensorType::FLOAT16) {
    why += ": float16 weights are not supported; convert with float32 or int8 weights";
  }
  throw Error(Status::kUnsupportedDType, why);
}

float ModelImporter::ConstantScalar(const OpSite& site, int index) const {
  const fb::TensorType type = Tensor(index).type();
  const bool int8 = type == fb::TensorType::INT8 || type == fb::TensorType::UINT8;
  const std::vector<uint8_t> bytes =
      IsConstant(index) ? ConstantBytes(index) : std::vector<uint8_t>{};
  if (!(type == fb::TensorType::FLOAT32 && bytes.size() == 4) && !(int8 && bytes.size() == 1)) {
    Refuse(site, Status::kInvalidModel,
           TensorLabel(index) + " must be a one-element float32, int8 or uint8 constant");
  }
  if (!int8) {
    float v;
    std::memcpy(&v, bytes.data(), 4);
    return v;
  }
  const int32_t code = type == fb::TensorType::INT8 ? static_cast<int8_t>(bytes[0]) : bytes[0];
  if (!IsQuantized(index)) return static_cast<float>(code);
  const ir::QuantParams q = QuantOf(index);
  return static_cast<float>(code - q.zero_points[0]) * q.scales[0];
}

ir::QuantParams ModelImporter::QuantOf(int index) const {
  const fb::QuantizationParameters* q = Tensor(index).quantization();
  const std::string who = TensorLabel(index) + " of model '" + graph_.name + "'";
  if (q->details_type() != fb::QuantizationDetails::NONE) {
    throw Error(Status::kUnsupportedQuantization, who + " uses custom quantization");
  }
  ir::QuantParams p;
  p.scales.assign(q->scale()->begin(), q->scale()->end());
  if (q->zero_point()) {
    // Copied bytewise: the verifier aligns a vector's length, not its 8-byte elements
    // (a misaligned int64 load, found by fuzz_tflite under UBSan).
    const ir::DType dtype = DTypeOf(index, "");
    const int64_t lo = dtype == ir::DType::kInt8    ? -128
                       : dtype == ir::DType::kUInt8 ? 0
                                                    : INT32_MIN;
    const int64_t hi = dtype == ir::DType::kInt8    ? 127
                       : dtype == ir::DType::kUInt8 ? 255
                                                    : INT32_MAX;
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(q->zero_point()->Data());
    for (flatbuffers::uoffset_t i = 0; i < q->zero_point()->size(); ++i) {
      int64_t z;
      std::memcpy(&z, bytes + 8 * i, sizeof(z));
      if (z < lo || z > hi) {
        throw Error(Status::kUnsupportedQuantization,
                    TensorLabel(index) + " of model '" + graph_.name + "' has zero point " +
                        std::to_string(z) + ", outside its type's range");
      }
      p.zero_points.push_back(static_cast<int32_t>(z));
    }
  }
  // TFLite writes one zero point per scale; an absent vector means zero.
  if (p.zero_points.empty()) p.zero_points.assign(p.scales.size(), 0);
  if (p.zero_points.size() != p.scales.size()) {
    throw Error(Status::kInvalidModel, who + " has " + std::to_string(p.scales.size()) +
                                           " scales but " + std::to_string(p.zero_points.size()) +
                                           " zero points");
  }
  for (float s : p.scales) {
    if (!(s > 0.0f) || !std::isfinite(s)) {
      throw Error(Status::kUnsupportedQuantization,
                  who + " has scale " + std::to_string(s) + "; scales must be positive");
    }
  }
  if (p.scales.size() > 1) {
    const std::vector<int64_t> shape = TflShape(index);
    int32_t axis = q->quantized_dimension();
    // TFLM's person detection model (and other files of its converter's era) writes the
    // weights' axis 3 on 1-D biases; for rank 1 only axis 0 can be meant.
    if (shape.size() == 1) axis = 0;
    if (axis < 0 || static_cast<size_t>(axis) >= shape.size() ||
        shape[static_cast<size_t>(axis)] != static_cast<int64_t>(p.scales.size())) {
      throw Error(Status::kInvalidModel, who + " has " + std::to_string(p.scales.size()) +
                                             " scales along quantized_dimension " +
                                             std::to_string(axis) + " of shape " +
                                             ir::ShapeToString(shape));
    }
    p.axis = axis;
  }
  return p;
}

ir::QuantParams ModelImporter::QuantInLayout(int index, const std::vector<int64_t>& perm,
                                             size_t lead) const {
  ir::QuantParams q = QuantOf(index);
  if (q.axis < 0) return q;
  // The file's axis, counted after `lead` leading 1s, is the IR axis perm places it at.
  const int64_t file_axis = q.axis + static_cast<int64_t>(lead);
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] == file_axis) q.axis = static_cast<int32_t>(i);
  }
  return q;
}

std::vector<uint8_t> ModelImporter::ConstantBytes(int index) const {
  const fb::Tensor& t = Tensor(index);
  if (auto it = folded_.find(index); it != folded_.end()) {
    if (t.type() == fb::TensorType::INT64) return ir::ElementBytes(it->second);
    return ir::ElementBytes(std::vector<int32_t>(it->second.begin(), it->second.end()));
  }
  const fb::Buffer* b = model_.buffers()->Get(t.buffer());
  if (b->offset() > 1) {
    // Data outside the FlatBuffer (models over 2 GB): offset from the start of the file.
    if (b->offset() > size_ || b->size() > size_ - b->offset()) {
      throw Error(Status::kTruncatedModel,
                  TensorLabel(index) + " of model '" + graph_.name + "' has its data at bytes " +
                      std::to_string(b->offset()) + "+" + std::to_string(b->size()) +
                      ", past the end of the file");
    }
    return {bytes_ + b->offset(), bytes_ + b->offset() + b->size()};
  }
  return {b->data()->begin(), b->data()->end()};
}

ir::TensorId ModelImporter::NewTensor(const std::string& base) {
  ir::Tensor t;
  t.name = graph_.UniqueTensorName(base);
  return graph_.AddTensor(std::move(t));
}

ir::TensorId ModelImporter::MakeConstant(int index, const std::vector<int64_t>& perm,
                                         const std::string& context) {
  const fb::Tensor& t = Tensor(index);
  if (t.sparsity()) {
    throw Error(Status::kUnsupportedDType,
                TensorLabel(index) + context + " is sparse; only dense tensors are supported");
  }
  const ir::DType dtype = DTypeOf(index, context);
  const std::vector<int64_t> shape = TflShape(index);
  std::vector<uint8_t> data = ConstantBytes(index);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  if (static_cast<int64_t>(data.size()) != count * static_cast<int64_t>(ir::DTypeSize(dtype))) {
    throw Error(Status::kInvalidModel,
                TensorLabel(index) + " of model '" + graph_.name + "' holds " +
                    std::to_string(data.size()) + " bytes; its shape " + ir::ShapeToString(shape) +
                    " needs " + std::to_string(count * static_cast<int64_t>(ir::DTypeSize(dtype))));
  }
  const std::string name = t.name() ? t.name()->str() : "const_" + std::to_string(index);
  const ir::TensorId id = graph_.AddConstant(name, dtype, PermuteShape(shape, perm),
                                             PermuteBytes(data, shape, perm, ir::DTypeSize(dtype)));
  return id;
}

// `name` by value: adding tensors moves the graph's tensors, and callers pass names of
// tensors in it.
ir::TensorId ModelImporter::Dequantize(ir::TensorId stored, const ir::QuantParams& q,
                                       ir::DType zp_dtype, std::string name) {
  const bool per_channel = q.per_channel();
  const ir::Shape param_shape =
      per_channel ? ir::Shape{static_cast<int64_t>(q.scales.size())} : ir::Shape{};
  // int32 for a bias, else one byte each (QuantOf held them to their type's range).
  std::vector<uint8_t> zp_bytes =
      zp_dtype == ir::DType::kInt32
          ? ir::ElementBytes(q.zero_points)
          : std::vector<uint8_t>(q.zero_points.begin(), q.zero_points.end());
  const ir::TensorId scale = graph_.AddConstant(name + "_scale", ir::DType::kFloat32, param_shape,
                                                ir::ElementBytes(q.scales));
  const ir::TensorId zero =
      graph_.AddConstant(name + "_zero_point", zp_dtype, param_shape, std::move(zp_bytes));
  ir::Op op;
  op.type = ir::OpType::kDequantizeLinear;
  op.name = name + "_dequantize";
  op.inputs = {stored, scale, zero};
  if (per_channel) op.attrs.Set("axis", static_cast<int64_t>(q.axis));
  const ir::TensorId out = NewTensor(name + "_dequant");
  op.outputs = {out};
  graph_.ops.push_back(std::move(op));
  return out;
}

ir::TensorId ModelImporter::Quantize(ir::TensorId real, const ir::QuantParams& q, ir::DType dtype,
                                     std::string name) {
  if (q.per_channel()) {
    throw Error(Status::kUnsupportedQuantization,
                "tensor '" + name + "' of model '" + graph_.name +
                    "' is an activation quantized per channel; activations take one scale");
  }
  const ir::TensorId scale =
      graph_.AddConstant(name + "_scale", ir::DType::kFloat32, {}, ir::ElementBytes(q.scales));
  const ir::TensorId zero =
      graph_.AddConstant(name + "_zero_point", dtype, {}, {static_cast<uint8_t>(q.zero_points[0])});
  ir::Op op;
  op.type = ir::OpType::kQuantizeLinear;
  op.name = name + "_quantize";
  op.inputs = {real, scale, zero};
  const ir::TensorId out = NewTensor(name);
  op.outputs = {out};
  graph_.ops.push_back(std::move(op));
  return out;
}

bool ModelImporter::SameQuantization(int a, int b) const {
  if (IsQuantized(a) != IsQuantized(b)) return false;
  return !IsQuantized(a) || QuantOf(a) == QuantOf(b);
}

ir::TensorId ModelImporter::Real(int index) {
  if (real_.at(static_cast<size_t>(index)) != ir::kNoTensor) return real_[index];
  if (stored_[index] == ir::kNoTensor) {
    if (!IsConstant(index)) {
      throw Error(Status::kDanglingInput,
                  TensorLabel(index) + " of model '" + graph_.name +
                      "' is read before any operator writes it, and it is not a constant "
                      "or a graph input");
    }
    stored_[index] =
        MakeConstant(index, IrFromTflPerm(Rank(index)), " of model '" + graph_.name + "'");
  }
  if (!IsQuantized(index)) {
    real_[index] = stored_[index];
  } else {
    real_[index] = Dequantize(stored_[index], QuantInLayout(index, IrFromTflPerm(Rank(index))),
                              DTypeOf(index, ""), graph_.tensor(stored_[index]).name);
  }
  return real_[index];
}

ir::TensorId ModelImporter::Weights(const OpSite& site, int index,
                                    const std::vector<int64_t>& perm) {
  if (!IsConstant(index)) {
    Refuse(site, Status::kUnsupportedOp,
           "its weights " + TensorLabel(index) +
               " are computed at run time; only constant weights are supported");
  }
  if (TflShape(index).size() != perm.size()) {
    Refuse(site, Status::kInvalidModel,
           "its weights " + TensorLabel(index) + " have shape " +
               ir::ShapeToString(TflShape(index)) + "; expected rank " +
               std::to_string(perm.size()));
  }
  const ir::TensorId id = MakeConstant(index, perm, " (weights of " + Where(site) + ")");
  if (!IsQuantized(index)) return id;
  const ir::Tensor& t = graph_.tensor(id);
  return Dequantize(id, QuantInLayout(index, perm), t.dtype, t.name);
}

ir::TensorId ModelImporter::Restore(int index, ir::TensorId real, const std::string& suffix) {
  if (!IsQuantized(index)) return real;
  const ir::QuantParams q = QuantOf(index);
  const std::string name = graph_.tensor(real).name + suffix;
  const ir::DType dtype = DTypeOf(index, "");
  return Dequantize(Quantize(real, q, dtype, name), q, dtype, name);
}

ir::TensorId ModelImporter::RealOfRank(const OpSite& site, int index, size_t rank) {
  std::vector<int64_t> shape = TflShape(index);
  if (shape.size() >= rank || rank != 4) return Real(index);  // same axes in both layouts
  const size_t lead = rank - shape.size();
  shape.insert(shape.begin(), lead, 1);
  if (IsConstant(index)) {
    // A constant operand (a per-channel bias or scale): its bytes reshaped and permuted
    // here, so that it stays a plain constant for qdq-fold.
    const ir::TensorId id =
        MakeConstant(index, IrFromTflPerm(Rank(index)), " (operand of " + Where(site) + ")");
    ir::Tensor& t = graph_.tensor(id);
    const std::vector<int64_t> perm = IrFromTflPerm(rank);
    t.data = PermuteBytes(t.data, shape, perm, ir::DTypeSize(t.dtype));
    t.shape = PermuteShape(shape, perm);
    if (!IsQuantized(index)) return id;
    return Dequantize(id, QuantInLayout(index, perm, lead), t.dtype, t.name);
  }
  ir::TensorId x = AddOp(site, ir::OpType::kReshape,
                         {Real(index), Int64Constant(site.name + "_rank4", shape)}, {}, "_rank4");
  x = Restore(index, x, "_q");
  return Restore(index, Transpose(site, x, IrFromTflPerm(rank), "_to_nchw"), "_q");
}

std::vector<int64_t> ModelImporter::ConstantInts(const OpSite& site, int index) const {
  const fb::TensorType type = Tensor(index).type();
  if (!IsConstant(index) || (type != fb::TensorType::INT32 && type != fb::TensorType::INT64)) {
    Refuse(site, Status::kUnsupportedOp,
           "its operand " + TensorLabel(index) +
               " must be a constant int32 or int64 tensor (shapes, axes and paddings are "
               "fixed at compile time)");
  }
  ir::Tensor t;
  t.dtype = type == fb::TensorType::INT32 ? ir::DType::kInt32 : ir::DType::kInt64;
  t.is_constant = true;
  t.data = ConstantBytes(index);
  return ir::ConstantAsInt64s(t);
}

// ---- Ops -------------------------------------------------------------------------------

int ModelImporter::Input(const OpSite& site, size_t i, bool optional) const {
  const auto* inputs = site.op->inputs();
  const int index = inputs && i < inputs->size() ? inputs->Get(static_cast<uint32_t>(i)) : -1;
  if (index < 0) {
    if (optional) return -1;
    Refuse(site, Status::kInvalidModel, "it has no input " + std::to_string(i));
  }
  (void)Tensor(index);  // range check
  return index;
}

int ModelImporter::Output(const OpSite& site, size_t i) const {
  const auto* outputs = site.op->outputs();
  const int index = outputs && i < outputs->size() ? outputs->Get(static_cast<uint32_t>(i)) : -1;
  if (index < 0) Refuse(site, Status::kInvalidModel, "it has no output " + std::to_string(i));
  (void)Tensor(index);
  return index;
}

size_t ModelImporter::NumInputs(const OpSite& site) const {
  return site.op->inputs() ? site.op->inputs()->size() : 0;
}

size_t ModelImporter::NumOutputs(const OpSite& site) const {
  return site.op->outputs() ? site.op->outputs()->size() : 0;
}

ir::TensorId ModelImporter::AddOp(const OpSite& site, ir::OpType type,
                                  std::vector<ir::TensorId> inputs, ir::Attributes attrs,
                                  const std::string& suffix) {
  ir::Op op;
  op.type = type;
  op.name = site.name + suffix;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  const ir::TensorId out = NewTensor(op.name + "_out");
  op.outputs = {out};
  graph_.ops.push_back(std::move(op));
  return out;
}

std::vector<ir::TensorId> ModelImporter::AddOpN(const OpSite& site, ir::OpType type,
                                                std::vector<ir::TensorId> inputs,
                                                ir::Attributes attrs, size_t count) {
  ir::Op op;
  op.type = type;
  op.name = site.name;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  for (size_t i = 0; i < count; ++i) {
    op.outputs.push_back(NewTensor(op.name + "_out" + std::to_string(i)));
  }
  std::vector<ir::TensorId> outs = op.outputs;
  graph_.ops.push_back(std::move(op));
  return outs;
}

ir::TensorId ModelImporter::Transpose(const OpSite& site, ir::TensorId x,
                                      const std::vector<int64_t>& perm, const std::string& suffix) {
  ir::Attributes attrs;
  attrs.Set("perm", perm);
  return AddOp(site, ir::OpType::kTranspose, {x}, attrs, suffix);
}

ir::TensorId ModelImporter::Int64Constant(const std::string& base,
                                          const std::vector<int64_t>& values) {
  return graph_.AddConstant(base, ir::DType::kInt64, {static_cast<int64_t>(values.size())},
                            ir::ElementBytes(values));
}

ir::TensorId ModelImporter::FloatScalar(const std::string& base, float value) {
  return graph_.AddConstant(base, ir::DType::kFloat32, {},
                            ir::ElementBytes(std::vector<float>{value}));
}

void ModelImporter::DefineFolded(const OpSite& site, int out, std::vector<int64_t> values) {
  const fb::TensorType type = Tensor(out).type();
  int64_t count = 1;
  for (int64_t d : TflShape(out)) count *= d;
  if ((type != fb::TensorType::INT32 && type != fb::TensorType::INT64) ||
      count != static_cast<int64_t>(values.size())) {
    Refuse(site, Status::kInvalidModel,
           "its output " + TensorLabel(out) + " must be an int32 or int64 tensor of " +
               std::to_string(values.size()) + " elements");
  }
  if (type == fb::TensorType::INT32) {
    for (int64_t v : values) {
      if (v < INT32_MIN || v > INT32_MAX) {
        Refuse(site, Status::kInvalidModel, "a value overflows its int32 output");
      }
    }
  }
  if (stored_.at(static_cast<size_t>(out)) != ir::kNoTensor || IsConstant(out)) {
    Refuse(site, Status::kInvalidModel, "it writes " + TensorLabel(out) + " twice");
  }
  folded_[out] = std::move(values);
}

void ModelImporter::Define(const OpSite& site, int out, ir::TensorId real,
                           fb::ActivationFunctionType activation) {
  if (stored_.at(static_cast<size_t>(out)) != ir::kNoTensor || IsConstant(out)) {
    Refuse(site, Status::kInvalidModel,
           "it writes " + TensorLabel(out) +
               ", which is already a constant, a graph input or "
               "another operator's output");
  }
  switch (activation) {
    case fb::ActivationFunctionType::NONE:
      break;
    case fb::ActivationFunctionType::RELU:
      real = AddOp(site, ir::OpType::kRelu, {real}, {}, "_relu");
      break;
    case fb::ActivationFunctionType::RELU6:
    case fb::ActivationFunctionType::RELU_N1_TO_1: {
      const bool six = activation == fb::ActivationFunctionType::RELU6;
      real = AddOp(site, ir::OpType::kClip,
                   {real, FloatScalar(site.name + "_min", six ? 0.0f : -1.0f),
                    FloatScalar(site.name + "_max", six ? 6.0f : 1.0f)},
                   {}, six ? "_relu6" : "_relu_n1_to_1");
      break;
    }
    case fb::ActivationFunctionType::TANH:
      real = AddOp(site, ir::OpType::kTanh, {real}, {}, "_tanh");
      break;
    default:
      Refuse(site, Status::kUnsupportedOp,
             std::string("its fused activation ") + fb::EnumNameActivationFunctionType(activation) +
                 " is not supported");
  }
  const fb::Tensor& t = Tensor(out);
  const std::string name = t.name() ? t.name()->str() : "tensor_" + std::to_string(out);
  const ir::DType dtype = DTypeOf(out, " (output of " + Where(site) + ")");
  if (IsQuantized(out)) {
    if (dtype != ir::DType::kInt8 && dtype != ir::DType::kUInt8) {
      Refuse(site, Status::kUnsupportedDType,
             "its output " + TensorLabel(out) + " is a quantized " +
                 std::string(ir::DTypeName(dtype)) +
                 " tensor; activations are int8, uint8 or float32");
    }
    stored_[out] = Quantize(real, QuantOf(out), dtype, name);
  } else {
    // int32 or int64: the indices of ARG_MAX / ARG_MIN; bool: a comparison's or a logical
    // op's result; an IR value of that dtype already.
    const bool indices =
        (dtype == ir::DType::kInt32 || dtype == ir::DType::kInt64 || dtype == ir::DType::kBool) &&
        graph_.tensor(real).dtype == dtype;
    if (dtype != ir::DType::kFloat32 && !indices) {
      Refuse(site, Status::kUnsupportedDType,
             "its output " + TensorLabel(out) + " is " + std::string(ir::DTypeName(dtype)) +
                 " without quantization parameters; activations are float32 or quantized int8");
    }
    graph_.tensor(real).name = graph_.UniqueTensorName(name);
    stored_[out] = real;
  }
}

std::string ModelImporter::Where(const OpSite& site) const {
  return "operator " + std::to_string(site.index) + " (" + BuiltinName(site.code) + ") of model '" +
         graph_.name + "'";
}

void ModelImporter::Refuse(const OpSite& site, Status status, const std::string& why) const {
  throw Error(status, Where(site) + ": " + why);
}

// ---- The subgraph ----------------------------------------------------------------------

void ModelImporter::ImportInputs() {
  if (!subgraph_.inputs()) return;
  for (int index : *subgraph_.inputs()) {
    const fb::Tensor& t = Tensor(index);
    if (stored_[index] != ir::kNoTensor) {
      throw Error(
          Status::kInvalidModel,
          TensorLabel(index) + " is listed twice among the inputs of model '" + graph_.name + "'");
    }
    if (t.is_variable()) {
      throw Error(Status::kUnsupportedOp, TensorLabel(index) + " of model '" + graph_.name +
                                              "' is a variable (state kept across calls), "
                                              "which is not supported");
    }
    const std::string context = " (a graph input of model '" + graph_.name + "')";
    const ir::DType dtype = DTypeOf(index, context);
    const bool quantized = IsQuantized(index);
    if (dtype != ir::DType::kFloat32 &&
        !(quantized && (dtype == ir::DType::kInt8 || dtype == ir::DType::kUInt8))) {
      throw Error(Status::kUnsupportedDType,
                  TensorLabel(index) + context + " is " + std::string(ir::DTypeName(dtype)) +
                      (quantized ? "" : " without quantization parameters") +
                      "; inputs are float32 or quantized int8 / uint8");
    }
    const std::vector<int64_t> shape = TflShape(index);
    ir::Tensor in;
    in.name = graph_.UniqueTensorName(t.name() ? t.name()->str() : "input");
    in.dtype = dtype;
    in.shape = shape;
    const ir::TensorId file_layout = graph_.AddTensor(std::move(in));
    graph_.inputs.push_back(file_layout);
    if (shape.size() != 4) {
      stored_[index] = file_layout;
      continue;
    }
    // The caller's channels-last input, moved into the IR's layout by one Transpose (on
    // the int8 codes, through a QDQ pair with the input's own parameters).
    OpSite site;
    site.index = -1;
    site.name = graph_.tensor(file_layout).name + "_to_nchw";
    ir::TensorId x = file_layout;
    const ir::QuantParams q = quantized ? QuantOf(index) : ir::QuantParams{};
    if (quantized) x = Dequantize(x, q, dtype, graph_.tensor(file_layout).name);
    x = Transpose(site, x, IrFromTflPerm(4), "");
    stored_[index] = quantized ? Quantize(x, q, dtype, site.name) : x;
  }
}

void ModelImporter::ImportOperators() {
  const auto* codes = model_.operator_codes();
  const auto& ops = *subgraph_.operators();
  for (flatbuffers::uoffset_t i = 0; i < ops.size(); ++i) {
    OpSite site;
    site.index = static_cast<int>(i);
    site.op = ops.Get(i);
    const std::string where = "operator " + std::to_string(i) + " of model '" + graph_.name + "'";
    if (!site.op) throw Error(Status::kInvalidModel, where + " is missing");
    if (!codes || site.op->opcode_index() >= codes->size() ||
        !codes->Get(site.op->opcode_index())) {
      throw Error(Status::kInvalidModel, where + " has opcode_index " +
                                             std::to_string(site.op->opcode_index()) +
                                             ", past the model's operator codes");
    }
    const fb::OperatorCode& code = *codes->Get(site.op->opcode_index());
    // The format keeps the code twice: the old byte field and the newer int field; a
    // writer fills the one it knows, so the larger of the two is the op.
    site.code = static_cast<fb::BuiltinOperator>(std::max<int32_t>(
        code.deprecated_builtin_code(), static_cast<int32_t>(code.builtin_code())));
    if (site.code == fb::BuiltinOperator::CUSTOM) {
      throw Error(Status::kUnsupportedOp,
                  "unsupported custom op '" +
                      (code.custom_code() ? code.custom_code()->str() : "") + "' at " + where);
    }
    site.name = BuiltinName(site.code) + "_" + std::to_string(i);
    ImportOperator(*this, site);
  }
}

void ModelImporter::ImportOutputs() {
  for (int index : *subgraph_.outputs()) {
    (void)Tensor(index);  // range check
    if (stored_[static_cast<size_t>(index)] == ir::kNoTensor) {
      throw Error(Status::kDanglingInput, TensorLabel(index) + ", an output of model '" +
                                              graph_.name + "', is written by no operator");
    }
    ir::TensorId id = stored_[index];
    if (Rank(index) == 4) {
      // Back to the file's channels-last layout: the output keeps the file's name and the
      // channels-first tensor before it takes a suffix.
      ir::Tensor& inner = graph_.tensor(id);
      const std::string name = inner.name;
      inner.name = graph_.UniqueTensorName(name + "_nchw");
      OpSite site;
      site.index = -1;
      site.name = name + "_to_nhwc";
      const bool quantized = IsQuantized(index);
      const ir::DType dtype = DTypeOf(index, "");
      ir::TensorId x = quantized ? Dequantize(id, QuantOf(index), dtype, inner.name) : id;
      x = Transpose(site, x, TflFromIrPerm(4), "");
      if (quantized) {
        id = Quantize(x, QuantOf(index), dtype, name);
      } else {
        graph_.tensor(x).name = name;
        id = x;
      }
    }
    graph_.outputs.push_back(id);
  }
}

void ModelImporter::CheckShapes() {
  // Our shape rules give every IR tensor its shape; the file states the shape of each of
  // its tensors, which must agree (in the IR layout).
  onnx_import::ShapeHints declared;
  declared.source = "the .tflite file";
  for (size_t i = 0; i < stored_.size(); ++i) {
    if (stored_[i] == ir::kNoTensor) continue;
    const std::vector<int64_t> shape = TflShape(static_cast<int>(i));
    const ir::Tensor& t = graph_.tensor(stored_[i]);
    if (!t.is_constant) declared.shapes[t.name] = PermuteShape(shape, IrFromTflPerm(shape.size()));
  }
  onnx_import::ResolveShapes(graph_, {&declared});
}

}  // namespace tigris::tflite_import
