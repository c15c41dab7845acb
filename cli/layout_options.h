// `--layout greedy|exact`, `--time-limit SECONDS`, `--no-fdt`, `--objective memory|latency`
// and `--max-recompute PCT`, shared by analyze and compile: how hard the planner works at
// packing each arena (docs/memory-model.md), whether it may make the FDT paper's splits
// (docs/planning.md, "Rewrites"), and whether it searches, for what (docs/planning.md,
// "Search").
#ifndef TIGRIS_CLI_LAYOUT_OPTIONS_H_
#define TIGRIS_CLI_LAYOUT_OPTIONS_H_

#include <string>
#include <vector>

#include "args.h"
#include "tigris.h"

namespace tigris::cli {

// Options and flags to merge into a subcommand's Args, and their help lines.
std::vector<std::vector<std::string>> LayoutOptionSpellings();
std::vector<std::vector<std::string>> LayoutFlagSpellings();
const char* LayoutOptionsHelp();

struct LayoutChoice {
  tigris_layout layout = TIGRIS_LAYOUT_GREEDY;
  double time_limit_seconds = 10.0;
  // Prints the library's progress lines ("tigris: exact layout ...") to stderr, and a
  // search's progress as a bar on a terminal.
  tigris_progress_fn progress = nullptr;
  int fdt = 1;                                         // 0 with --no-fdt
  tigris_objective objective = TIGRIS_OBJECTIVE_NONE;  // --objective (analyze: --explore)
  double max_recompute_percent = -1;                   // --max-recompute; negative: none
};

// Throws UsageError for an unknown layout or objective, a time limit that is not a
// positive number of seconds, --time-limit without --layout exact, a --max-recompute that
// is not a number >= 0, or --max-recompute without a search. `explore` (analyze's
// --explore) searches for the least memory unless --objective says otherwise.
LayoutChoice ParseLayoutOptions(const Args& args, bool explore = false);

// The choice into a tigris_analyze_options or tigris_plan_options.
template <typename Options>
void ApplyLayoutChoice(const LayoutChoice& choice, Options* options) {
  options->layout = choice.layout;
  options->time_limit_seconds = choice.time_limit_seconds;
  options->progress = choice.progress;
  options->fdt = choice.fdt;
  options->objective = choice.objective;
  options->max_recompute_percent = choice.max_recompute_percent;
}

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_LAYOUT_OPTIONS_H_
