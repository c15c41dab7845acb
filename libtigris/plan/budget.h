// Memory budgets a plan must fit (bytes).
#ifndef TIGRIS_PLAN_BUDGET_H_
#define TIGRIS_PLAN_BUDGET_H_

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "plan/offset_layout.h"

namespace tigris::plan {

// Bits of Budget::strategies, in the order of TilingStrategies().
constexpr uint32_t kStreamedRowsStrategy = 1u << 0;
constexpr uint32_t kRowsStrategy = 1u << 1;
constexpr uint32_t kTwoDStrategy = 1u << 2;
constexpr uint32_t kChannelGroupsStrategy = 1u << 3;
constexpr uint32_t kAllTilingStrategies = 0xF;

// What PlanModel optimizes (issue 14, "A Pareto result").
enum class Objective : uint8_t {
  // One planning pass: the simplest strategies that fit, the largest tiles, the FDT splits
  // where they plan better (the default; docs/planning.md).
  kNone = 0,
  // Search, then the least fast memory (ties: least recompute, slow traffic, tile steps).
  kMemory,
  // Search, then the least recompute (ties: least slow traffic, tile steps, fast memory).
  kLatency,
};
std::string_view ObjectiveName(Objective objective);  // "none", "memory", "latency"

struct SearchOptions {
  Objective objective = Objective::kNone;
  // Plans recomputing more than this percentage of the model's MACs are not chosen;
  // negative: no limit.
  double max_recompute_percent = -1;
  // Worker threads for the candidates; 0: one per hardware thread.
  int threads = 0;
  // Told, on the calling thread, how far the search is: configurations searched of all,
  // and planning passes made so far.
  std::function<void(int done, int total, int passes)> progress;
};

struct Budget {
  int64_t fast_bytes = 0;   // SRAM arena; must be > 0
  int64_t slow_bytes = 0;   // PSRAM arena; 0 = not given: the plan reports what it needs
  int64_t flash_bytes = 0;  // 0 = not given (reported only; the emitter checks weights)
  // Weights not read in place (not xip): each residency unit's constants are copied into
  // a prefix of the fast arena (analysis/weight_prefix.h), so every stage must fit
  // prefix + activations in fast_bytes. false (xip, or an analysis that ignores weights):
  // stages are planned on activations alone.
  bool reserve_weights = false;
  // How hard to work at packing each arena into its budget: greedy, or exact within a
  // time limit (plan/offset_layout.h).
  LayoutOptions layout{};
  // Tensors placement rules pin to a memory of their own, by name (plan/pinning.h): normal
  // stages hold them outside the fast arena, so they count against no fast budget, and the
  // plan ends with them pinned. A name the graph lacks is ignored.
  std::set<std::string> pinned{};
  // Whether the planner may make the FDT paper's splits (plan/rewrites.h:
  // embedding-as-rows, fdt-fan-out-fan-in); false plans with feature-map tiling alone.
  bool fdt = true;
  // The feature-map tiling strategies the planner may use, a bit per entry of
  // TilingStrategies() (plan/tiling_strategy.h): all by default; 0 leaves stages and spills
  // (and the FDT splits) alone. The search (plan/explore.h) plans with subsets.
  uint32_t strategies = kAllTilingStrategies;
  // Whether to search (plan/explore.h) instead of planning once, and for what.
  SearchOptions search{};
  // One RAM (issue 39): the size of the one memory the fast arena and the spills share; 0:
  // the spills have a memory of their own. A spilled byte then costs what a fast byte
  // costs: the planner cuts stages and loops to keep the spills small rather than to fill
  // each stage, and gives each its tiles only what the spills live beside it leave of the
  // memory (plan/one_memory_partition.h; the spills sit at the arena's top,
  // plan/joint_arena.h). fast_bytes still caps every stage; the caller searches it
  // (emit/compile.cc, ShareScratchMemory).
  int64_t one_memory_bytes = 0;
};

// Throws kInvalidBudget, naming the field, for fast_bytes <= 0, a negative slow or flash
// budget, an exact layout's time limit that is not a positive number, strategy bits
// beyond kAllTilingStrategies, a max_recompute_percent that is not a number, or negative
// threads.
void ValidateBudget(const Budget& budget);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_BUDGET_H_
