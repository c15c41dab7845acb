// The object behind the opaque tigris_execution_plan handle: the .tgrs bytes, the summary
// numbers its accessors return, and its graph inputs and outputs as the plan states them
// (include/tigris.h, "Plans and the .tgrs file" and "A plan's graph inputs and outputs").
#ifndef TIGRIS_API_PLAN_HANDLE_H_
#define TIGRIS_API_PLAN_HANDLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "emit/compile.h"
#include "emit/plan_writer.h"
#include "tigris.h"

namespace tigris::api {

// One graph input or output of a plan, owned by the handle so that tigris_plan_input can
// hand out pointers that live as long as the handle (tigris.h conventions).
struct PlanIoTensor {
  std::string name;
  tigris_dtype dtype = TIGRIS_DTYPE_UNKNOWN;
  std::vector<int64_t> shape;  // ONNX (NCHW) shape
  std::vector<float> scales;   // empty when not quantized
  std::vector<int32_t> zero_points;
  int32_t quant_axis = -1;
};

}  // namespace tigris::api

struct tigris_execution_plan {
  std::vector<uint8_t> bytes;  // the .tgrs file, deterministic for a model and options
  uint64_t weight_bytes = 0;
  uint64_t stored_weight_bytes = 0;
  uint64_t fast_arena_bytes = 0;
  uint64_t slow_arena_bytes = 0;
  std::vector<tigris::api::PlanIoTensor> inputs;
  std::vector<tigris::api::PlanIoTensor> outputs;
  std::string last_error;  // tigris_plan_last_error
  // tigris_plan_memories_json: [{name, size, used_bytes, traffic_bytes, role}]
  std::string memories_json = "[]";
  std::string warnings;                   // tigris_plan_warnings
  std::string exploration_json = "null";  // tigris_plan_exploration_json
};

namespace tigris::api {

// tigris_plan_memories_json's array: [{name, size, used_bytes, peak_bytes, traffic_bytes,
// role}], one per memory of `uses`.
nlohmann::ordered_json MemoriesJson(const std::vector<emit::MemoryUse>& uses);

// What tigris_plan does with TIGRIS_PLAN_OPTIONS_INIT's options (weights auto): the
// compile tigris_analyze holds a fitting verdict to (analyze.cc).
emit::EmitOptions DefaultEmitOptions();

// Verifies handle.bytes with the runtime's reader and fills the graph inputs and outputs
// (and, when `summary` is set, the arena sizes and weight bytes) from them. Throws
// kInvalidPlan with the verifier's field path when the bytes are rejected.
void DescribePlan(tigris_execution_plan& handle, bool summary);

}  // namespace tigris::api

#endif  // TIGRIS_API_PLAN_HANDLE_H_
