// `tigris analyze MODEL [-m FAST [-m SLOW]] [-f FLASH] [-v] [--json] [--timeline FILE]
//  [--explore] [--layout greedy|exact [--time-limit S]] [--objective G [--max-recompute P]]`:
// load, normalize and verify a model, then report it; with -m, plan it under the budgets
// (tigris_analyze) and report the memory analysis.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "analysis_report.h"
#include "commands.h"
#include "exploration_table.h"
#include "layout_options.h"
#include "model_options.h"
#include "target_option.h"

namespace tigris::cli {
namespace {

const char kAnalyzeHelp[] =
    "usage: tigris analyze MODEL [-m FAST [-m SLOW] [-f FLASH] | --target T.yaml]\n"
    "                      [-v] [--json] [--timeline FILE.svg] [options]\n"
    "\n"
    "Loads a model, ONNX (float32 or int8 QDQ) or TFLite (.tflite, float32 or full\n"
    "integer; the format is read from the file's content), normalizes it to the runtime's\n"
    "operator set and prints a summary. With -m it also plans the model under the memory budgets\n"
    "(stages, spills, row tiling, chains) and reports whether and how it fits.\n"
    "\n"
    "options:\n"
    "  -m, --memory SIZE       SRAM budget; a second -m is the slow memory (PSRAM) for\n"
    "                          spills (default: unlimited, the footprint is reported);\n"
    "                          -m SIZE -m 0: one RAM of SIZE and nothing else, scratch\n"
    "                          and spills sharing it (docs/memories.md)\n"
    "  -f, --flash SIZE        flash budget for the weights (reported)\n"
    "  --target FILE           plan for a part's memories (YAML, docs/memories.md) instead\n"
    "                          of -m/-f, and print what each memory holds\n"
    "  -v, --verbose           also print a table of every stage (needs -m or --target);\n"
    "                          with --explore, every plan the search made\n"
    "  --explore               search (as --objective memory unless it says otherwise) and\n"
    "                          print the Pareto front of what it found: fast memory,\n"
    "                          recompute MACs, slow traffic, tile steps (docs/planning.md)\n"
    "  --json                  print JSON instead of the human report\n"
    "  --timeline FILE.svg     write the memory timeline chart, a lane per memory (needs\n"
    "                          -m or --target)\n"
    "  -h, --help              show this help\n"
    "sizes: bytes or a number with K, M or G (binary): 262144, 256K, 1.5MiB\n"
    "planning (with -m or --target):\n";

std::string ShapeText(const tigris_tensor_info& t) {
  std::string s;
  for (size_t i = 0; i < t.rank; ++i) {
    if (i) s += 'x';
    s += std::to_string(t.shape[i]);
  }
  return s.empty() ? "scalar" : s;
}

tigris_tensor_info Tensor(const tigris_model* m, int32_t index) {
  tigris_tensor_info t{};
  t.version = TIGRIS_TENSOR_INFO_VERSION;
  tigris_model_tensor(m, static_cast<size_t>(index), &t);
  return t;
}

void PrintSummary(const tigris_model* m) {
  std::map<std::string, int> op_types;
  size_t quantized = 0;
  for (size_t i = 0; i < tigris_model_op_count(m); ++i) {
    tigris_op_info op{};
    op.version = TIGRIS_OP_INFO_VERSION;
    if (tigris_model_op(m, i, &op) == TIGRIS_OK) ++op_types[op.type];
  }
  for (size_t i = 0; i < tigris_model_tensor_count(m); ++i) {
    tigris_tensor_info t = Tensor(m, static_cast<int32_t>(i));
    if (!t.is_constant && t.num_scales) ++quantized;
  }
  std::printf("model    %s\n", tigris_model_name(m));
  std::printf("dtype    %s\n", quantized ? "int8" : "float32");
  std::printf("ops      %zu after normalization\n", tigris_model_op_count(m));
  std::printf("tensors  %zu\n", tigris_model_tensor_count(m));
  for (size_t i = 0; i < tigris_model_input_count(m); ++i) {
    tigris_tensor_info t = Tensor(m, tigris_model_input(m, i));
    std::printf("input    %s  %s\n", t.name, ShapeText(t).c_str());
  }
  for (size_t i = 0; i < tigris_model_output_count(m); ++i) {
    tigris_tensor_info t = Tensor(m, tigris_model_output(m, i));
    std::printf("output   %s  %s\n", t.name, ShapeText(t).c_str());
  }
  std::printf("op types");
  const char* sep = " ";
  for (const auto& [type, count] : op_types) {
    std::printf("%s%s x%d", sep, type.c_str(), count);
    sep = ", ";
  }
  std::printf("\n");
}

// Sizes are parsed only by the library (tigris_parse_size); a bad one is the user's
// command line at fault, so it is a usage error that repeats the library's explanation.
uint64_t ParseSizeOption(const std::string& option, const std::string& text) {
  uint64_t bytes = 0;
  if (tigris_parse_size(&bytes, text.c_str()) != TIGRIS_OK) {
    throw UsageError(option + ": " + tigris_last_error());
  }
  return bytes;
}

// Budgets from -m FAST [-m SLOW] and -f FLASH; false when no -m was given.
bool ParseBudgets(const Args& args, tigris_analyze_options* options, bool target) {
  const std::vector<std::string>& memory = args.Values("-m");
  if (target) {
    if (!memory.empty() || !args.Values("-f").empty()) {
      throw UsageError("--target gives the memory sizes: drop -m and -f");
    }
    if (args.Values("--timeline").size() > 1)
      throw UsageError("--timeline is given more than once");
    ApplyLayoutChoice(ParseLayoutOptions(args, args.Flag("--explore")), options);
    return true;
  }
  if (memory.empty()) {
    for (const char* needs_m :
         {"-f", "--timeline", "--layout", "--time-limit", "--objective", "--max-recompute"}) {
      if (!args.Values(needs_m).empty())
        throw UsageError(std::string(needs_m) + " needs -m FAST or --target");
    }
    for (const char* needs_m : {"-v", "--no-fdt", "--explore"}) {
      if (args.Flag(needs_m)) throw UsageError(std::string(needs_m) + " needs -m FAST or --target");
    }
    return false;
  }
  if (memory.size() > 2) {
    throw UsageError("-m is given " + std::to_string(memory.size()) +
                     " times; expected -m FAST [-m SLOW]");
  }
  if (args.Values("-f").size() > 1) throw UsageError("-f is given more than once");
  if (args.Values("--timeline").size() > 1) throw UsageError("--timeline is given more than once");
  options->fast_bytes = ParseSizeOption("-m", memory[0]);
  if (memory.size() == 2) {
    options->slow_bytes =
        memory[1] == "0" ? TIGRIS_NO_SLOW_MEMORY : ParseSizeOption("-m (slow)", memory[1]);
  }
  if (!args.Values("-f").empty())
    options->flash_bytes = ParseSizeOption("-f", args.Values("-f")[0]);
  ApplyLayoutChoice(ParseLayoutOptions(args, args.Flag("--explore")), options);
  return true;
}

// "dir/vww_96.onnx" -> "vww_96", "dir/kws.tflite" -> "kws".
std::string ModelStem(const std::string& path) {
  std::string s = path.substr(path.find_last_of('/') + 1);
  for (const std::string_view ext : {".onnx", ".tflite"}) {
    if (s.size() > ext.size() && s.compare(s.size() - ext.size(), ext.size(), ext) == 0) {
      s.resize(s.size() - ext.size());
      break;
    }
  }
  return s;
}

// Writes the timeline chart; false (message printed) when the file cannot be written.
bool WriteTimeline(const tigris_analysis* analysis, const std::string& path) {
  const char* svg = tigris_analysis_timeline_svg(analysis);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fputs(svg, f) >= 0;
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) {
    PrintLibraryError(TIGRIS_ERR_IO,
                      ("cannot write timeline '" + path + "': " + std::strerror(errno)).c_str());
  }
  return ok;
}

int AnalyzeUnderBudget(const tigris_model* model, const Args& args,
                       const tigris_analyze_options& options,
                       const std::optional<TargetFile>& target) {
  tigris_analysis* analysis = nullptr;
  tigris_status status = target
                             ? tigris_analyze_for_target(&analysis, model, &options,
                                                         target->yaml.c_str(), target->path.c_str())
                             : tigris_analyze(&analysis, model, &options);
  if (status != TIGRIS_OK) {
    PrintLibraryError(status, tigris_last_error());
    return 1;
  }
  int exit_code = 0;
  if (args.Flag("--json")) {
    std::printf("%s\n", tigris_analysis_json(analysis));
  } else {
    PrintAnalysisReport(stdout, analysis, ModelStem(args.positional()[0]), args.Flag("-v"));
    if (args.Flag("--explore")) {
      const nlohmann::json report = nlohmann::json::parse(tigris_analysis_json(analysis));
      std::printf("\n");
      PrintExplorationTable(stdout, report.at("exploration"),
                            report.at("totals").at("macs").get<uint64_t>(), args.Flag("-v"));
    }
    // A target's (or one RAM's, -m FAST -m 0) memories.
    const nlohmann::json report = nlohmann::json::parse(tigris_analysis_json(analysis));
    if (report.contains("target")) {
      std::printf("\n");
      PrintMemoryTable(report.at("memories").dump().c_str());
      if (!report.at("target").at("spills_fit").get<bool>()) {
        std::printf("spills    %llu bytes fit no writable memory besides the scratch one\n",
                    static_cast<unsigned long long>(tigris_analysis_slow_peak_bytes(analysis)));
        exit_code = 1;
      }
    }
  }
  // The report stands, but compile would refuse this plan: fail as compile fails.
  if (tigris_analysis_refusal_status(analysis) != TIGRIS_OK) {
    PrintLibraryError(tigris_analysis_refusal_status(analysis), tigris_analysis_refusal(analysis));
    exit_code = 1;
  }
  if (!args.Values("--timeline").empty()) {
    const std::string& path = args.Values("--timeline")[0];
    if (!WriteTimeline(analysis, path)) {
      exit_code = 1;
    } else if (!args.Flag("--json")) {
      std::printf("timeline  %s\n", path.c_str());
    }
  }
  tigris_analysis_free(analysis);
  return exit_code;
}

}  // namespace

int RunAnalyze(int argc, char** argv) {
  std::vector<std::vector<std::string>> options = ModelOptionSpellings();
  options.push_back({"-m", "--memory"});
  options.push_back({"-f", "--flash"});
  options.push_back({"--timeline"});
  options.push_back({"--target"});
  for (std::vector<std::string>& spelling : LayoutOptionSpellings()) options.push_back(spelling);
  std::vector<std::vector<std::string>> flags = {
      {"--json"}, {"-v", "--verbose"}, {"--explore"}, {"-h", "--help"}};
  for (std::vector<std::string>& spelling : LayoutFlagSpellings()) flags.push_back(spelling);
  Args args(flags, options);
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::printf("%s%s%s", kAnalyzeHelp, LayoutOptionsHelp(), ModelOptionsHelp());
    return 0;
  }
  if (args.positional().size() != 1) {
    throw UsageError("analyze takes exactly one MODEL argument");
  }
  // Budgets first: a usage error should not wait for a large model to load.
  tigris_analyze_options budgets = TIGRIS_ANALYZE_OPTIONS_INIT;
  const std::optional<TargetFile> target = ReadTargetOption(args);
  const bool plan = ParseBudgets(args, &budgets, target.has_value());

  tigris_status status = TIGRIS_OK;
  tigris_model* model = LoadModel(args.positional()[0], args, &status);
  if (!model) return 1;

  int exit_code = 0;
  if (plan) {
    exit_code = AnalyzeUnderBudget(model, args, budgets, target);
  } else if (args.Flag("--json")) {
    std::printf("%s\n", tigris_model_json(model));
  } else {
    PrintSummary(model);
  }
  tigris_model_free(model);
  return exit_code;
}

}  // namespace tigris::cli
