// `tigris run PLAN.tgrs --input X.npy [--input ...] --output Y.npy [-m FAST] [-m SLOW]`,
// or `--target T.yaml` (a fit check first, tigris_plan_check_target): runs a plan on the
// host with the C99 runtime through the C ABI (tigris_run_plan) and prints the latency and
// both arenas' high-water marks. The runtime's reader (tigris_runtime.h) is used to learn
// the plan's input and output shapes, and --dump-intermediates runs the plan once more
// with the runtime's observer (intermediates.h).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "input_file.h"
#include "inspect_plan.h"
#include "intermediates.h"
#include "model_options.h"
#include "npy.h"
#include "target_option.h"
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::cli {
namespace {

const char kRunHelp[] =
    "usage: tigris run PLAN.tgrs --input X.npy [--input ...] --output Y.npy [--output ...]\n"
    "                  [-m FAST] [-m SLOW | --target T.yaml] [--dequantize]\n"
    "                  [--dump-intermediates DIR] [--repeat N]\n"
    "\n"
    "Runs the plan on this machine with the TiGrIS C99 runtime (the code the microcontroller\n"
    "runs) and prints the latency and the high-water mark of each arena.\n"
    "\n"
    "Inputs are NumPy .npy arrays in the model's own layout and shape (an ONNX model's\n"
    "declared input, usually NCHW; a .tflite's, usually NHWC int8), one per graph input in\n"
    "order. For an int8 plan made from a QDQ model, float32 inputs are\n"
    "quantized with the plan's input scale and zero point; int8 arrays pass unchanged.\n"
    "\n"
    "options:\n"
    "  -i, --input PATH        a graph input (.npy), repeated per input\n"
    "  -o, --output PATH       where to write a graph output (.npy), repeated per output\n"
    "  -m, --memory SIZE       fast arena size (default: the plan's fast_arena_bytes);\n"
    "                          a second -m is the slow arena (default: the plan's)\n"
    "  --target FILE           first check that the plan fits the part: every memory it\n"
    "                          names (arenas and the plan file) is the target's, and what\n"
    "                          each holds fits its size (docs/memories.md); exit 1 if not\n"
    "  --dequantize            write int8 outputs as float32 (the plan's output scale)\n"
    "  --dump-intermediates DIR\n"
    "                          also write every op's output to DIR as NNN_<tensor>.npy in\n"
    "                          the ONNX layout (NCHW), with DIR/index.json naming each\n"
    "                          tensor, op, dtype, shape and quantization, to compare a plan\n"
    "                          layer by layer with onnxruntime (runs the plan twice)\n"
    "  --repeat N              run N times (default 1) and print the median latency and\n"
    "                          the fastest run (bench/compare/latency_tigris_ml.py)\n"
    "  -h, --help              show this help\n";

struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete(p, std::align_val_t(TGRS_PLAN_ALIGNMENT)); }
};

std::vector<int64_t> Shape(tgrs_i32s dims) {
  return std::vector<int64_t>(dims.data, dims.data + dims.count);
}

tigris_dtype DTypeOfDescr(const std::string& descr) {
  if (descr == "<f4") return TIGRIS_DTYPE_FLOAT32;
  if (descr == "|i1" || descr == "<i1") return TIGRIS_DTYPE_INT8;
  if (descr == "|u1" || descr == "<u1") return TIGRIS_DTYPE_UINT8;
  if (descr == "<i2") return TIGRIS_DTYPE_INT16;
  if (descr == "<i4") return TIGRIS_DTYPE_INT32;
  if (descr == "<i8") return TIGRIS_DTYPE_INT64;
  if (descr == "|b1") return TIGRIS_DTYPE_BOOL;
  return TIGRIS_DTYPE_UNKNOWN;
}

uint64_t ParseSize(const std::string& text) {
  uint64_t bytes = 0;
  if (tigris_parse_size(&bytes, text.c_str()) != TIGRIS_OK) {
    throw UsageError(std::string("-m: ") + tigris_last_error());
  }
  return bytes;
}

}  // namespace

int RunRun(int argc, char** argv) {
  Args args({{"--dequantize"}, {"-h", "--help"}}, {{"-i", "--input"},
                                                   {"-o", "--output"},
                                                   {"-m", "--memory"},
                                                   {"--dump-intermediates"},
                                                   {"--repeat"},
                                                   {"--target"}});
  args.Parse(argc, argv, 2);
  if (args.Flag("-h")) {
    std::fputs(kRunHelp, stdout);
    return 0;
  }
  if (args.positional().size() != 1) throw UsageError("run takes exactly one PLAN argument");
  tigris_run_options options = TIGRIS_RUN_OPTIONS_INIT;
  const std::vector<std::string>& memory = args.Values("-m");
  if (memory.size() > 2) throw UsageError("run takes at most two -m (fast, then slow)");
  const std::optional<TargetFile> target = ReadTargetOption(args);
  if (target && !memory.empty()) {
    throw UsageError("--target checks the plan's own arena sizes against the part: drop -m");
  }
  if (!memory.empty()) options.fast_bytes = ParseSize(memory[0]);
  if (memory.size() == 2) options.slow_bytes = ParseSize(memory[1]);
  const std::vector<std::string>& dump = args.Values("--dump-intermediates");
  if (dump.size() > 1) throw UsageError("--dump-intermediates takes one directory");
  int repeat = 1;
  if (!args.Values("--repeat").empty()) {
    const std::string& text = args.Values("--repeat").back();
    char* end = nullptr;
    const long n = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str() || *end != '\0' || n < 1 || n > 100000) {
      throw UsageError("--repeat takes a run count from 1 to 100000, not '" + text + "'");
    }
    repeat = static_cast<int>(n);
  }

  // The plan, 16-aligned, verified by the runtime's reader to learn its inputs and outputs.
  const std::string path = args.positional()[0];
  const std::string bytes = ReadInputFile(path, "plan");
  std::unique_ptr<uint8_t, AlignedFree> aligned(static_cast<uint8_t*>(
      ::operator new(bytes.size() ? bytes.size() : 1, std::align_val_t(TGRS_PLAN_ALIGNMENT))));
  std::memcpy(aligned.get(), bytes.data(), bytes.size());
  tgrs_plan plan;
  tgrs_status st = tgrs_plan_init(&plan, aligned.get(), bytes.size());
  if (st != TGRS_OK) {
    char detail[256];
    tgrs_verify_error_format(&plan.error, detail, sizeof detail);
    throw std::runtime_error(path + ": " + detail + " [" + tgrs_status_name(st) + "]");
  }
  if (target) {
    const tigris_status fits = tigris_plan_check_target(bytes.data(), bytes.size(),
                                                        target->yaml.c_str(), target->path.c_str());
    if (fits != TIGRIS_OK) {
      PrintLibraryError(fits, tigris_last_error());
      return 1;
    }
  }
  const tgrs_i32s plan_inputs = tgrs_plan_inputs(&plan);
  const tgrs_i32s plan_outputs = tgrs_plan_outputs(&plan);
  if (args.Values("-i").size() != plan_inputs.count) {
    throw UsageError("the plan has " + std::to_string(plan_inputs.count) +
                     " input(s); give one --input per input");
  }
  if (args.Values("-o").size() != plan_outputs.count) {
    throw UsageError("the plan has " + std::to_string(plan_outputs.count) +
                     " output(s); give one --output per output");
  }

  std::vector<NpyArray> in_arrays;
  std::vector<tigris_run_io> inputs;
  for (uint32_t i = 0; i < plan_inputs.count; ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(plan_inputs.data[i]), &t);
    in_arrays.push_back(ReadNpy(args.Values("-i")[i]));
    const NpyArray& a = in_arrays.back();
    const std::vector<int64_t> want = Shape(t.onnx_shape.count ? t.onnx_shape : t.shape);
    if (a.shape != want) {
      // The runtime's status for a wrong input, named so scripts can match it.
      PrintLibraryError(
          TIGRIS_ERR_INVALID_ARGUMENT,
          (std::string(tgrs_status_name(TGRS_ERR_INPUT_SIZE)) + ": input " + std::to_string(i) +
           " '" + t.name + "': " + args.Values("-i")[i] + " has shape " + NpyShapeText(a.shape) +
           ", the plan expects " + NpyShapeText(want))
              .c_str());
      return 1;
    }
  }
  for (NpyArray& a : in_arrays) {
    tigris_run_io io = {TIGRIS_RUN_IO_VERSION, DTypeOfDescr(a.descr), a.data.data(), a.data.size()};
    inputs.push_back(io);
  }
  std::vector<NpyArray> out_arrays(plan_outputs.count);
  std::vector<tigris_run_io> outputs;
  for (uint32_t i = 0; i < plan_outputs.count; ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(plan_outputs.data[i]), &t);
    const bool as_float = args.Flag("--dequantize") && t.dtype == TGRS_DTYPE_INT8;
    NpyArray& a = out_arrays[i];
    a.descr = as_float ? "<f4" : NpyDescr(t.host_dtype);  // uint8 when the model says so
    a.shape = Shape(t.onnx_shape.count ? t.onnx_shape : t.shape);
    a.data.resize(static_cast<size_t>(NpyElements(a.shape)) * NpyItemSize(a.descr));
    tigris_run_io io = {TIGRIS_RUN_IO_VERSION,
                        as_float ? TIGRIS_DTYPE_FLOAT32 : DTypeOfDescr(a.descr), a.data.data(),
                        a.data.size()};
    outputs.push_back(io);
  }

  tigris_run_stats stats;
  std::vector<double> seconds;  // of every run, for --repeat
  for (int r = 0; r < repeat; ++r) {
    stats.version = TIGRIS_RUN_STATS_VERSION;
    const tigris_status status =
        tigris_run_plan(bytes.data(), bytes.size(), &options, inputs.data(), inputs.size(),
                        outputs.data(), outputs.size(), &stats);
    if (status != TIGRIS_OK) {
      PrintLibraryError(status, tigris_last_error());
      return 1;
    }
    seconds.push_back(stats.run_seconds);
  }
  std::sort(seconds.begin(), seconds.end());
  for (uint32_t i = 0; i < plan_outputs.count; ++i) WriteNpy(args.Values("-o")[i], out_arrays[i]);

  std::printf("plan     %s  %zu bytes, model '%s'\n", path.c_str(), bytes.size(),
              tgrs_plan_model_name(&plan));
  if (target) std::printf("target   %s: every memory the plan uses fits\n", target->path.c_str());
  if (repeat == 1) {
    std::printf("latency  %.3f ms\n", stats.run_seconds * 1e3);
  } else {
    std::printf("latency  %.3f ms median of %d runs, fastest %.3f ms\n",
                seconds[seconds.size() / 2] * 1e3, repeat, seconds.front() * 1e3);
  }
  std::printf(
      "fast     high-water %llu of %llu bytes arena (plan: fast_arena_bytes %u, "
      "scheduled peak %u, %s)\n",
      static_cast<unsigned long long>(stats.fast_hwm_bytes),
      static_cast<unsigned long long>(stats.fast_arena_bytes), tgrs_plan_fast_arena_bytes(&plan),
      tgrs_plan_scheduled_peak_bytes(&plan), ("weights " + WeightResidencyText(plan)).c_str());
  std::printf("slow     high-water %llu of %llu bytes arena\n",
              static_cast<unsigned long long>(stats.slow_hwm_bytes),
              static_cast<unsigned long long>(stats.slow_arena_bytes));
  if (stats.pinned_arena_bytes > 0) {
    std::printf("pinned   high-water %llu of %llu bytes arena\n",
                static_cast<unsigned long long>(stats.pinned_hwm_bytes),
                static_cast<unsigned long long>(stats.pinned_arena_bytes));
  }
  // The arenas were poisoned before the run (tigris_run_plan): proof of the high-water mark.
  std::printf("poison   fast %s, slow %s beyond the high-water marks%s\n",
              stats.fast_untouched_beyond_hwm ? "intact" : "DAMAGED",
              stats.slow_untouched_beyond_hwm ? "intact" : "DAMAGED",
              stats.pinned_arena_bytes == 0       ? ""
              : stats.pinned_untouched_beyond_hwm ? "; pinned intact"
                                                  : "; pinned DAMAGED");
  for (uint32_t i = 0; i < plan_outputs.count; ++i) {
    std::printf("output   %s %s %s\n", args.Values("-o")[i].c_str(),
                NpyShapeText(out_arrays[i].shape).c_str(), out_arrays[i].descr.c_str());
  }
  if (!dump.empty()) {
    const size_t n =
        DumpIntermediates(plan, in_arrays, options.fast_bytes, options.slow_bytes, dump[0]);
    std::printf("dumped   %zu tensors to %s (index.json lists them)\n", n, dump[0].c_str());
  }
  return 0;
}

}  // namespace tigris::cli
