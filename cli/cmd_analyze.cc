// `tigris analyze MODEL [--json]`: load, normalize and verify a model, then report it.
#include <cstdio>
#include <map>
#include <string>

#include "commands.h"
#include "model_options.h"

namespace tigris::cli {
namespace {

const char kAnalyzeHelp[] =
    "usage: tigris analyze MODEL.onnx [options]\n"
    "\n"
    "Loads an ONNX model (float32 or int8 QDQ), normalizes it to the runtime's operator\n"
    "set and prints a summary.\n"
    "\n"
    "options:\n"
    "  --json                  print JSON instead of the human report\n"
    "  -h, --help              show this help\n";

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

}  // namespace

int RunAnalyze(int argc, char** argv) {
  std::vector<std::vector<std::string>> options = ModelOptionSpellings();
  Args args({{"--json"}, {"-h", "--help"}}, options);
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::printf("%s%s", kAnalyzeHelp, ModelOptionsHelp());
    return 0;
  }
  if (args.positional().size() != 1) {
    throw UsageError("analyze takes exactly one MODEL argument");
  }

  tigris_status status = TIGRIS_OK;
  tigris_model* model = LoadModel(args.positional()[0], args, &status);
  if (!model) return 1;

  if (args.Flag("--json")) {
    std::printf("%s\n", tigris_model_json(model));
  } else {
    PrintSummary(model);
  }
  tigris_model_free(model);
  return 0;
}

}  // namespace tigris::cli
