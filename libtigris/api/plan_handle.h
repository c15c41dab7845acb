// The object behind the opaque tigris_execution_plan handle: the emitted .tgrs bytes and
// the summary numbers its accessors return (include/tigris.h, "Plans and the .tgrs file").
#ifndef TIGRIS_API_PLAN_HANDLE_H_
#define TIGRIS_API_PLAN_HANDLE_H_

#include <cstdint>
#include <string>
#include <vector>

struct tigris_execution_plan {
  std::vector<uint8_t> bytes;  // the .tgrs file, deterministic for a model and options
  uint64_t weight_bytes = 0;
  uint64_t stored_weight_bytes = 0;
  uint64_t fast_arena_bytes = 0;
  uint64_t slow_arena_bytes = 0;
  std::string last_error;  // tigris_plan_last_error
};

#endif  // TIGRIS_API_PLAN_HANDLE_H_
