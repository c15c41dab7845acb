// tigris_plan, tigris_emit and the tigris_execution_plan accessors: the C face of
// emit::Compile (planner + .tgrs writer).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/budget.h"
#include "api/model.h"
#include "api/plan_handle.h"
#include "api/status.h"
#include "emit/compile.h"
#include "plan/plan_json.h"
#include "target/rules.h"
#include "target/target.h"
#include "util/file_io.h"

#include <nlohmann/json.hpp>

namespace tigris::api {
namespace {

plan::Budget ToBudget(const tigris_plan_options* options) {
  if (!options) {
    throw Error(Status::kInvalidArgument,
                "tigris_plan: options must not be NULL (fast_bytes is required)");
  }
  CheckStructVersion(options->version, TIGRIS_PLAN_OPTIONS_VERSION, "tigris_plan_options");
  return BudgetOf(*options, "tigris_plan_options");
}

// "IN=OUT[,IN2=OUT2...]" (tigris_plan_options.state); NULL or "" is none.
std::vector<emit::StatePair> ParseStatePairs(const char* text) {
  std::vector<emit::StatePair> pairs;
  if (text == nullptr) return pairs;
  const std::string all(text);
  size_t begin = 0;
  while (begin < all.size()) {
    const size_t end = std::min(all.find(',', begin), all.size());
    const std::string item = all.substr(begin, end - begin);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size() ||
        item.find('=', eq + 1) != std::string::npos) {
      throw Error(Status::kInvalidArgument,
                  "tigris_plan_options.state: '" + item +
                      "' is not IN=OUT (a graph input name, '=', a graph output name)");
    }
    pairs.push_back({item.substr(0, eq), item.substr(eq + 1)});
    begin = end + 1;
  }
  return pairs;
}

emit::EmitOptions ToEmitOptions(const tigris_plan_options* options) {
  emit::EmitOptions out;
  const bool staged_known = options->version >= 3;
  if (options->xip != TIGRIS_WEIGHTS_COPIED && options->xip != TIGRIS_WEIGHTS_IN_PLACE &&
      options->xip != TIGRIS_WEIGHTS_AUTO &&
      !(staged_known && options->xip == TIGRIS_WEIGHTS_STAGED)) {
    throw Error(Status::kInvalidArgument,
                std::string("tigris_plan_options.xip must be TIGRIS_WEIGHTS_COPIED (0), "
                            "_IN_PLACE (1), _AUTO (2)") +
                    (staged_known ? " or _STAGED (3)" : " (or _STAGED with version 3)") + ", got " +
                    std::to_string(options->xip));
  }
  out.xip = options->xip != TIGRIS_WEIGHTS_COPIED;
  out.copy_where_faster = options->xip == TIGRIS_WEIGHTS_AUTO;
  out.stage_constants = options->xip == TIGRIS_WEIGHTS_STAGED;
  if (staged_known) out.state = ParseStatePairs(options->state);
  if (options->version >= 6) out.strip_names = options->strip_names != 0;
  switch (options->compression) {
    case TIGRIS_COMPRESSION_NONE:
      break;
    case TIGRIS_COMPRESSION_LZ4:
      out.lz4 = true;
      break;
    default:
      throw Error(Status::kInvalidArgument, "tigris_plan_options.compression is " +
                                                std::to_string(options->compression) +
                                                "; expected TIGRIS_COMPRESSION_NONE or _LZ4");
  }
  if (out.lz4 && options->xip == TIGRIS_WEIGHTS_AUTO) {
    // Compressed bytes cannot be read in place: every stage decompresses its own.
    out.xip = false;
    out.copy_where_faster = false;
  }
  if (out.lz4 && out.stage_constants) {
    throw Error(Status::kInvalidArgument,
                "tigris_plan_options: staged constants are copied as stored, so they cannot be "
                "LZ4-compressed; use TIGRIS_WEIGHTS_STAGED without compression");
  }
  if (out.lz4 && out.xip) {
    throw Error(Status::kInvalidArgument,
                "tigris_plan_options: LZ4-compressed weights cannot be executed in place "
                "(xip = TIGRIS_WEIGHTS_IN_PLACE); use TIGRIS_WEIGHTS_AUTO or _COPIED to "
                "decompress each stage into fast memory");
  }
  return out;
}

}  // namespace

nlohmann::ordered_json MemoriesJson(const std::vector<emit::MemoryUse>& uses) {
  nlohmann::ordered_json memories = nlohmann::ordered_json::array();
  for (const emit::MemoryUse& m : uses) {
    memories.push_back({{"name", m.name},
                        {"size", m.size},
                        {"used_bytes", m.used_bytes},
                        {"peak_bytes", m.used_bytes},  // arenas are sized by their peaks
                        {"traffic_bytes", m.traffic_bytes},
                        {"role", m.role}});
  }
  return memories;
}

namespace {

void FillPlanHandle(tigris_execution_plan& handle, emit::CompiledPlan compiled) {
  const emit::EmittedPlan& e = compiled.emitted;
  handle.weight_bytes = static_cast<uint64_t>(e.weight_bytes);
  handle.stored_weight_bytes = static_cast<uint64_t>(e.stored_weight_bytes);
  handle.fast_arena_bytes = static_cast<uint64_t>(e.fast_arena_bytes);
  handle.slow_arena_bytes = static_cast<uint64_t>(e.slow_arena_bytes);
  handle.memories_json = MemoriesJson(compiled.memories).dump();
  for (const std::string& w : compiled.warnings) handle.warnings += "warning: " + w + "\n";
  if (compiled.result.exploration) {
    handle.exploration_json = plan::ExplorationToJson(*compiled.result.exploration).dump();
  }
  handle.bytes = std::move(compiled.emitted.bytes);
  // Every emitted plan passes the runtime's verifier here, before any caller sees it.
  DescribePlan(handle, /*summary=*/false);
}

}  // namespace

emit::EmitOptions DefaultEmitOptions() {
  const tigris_plan_options defaults TIGRIS_PLAN_OPTIONS_INIT;
  return ToEmitOptions(&defaults);
}

}  // namespace tigris::api

using tigris::Error;
using tigris::Status;

extern "C" {

TIGRIS_API tigris_status tigris_plan_options_init(tigris_plan_options* opts, int version) {
  return tigris::api::InitOptions(opts, version, TIGRIS_PLAN_OPTIONS_VERSION,
                                  tigris_plan_options TIGRIS_PLAN_OPTIONS_INIT,
                                  "tigris_plan_options_init", tigris::api::PlanOptionsSize);
}

TIGRIS_API tigris_status tigris_plan(tigris_execution_plan** out, const tigris_model* model,
                                     const tigris_plan_options* options) {
  std::string* err = model ? &const_cast<tigris_model*>(model)->last_error : nullptr;
  return tigris::api::CreateHandle(out, err, "tigris_plan", [&](tigris_execution_plan& handle) {
    if (!model) throw Error(Status::kInvalidArgument, "tigris_plan: model must not be NULL");
    // One RAM (-m FAST -m 0): the plan for a target of that RAM and a flash.
    const std::optional<tigris::api::TargetRequest> one_ram = tigris::api::OneMemoryRequestOf(
        options, TIGRIS_PLAN_OPTIONS_VERSION, "tigris_plan_options");
    const tigris::plan::Budget budget = one_ram ? one_ram->choices : tigris::api::ToBudget(options);
    if (options->version >= 3 && options->rules_yaml != nullptr) {
      throw Error(Status::kInvalidArgument,
                  "tigris_plan: placement rules name a target's memories; use "
                  "tigris_plan_for_target");
    }
    const tigris::emit::EmitOptions emit_options = tigris::api::ToEmitOptions(options);
    tigris::api::FillPlanHandle(
        handle, one_ram ? tigris::emit::CompileForTarget(model->graph, one_ram->target, budget,
                                                         emit_options)
                        : tigris::emit::Compile(model->graph, budget, emit_options));
  });
}

TIGRIS_API tigris_status tigris_plan_for_target(tigris_execution_plan** out,
                                                const tigris_model* model,
                                                const tigris_plan_options* options,
                                                const char* target_yaml, const char* source) {
  std::string* err = model ? &const_cast<tigris_model*>(model)->last_error : nullptr;
  return tigris::api::CreateHandle(
      out, err, "tigris_plan_for_target", [&](tigris_execution_plan& handle) {
        if (!model) {
          throw Error(Status::kInvalidArgument, "tigris_plan_for_target: model must not be NULL");
        }
        const tigris::api::TargetRequest request =
            tigris::api::TargetRequestOf(options, TIGRIS_PLAN_OPTIONS_VERSION, target_yaml, source,
                                         "tigris_plan_for_target", "tigris_plan_options");
        std::optional<tigris::target::Rules> rules;
        if (options->version >= 3 && options->rules_yaml != nullptr) {
          rules = tigris::target::ParseRules(
              options->rules_yaml, options->rules_source ? options->rules_source : "rules",
              request.target);
        }
        tigris::api::FillPlanHandle(
            handle, tigris::emit::CompileForTarget(model->graph, request.target, request.choices,
                                                   tigris::api::ToEmitOptions(options),
                                                   rules ? &*rules : nullptr));
      });
}

TIGRIS_API const char* tigris_plan_memories_json(const tigris_execution_plan* plan) {
  return plan ? plan->memories_json.c_str() : "[]";
}

TIGRIS_API const char* tigris_plan_exploration_json(const tigris_execution_plan* plan) {
  return plan ? plan->exploration_json.c_str() : "null";
}

TIGRIS_API const char* tigris_plan_warnings(const tigris_execution_plan* plan) {
  return plan ? plan->warnings.c_str() : "";
}

TIGRIS_API void tigris_plan_free(tigris_execution_plan* plan) { delete plan; }

TIGRIS_API const char* tigris_plan_last_error(const tigris_execution_plan* plan) {
  return plan ? plan->last_error.c_str() : "";
}

TIGRIS_API uint64_t tigris_plan_file_bytes(const tigris_execution_plan* plan) {
  return plan ? static_cast<uint64_t>(plan->bytes.size()) : 0;
}
TIGRIS_API uint64_t tigris_plan_weight_bytes(const tigris_execution_plan* plan) {
  return plan ? plan->weight_bytes : 0;
}
TIGRIS_API uint64_t tigris_plan_stored_weight_bytes(const tigris_execution_plan* plan) {
  return plan ? plan->stored_weight_bytes : 0;
}
TIGRIS_API uint64_t tigris_plan_fast_arena_bytes(const tigris_execution_plan* plan) {
  return plan ? plan->fast_arena_bytes : 0;
}
TIGRIS_API uint64_t tigris_plan_slow_arena_bytes(const tigris_execution_plan* plan) {
  return plan ? plan->slow_arena_bytes : 0;
}

TIGRIS_API tigris_status tigris_emit(void** out_bytes, size_t* out_size,
                                     const tigris_execution_plan* plan) {
  std::string* err = plan ? &const_cast<tigris_execution_plan*>(plan)->last_error : nullptr;
  if (out_bytes) *out_bytes = nullptr;
  if (out_size) *out_size = 0;
  return tigris::api::Guard(err, [&] {
    if (!out_bytes || !out_size) {
      throw Error(Status::kInvalidArgument, "tigris_emit: out_bytes and out_size are required");
    }
    if (!plan) throw Error(Status::kInvalidArgument, "tigris_emit: plan must not be NULL");
    // malloc, not new[]: tigris_free releases it and bindings may hand it to C code.
    void* bytes = std::malloc(plan->bytes.empty() ? 1 : plan->bytes.size());
    if (!bytes) throw std::bad_alloc();
    if (!plan->bytes.empty()) std::memcpy(bytes, plan->bytes.data(), plan->bytes.size());
    *out_bytes = bytes;
    *out_size = plan->bytes.size();
  });
}

TIGRIS_API tigris_status tigris_emit_to_file(const tigris_execution_plan* plan, const char* path) {
  std::string* err = plan ? &const_cast<tigris_execution_plan*>(plan)->last_error : nullptr;
  return tigris::api::Guard(err, [&] {
    if (!plan) throw Error(Status::kInvalidArgument, "tigris_emit_to_file: plan must not be NULL");
    if (!path) throw Error(Status::kInvalidArgument, "tigris_emit_to_file: path must not be NULL");
    // Through a temporary file and a rename: a failed or interrupted write leaves the
    // plan that was at `path` (say, the one a firmware build is using) as it was.
    const std::string failed = tigris::WriteFileAtomically(
        path,
        std::string_view(reinterpret_cast<const char*>(plan->bytes.data()), plan->bytes.size()));
    if (!failed.empty()) {
      throw Error(Status::kIoError,
                  std::string("cannot write the plan to '") + path + "': " + failed);
    }
  });
}

TIGRIS_API void tigris_free(void* bytes) { std::free(bytes); }

}  // extern "C"
