// Load + normalize time of the largest shared model (issue 2's benchmark):
//   build/bench/bench_load_normalize --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <string>

#include "tigris.h"

namespace {

void BM_LoadNormalize(benchmark::State& state, const char* file) {
  std::string path = std::string(TIGRIS_MODELS_DIR) + "/onnx/" + file;
  for (auto _ : state) {
    tigris_model* model = nullptr;
    if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
      state.SkipWithError(tigris_last_error());
      return;
    }
    benchmark::DoNotOptimize(tigris_model_op_count(model));
    tigris_model_free(model);
  }
}

BENCHMARK_CAPTURE(BM_LoadNormalize, mobilenet_v2_100_224, "mobilenet_v2_100_224.onnx")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadNormalize, vww_mobilenetv1_025_96, "vww_mobilenetv1_025_96.onnx")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
