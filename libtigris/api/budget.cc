#include "api/budget.h"

#include <cmath>
#include <cstddef>
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

plan::LayoutOptions ToLayoutOptions(tigris_layout layout, double time_limit_seconds,
                                    tigris_progress_fn progress, void* progress_user_data,
                                    const char* struct_name) {
  plan::LayoutOptions options;
  switch (layout) {
    case TIGRIS_LAYOUT_GREEDY:
      options.mode = plan::LayoutMode::kGreedy;
      break;
    case TIGRIS_LAYOUT_EXACT:
      options.mode = plan::LayoutMode::kExact;
      break;
    default:
      throw Error(Status::kInvalidArgument,
                  std::string(struct_name) + ".layout is " +
                      std::to_string(static_cast<int>(layout)) +
                      "; expected TIGRIS_LAYOUT_GREEDY (0) or TIGRIS_LAYOUT_EXACT (1)");
  }
  if (options.mode == plan::LayoutMode::kExact &&
      !(std::isfinite(time_limit_seconds) && time_limit_seconds > 0)) {
    throw Error(Status::kInvalidArgument,
                std::string(struct_name) + ".time_limit_seconds must be a positive number of " +
                    "seconds for TIGRIS_LAYOUT_EXACT, got " + std::to_string(time_limit_seconds));
  }
  options.time_limit_seconds = time_limit_seconds;
  if (progress) {
    options.progress = [progress, progress_user_data](const std::string& message) {
      progress(message.c_str(), progress_user_data);
    };
  }
  return options;
}

plan::SearchOptions ToSearchOptions(tigris_objective objective, double max_recompute_percent,
                                    tigris_progress_fn progress, void* progress_user_data,
                                    const char* struct_name) {
  plan::SearchOptions search;
  switch (objective) {
    case TIGRIS_OBJECTIVE_NONE:
      search.objective = plan::Objective::kNone;
      break;
    case TIGRIS_OBJECTIVE_MEMORY:
      search.objective = plan::Objective::kMemory;
      break;
    case TIGRIS_OBJECTIVE_LATENCY:
      search.objective = plan::Objective::kLatency;
      break;
    default:
      throw Error(Status::kInvalidArgument,
                  std::string(struct_name) + ".objective is " +
                      std::to_string(static_cast<int>(objective)) +
                      "; expected TIGRIS_OBJECTIVE_NONE (0), _MEMORY (1) or _LATENCY (2)");
  }
  if (std::isnan(max_recompute_percent)) {
    throw Error(Status::kInvalidArgument,
                std::string(struct_name) + ".max_recompute_percent is not a number");
  }
  search.max_recompute_percent = max_recompute_percent;
  if (progress) {
    search.progress = [progress, progress_user_data](int done, int total, int passes) {
      const std::string message = "explore: " + std::to_string(done) + "/" + std::to_string(total) +
                                  " configurations, " + std::to_string(passes) + " passes";
      progress(message.c_str(), progress_user_data);
    };
  }
  return search;
}

size_t AnalyzeOptionsSize(int version) {
  if (version >= 4) return sizeof(tigris_analyze_options);
  if (version == 3) return offsetof(tigris_analyze_options, objective);
  return version == 2 ? offsetof(tigris_analyze_options, fdt)
                      : offsetof(tigris_analyze_options, layout);
}

size_t PlanOptionsSize(int version) {
  if (version >= 6) return sizeof(tigris_plan_options);
  if (version == 5) return offsetof(tigris_plan_options, strip_names);
  if (version == 4) return offsetof(tigris_plan_options, objective);
  if (version == 3) return offsetof(tigris_plan_options, fdt);
  return version == 2 ? offsetof(tigris_plan_options, state)
                      : offsetof(tigris_plan_options, layout);
}

}  // namespace tigris::api
