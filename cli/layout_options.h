// `--layout greedy|exact`, `--time-limit SECONDS` and `--no-fdt`, shared by analyze and
// compile: how hard the planner works at packing each arena (docs/memory-model.md), and
// whether it may make the FDT paper's splits (docs/planning.md, "Rewrites").
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
  // Prints the library's progress lines ("tigris: exact layout ...") to stderr.
  tigris_progress_fn progress = nullptr;
  int fdt = 1;  // 0 with --no-fdt
};

// Throws UsageError for an unknown layout, a time limit that is not a positive number of
// seconds, or --time-limit without --layout exact.
LayoutChoice ParseLayoutOptions(const Args& args);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_LAYOUT_OPTIONS_H_
