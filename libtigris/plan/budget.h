// Memory budgets a plan must fit (bytes).
#ifndef TIGRIS_PLAN_BUDGET_H_
#define TIGRIS_PLAN_BUDGET_H_

#include <cstdint>
#include <set>
#include <string>

#include "plan/offset_layout.h"

namespace tigris::plan {

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
};

// Throws kInvalidBudget, naming the field, for fast_bytes <= 0, a negative slow or flash
// budget, or an exact layout's time limit that is not a positive number.
void ValidateBudget(const Budget& budget);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_BUDGET_H_
