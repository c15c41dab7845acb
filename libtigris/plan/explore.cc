#include "plan/explore.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>

#include "analysis/macs.h"
#include "plan/dense_split.h"
#include "plan/planner.h"
#include "plan/rewrites.h"
#include "util/error.h"

namespace tigris::plan {
namespace {

// The strategy subsets a configuration may use (Budget::strategies): all of them, as the
// single pass does; each alone; the two that never recompute a halo; none (stages, spills
// and the FDT splits only: the paper's "FDT only" column).
constexpr uint32_t kStrategySubsets[] = {
    kAllTilingStrategies,
    kStreamedRowsStrategy,
    kRowsStrategy,
    kTwoDStrategy,
    kChannelGroupsStrategy,
    kStreamedRowsStrategy | kChannelGroupsStrategy,
    0,
};

// The search stops lowering a configuration's planning budget once the gap between a
// budget that fits and one that does not is within this share of the one that fits (and
// kFinestStepBytes): about 9 passes per configuration after the first.
constexpr int64_t kResolutionShare = 256;
constexpr int64_t kFinestStepBytes = 16;

// What the search weighs of a plan that fits its planning budget.
ExploredPlan Figures(const PlanResult& plan, const SearchConfig& config, int64_t planned) {
  ExploredPlan out;
  out.config = config;
  out.planned_fast_bytes = planned;
  out.recompute_macs = plan.recompute_macs;
  out.slow_traffic_bytes = plan.slow_traffic_bytes;
  out.fast_bytes = FastArenaBytes(plan);
  out.tile_steps = TileSteps(plan);
  return out;
}

Budget PassBudget(const Budget& given, const SearchConfig& config, int64_t fast_bytes) {
  Budget budget = given;
  budget.fast_bytes = fast_bytes;
  budget.fdt = config.embedding_as_rows || config.dense_split;
  budget.strategies = config.strategies;
  budget.search = {};
  return budget;
}

// One pass; nullopt when the plan does not fit `fast_bytes` (or its spills overrun the
// slow budget, which a lower planning budget only makes worse).
std::optional<ExploredPlan> Pass(const ir::Graph& graph, const Budget& given,
                                 const SearchConfig& config, int64_t fast_bytes) {
  Budget budget = PassBudget(given, config, fast_bytes);
  budget.layout.mode = LayoutMode::kGreedy;  // the chosen plan alone gets the solver
  budget.layout.progress = nullptr;
  try {
    const PlanResult plan = PlanPass(graph, budget, config.dense_split);
    if (plan.verdict == Verdict::kNeedsWork) return std::nullopt;
    return Figures(plan, config, fast_bytes);
  } catch (const Error& e) {
    if (e.status() == Status::kSlowBudgetTooSmall) return std::nullopt;
    throw;
  }
}

// Every plan of one configuration that fits: planned at the caller's budget first, then at
// lower budgets by bisection between the least peak that fits and the highest budget known
// not to (fit is monotone in the budget for the planner's greedy choices, near enough; a
// budget that breaks that only costs the search a point of its front).
std::vector<ExploredPlan> SearchOneConfig(const ir::Graph& graph, const Budget& budget,
                                          const SearchConfig& config, std::atomic<int>& passes) {
  std::vector<ExploredPlan> found;
  ++passes;
  std::optional<ExploredPlan> plan = Pass(graph, budget, config, budget.fast_bytes);
  if (!plan) return found;
  int64_t fits = plan->fast_bytes;  // the least peak that fits so far
  int64_t fails = 0;                // the highest planning budget known not to fit
  found.push_back(*plan);
  while (fits - fails > std::max(kFinestStepBytes, fits / kResolutionShare)) {
    const int64_t mid = fails + (fits - fails) / 2;
    ++passes;
    plan = Pass(graph, budget, config, mid);
    if (plan) {
      fits = std::min(mid, plan->fast_bytes);
      found.push_back(*plan);
    } else {
      fails = mid;
    }
  }
  return found;
}

using Key = std::tuple<int64_t, int64_t, int64_t, int64_t>;

Key MemoryKey(const ExploredPlan& p) {
  return {p.fast_bytes, p.recompute_macs, p.slow_traffic_bytes, p.tile_steps};
}

Key LatencyKey(const ExploredPlan& p) {
  return {p.recompute_macs, p.slow_traffic_bytes, p.tile_steps, p.fast_bytes};
}

// How many of the planner's choices a configuration allows: its strategies and FDT
// rewrites.
int Choices(const SearchConfig& c) {
  int n = (c.embedding_as_rows ? 1 : 0) + (c.dense_split ? 1 : 0);
  for (uint32_t bits = c.strategies; bits != 0; bits &= bits - 1) ++n;
  return n;
}

bool SameFigures(const ExploredPlan& a, const ExploredPlan& b) {
  return MemoryKey(a) == MemoryKey(b);
}

// Runs `configs` on `workers` threads (the calling thread reports progress), or on the
// calling thread alone when `workers` is 1. Results are by configuration index, so they do
// not depend on which thread ran what.
std::vector<std::vector<ExploredPlan>> RunConfigs(const ir::Graph& graph, const Budget& budget,
                                                  const std::vector<SearchConfig>& configs,
                                                  int workers, std::atomic<int>& passes) {
  const int total = static_cast<int>(configs.size());
  std::vector<std::vector<ExploredPlan>> results(configs.size());
  std::vector<std::exception_ptr> errors(configs.size());
  const auto& progress = budget.search.progress;
  if (workers <= 1) {
    for (int i = 0; i < total; ++i) {
      results[static_cast<size_t>(i)] =
          SearchOneConfig(graph, budget, configs[static_cast<size_t>(i)], passes);
      if (progress) progress(i + 1, total, passes.load());
    }
    return results;
  }
  std::atomic<int> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  int done = 0;           // configurations searched (guarded by mutex)
  int running = workers;  // threads still working (guarded by mutex)
  auto work = [&] {
    for (int i = next++; i < total; i = next++) {
      const size_t k = static_cast<size_t>(i);
      try {
        results[k] = SearchOneConfig(graph, budget, configs[k], passes);
      } catch (...) {
        errors[k] = std::current_exception();
        next = total;  // no new configurations: the search ends with an error
      }
      std::lock_guard<std::mutex> lock(mutex);
      ++done;
      changed.notify_one();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    changed.notify_one();
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work);
  {
    // The progress callback runs here, on the caller's thread (tigris.h promises that).
    std::unique_lock<std::mutex> lock(mutex);
    int reported_done = -1;
    int reported_passes = -1;
    while (running > 0) {
      changed.wait_for(lock, std::chrono::milliseconds(100));
      if (progress && (done != reported_done || passes.load() != reported_passes)) {
        reported_done = done;
        reported_passes = passes.load();
        lock.unlock();
        progress(reported_done, total, reported_passes);
        lock.lock();
      }
    }
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return results;
}

std::string Percent(int64_t part, int64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

}  // namespace

std::vector<SearchConfig> SearchConfigs(const ir::Graph& graph, const Budget& budget) {
  // Which FDT rewrites apply at all: what the smallest budget would make them do.
  bool lookups = false;
  bool pairs = false;
  if (budget.fdt) {
    ir::Graph probe = graph;
    Budget tiny = budget;
    tiny.fast_bytes = 1;
    for (const Rewrite& r : RewriteForBudget(probe, tiny, /*split_dense=*/true)) {
      lookups = lookups || r.kind == kEmbeddingAsRowsRewrite;
      pairs = pairs || r.kind == kDenseSplitRewrite;
    }
  }
  std::vector<SearchConfig> fdt = {SearchConfig{}};
  if (lookups) fdt.push_back({true, false, 0});
  if (pairs) fdt.push_back({lookups, true, 0});
  std::vector<SearchConfig> configs;
  for (const SearchConfig& f : fdt) {
    for (uint32_t strategies : kStrategySubsets) {
      configs.push_back({f.embedding_as_rows, f.dense_split, strategies});
    }
  }
  return configs;
}

void MarkParetoFront(std::vector<ExploredPlan>& plans) {
  const auto dominates = [](const ExploredPlan& a, const ExploredPlan& b) {
    const Key ka = MemoryKey(a);
    const Key kb = MemoryKey(b);
    return std::get<0>(ka) <= std::get<0>(kb) && std::get<1>(ka) <= std::get<1>(kb) &&
           std::get<2>(ka) <= std::get<2>(kb) && std::get<3>(ka) <= std::get<3>(kb) && ka != kb;
  };
  for (ExploredPlan& p : plans) {
    p.on_front = std::none_of(plans.begin(), plans.end(),
                              [&](const ExploredPlan& q) { return dominates(q, p); });
  }
}

int ChoosePlan(const std::vector<ExploredPlan>& plans, const SearchOptions& options,
               int64_t model_macs) {
  int best = -1;
  for (size_t i = 0; i < plans.size(); ++i) {
    const ExploredPlan& p = plans[i];
    if (options.max_recompute_percent >= 0 &&
        static_cast<double>(p.recompute_macs) * 100.0 >
            options.max_recompute_percent * static_cast<double>(model_macs)) {
      continue;
    }
    if (best < 0) {
      best = static_cast<int>(i);
      continue;
    }
    const ExploredPlan& b = plans[static_cast<size_t>(best)];
    const bool better = options.objective == Objective::kLatency ? LatencyKey(p) < LatencyKey(b)
                                                                 : MemoryKey(p) < MemoryKey(b);
    if (better) best = static_cast<int>(i);
  }
  return best;
}

PlanResult SearchPlans(const ir::Graph& graph, const Budget& budget) {
  ValidateBudget(budget);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<SearchConfig> configs = SearchConfigs(graph, budget);
  int workers = budget.search.threads > 0 ? budget.search.threads
                                          : static_cast<int>(std::thread::hardware_concurrency());
  workers = std::clamp(workers, 1, static_cast<int>(configs.size()));
  std::atomic<int> passes{0};
  const std::vector<std::vector<ExploredPlan>> results =
      RunConfigs(graph, budget, configs, workers, passes);

  Exploration exploration;
  exploration.options = budget.search;
  exploration.options.progress = nullptr;
  exploration.configurations = static_cast<int>(configs.size());
  exploration.passes = passes.load();
  for (const std::vector<ExploredPlan>& found : results) {
    for (const ExploredPlan& p : found) {
      const auto seen = std::find_if(exploration.plans.begin(), exploration.plans.end(),
                                     [&](const ExploredPlan& q) { return SameFigures(p, q); });
      if (seen == exploration.plans.end()) {
        exploration.plans.push_back(p);
      } else if (Choices(p.config) < Choices(seen->config)) {
        // Listed with the simplest configuration that makes it (it is planned again with
        // that one when chosen): a plan that needs no tiling is a stages-only plan.
        seen->config = p.config;
        seen->planned_fast_bytes = p.planned_fast_bytes;
      }
    }
  }
  MarkParetoFront(exploration.plans);

  PlanResult plan;
  if (exploration.plans.empty()) {
    // Nothing fits: the single pass's plan says why, stage by stage.
    Budget single = budget;
    single.search = {};
    plan = PlanModel(graph, single);
  } else {
    // The model's MACs: the FDT rewrites add none (plan/dense_split.h).
    const int64_t macs = analysis::GraphMacs(graph);
    exploration.chosen = ChoosePlan(exploration.plans, budget.search, macs);
    if (exploration.chosen < 0) {
      int64_t least = exploration.plans.front().recompute_macs;
      for (const ExploredPlan& p : exploration.plans) least = std::min(least, p.recompute_macs);
      throw Error(Status::kDoesNotFit, "no plan that fits recomputes at most " +
                                           std::to_string(budget.search.max_recompute_percent) +
                                           "% of the model's MACs; the least recompute found is " +
                                           std::to_string(least) + " MACs (" +
                                           Percent(least, macs) + ")");
    }
    const ExploredPlan& chosen = exploration.plans[static_cast<size_t>(exploration.chosen)];
    // Planned again, with the caller's layout options, at the budget that made it; the
    // caller's budget is the plan's budget from here on (it fits that too).
    plan = PlanPass(graph, PassBudget(budget, chosen.config, chosen.planned_fast_bytes),
                    chosen.config.dense_split);
    plan.budget.fast_bytes = budget.fast_bytes;
  }
  exploration.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  plan.exploration = std::move(exploration);
  return plan;
}

}  // namespace tigris::plan
