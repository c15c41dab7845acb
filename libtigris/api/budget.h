// The budgets of an options struct (tigris_analyze_options, tigris_plan_options) as a
// plan::Budget, validated in one place.
#ifndef TIGRIS_API_BUDGET_H_
#define TIGRIS_API_BUDGET_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "api/status.h"
#include "plan/budget.h"
#include "target/target.h"
#include "tigris.h"
#include "util/error.h"

namespace tigris::api {

// Each value must fit int64 (the planner's arithmetic is signed: a larger one cannot be a
// real memory) and fast_bytes must be > 0; otherwise Error(kInvalidBudget) naming
// `struct_name`.field. slow and flash 0 mean "not given".
plan::Budget ToPlanBudget(uint64_t fast_bytes, uint64_t slow_bytes, uint64_t flash_bytes,
                          const char* struct_name);

// The version-2 layout fields of an options struct (tigris_analyze_options,
// tigris_plan_options) as the planner's LayoutOptions. Error(kInvalidArgument) naming
// `struct_name`.field for a layout that is not a tigris_layout value, or an exact layout's
// time limit that is not a positive number of seconds.
plan::LayoutOptions ToLayoutOptions(tigris_layout layout, double time_limit_seconds,
                                    tigris_progress_fn progress, void* progress_user_data,
                                    const char* struct_name);

// The version from which an options struct has `fdt` (default 1 before it).
constexpr int FdtVersion(const tigris_analyze_options*) { return 3; }
constexpr int FdtVersion(const tigris_plan_options*) { return 4; }
template <typename Options>
bool FdtOf(const Options& options) {
  return options.version < FdtVersion(&options) || options.fdt != 0;
}

// The version from which an options struct has `objective` and `max_recompute_percent`.
constexpr int SearchVersion(const tigris_analyze_options*) { return 4; }
constexpr int SearchVersion(const tigris_plan_options*) { return 5; }

// The search fields of an options struct, with the progress callback of its layout fields
// reporting the search. Error(kInvalidArgument) naming `struct_name`.field for an objective
// that is not a tigris_objective value or a max_recompute_percent that is not a number.
plan::SearchOptions ToSearchOptions(tigris_objective objective, double max_recompute_percent,
                                    tigris_progress_fn progress, void* progress_user_data,
                                    const char* struct_name);
// Those of a struct whose version was checked: none before SearchVersion (one pass).
template <typename Options>
plan::SearchOptions SearchOf(const Options& options, const char* struct_name) {
  if (options.version < SearchVersion(&options)) return {};
  return ToSearchOptions(options.objective, options.max_recompute_percent, options.progress,
                         options.progress_user_data, struct_name);
}

// The budgets and, from version 2, the layout of a tigris_analyze_options or
// tigris_plan_options whose version was checked (and its fdt switch from FdtVersion).
template <typename Options>
plan::Budget BudgetOf(const Options& options, const char* struct_name) {
  plan::Budget budget =
      ToPlanBudget(options.fast_bytes, options.slow_bytes, options.flash_bytes, struct_name);
  if (options.version >= 2) {
    budget.layout = ToLayoutOptions(options.layout, options.time_limit_seconds, options.progress,
                                    options.progress_user_data, struct_name);
  }
  budget.fdt = FdtOf(options);
  budget.search = SearchOf(options, struct_name);
  return budget;
}

// The target and layout of a *_for_target call (tigris_analyze_for_target,
// tigris_plan_for_target): options and target_yaml required (model is the caller's),
// the options' version checked, their memory sizes 0 (the target gives them), the YAML
// parsed (target/target.h; `source` NULL names it "target"). Error(kInvalidArgument)
// naming `function` otherwise.
struct TargetRequest {
  target::Target target;
  // The planner's choices: layout, fdt and search (the sizes are the target's, left 0).
  plan::Budget choices;
};
template <typename Options>
TargetRequest TargetRequestOf(const Options* options, int latest_version, const char* target_yaml,
                              const char* source, const char* function, const char* struct_name) {
  if (!options || !target_yaml) {
    throw Error(Status::kInvalidArgument,
                std::string(function) + ": options and target_yaml must not be NULL");
  }
  CheckStructVersion(options->version, latest_version, struct_name);
  if (options->fast_bytes || options->slow_bytes || options->flash_bytes) {
    throw Error(Status::kInvalidArgument,
                std::string(function) +
                    ": the target gives the memory sizes; leave fast_bytes, slow_bytes and "
                    "flash_bytes 0");
  }
  TargetRequest request;
  request.target = target::ParseTarget(target_yaml, source ? source : "target");
  request.choices.layout =
      ToLayoutOptions(options->layout, options->time_limit_seconds, options->progress,
                      options->progress_user_data, struct_name);
  request.choices.fdt = FdtOf(*options);
  request.choices.search = SearchOf(*options, struct_name);
  return request;
}

// `-m FAST -m 0` (slow_bytes == TIGRIS_NO_SLOW_MEMORY): the one-RAM part of
// target::OneMemoryTarget, fast_bytes big, with the plan in a flash of flash_bytes (0: any
// size), and the planner's choices as BudgetOf gives them, the options' version checked.
// nullopt for NULL options or any other slow_bytes.
template <typename Options>
std::optional<TargetRequest> OneMemoryRequestOf(const Options* options, int latest_version,
                                                const char* struct_name) {
  if (!options || options->slow_bytes != TIGRIS_NO_SLOW_MEMORY) return std::nullopt;
  CheckStructVersion(options->version, latest_version, struct_name);
  Options sized = *options;
  sized.slow_bytes = 0;
  TargetRequest request;
  request.choices = BudgetOf(sized, struct_name);
  request.target = target::OneMemoryTarget(request.choices.fast_bytes, request.choices.flash_bytes);
  return request;
}

// The size of a tigris_analyze_options / tigris_plan_options struct at `version` (1: up to
// flash_bytes / compression; 2: the layout fields too; plan 3: state and rules; then
// fdt; then objective and max_recompute_percent).
size_t AnalyzeOptionsSize(int version);
size_t PlanOptionsSize(int version);

}  // namespace tigris::api

#endif  // TIGRIS_API_BUDGET_H_
