// `tigris inspect PLAN.tgrs [--json] [-v]`: verify a plan with the C99 runtime's reader
// (the same code a microcontroller runs) and print what it holds.
#include <cstdio>

#include "args.h"
#include "commands.h"
#include "inspect_plan.h"

namespace tigris::cli {
namespace {

const char kInspectHelp[] =
    "usage: tigris inspect PLAN.tgrs [options]\n"
    "\n"
    "Verifies a plan with the runtime's own reader (every offset, index, alignment and\n"
    "size is checked, as on the device) and prints its header, stages, tiles, chains,\n"
    "ops, tensors and weights. A plan the runtime would reject is an error naming the\n"
    "field at fault and its TGRS_ERR_ code.\n"
    "\n"
    "options:\n"
    "  --json                  print JSON instead of the human report\n"
    "  -v, --verbose           also print every tile's row regions\n"
    "  -h, --help              show this help\n";

}  // namespace

int RunInspect(int argc, char** argv) {
  Args args({{"--json"}, {"-v", "--verbose"}, {"-h", "--help"}}, {});
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::fputs(kInspectHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("inspect takes exactly one PLAN argument");
  LoadedPlan loaded(args.positional()[0]);  // throws: main prints "tigris: error: ..."
  if (args.Flag("--json")) {
    std::printf("%s\n", PlanJson(loaded).c_str());
  } else {
    PrintPlanText(loaded, args.Flag("-v"));
  }
  return 0;
}

}  // namespace tigris::cli
