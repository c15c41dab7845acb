// tigris_analyze time (issue 3's benchmark): planning a loaded model under a budget, the
// model loaded once outside the timed loop.
//   build/bench/bench_analyze --benchmark_repetitions=5
// Also times the search (issue 14), the timeline SVG on top, which is drawn on first request only,
// and the exact layout (issue 13) against its time limit: each iteration's time must stay under the
// limit plus the greedy planning time; the counter `peak` is the plan's fast arena.
#include <benchmark/benchmark.h>

#include <string>

#include "tigris.h"

namespace {

void BM_Analyze(benchmark::State& state, const char* file, uint64_t fast_bytes, bool with_svg,
                tigris_layout layout = TIGRIS_LAYOUT_GREEDY, double time_limit_seconds = 10,
                tigris_objective objective = TIGRIS_OBJECTIVE_NONE) {
  const std::string path = std::string(TIGRIS_MODELS_DIR) + "/onnx/" + file;
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
    state.SkipWithError(tigris_last_error());
    return;
  }
  tigris_analyze_options options = TIGRIS_ANALYZE_OPTIONS_INIT;
  options.fast_bytes = fast_bytes;
  options.layout = layout;
  options.time_limit_seconds = time_limit_seconds;
  options.objective = objective;
  uint64_t peak = 0;
  for (auto _ : state) {
    tigris_analysis* analysis = nullptr;
    if (tigris_analyze(&analysis, model, &options) != TIGRIS_OK) {
      state.SkipWithError(tigris_last_error());
      break;
    }
    peak = tigris_analysis_scheduled_peak_bytes(analysis);
    benchmark::DoNotOptimize(peak);
    if (with_svg) benchmark::DoNotOptimize(tigris_analysis_timeline_svg(analysis));
    tigris_analysis_free(analysis);
  }
  state.counters["ops"] = static_cast<double>(tigris_model_op_count(model));
  state.counters["peak"] = static_cast<double>(peak);
  tigris_model_free(model);
}

BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_256K, "mobilenet_v2_100_224.onnx", 256 * 1024,
                  false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_256K_svg, "mobilenet_v2_100_224.onnx",
                  256 * 1024, true)
    ->Unit(benchmark::kMillisecond);
// At its smallest budget (6,400 bytes, `tigris compile --xip` bisected): 2-D tiles, channel
// groups and every fitting search run (issue 11: < 1 s).
BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_6400B, "mobilenet_v2_100_224.onnx", 6400, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, vww_mobilenetv1_025_96_64K, "vww_mobilenetv1_025_96.onnx", 64 * 1024,
                  false)
    ->Unit(benchmark::kMillisecond);
// Exact layouts: the single stage of cifar (greedy 57,344 B, live bound 49,152 B), and
// MobileNetV2-1.0 at 64M and at its smallest budget with a 1 s limit for all the solves.
BENCHMARK_CAPTURE(BM_Analyze, cifar_mobilenet_relu6_64M_greedy, "cifar_mobilenet_relu6.onnx",
                  64 << 20, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, cifar_mobilenet_relu6_64M_exact, "cifar_mobilenet_relu6.onnx",
                  64 << 20, false, TIGRIS_LAYOUT_EXACT, 10.0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_64M_exact, "mobilenet_v2_100_224.onnx", 64 << 20,
                  false, TIGRIS_LAYOUT_EXACT, 10.0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_6400B_exact_1s, "mobilenet_v2_100_224.onnx",
                  6400, false, TIGRIS_LAYOUT_EXACT, 1.0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Analyze, vww_mobilenetv1_025_96_64K_exact_1s, "vww_mobilenetv1_025_96.onnx",
                  64 * 1024, false, TIGRIS_LAYOUT_EXACT, 1.0)
    ->Unit(benchmark::kMillisecond);

// The search (issue 14, `analyze --explore`: < 30 s on 2 cores): every configuration of
// tiling strategies and FDT splits at a bisected series of budgets, on every hardware
// thread; `peak` is the least fast memory it found. The text classifier and MLP of
// tests/e2e/test_fdt.py search FDT configurations too, but are made by the tests.
BENCHMARK_CAPTURE(BM_Analyze, mobilenet_v2_100_224_64K_explore, "mobilenet_v2_100_224.onnx",
                  64 * 1024, false, TIGRIS_LAYOUT_GREEDY, 10.0, TIGRIS_OBJECTIVE_MEMORY)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Analyze, vww_mobilenetv1_025_96_64K_explore, "vww_mobilenetv1_025_96.onnx",
                  64 * 1024, false, TIGRIS_LAYOUT_GREEDY, 10.0, TIGRIS_OBJECTIVE_MEMORY)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
