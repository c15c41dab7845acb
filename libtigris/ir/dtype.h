// Element types of IR tensors. Values mirror nothing external on purpose: the ONNX loader
// and the plan emitter each translate at their edge.
#ifndef TIGRIS_IR_DTYPE_H_
#define TIGRIS_IR_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tigris::ir {

enum class DType : uint8_t {
  kUnknown = 0,
  kFloat32,
  kFloat16,
  kFloat64,
  kInt8,
  kUInt8,
  kInt16,
  kUInt16,
  kInt32,
  kInt64,
  kBool,
};

// Bytes per element; 0 for kUnknown.
size_t DTypeSize(DType dtype);
// Lower-case name as used in JSON ("float32", "int8", ...).
std::string_view DTypeName(DType dtype);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_DTYPE_H_
