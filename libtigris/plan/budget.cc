#include "plan/budget.h"

#include <cmath>
#include <string>

#include "util/error.h"

namespace tigris::plan {

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
}

}  // namespace tigris::plan
