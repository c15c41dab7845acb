// `tigris inspect PLAN.tgrs [--json] [-v]`: verify a plan with the C99 runtime's reader
// (the same code a microcontroller runs) and print what it holds.
// `tigris inspect PLAN.tgrs... --ops-header OUT.h`: write the op-selection header of the
// plans instead (docs/runtime.md "Selecting ops").
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "args.h"
#include "commands.h"
#include "inspect_plan.h"
#include "model_options.h"
#include "ops_header.h"

namespace tigris::cli {
namespace {

const char kInspectHelp[] =
    "usage: tigris inspect PLAN.tgrs [options]\n"
    "       tigris inspect PLAN.tgrs... --ops-header OUT.h\n"
    "\n"
    "Verifies a plan with the runtime's own reader (every offset, index, alignment and\n"
    "size is checked, as on the device) and prints its header, stages, tiles, chains,\n"
    "ops, tensors and weights. A plan the runtime would reject is an error naming the\n"
    "field at fault and its TGRS_ERR_ code.\n"
    "\n"
    "options:\n"
    "  --json                  print JSON instead of the human report\n"
    "  -v, --verbose           also print every tile's row regions\n"
    "  --ops-header OUT.h      verify every PLAN and write the header that builds the\n"
    "                          runtime with just the ops (and dtypes) they use\n"
    "  -h, --help              show this help\n";

}  // namespace

int RunInspect(int argc, char** argv) {
  Args args({{"--json"}, {"-v", "--verbose"}, {"-h", "--help"}}, {{"--ops-header"}});
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::fputs(kInspectHelp, stdout);
    return 0;
  }
  if (!args.Values("--ops-header").empty()) {
    if (args.Values("--ops-header").size() > 1)
      throw UsageError("--ops-header is given more than once");
    if (args.Flag("--json") || args.Flag("-v")) {
      throw UsageError("--ops-header writes a header; it takes neither --json nor -v");
    }
    if (args.positional().empty()) throw UsageError("--ops-header needs at least one PLAN");
    std::vector<std::unique_ptr<LoadedPlan>> plans;
    std::vector<const LoadedPlan*> views;
    for (const std::string& path : args.positional()) {
      // Throws on a bad plan, a damaged one included.
      plans.push_back(std::make_unique<LoadedPlan>(path, LoadedPlan::Checksums::kReportAbsent));
      views.push_back(plans.back().get());
    }
    const std::string& out = args.Values("--ops-header")[0];
    const std::string text = OpsHeader(views);
    std::FILE* f = std::fopen(out.c_str(), "wb");
    bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f && std::fclose(f) != 0) ok = false;
    if (!ok) {
      PrintLibraryError(TIGRIS_ERR_IO,
                        ("cannot write '" + out + "': " + std::strerror(errno)).c_str());
      return 1;
    }
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("inspect takes exactly one PLAN argument");
  // Throws: main prints "tigris: error: ..."; a damaged plan is TGRS_ERR_PLAN_CORRUPT.
  LoadedPlan loaded(args.positional()[0], LoadedPlan::Checksums::kReportAbsent);
  if (args.Flag("--json")) {
    std::printf("%s\n", PlanJson(loaded).c_str());
  } else {
    PrintPlanText(loaded, args.Flag("-v"));
  }
  return 0;
}

}  // namespace tigris::cli
