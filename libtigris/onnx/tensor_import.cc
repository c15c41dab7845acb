#include "onnx/tensor_import.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "util/error.h"

namespace tigris::onnx_import {
namespace {

using onnx::TensorProto;

template <typename T, typename Field>
std::vector<uint8_t> PackAs(const Field& field) {
  std::vector<uint8_t> bytes(static_cast<size_t>(field.size()) * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    T v = static_cast<T>(field.Get(i));
    std::memcpy(bytes.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
  }
  return bytes;
}

std::vector<uint8_t> TypedFieldBytes(const TensorProto& proto, ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return PackAs<float>(proto.float_data());
    case ir::DType::kFloat64:
      return PackAs<double>(proto.double_data());
    case ir::DType::kInt64:
      return PackAs<int64_t>(proto.int64_data());
    case ir::DType::kInt32:
      return PackAs<int32_t>(proto.int32_data());
    case ir::DType::kInt16:
      return PackAs<int16_t>(proto.int32_data());
    case ir::DType::kUInt16:
      return PackAs<uint16_t>(proto.int32_data());
    // float16 travels as its 16 bits in int32_data (onnx.proto, TensorProto.int32_data).
    case ir::DType::kFloat16:
      return PackAs<uint16_t>(proto.int32_data());
    case ir::DType::kInt8:
      return PackAs<int8_t>(proto.int32_data());
    case ir::DType::kUInt8:
      return PackAs<uint8_t>(proto.int32_data());
    case ir::DType::kBool:
      return PackAs<uint8_t>(proto.int32_data());
    case ir::DType::kUnknown:
      break;
  }
  return {};
}

std::vector<uint8_t> ExternalBytes(const TensorProto& proto, const std::string& name,
                                   const ExternalDataSource& external) {
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const auto& entry : proto.external_data()) {
    try {
      if (entry.key() == "location") location = entry.value();
      if (entry.key() == "offset") offset = std::stoull(entry.value());
      if (entry.key() == "length") length = std::stoull(entry.value());
    } catch (const std::exception&) {
      throw Error(Status::kExternalData, "tensor '" + name + "': external_data '" + entry.key() +
                                             "' is not a number: '" + entry.value() + "'");
    }
  }
  if (location.empty()) {
    throw Error(Status::kExternalData,
                "tensor '" + name + "' has external data without a 'location'");
  }
  if (external.dir.empty()) {
    throw Error(Status::kExternalData,
                "tensor '" + name + "' has its data in external file '" + location +
                    "', but the model was loaded from memory; set external_data_dir");
  }
  std::string path = (std::filesystem::path(external.dir) / location).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(Status::kExternalData,
                "tensor '" + name + "': cannot open external data file '" + path + "'");
  }
  in.seekg(0, std::ios::end);
  uint64_t file_size = static_cast<uint64_t>(in.tellg());
  if (offset > file_size) {
    throw Error(Status::kExternalData, "tensor '" + name + "': offset " + std::to_string(offset) +
                                           " is past the end of '" + path + "' (" +
                                           std::to_string(file_size) + " bytes)");
  }
  uint64_t count = length.value_or(file_size - offset);
  if (count > file_size - offset) {
    throw Error(Status::kExternalData, "tensor '" + name + "': external data file '" + path +
                                           "' is too short (" + std::to_string(file_size) +
                                           " bytes, need " + std::to_string(offset + count) + ")");
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(count));
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
  if (!in) {
    throw Error(Status::kExternalData,
                "tensor '" + name + "': reading external data file '" + path + "' failed");
  }
  return bytes;
}

}  // namespace

std::optional<ir::DType> DTypeFromOnnx(int32_t onnx_elem_type) {
  switch (onnx_elem_type) {
    case TensorProto::FLOAT:
      return ir::DType::kFloat32;
    case TensorProto::FLOAT16:
      return ir::DType::kFloat16;
    case TensorProto::DOUBLE:
      return ir::DType::kFloat64;
    case TensorProto::INT8:
      return ir::DType::kInt8;
    case TensorProto::UINT8:
      return ir::DType::kUInt8;
    case TensorProto::INT16:
      return ir::DType::kInt16;
    case TensorProto::UINT16:
      return ir::DType::kUInt16;
    case TensorProto::INT32:
      return ir::DType::kInt32;
    case TensorProto::INT64:
      return ir::DType::kInt64;
    case TensorProto::BOOL:
      return ir::DType::kBool;
    default:
      return std::nullopt;
  }
}

ir::DType RequireDType(int32_t onnx_elem_type, const std::string& what) {
  std::optional<ir::DType> dtype = DTypeFromOnnx(onnx_elem_type);
  if (!dtype) {
    std::string type_name =
        TensorProto::DataType_IsValid(onnx_elem_type)
            ? TensorProto::DataType_Name(static_cast<TensorProto::DataType>(onnx_elem_type))
            : std::to_string(onnx_elem_type);
    throw Error(Status::kUnsupportedDType,
                what + " has element type " + type_name + ", which TiGrIS does not support");
  }
  return *dtype;
}

ir::Tensor TensorFromProto(const TensorProto& proto, const std::string& name,
                           const ExternalDataSource& external) {
  ir::Tensor t;
  t.name = name;
  t.is_constant = true;
  t.dtype = RequireDType(proto.data_type(), "tensor '" + name + "'");
  for (int64_t d : proto.dims()) {
    if (d < 0) {
      throw Error(Status::kInvalidModel,
                  "tensor '" + name + "' has negative dimension " + std::to_string(d));
    }
    t.shape.push_back(d);
  }
  if (!ir::WithinTensorLimits(t.shape)) {
    throw Error(Status::kInvalidModel, "tensor '" + name + "' declares " +
                                           ir::ShapeToString(t.shape) +
                                           ", more than 2^32 elements");
  }
  if (proto.data_location() == TensorProto::EXTERNAL) {
    t.data = ExternalBytes(proto, name, external);
  } else if (proto.has_raw_data()) {
    t.data.assign(proto.raw_data().begin(), proto.raw_data().end());
  } else {
    t.data = TypedFieldBytes(proto, t.dtype);
  }
  // The byte count must match the shape exactly: every later phase indexes by shape.
  uint64_t expected = static_cast<uint64_t>(ir::NumElements(t.shape)) * ir::DTypeSize(t.dtype);
  if (t.data.size() != expected) {
    throw Error(proto.data_location() == TensorProto::EXTERNAL ? Status::kExternalData
                                                               : Status::kInvalidModel,
                "tensor '" + name + "' (" + ir::ShapeToString(t.shape) + " " +
                    std::string(ir::DTypeName(t.dtype)) + ") needs " + std::to_string(expected) +
                    " bytes of data but has " + std::to_string(t.data.size()));
  }
  return t;
}

}  // namespace tigris::onnx_import
