// tigris_plan_check_target: does a compiled plan fit a part? (docs/memories.md, "Running a
// plan on a target"). The plan names the memory of each arena and of the plan file itself
// (Plan.memories, written by CompileForTarget); this adds up what each of the target's
// memories would hold and compares it with the memory's size, as compile does.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "api/status.h"
#include "target/target.h"
#include "tigris.h"
#include "tigris_runtime.h"
#include "util/aligned_bytes.h"

namespace tigris::api {
namespace {

// What the plan puts in one memory: the role of each region it uses there.
struct Held {
  int64_t bytes = 0;
  std::string roles;
};

const char* RoleOf(uint32_t region) {
  switch (region) {
    case TGRS_REGION_FAST:
      return "scratch";
    case TGRS_REGION_SLOW:
      return "spills";
    case TGRS_REGION_FLASH:
      return "plan";
    case TGRS_REGION_STATE:
      return "state";
    case TGRS_REGION_CONSTANTS:
      return "constants";
    case TGRS_REGION_PINNED:
      return "pinned";
    default:
      return nullptr;  // HOST: the caller's buffers
  }
}

// "the plan file", "the plan's scratch arena", ...
std::string What(uint32_t region) {
  if (region == TGRS_REGION_FLASH) return "the plan file";
  return std::string("the plan's ") + RoleOf(region) + " arena";
}

void CheckPlanForTarget(const void* bytes, size_t size, const target::Target& target) {
  if (bytes == nullptr || size == 0) {
    throw Error(Status::kInvalidArgument, "tigris_plan_check_target: plan must not be empty");
  }
  AlignedBytes aligned = AllocateAligned(size);
  std::memcpy(aligned.get(), bytes, size);
  tgrs_plan plan;
  if (tgrs_plan_init(&plan, aligned.get(), size) != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    throw Error(Status::kInvalidArgument, std::string("the plan is invalid: ") + detail);
  }
  if (tgrs_plan_memory_count(&plan) == 0) {
    throw Error(Status::kInvalidArgument,
                "the plan names no memories (written before Plan.memories): compile it again");
  }
  std::map<int, Held> held;  // by the target's memory index
  for (uint32_t r = 0; r < tgrs_plan_memory_count(&plan); ++r) {
    tgrs_plan_memory m;
    const char* role = RoleOf(r);
    if (role == nullptr || tgrs_plan_get_memory(&plan, r, &m) != TGRS_OK) continue;
    // The plan memory holds the whole file; an arena of 0 bytes needs no memory at all.
    const int64_t used = r == TGRS_REGION_FLASH ? static_cast<int64_t>(size) : m.size;
    if (used == 0) continue;
    const int index = [&] {
      for (size_t i = 0; i < target.memories.size(); ++i) {
        if (target.memories[i].name == m.name) return static_cast<int>(i);
      }
      std::string names;
      for (const target::Memory& t : target.memories) names += (names.empty() ? "" : ", ") + t.name;
      throw Error(Status::kInvalidArgument,
                  target.source + ": " + What(r) + " lives in memory '" + m.name +
                      "', which the target does not have (memories: " + names +
                      "); compile the plan with this --target");
      return -1;
    }();
    const target::Memory& memory = target.memories[static_cast<size_t>(index)];
    if (r != TGRS_REGION_FLASH && memory.read_only) {
      throw Error(Status::kInvalidArgument, target.source + ": " + What(r) + " lives in " +
                                                memory.name + ", which is read-only");
    }
    Held& h = held[index];
    h.bytes += used;
    h.roles += (h.roles.empty() ? "" : "+") + std::string(role);
  }
  for (const auto& [index, h] : held) {
    const target::Memory& memory = target.memories[static_cast<size_t>(index)];
    if (h.bytes > memory.size) {
      throw Error(Status::kDoesNotFit, target.source + ": memory " + memory.name + " holds " +
                                           h.roles + ", " + std::to_string(h.bytes) +
                                           " bytes, but has " + std::to_string(memory.size));
    }
  }
}

}  // namespace
}  // namespace tigris::api

extern "C" TIGRIS_API tigris_status tigris_plan_check_target(const void* plan, size_t plan_size,
                                                             const char* target_yaml,
                                                             const char* source) {
  return tigris::api::Guard(nullptr, [&] {
    if (target_yaml == nullptr) {
      throw tigris::Error(tigris::Status::kInvalidArgument,
                          "tigris_plan_check_target: target_yaml must not be NULL");
    }
    const tigris::target::Target target =
        tigris::target::ParseTarget(target_yaml, source != nullptr ? source : "target");
    tigris::api::CheckPlanForTarget(plan, plan_size, target);
  });
}
