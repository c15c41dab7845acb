// Conversions between IR enums and the pinned C ABI enums.
#ifndef TIGRIS_API_C_TYPES_H_
#define TIGRIS_API_C_TYPES_H_

#include "ir/dtype.h"
#include "tigris.h"

namespace tigris::api {

inline tigris_dtype ToCDType(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return TIGRIS_DTYPE_FLOAT32;
    case ir::DType::kInt8:
      return TIGRIS_DTYPE_INT8;
    case ir::DType::kUInt8:
      return TIGRIS_DTYPE_UINT8;
    case ir::DType::kInt16:
      return TIGRIS_DTYPE_INT16;
    case ir::DType::kInt32:
      return TIGRIS_DTYPE_INT32;
    case ir::DType::kInt64:
      return TIGRIS_DTYPE_INT64;
    case ir::DType::kFloat16:
      return TIGRIS_DTYPE_FLOAT16;
    case ir::DType::kFloat64:
      return TIGRIS_DTYPE_FLOAT64;
    case ir::DType::kBool:
      return TIGRIS_DTYPE_BOOL;
    case ir::DType::kUInt16:
      return TIGRIS_DTYPE_UINT16;
    case ir::DType::kUnknown:
      return TIGRIS_DTYPE_UNKNOWN;
  }
  return TIGRIS_DTYPE_UNKNOWN;
}

}  // namespace tigris::api

#endif  // TIGRIS_API_C_TYPES_H_
