#include "layout_options.h"

#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tigris::cli {
namespace {

// A search's "explore: DONE/TOTAL configurations, PASSES passes" (tigris.h) as a bar
// redrawn in place on a terminal; elsewhere a line per configuration searched.
void PrintSearchProgress(int done, int total, int passes) {
  static int last_done = -1;
  if (isatty(fileno(stderr))) {
    constexpr int kWidth = 30;
    const int filled = total > 0 ? done * kWidth / total : kWidth;
    std::fprintf(stderr, "\rtigris: exploring [%s%s] %d/%d configurations, %d passes",
                 std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(kWidth - filled), '.').c_str(), done, total,
                 passes);
    if (done == total) std::fprintf(stderr, "\n");
  } else if (done != last_done) {
    std::fprintf(stderr, "tigris: explored %d/%d configurations, %d passes\n", done, total, passes);
  }
  last_done = done;
  std::fflush(stderr);
}

void PrintProgress(const char* message, void* /*user_data*/) {
  int done = 0, total = 0, passes = 0;
  if (std::sscanf(message, "explore: %d/%d configurations, %d passes", &done, &total, &passes) ==
      3) {
    PrintSearchProgress(done, total, passes);
    return;
  }
  std::fprintf(stderr, "tigris: %s\n", message);
  std::fflush(stderr);
}

}  // namespace

std::vector<std::vector<std::string>> LayoutOptionSpellings() {
  return {{"--layout"}, {"--time-limit"}, {"--objective"}, {"--max-recompute"}};
}

std::vector<std::vector<std::string>> LayoutFlagSpellings() { return {{"--no-fdt"}}; }

const char* LayoutOptionsHelp() {
  return "  --layout MODE           how arenas are packed: greedy (default; the lower of first\n"
         "                          fit and greedy by size) or exact (then a MILP solver for\n"
         "                          every arena above its live-bytes bound)\n"
         "  --time-limit SECONDS    exact: what all the solves may take together (default 10);\n"
         "                          an arena left when it is up keeps its greedy layout\n"
         "  --no-fdt                feature-map tiling alone: none of the FDT paper's splits\n"
         "                          (embedding-as-rows, fdt-fan-out-fan-in; docs/planning.md)\n"
         "  --objective GOAL        search every configuration of tiling strategies and FDT\n"
         "                          splits at lower planning budgets and take the plan with\n"
         "                          the least fast memory (memory) or the least recompute,\n"
         "                          slow traffic and tile steps (latency); default: one pass\n"
         "  --max-recompute PCT     with a search: choose no plan recomputing more than PCT%\n"
         "                          of the model's MACs\n";
}

// --objective and --max-recompute into `choice`.
void ParseSearchOptions(const Args& args, bool explore, LayoutChoice& choice) {
  const std::vector<std::string>& objective = args.Values("--objective");
  if (objective.size() > 1) throw UsageError("--objective is given more than once");
  if (explore) choice.objective = TIGRIS_OBJECTIVE_MEMORY;
  if (!objective.empty()) {
    if (objective[0] == "memory") {
      choice.objective = TIGRIS_OBJECTIVE_MEMORY;
    } else if (objective[0] == "latency") {
      choice.objective = TIGRIS_OBJECTIVE_LATENCY;
    } else {
      throw UsageError("--objective expects memory or latency, got '" + objective[0] + "'");
    }
  }
  const std::vector<std::string>& most = args.Values("--max-recompute");
  if (most.size() > 1) throw UsageError("--max-recompute is given more than once");
  if (!most.empty()) {
    if (choice.objective == TIGRIS_OBJECTIVE_NONE) {
      throw UsageError("--max-recompute needs a search: --objective memory|latency");
    }
    std::string text = most[0];
    if (!text.empty() && text.back() == '%') text.pop_back();
    char* end = nullptr;
    errno = 0;
    const double percent = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(percent) || percent < 0) {
      throw UsageError("--max-recompute expects a percentage >= 0, got '" + most[0] + "'");
    }
    choice.max_recompute_percent = percent;
  }
  if (choice.objective != TIGRIS_OBJECTIVE_NONE) choice.progress = PrintProgress;
}

LayoutChoice ParseLayoutOptions(const Args& args, bool explore) {
  LayoutChoice choice;
  if (args.Flag("--no-fdt")) choice.fdt = 0;
  ParseSearchOptions(args, explore, choice);
  const std::vector<std::string>& layout = args.Values("--layout");
  if (layout.size() > 1) throw UsageError("--layout is given more than once");
  if (!layout.empty()) {
    if (layout[0] == "exact") {
      choice.layout = TIGRIS_LAYOUT_EXACT;
      choice.progress = PrintProgress;
    } else if (layout[0] != "greedy") {
      throw UsageError("--layout expects greedy or exact, got '" + layout[0] + "'");
    }
  }
  const std::vector<std::string>& limit = args.Values("--time-limit");
  if (limit.size() > 1) throw UsageError("--time-limit is given more than once");
  if (!limit.empty()) {
    if (choice.layout != TIGRIS_LAYOUT_EXACT) throw UsageError("--time-limit needs --layout exact");
    char* end = nullptr;
    errno = 0;
    const double seconds = std::strtod(limit[0].c_str(), &end);
    if (limit[0].empty() || *end != '\0' || errno != 0 || !std::isfinite(seconds) || seconds <= 0) {
      throw UsageError("--time-limit expects a positive number of seconds, got '" + limit[0] + "'");
    }
    choice.time_limit_seconds = seconds;
  }
  return choice;
}

}  // namespace tigris::cli
