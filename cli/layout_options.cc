#include "layout_options.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tigris::cli {
namespace {

void PrintProgress(const char* message, void* /*user_data*/) {
  std::fprintf(stderr, "tigris: %s\n", message);
  std::fflush(stderr);
}

}  // namespace

std::vector<std::vector<std::string>> LayoutOptionSpellings() {
  return {{"--layout"}, {"--time-limit"}};
}

std::vector<std::vector<std::string>> LayoutFlagSpellings() { return {{"--no-fdt"}}; }

const char* LayoutOptionsHelp() {
  return "  --layout MODE           how arenas are packed: greedy (default; the lower of first\n"
         "                          fit and greedy by size) or exact (then a MILP solver for\n"
         "                          every arena above its live-bytes bound)\n"
         "  --time-limit SECONDS    exact: what all the solves may take together (default 10);\n"
         "                          an arena left when it is up keeps its greedy layout\n"
         "  --no-fdt                feature-map tiling alone: none of the FDT paper's splits\n"
         "                          (embedding-as-rows, fdt-fan-out-fan-in; docs/planning.md)\n";
}

LayoutChoice ParseLayoutOptions(const Args& args) {
  LayoutChoice choice;
  if (args.Flag("--no-fdt")) choice.fdt = 0;
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
