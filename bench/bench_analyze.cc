// tigris_analyze time (issue 3's benchmark): planning a loaded model under a budget, the
// model loaded once outside the timed loop.
//   build/bench/bench_analyze --benchmark_repetitions=5
// Also times the timeline SVG on top, which is drawn on first request only.
#include <benchmark/benchmark.h>

#include <string>

#include "tigris.h"

namespace {

void BM_Analyze(benchmark::State& state, const char* file, uint64_t fast_bytes, bool with_svg) {
  const std::string path = std::string(TIGRIS_MODELS_DIR) + "/onnx/" + file;
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
    state.SkipWithError(tigris_last_error());
    return;
  }
  tigris_analyze_options options = TIGRIS_ANALYZE_OPTIONS_INIT;
  options.fast_bytes = fast_bytes;
  for (auto _ : state) {
    tigris_analysis* analysis = nullptr;
    if (tigris_analyze(&analysis, model, &options) != TIGRIS_OK) {
      state.SkipWithError(tigris_last_error());
      break;
    }
    benchmark::DoNotOptimize(tigris_analysis_scheduled_peak_bytes(analysis));
    if (with_svg) benchmark::DoNotOptimize(tigris_analysis_timeline_svg(analysis));
    tigris_analysis_free(analysis);
  }
  state.counters["ops"] = static_cast<double>(tigris_model_op_count(model));
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

}  // namespace

BENCHMARK_MAIN();
