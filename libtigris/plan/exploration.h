// What the planner's search (plan/explore.h) tried and chose: every plan it made that fits,
// with the four figures it weighs, and which of them are on the Pareto front.
#ifndef TIGRIS_PLAN_EXPLORATION_H_
#define TIGRIS_PLAN_EXPLORATION_H_

#include <cstdint>
#include <vector>

#include "plan/budget.h"

namespace tigris::plan {

// One planner configuration the search runs (at several planning budgets).
struct SearchConfig {
  bool embedding_as_rows = false;              // the FDT lookup rewrite allowed (Budget::fdt)
  bool dense_split = false;                    // fdt-fan-out-fan-in allowed (plan/dense_split.h)
  uint32_t strategies = kAllTilingStrategies;  // Budget::strategies
};

struct ExploredPlan {
  SearchConfig config;
  // The fast budget the pass planned for (<= the caller's): the search lowers it to find
  // plans that need less fast memory.
  int64_t planned_fast_bytes = 0;
  int64_t fast_bytes = 0;          // PlanResult::scheduled_peak_bytes
  int64_t recompute_macs = 0;      // PlanResult::recompute_macs
  int64_t slow_traffic_bytes = 0;  // PlanResult::slow_traffic_bytes
  // Iterations of every stage: 1 for a stage run whole, its tile count for a tile loop or
  // chain. Each costs a loop's fixed work (regions, weight reads), so fewer is faster.
  int64_t tile_steps = 0;
  // Not dominated: no other plan is at most as large in all four figures and smaller in one.
  bool on_front = false;
};

struct Exploration {
  SearchOptions options;   // without the progress callback
  int configurations = 0;  // configurations searched
  int passes = 0;          // planning passes made (fitting or not)
  // Plans that fit the caller's budget in the order they were made: by configuration,
  // then by planning budget, highest first. Duplicates (all four figures equal) are listed
  // once, at the first, with the configuration allowing the fewest choices (strategies and
  // FDT rewrites) that made them.
  std::vector<ExploredPlan> plans;
  int chosen = -1;  // index into plans of the returned plan
  double seconds = 0;
};

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_EXPLORATION_H_
