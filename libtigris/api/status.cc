// Status names and the thread-local last error (tigris_status_name, tigris_last_error).
#include "api/status.h"

namespace tigris::api {
namespace {

thread_local std::string g_last_error;

// The C enum and the C++ enum are one list written twice; a mismatch must not compile.
#define TIGRIS_CHECK_STATUS(c_name, cxx_name) \
  static_assert(static_cast<int>(c_name) == static_cast<int>(Status::cxx_name), #c_name);
TIGRIS_CHECK_STATUS(TIGRIS_OK, kOk)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_INVALID_ARGUMENT, kInvalidArgument)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_IO, kIoError)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_EMPTY_MODEL, kEmptyModel)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_NOT_ONNX, kNotOnnx)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_TRUNCATED_MODEL, kTruncatedModel)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_INVALID_MODEL, kInvalidModel)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_GRAPH_CYCLE, kGraphCycle)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_DANGLING_INPUT, kDanglingInput)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_UNSUPPORTED_OP, kUnsupportedOp)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_DYNAMIC_SHAPE, kDynamicShape)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_SHAPE_INFERENCE, kShapeInference)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_EXTERNAL_DATA, kExternalData)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_UNSUPPORTED_DTYPE, kUnsupportedDType)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_UNSUPPORTED_QUANTIZATION, kUnsupportedQuantization)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_OUT_OF_MEMORY, kOutOfMemory)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_INTERNAL, kInternal)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_INVALID_BUDGET, kInvalidBudget)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL, kSlowBudgetTooSmall)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL, kFlashBudgetTooSmall)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_VERSION_MISMATCH, kVersionMismatch)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_DOES_NOT_FIT, kDoesNotFit)
TIGRIS_CHECK_STATUS(TIGRIS_ERR_INVALID_PLAN, kInvalidPlan)
#undef TIGRIS_CHECK_STATUS

}  // namespace

void SetLastError(const std::string& message) { g_last_error = message; }

void CheckStructVersion(int version, int latest, const char* struct_name) {
  if (version < 1 || version > latest) {
    throw Error(Status::kVersionMismatch,
                std::string(struct_name) + ".version is " + std::to_string(version) +
                    "; this library knows versions 1.." + std::to_string(latest));
  }
}
void ClearLastError() { g_last_error.clear(); }

}  // namespace tigris::api

extern "C" {

TIGRIS_API const char* tigris_status_name(tigris_status status) {
  switch (status) {
#define TIGRIS_NAME(s) \
  case s:              \
    return #s;
    TIGRIS_NAME(TIGRIS_OK)
    TIGRIS_NAME(TIGRIS_ERR_INVALID_ARGUMENT)
    TIGRIS_NAME(TIGRIS_ERR_IO)
    TIGRIS_NAME(TIGRIS_ERR_EMPTY_MODEL)
    TIGRIS_NAME(TIGRIS_ERR_NOT_ONNX)
    TIGRIS_NAME(TIGRIS_ERR_TRUNCATED_MODEL)
    TIGRIS_NAME(TIGRIS_ERR_INVALID_MODEL)
    TIGRIS_NAME(TIGRIS_ERR_GRAPH_CYCLE)
    TIGRIS_NAME(TIGRIS_ERR_DANGLING_INPUT)
    TIGRIS_NAME(TIGRIS_ERR_UNSUPPORTED_OP)
    TIGRIS_NAME(TIGRIS_ERR_DYNAMIC_SHAPE)
    TIGRIS_NAME(TIGRIS_ERR_SHAPE_INFERENCE)
    TIGRIS_NAME(TIGRIS_ERR_EXTERNAL_DATA)
    TIGRIS_NAME(TIGRIS_ERR_UNSUPPORTED_DTYPE)
    TIGRIS_NAME(TIGRIS_ERR_UNSUPPORTED_QUANTIZATION)
    TIGRIS_NAME(TIGRIS_ERR_OUT_OF_MEMORY)
    TIGRIS_NAME(TIGRIS_ERR_INTERNAL)
    TIGRIS_NAME(TIGRIS_ERR_INVALID_BUDGET)
    TIGRIS_NAME(TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL)
    TIGRIS_NAME(TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL)
    TIGRIS_NAME(TIGRIS_ERR_VERSION_MISMATCH)
    TIGRIS_NAME(TIGRIS_ERR_DOES_NOT_FIT)
    TIGRIS_NAME(TIGRIS_ERR_INVALID_PLAN)
#undef TIGRIS_NAME
  }
  return "TIGRIS_ERR_UNKNOWN";
}

TIGRIS_API const char* tigris_last_error(void) { return tigris::api::g_last_error.c_str(); }

}  // extern "C"
