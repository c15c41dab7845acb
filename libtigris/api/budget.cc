#include "api/budget.h"

#include <limits>
#include <string>

#include "util/error.h"

namespace tigris::api {
namespace {

int64_t BudgetField(uint64_t bytes, const char* struct_name, const char* field) {
  if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    throw Error(Status::kInvalidBudget,
                std::string(struct_name) + "." + field + " is too large: " + std::to_string(bytes));
  }
  return static_cast<int64_t>(bytes);
}

}  // namespace

plan::Budget ToPlanBudget(uint64_t fast_bytes, uint64_t slow_bytes, uint64_t flash_bytes,
                          const char* struct_name) {
  plan::Budget budget;
  budget.fast_bytes = BudgetField(fast_bytes, struct_name, "fast_bytes");
  budget.slow_bytes = BudgetField(slow_bytes, struct_name, "slow_bytes");
  budget.flash_bytes = BudgetField(flash_bytes, struct_name, "flash_bytes");
  if (budget.fast_bytes == 0) {
    throw Error(Status::kInvalidBudget,
                std::string(struct_name) + ".fast_bytes is 0; the SRAM budget is required");
  }
  return budget;
}

}  // namespace tigris::api
