#include "plan/budget.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace tigris::plan {

std::string_view ObjectiveName(Objective objective) {
  switch (objective) {
    case Objective::kNone:
      return "none";
    case Objective::kMemory:
      return "memory";
    case Objective::kLatency:
      return "latency";
  }
  return "?";
}

void ValidateBudget(const Budget& budget) {
  if (budget.fast_bytes <= 0) {
    throw Error(Status::kInvalidBudget,
                "fast_bytes must be > 0, got " + std::to_string(budget.fast_bytes));
  }
  if (budget.slow_bytes < 0) {
    throw Error(Status::kInvalidBudget, "slow_bytes must be >= 0 (0 = not given), got " +
                                            std::to_string(budget.slow_bytes));
  }
  if (budget.flash_bytes < 0) {
    throw Error(Status::kInvalidBudget, "flash_bytes must be >= 0 (0 = not given), got " +
                                            std::to_string(budget.flash_bytes));
  }
  const double limit = budget.layout.time_limit_seconds;
  if (budget.layout.mode == LayoutMode::kExact && !(std::isfinite(limit) && limit > 0)) {
    throw Error(Status::kInvalidBudget,
                "the exact layout's time limit must be a positive number of seconds, got " +
                    std::to_string(limit));
  }
  if ((budget.strategies & ~kAllTilingStrategies) != 0) {
    throw Error(Status::kInvalidBudget, "strategies has bits beyond the tiling strategies: " +
                                            std::to_string(budget.strategies));
  }
  const double most = budget.search.max_recompute_percent;
  if (std::isnan(most)) {
    throw Error(Status::kInvalidBudget, "max_recompute_percent is not a number");
  }
  if (budget.search.threads < 0) {
    throw Error(Status::kInvalidBudget, "threads must be >= 0 (0 = one per hardware thread), got " +
                                            std::to_string(budget.search.threads));
  }
}

}  // namespace tigris::plan
