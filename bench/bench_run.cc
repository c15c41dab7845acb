// A full host run of the bundled example model (examples/vww_mobilenetv1_025_96.onnx)
// compiled at a 64K fast budget with --xip (tiles, chains and spills), through the C99
// runtime's tgrs_run: what `tigris run` times, without the CLI around it.
//   build/bench/bench_run --benchmark_min_time=1
// The int8 variant uses <build>/test-models/vww_mobilenetv1_025_96.int8.onnx when
// TIGRIS_BUILD_DIR points at a build that made it (tests/models/), else it is skipped.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "tigris.h"
#include "tigris_executor.h"

namespace {

struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};
using Aligned = std::unique_ptr<uint8_t[], AlignedFree>;
Aligned Allocate(size_t n) { return Aligned(new (std::align_val_t(16)) uint8_t[n ? n : 1]); }

// Compiles through the C ABI exactly as `tigris compile MODEL -m 64K --xip` does.
std::vector<uint8_t> CompileAt64K(const std::string& path) {
  std::vector<uint8_t> out;
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) return out;
  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  options.fast_bytes = 64 * 1024;
  options.xip = 1;
  tigris_execution_plan* plan = nullptr;
  void* bytes = nullptr;
  size_t size = 0;
  if (tigris_plan(&plan, model, &options) == TIGRIS_OK &&
      tigris_emit(&bytes, &size, plan) == TIGRIS_OK) {
    out.assign(static_cast<uint8_t*>(bytes), static_cast<uint8_t*>(bytes) + size);
  }
  tigris_free(bytes);
  tigris_plan_free(plan);
  tigris_model_free(model);
  return out;
}

void BM_RunPlan(benchmark::State& state, const std::string& path) {
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("missing " + path).c_str());
    return;
  }
  const std::vector<uint8_t> bytes = CompileAt64K(path);
  if (bytes.empty()) {
    state.SkipWithError(tigris_last_error());
    return;
  }
  Aligned plan_bytes = Allocate(bytes.size());
  std::memcpy(plan_bytes.get(), bytes.data(), bytes.size());
  tgrs_plan plan;
  if (tgrs_plan_init(&plan, plan_bytes.get(), bytes.size()) != TGRS_OK) {
    state.SkipWithError("plan rejected by the reader");
    return;
  }
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan), slow = tgrs_plan_slow_arena_bytes(&plan);
  Aligned fast_arena = Allocate(fast), slow_arena = Allocate(slow);
  tgrs_plan_tensor in_t, out_t;
  tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(tgrs_plan_inputs(&plan).data[0]), &in_t);
  tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(tgrs_plan_outputs(&plan).data[0]), &out_t);
  std::vector<uint8_t> x(tgrs_plan_tensor_bytes(&in_t), 0), y(tgrs_plan_tensor_bytes(&out_t));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>(i * 37 % 251);
  tgrs_arenas arenas = {fast_arena.get(), fast, slow_arena.get(), slow, nullptr, 0};
  tgrs_input_buffer in = {x.data(), x.size()};
  tgrs_output_buffer out = {y.data(), y.size()};
  tgrs_run_stats stats{};
  for (auto _ : state) {
    if (tgrs_run(&plan, &arenas, &in, 1, &out, 1, &stats) != TGRS_OK) {
      state.SkipWithError("tgrs_run failed");
      return;
    }
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["fast_hwm_B"] = static_cast<double>(stats.fast_hwm_bytes);
  state.counters["slow_hwm_B"] = static_cast<double>(stats.slow_hwm_bytes);
  state.counters["tiles"] = static_cast<double>(stats.tiles_run);
}

const std::string kFloatModel =
    std::string(TIGRIS_SOURCE_DIR) + "/examples/vww_mobilenetv1_025_96.onnx";

std::string Int8Model() {
  const char* build = std::getenv("TIGRIS_BUILD_DIR");
  return std::string(build ? build : ".") + "/test-models/vww_mobilenetv1_025_96.int8.onnx";
}

BENCHMARK_CAPTURE(BM_RunPlan, vww_float32_64K_xip, kFloatModel)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_RunPlan, vww_int8_64K_xip, Int8Model())->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
