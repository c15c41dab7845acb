// The budgets of an options struct (tigris_analyze_options, tigris_plan_options) as a
// plan::Budget, validated in one place.
#ifndef TIGRIS_API_BUDGET_H_
#define TIGRIS_API_BUDGET_H_

#include <cstdint>

#include "plan/budget.h"

namespace tigris::api {

// Each value must fit int64 (the planner's arithmetic is signed: a larger one cannot be a
// real memory) and fast_bytes must be > 0; otherwise Error(kInvalidBudget) naming
// `struct_name`.field. slow and flash 0 mean "not given".
plan::Budget ToPlanBudget(uint64_t fast_bytes, uint64_t slow_bytes, uint64_t flash_bytes,
                          const char* struct_name);

}  // namespace tigris::api

#endif  // TIGRIS_API_BUDGET_H_
