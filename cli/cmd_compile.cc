// `tigris compile MODEL -m FAST [-m SLOW] [-f FLASH] [--weights auto|in-place|copy|staged]
//  [--state IN=OUT]... [-c none|lz4]
//  [--layout greedy|exact [--time-limit S]] -o OUT.tgrs`:
// plan the model under the budgets and write the .tgrs execution plan.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "emit_c.h"
#include "exploration_table.h"
#include "inspect_plan.h"
#include "layout_options.h"
#include "model_options.h"
#include "target_option.h"

namespace tigris::cli {
namespace {

const char kCompileHelp[] =
    "usage: tigris compile MODEL (-m FAST [-m SLOW] [-f FLASH] | --target T.yaml)\n"
    "                      [--weights MODE] [-c none|lz4] -o OUT.tgrs [options]\n"
    "\n"
    "Plans the model (ONNX or .tflite, read by content) under the memory budgets and\n"
    "writes the .tgrs execution plan (docs/plan-format.md).\n"
    "\n"
    "options:\n"
    "  -m, --memory SIZE       fast (SRAM) budget; a second -m is the slow (PSRAM) budget;\n"
    "                          -m SIZE -m 0: one RAM of SIZE and nothing else, scratch\n"
    "                          and spills sharing it (docs/memories.md)\n"
    "  -f, --flash SIZE        flash budget for the whole plan file (default: unlimited)\n"
    "  --target FILE           the part's memories as YAML instead of -m/-f: scratch goes\n"
    "                          to the fastest writable memory, spills to the next with\n"
    "                          room, the plan to its plan_memory (docs/memories.md)\n"
    "  --weights MODE          where the runtime reads weights from (docs/planning.md,\n"
    "                          \"Weight residency\"):\n"
    "                            auto (default): in place from the plan (flash), except\n"
    "                              stages whose weights fit beside their activations in\n"
    "                              the fast budget and are read more than once: those\n"
    "                              copy them into the fast arena first\n"
    "                            in-place: always in place (execute in place)\n"
    "                            copy: every stage copies its weights into the fast\n"
    "                              arena; they count against the fast budget\n"
    "                            staged: all copied once, before the first invoke,\n"
    "                              into a CONSTANTS arena the firmware binds\n"
    "                              (tgrs_hydrate_constants; docs/memories.md)\n"
    "  --rules FILE            placement rules (with --target): which memory scratch,\n"
    "                          persistent and constant tensors go to, by kind and name;\n"
    "                          constants in place or staged; an id rule can pin scratch\n"
    "                          tensors to a second memory (docs/memories.md, \"Rules\")\n"
    "  --state IN=OUT          persistent state: graph input IN reads, on each invoke\n"
    "                          through a runtime context, what graph output OUT held\n"
    "                          after the previous one (zeros at first); repeatable\n"
    "  --xip                   the same as --weights in-place\n"
    "  -c, --compression MODE  none (default) or lz4: LZ4 blocks per stage, decompressed\n"
    "                          into the fast arena (auto then copies every stage; not\n"
    "                          with in-place)\n"
    "  -o, --output PATH       where to write the plan (required)\n"
    "  --emit-c DIR            also write DIR/NAME.h and DIR/NAME.c (NAME: the output's\n"
    "                          stem): the plan as an aligned const array in a section\n"
    "                          named after its memory, and per arena memory its size,\n"
    "                          alignment and tgrs_bind_arena index (docs/memories.md);\n"
    "                          names are stripped then unless --keep-names\n"
    "  --strip-names           leave op names and the names of tensors other than the\n"
    "                          graph's inputs and outputs out of the plan (tf2onnx's\n"
    "                          are hundreds of bytes each); inspect and errors print\n"
    "                          indices instead (docs/plan-format.md, \"Names\")\n"
    "  --keep-names            keep every name, also with --emit-c\n"
    "  -h, --help              show this help\n";

uint64_t ParseSize(const std::string& text, const char* what) {
  uint64_t bytes = 0;
  if (tigris_parse_size(&bytes, text.c_str()) != TIGRIS_OK) {
    throw UsageError(std::string(what) + ": " + tigris_last_error());
  }
  return bytes;
}

// --weights MODE, or --xip; auto when neither is given.
int ParseWeights(const Args& args) {
  const std::vector<std::string>& given = args.Values("--weights");
  if (given.size() > 1) throw UsageError("--weights is given more than once");
  if (args.Flag("--xip")) {
    if (!given.empty() && given[0] != "in-place") {
      throw UsageError("--xip means --weights in-place, but --weights " + given[0] +
                       " is given too");
    }
    return TIGRIS_WEIGHTS_IN_PLACE;
  }
  if (given.empty() || given[0] == "auto") return TIGRIS_WEIGHTS_AUTO;
  if (given[0] == "in-place") return TIGRIS_WEIGHTS_IN_PLACE;
  if (given[0] == "copy") return TIGRIS_WEIGHTS_COPIED;
  if (given[0] == "staged") return TIGRIS_WEIGHTS_STAGED;
  throw UsageError("--weights expects auto, in-place, copy or staged, got '" + given[0] + "'");
}

// Every --state IN=OUT, as tigris_plan_options.state's comma-separated list.
std::string StateList(const Args& args) {
  std::string list;
  for (const std::string& pair : args.Values("--state")) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size() ||
        pair.find(',') != std::string::npos) {
      throw UsageError("--state expects IN=OUT (a graph input and a graph output), got '" + pair +
                       "'");
    }
    list += (list.empty() ? "" : ",") + pair;
  }
  return list;
}

}  // namespace

int RunCompile(int argc, char** argv) {
  std::vector<std::vector<std::string>> options = ModelOptionSpellings();
  options.push_back({"-m", "--memory"});
  options.push_back({"-f", "--flash"});
  options.push_back({"-c", "--compression"});
  options.push_back({"-o", "--output"});
  for (std::vector<std::string>& spelling : LayoutOptionSpellings()) options.push_back(spelling);
  options.push_back({"--weights"});
  options.push_back({"--target"});
  options.push_back({"--emit-c"});
  options.push_back({"--state"});
  options.push_back({"--rules"});
  std::vector<std::vector<std::string>> flags = {
      {"--xip"}, {"--strip-names"}, {"--keep-names"}, {"-h", "--help"}};
  for (std::vector<std::string>& spelling : LayoutFlagSpellings()) flags.push_back(spelling);
  Args args(flags, options);
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::printf("%s%s%s", kCompileHelp, LayoutOptionsHelp(), ModelOptionsHelp());
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("compile takes exactly one MODEL argument");

  tigris_plan_options plan_options = TIGRIS_PLAN_OPTIONS_INIT;
  const std::vector<std::string>& memory = args.Values("-m");
  const std::optional<TargetFile> target = ReadTargetOption(args);
  const std::optional<TargetFile> rules = ReadFileOption(args, "--rules", "rules file");
  if (rules && !target) throw UsageError("--rules names a target's memories: give --target too");
  if (rules) {
    plan_options.rules_yaml = rules->yaml.c_str();
    plan_options.rules_source = rules->path.c_str();
  }
  if (target) {
    if (!memory.empty() || !args.Values("-f").empty()) {
      throw UsageError("--target gives the memory sizes: drop -m and -f");
    }
  } else {
    if (memory.empty() || memory.size() > 2) {
      throw UsageError("compile needs -m FAST and optionally a second -m SLOW, or --target");
    }
    plan_options.fast_bytes = ParseSize(memory[0], "-m");
    if (memory.size() == 2) {
      plan_options.slow_bytes =
          memory[1] == "0" ? TIGRIS_NO_SLOW_MEMORY : ParseSize(memory[1], "-m");
    }
    if (args.Values("-f").size() > 1) throw UsageError("-f is given more than once");
    if (!args.Values("-f").empty()) {
      plan_options.flash_bytes = ParseSize(args.Values("-f")[0], "-f");
    }
  }
  plan_options.xip = ParseWeights(args);
  const std::string state = StateList(args);
  plan_options.state = state.c_str();
  const std::string compression = args.Values("-c").empty() ? "none" : args.Values("-c").back();
  if (compression == "lz4") {
    plan_options.compression = TIGRIS_COMPRESSION_LZ4;
  } else if (compression != "none") {
    throw UsageError("-c expects none or lz4, got '" + compression + "'");
  }
  if ((plan_options.xip == TIGRIS_WEIGHTS_IN_PLACE || plan_options.xip == TIGRIS_WEIGHTS_STAGED) &&
      plan_options.compression == TIGRIS_COMPRESSION_LZ4) {
    throw UsageError(
        "--weights in-place (--xip) and staged keep weights as stored and cannot "
        "be combined with -c lz4");
  }
  ApplyLayoutChoice(ParseLayoutOptions(args), &plan_options);
  if (args.Flag("--strip-names") && args.Flag("--keep-names")) {
    throw UsageError("--strip-names and --keep-names contradict each other");
  }
  // A firmware's array holds the plan in flash: names are for people at a host, so --emit-c
  // leaves them out unless asked.
  plan_options.strip_names = args.Flag("--strip-names") ||
                             (!args.Values("--emit-c").empty() && !args.Flag("--keep-names"));
  if (args.Values("-o").size() != 1) throw UsageError("compile needs exactly one -o OUT.tgrs");
  if (args.Values("--emit-c").size() > 1) throw UsageError("--emit-c is given more than once");
  if (!args.Values("--emit-c").empty() &&
      !std::filesystem::is_directory(args.Values("--emit-c")[0])) {
    throw UsageError("--emit-c " + args.Values("--emit-c")[0] + ": not a directory");
  }
  const std::string out_path = args.Values("-o")[0];

  tigris_status status = TIGRIS_OK;
  tigris_model* model = LoadModel(args.positional()[0], args, &status);
  if (!model) return 1;
  tigris_execution_plan* plan = nullptr;
  status = target ? tigris_plan_for_target(&plan, model, &plan_options, target->yaml.c_str(),
                                           target->path.c_str())
                  : tigris_plan(&plan, model, &plan_options);
  if (status == TIGRIS_OK) {
    status = tigris_emit_to_file(plan, out_path.c_str());
    if (status != TIGRIS_OK) PrintLibraryError(status, tigris_plan_last_error(plan));
  } else {
    PrintLibraryError(status, tigris_model_last_error(model));
  }
  if (status == TIGRIS_OK) {
    const std::string warnings = tigris_plan_warnings(plan);
    if (!warnings.empty()) std::fprintf(stderr, "%s", warnings.c_str());
    const uint64_t raw = tigris_plan_weight_bytes(plan);
    const uint64_t stored = tigris_plan_stored_weight_bytes(plan);
    std::printf("plan     %s  %llu bytes", out_path.c_str(),
                static_cast<unsigned long long>(tigris_plan_file_bytes(plan)));
    if (plan_options.flash_bytes) {
      std::printf(" (flash budget %llu)",
                  static_cast<unsigned long long>(plan_options.flash_bytes));
    }
    std::printf("\nweights  %llu bytes raw, %llu bytes stored (%s",
                static_cast<unsigned long long>(raw), static_cast<unsigned long long>(stored),
                compression.c_str());
    if (stored) std::printf(", ratio %.2f", static_cast<double>(raw) / static_cast<double>(stored));
    std::printf(")\n");
    // The plan as the runtime reads it says where each stage's weights are.
    void* raw_bytes = nullptr;
    size_t size = 0;
    std::string bytes;
    if (tigris_emit(&raw_bytes, &size, plan) == TIGRIS_OK) {
      bytes.assign(static_cast<const char*>(raw_bytes), size);
      const LoadedPlan loaded(bytes, out_path);
      std::printf("         %s\n", WeightResidencyText(loaded.plan()).c_str());
    }
    tigris_free(raw_bytes);
    if (target || plan_options.slow_bytes == TIGRIS_NO_SLOW_MEMORY) {
      PrintMemoryTable(tigris_plan_memories_json(plan));
    } else {
      std::printf("fast     %llu bytes arena (budget %llu)\n",
                  static_cast<unsigned long long>(tigris_plan_fast_arena_bytes(plan)),
                  static_cast<unsigned long long>(plan_options.fast_bytes));
      std::printf("slow     %llu bytes arena\n",
                  static_cast<unsigned long long>(tigris_plan_slow_arena_bytes(plan)));
      PrintStateAndConstants(tigris_plan_memories_json(plan));
    }
    PrintSearchChoice(stdout, nlohmann::json::parse(tigris_plan_exploration_json(plan)));
    if (!args.Values("--emit-c").empty() && !bytes.empty()) {
      const std::string stem = std::filesystem::path(out_path).stem().string();
      std::printf("firmware %s\n",
                  WriteEmitC(bytes, out_path, args.Values("--emit-c")[0], stem).c_str());
    }
  }
  tigris_plan_free(plan);
  tigris_model_free(model);
  return status == TIGRIS_OK ? 0 : 1;
}

}  // namespace tigris::cli
