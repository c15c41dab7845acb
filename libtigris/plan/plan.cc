#include "plan/plan.h"

#include <algorithm>

namespace tigris::plan {

std::string_view MemoryRegionName(MemoryRegion region) {
  switch (region) {
    case MemoryRegion::kFast:
      return "fast";
    case MemoryRegion::kSlow:
      return "slow";
    case MemoryRegion::kPinned:
      return "pinned";
  }
  return "?";
}

std::string_view BufferKindName(BufferKind kind) {
  switch (kind) {
    case BufferKind::kTensor:
      return "tensor";
    case BufferKind::kRowStrip:
      return "row_strip";
    case BufferKind::kScratch:
      return "scratch";
  }
  return "?";
}

std::string_view StageStrategyName(StageStrategy strategy) {
  switch (strategy) {
    case StageStrategy::kNormal:
      return "normal";
    case StageStrategy::kTiled:
      return "tiled";
    case StageStrategy::kChain:
      return "chain";
  }
  return "?";
}

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kOk:
      return "ok";
    case Verdict::kPartitioned:
      return "partitioned";
    case Verdict::kTiled:
      return "tiled";
    case Verdict::kNeedsWork:
      return "needs_work";
  }
  return "?";
}

int64_t TileSteps(const PlanResult& plan) {
  int64_t steps = 0;
  for (const Stage& stage : plan.stages) {
    if (stage.tile) steps += stage.tile->count;
    if (stage.chain < 0 && !stage.tile) ++steps;
  }
  for (const Chain& chain : plan.chains) steps += chain.tile.count;
  return steps;
}

int64_t FastArenaBytes(const PlanResult& plan) {
  int64_t bytes = plan.joint_arena_bytes;
  for (const Stage& stage : plan.stages) {
    bytes = std::max(bytes, stage.weight_bytes + stage.peak_bytes);
  }
  return bytes;
}

}  // namespace tigris::plan
