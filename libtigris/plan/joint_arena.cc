#include "plan/joint_arena.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "analysis/alignment.h"
#include "plan/plan_check.h"

namespace tigris::plan {
namespace {

// F(s): what stage s needs from the bottom of the arena, its weight prefix and activations.
std::vector<int64_t> StageFloors(const PlanResult& plan) {
  std::vector<int64_t> floors(plan.stages.size(), 0);
  for (const Stage& stage : plan.stages) {
    floors[static_cast<size_t>(stage.id)] = stage.weight_bytes + stage.peak_bytes;
  }
  return floors;
}

// Where each slow home goes in the one arena: above the floor of every stage it lives
// through, and clear of every other home live at the same time. Largest first, each at the
// lowest such offset (first fit over the homes placed so far); -1 for pinned homes, which
// stay in their own arena.
std::vector<int64_t> JointOffsets(const PlanResult& plan, const std::vector<int64_t>& floors) {
  const std::vector<SlowBuffer>& homes = plan.slow_buffers;
  std::vector<size_t> order;
  for (size_t i = 0; i < homes.size(); ++i) {
    if (homes[i].home.region == MemoryRegion::kSlow) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return homes[a].home.size > homes[b].home.size; });
  std::vector<int64_t> offsets(homes.size(), -1);
  std::vector<size_t> placed;
  for (size_t i : order) {
    const SlowBuffer& b = homes[i];
    int64_t floor = 0;
    for (int s = b.first_stage; s <= b.last_stage; ++s) {
      floor = std::max(floor, floors[static_cast<size_t>(s)]);
    }
    floor = analysis::AlignUp(floor);
    std::vector<std::pair<int64_t, int64_t>> taken;  // [begin, end) of live placed homes
    for (size_t j : placed) {
      const SlowBuffer& o = homes[j];
      if (o.last_stage < b.first_stage || b.last_stage < o.first_stage) continue;
      taken.emplace_back(offsets[j], offsets[j] + o.home.size);
    }
    std::sort(taken.begin(), taken.end());
    int64_t at = floor;
    for (const auto& [begin, end] : taken) {
      if (at + b.home.size <= begin) break;
      at = std::max(at, end);
    }
    offsets[i] = at;
    placed.push_back(i);
  }
  return offsets;
}

}  // namespace

void JoinArenas(PlanResult& plan) {
  if (plan.joint_arena_bytes > 0 || plan.slow_buffers.empty()) return;
  const std::vector<int64_t> floors = StageFloors(plan);
  const std::vector<int64_t> offsets = JointOffsets(plan, floors);
  int64_t joint = floors.empty() ? 0 : *std::max_element(floors.begin(), floors.end());
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] < 0) continue;  // pinned homes stay pinned
    SlowBuffer& b = plan.slow_buffers[i];
    b.home.offset = offsets[i];
    b.home.region = MemoryRegion::kFast;
    joint = std::max(joint, b.home.offset + b.home.size);
  }
  plan.joint_arena_bytes = joint;
  VerifyPlan(plan.graph, plan);  // every home checked against every stage it lives through
}

}  // namespace tigris::plan
