// ONNX TensorProto -> IR constant (initializers, Constant node values, ConstantOfShape
// fill values), and ONNX element types -> ir::DType.
#ifndef TIGRIS_ONNX_TENSOR_IMPORT_H_
#define TIGRIS_ONNX_TENSOR_IMPORT_H_

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

#include "ir/tensor.h"

namespace tigris::onnx_import {

// nullopt for element types the IR has no dtype for (string, complex, uint32, bfloat16...).
std::optional<ir::DType> DTypeFromOnnx(int32_t onnx_elem_type);
// Like DTypeFromOnnx but throws kUnsupportedDType naming `what` (a tensor or field).
ir::DType RequireDType(int32_t onnx_elem_type, const std::string& what);

// Where external data files are looked up; empty = no folder (loading from memory), in
// which case a tensor with external data is a kExternalData error.
struct ExternalDataSource {
  std::string dir;
};

// Converts a TensorProto into a constant tensor (is_constant = true, bytes little-endian).
// Element bytes come from raw_data, the typed fields (float_data; int32_data, which ONNX
// also uses for int8/uint8/int16/uint16/bool/float16; int64_data; double_data) or an
// external file. `name` overrides proto.name() (Constant values carry no name).
// Throws kUnsupportedDType, kInvalidModel (element count mismatch) or kExternalData
// (missing or short file, naming the tensor and the path).
ir::Tensor TensorFromProto(const onnx::TensorProto& proto, const std::string& name,
                           const ExternalDataSource& external);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_TENSOR_IMPORT_H_
