#include "api/runtime_bridge.h"

#include "passes/passes.h"

extern "C" {
#include "tigris_executor.h"
}

namespace tigris::api {

// Normalization keeps every op within the inputs the runtime's op call holds.
static_assert(passes::kMaxOpInputs == TGRS_EXEC_MAX_OPERANDS,
              "passes::kMaxOpInputs must be the runtime's TGRS_EXEC_MAX_OPERANDS");

namespace {

// The pairs both enums know (tigris_dtype has float16/float64/uint16 the plan lacks).
struct DTypePair {
  tigris_dtype api;
  tgrs_dtype runtime;
};
constexpr DTypePair kDTypes[] = {
    {TIGRIS_DTYPE_FLOAT32, TGRS_DTYPE_FLOAT32}, {TIGRIS_DTYPE_INT8, TGRS_DTYPE_INT8},
    {TIGRIS_DTYPE_UINT8, TGRS_DTYPE_UINT8},     {TIGRIS_DTYPE_INT16, TGRS_DTYPE_INT16},
    {TIGRIS_DTYPE_INT32, TGRS_DTYPE_INT32},     {TIGRIS_DTYPE_INT64, TGRS_DTYPE_INT64},
    {TIGRIS_DTYPE_BOOL, TGRS_DTYPE_BOOL},
};

}  // namespace

tgrs_dtype ToRuntimeDType(tigris_dtype dtype) {
  for (const DTypePair& p : kDTypes) {
    if (p.api == dtype) return p.runtime;
  }
  return TGRS_DTYPE_UNKNOWN;
}

tigris_dtype ToApiDType(tgrs_dtype dtype) {
  for (const DTypePair& p : kDTypes) {
    if (p.runtime == dtype) return p.api;
  }
  return TIGRIS_DTYPE_UNKNOWN;
}

}  // namespace tigris::api
