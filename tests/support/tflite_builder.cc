#include "support/tflite_builder.h"

#include <cstring>
#include <map>

namespace tigris::testing {

namespace fb = ::tigris_tflite;

int TfliteModelBuilder::Tensor(const std::string& name, fb::TensorType type,
                               const std::vector<int32_t>& shape, const std::vector<uint8_t>& data,
                               const Quant* quant) {
  int buffer = 0;
  if (!data.empty()) {
    buffer = static_cast<int>(buffers_.size());
    buffers_.push_back(data);
  }
  tensors_.push_back({name, type, shape, buffer, quant != nullptr, quant ? *quant : Quant{}});
  return static_cast<int>(tensors_.size()) - 1;
}

int TfliteModelBuilder::FloatConstant(const std::string& name, const std::vector<int32_t>& shape,
                                      const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return Tensor(name, fb::TensorType::FLOAT32, shape, bytes);
}

int TfliteModelBuilder::Int32Constant(const std::string& name, const std::vector<int32_t>& shape,
                                      const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return Tensor(name, fb::TensorType::INT32, shape, bytes);
}

void TfliteModelBuilder::Op(fb::BuiltinOperator code, const std::vector<int32_t>& inputs,
                            const std::vector<int32_t>& outputs, fb::BuiltinOptions options_type,
                            Options options) {
  ops_.push_back({static_cast<int32_t>(code), "", inputs, outputs, options_type, options});
}

void TfliteModelBuilder::CustomOp(const std::string& custom_code,
                                  const std::vector<int32_t>& inputs,
                                  const std::vector<int32_t>& outputs) {
  ops_.push_back({static_cast<int32_t>(fb::BuiltinOperator::CUSTOM), custom_code, inputs, outputs,
                  fb::BuiltinOptions::NONE, nullptr});
}

std::string TfliteModelBuilder::Bytes() const {
  flatbuffers::FlatBufferBuilder b;
  // Operator codes, one per distinct (code, custom code), written as converters do: the
  // byte field holds codes below 127, the int field always.
  std::map<std::pair<int32_t, std::string>, uint32_t> code_index;
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes;
  for (const OpSpec& op : ops_) {
    auto key = std::make_pair(op.code, op.custom_code);
    if (code_index.count(key)) continue;
    code_index[key] = static_cast<uint32_t>(codes.size());
    codes.push_back(
        fb::CreateOperatorCode(b, static_cast<int8_t>(op.code < 127 ? op.code : 127),
                               op.custom_code.empty() ? 0 : b.CreateString(op.custom_code), 1,
                               static_cast<fb::BuiltinOperator>(op.code)));
  }
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (const TensorSpec& t : tensors_) {
    flatbuffers::Offset<fb::QuantizationParameters> quant = 0;
    if (t.quantized) {
      quant = fb::CreateQuantizationParameters(b, 0, 0, b.CreateVector(t.quant.scales),
                                               b.CreateVector(t.quant.zero_points),
                                               fb::QuantizationDetails::NONE, 0, t.quant.axis);
    }
    tensors.push_back(fb::CreateTensor(b, b.CreateVector(t.shape), t.type,
                                       static_cast<uint32_t>(t.buffer), b.CreateString(t.name),
                                       quant));
  }
  std::vector<flatbuffers::Offset<fb::Operator>> ops;
  for (const OpSpec& op : ops_) {
    flatbuffers::Offset<void> options = op.options ? op.options(b) : 0;
    ops.push_back(fb::CreateOperator(b, code_index.at({op.code, op.custom_code}),
                                     b.CreateVector(op.inputs), b.CreateVector(op.outputs),
                                     op.options_type, options));
  }
  auto tensor_vec = b.CreateVector(tensors);
  auto op_vec = b.CreateVector(ops);
  auto in_vec = b.CreateVector(inputs_);
  auto out_vec = b.CreateVector(outputs_);
  std::vector<flatbuffers::Offset<fb::SubGraph>> subgraphs;
  for (int i = 0; i < subgraphs_; ++i) {
    subgraphs.push_back(
        fb::CreateSubGraph(b, tensor_vec, in_vec, out_vec, op_vec, b.CreateString("main")));
  }
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (const auto& data : buffers_) {
    b.ForceVectorAlignment(data.size(), 1, 16);
    buffers.push_back(fb::CreateBuffer(b, data.empty() ? 0 : b.CreateVector(data)));
  }
  auto model = fb::CreateModel(b, 3, b.CreateVector(codes), b.CreateVector(subgraphs),
                               b.CreateString("tigris test"), b.CreateVector(buffers));
  fb::FinishModelBuffer(b, model);
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

}  // namespace tigris::testing
