// The exact arena layout (plan/exact_layout.h) against its time limit, on random arenas
// (issue 13: "exact mode honours its time limit"). Each iteration solves one arena from
// its greedy layout; the counters give the greedy peak, the exact peak, the live bound,
// the best bound proven and whether the solve stopped on the limit rather than a proof.
//   build/bench/bench_layout
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "plan/exact_layout.h"
#include "plan/offset_layout.h"

namespace {

using tigris::plan::Interval;

// `count` buffers over 4 * count / 5 steps, lifetimes of 1 to 8 steps, 16 B to 4 KiB:
// crowded enough that greedy layouts leave gaps the solver has to work for.
std::vector<Interval> RandomArena(int count, unsigned seed) {
  std::mt19937 rng(seed);
  const int steps = std::max(4, 4 * count / 5);
  std::vector<Interval> intervals;
  for (int i = 0; i < count; ++i) {
    const int first = static_cast<int>(rng() % static_cast<unsigned>(steps));
    intervals.push_back(
        {first, first + static_cast<int>(rng() % 8), 16 * static_cast<int64_t>(1 + rng() % 256)});
  }
  std::stable_sort(intervals.begin(), intervals.end(),
                   [](const Interval& a, const Interval& b) { return a.first < b.first; });
  return intervals;
}

void BM_ExactLayout(benchmark::State& state) {
  const auto count = static_cast<int>(state.range(0));
  const double seconds = static_cast<double>(state.range(1)) / 1000.0;
  const std::vector<Interval> intervals = RandomArena(count, 1234);
  const tigris::plan::Layout greedy = tigris::plan::LayOut(intervals);
  tigris::plan::ExactLayoutResult result;
  for (auto _ : state) {
    result = tigris::plan::SolveExactLayout(intervals, greedy.offsets, greedy.peak_bytes,
                                            greedy.summary.live_bound_bytes, seconds);
    benchmark::DoNotOptimize(result.peak_bytes);
  }
  state.counters["limit_s"] = seconds;
  state.counters["greedy"] = static_cast<double>(greedy.peak_bytes);
  state.counters["exact"] = static_cast<double>(result.peak_bytes);
  state.counters["live_bound"] = static_cast<double>(greedy.summary.live_bound_bytes);
  state.counters["proven"] = static_cast<double>(result.lower_bound_bytes);
  state.counters["optimal"] = result.optimal ? 1 : 0;
  state.counters["hit_limit"] = result.time_limit_reached ? 1 : 0;
}

// Arguments: buffers, time limit in milliseconds.
BENCHMARK(BM_ExactLayout)
    ->Args({20, 1000})
    ->Args({60, 250})
    ->Args({60, 1000})
    ->Args({150, 250})
    ->Args({150, 1000})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
