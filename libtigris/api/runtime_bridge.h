// What the C ABI needs to hand bytes and dtypes to the C99 runtime (runtime/include): the
// 16-aligned copies its reader and arenas require, and the mapping between the two dtype
// enums (tigris_dtype of tigris.h, tgrs_dtype of the plan format). Used by run.cc
// (tigris_run_plan) and plan_io.cc (plan handles read from .tgrs bytes).
#ifndef TIGRIS_API_RUNTIME_BRIDGE_H_
#define TIGRIS_API_RUNTIME_BRIDGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "tigris.h"
#include "util/aligned_bytes.h"  // AlignedBytes, AllocateAligned

extern "C" {
#include "tigris_runtime.h"
}

namespace tigris::api {

// TGRS_DTYPE_UNKNOWN / TIGRIS_DTYPE_UNKNOWN for a dtype the other side does not have.
tgrs_dtype ToRuntimeDType(tigris_dtype dtype);
tigris_dtype ToApiDType(tgrs_dtype dtype);

}  // namespace tigris::api

#endif  // TIGRIS_API_RUNTIME_BRIDGE_H_
