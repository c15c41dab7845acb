#include "plan/planner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/macs.h"
#include "analysis/memory_timeline.h"
#include "plan/dense_split.h"
#include "plan/explore.h"
#include "plan/graph_facts.h"
#include "plan/one_memory_partition.h"
#include "plan/pinning.h"
#include "plan/plan_check.h"
#include "plan/rewrites.h"
#include "plan/row_tiling.h"
#include "plan/schedule.h"
#include "plan/spatial_partition.h"
#include "plan/spills.h"
#include "plan/temporal_partition.h"
#include "util/error.h"

namespace tigris::plan {
namespace {

const std::vector<Buffer>& FastBuffers(const PlanResult& plan, const Stage& stage) {
  if (stage.chain >= 0) return plan.chains[static_cast<size_t>(stage.chain)].tile.buffers;
  if (stage.tile) return stage.tile->buffers;
  return stage.buffers;
}

}  // namespace

std::vector<TimelineStep> BuildTimeline(const PlanResult& plan) {
  std::vector<TimelineStep> timeline;
  for (const Stage& stage : plan.stages) {
    const std::vector<Buffer>& buffers = FastBuffers(plan, stage);
    for (int op : stage.ops) {
      TimelineStep step;
      step.op = op;
      step.stage = stage.id;
      for (const Buffer& b : buffers) {
        if (b.first_op > op || b.last_op < op || b.home.region != MemoryRegion::kFast) continue;
        step.live_bytes += b.home.size;
        step.arena_bytes = std::max(step.arena_bytes, b.home.offset + b.home.size);
      }
      timeline.push_back(step);
    }
  }
  return timeline;
}

namespace {

// With an exact layout, tile loops and chains get the solver once, at the tile size the
// search chose (the search itself lays out each trial size greedily: a solve per trial
// would spend the time limit on sizes that are thrown away).
void SolveLoopLayouts(PlanResult& plan) {
  const LayoutOptions& options = plan.budget.layout;
  if (options.mode != LayoutMode::kExact) return;
  auto solve = [&](TilePlan& loop) {
    if (loop.layout.optimal) return;
    const Layout layout = LayOutBuffers(loop.buffers, MemoryRegion::kFast, options);
    loop.peak_bytes = layout.peak_bytes;  // never above the greedy layout it starts from
    loop.layout = layout.summary;
  };
  for (Stage& stage : plan.stages) {
    if (!stage.tile) continue;
    solve(*stage.tile);
    stage.peak_bytes = stage.tile->peak_bytes;
  }
  for (Chain& chain : plan.chains) solve(chain.tile);
  for (Stage& stage : plan.stages) {
    if (stage.chain >= 0) {
      stage.peak_bytes = plan.chains[static_cast<size_t>(stage.chain)].tile.peak_bytes;
    }
  }
}

Verdict Decide(const PlanResult& plan) {
  bool tiled = false;
  for (const Stage& stage : plan.stages) {
    if (!stage.fits) return Verdict::kNeedsWork;
    tiled = tiled || stage.strategy != StageStrategy::kNormal;
  }
  if (tiled) return Verdict::kTiled;
  return plan.stages.size() == 1 ? Verdict::kOk : Verdict::kPartitioned;
}

}  // namespace

PlanResult PlanPass(const ir::Graph& model, const Budget& given, bool split_dense) {
  Budget budget = given;
  if (budget.layout.mode == LayoutMode::kExact) {
    budget.layout.deadline = std::chrono::steady_clock::now() +
                             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(budget.layout.time_limit_seconds));
  }
  // Phase 0: the planner's own graph, rewritten where the budget calls for a form some
  // strategy can tile (plan/rewrites.h). Every later phase, and the plan, refer to it.
  PlanResult plan;
  plan.graph = model;
  plan.rewrites = RewriteForBudget(plan.graph, budget, split_dense);
  // Phase 0b: the op order with the least single-stage live peak (plan/schedule.h); the
  // load order unless another is strictly better.
  plan.schedule = ReorderForMemory(plan.graph);
  const ir::Graph& graph = plan.graph;
  const GraphFacts facts = ComputeGraphFacts(graph, &budget.pinned);

  plan.budget = budget;
  plan.naive_peak_bytes = analysis::ComputeMemoryTimeline(graph, facts.lifetimes).peak_bytes;
  int64_t largest = -1;
  for (const analysis::Lifetime& life : facts.lifetimes) {
    if (life.tensor != ir::kNoTensor && life.bytes > largest) {
      largest = life.bytes;
      plan.largest_tensor = life.tensor;
    }
  }

  // One RAM: cuts that keep the spills small (plan/one_memory_partition.h); else, or when
  // some op fits no segment, the default pass, whose reasons say why.
  if (budget.one_memory_bytes == 0 ||
      !PartitionForOneMemory(graph, facts, budget, plan.stages, plan.chains)) {
    plan.stages = PartitionStages(graph, facts, budget);
    TileStages(graph, facts, budget, plan.stages, plan.chains);
  }
  SolveLoopLayouts(plan);
  AssignSpills(graph, facts, plan);

  for (const Stage& stage : plan.stages) {
    plan.scheduled_peak_bytes = std::max(plan.scheduled_peak_bytes, stage.peak_bytes);
    if (stage.tile) plan.recompute_macs += RecomputeMacs(graph, *stage.tile);
  }
  for (const Chain& chain : plan.chains) plan.recompute_macs += RecomputeMacs(graph, chain.tile);
  plan.macs = analysis::GraphMacs(graph);
  plan.slow_traffic_bytes = SlowTrafficBytes(graph, plan);
  plan.timeline = BuildTimeline(plan);
  // Tensors pinned to a memory of their own (Budget::pinned) get their homes there.
  std::vector<ir::TensorId> pinned;
  for (size_t i = 0; i < facts.pinned.size(); ++i) {
    if (facts.pinned[i]) pinned.push_back(static_cast<ir::TensorId>(i));
  }
  PinTensors(plan, pinned);
  plan.verdict = Decide(plan);
  // Every plan is replayed before anyone uses it (plan_check.h): a planner bug becomes a
  // kInternal error here instead of an arena overrun on a microcontroller.
  VerifyPlan(graph, plan);

  if (budget.slow_bytes > 0 && plan.slow_peak_bytes > budget.slow_bytes) {
    throw Error(Status::kSlowBudgetTooSmall, "spills need " + std::to_string(plan.slow_peak_bytes) +
                                                 " bytes of slow memory, but slow_bytes is " +
                                                 std::to_string(budget.slow_bytes));
  }
  return plan;
}

namespace {

bool SplitsDensePairs(const PlanResult& plan) {
  return std::any_of(plan.rewrites.begin(), plan.rewrites.end(),
                     [](const Rewrite& r) { return r.kind == kDenseSplitRewrite; });
}

// Whether `a` is a better plan than `b`: it fits where `b` does not; when both fit, it
// costs no more time by any figure the planner has (recompute, slow traffic, tile steps)
// and less by one, or the same and a lower fast peak: a plan that trades one cost for
// another is the search's to offer (--explore), not the default's; when neither fits, the
// lower fast peak, then the lower slow traffic.
bool Better(const PlanResult& a, const PlanResult& b) {
  const bool a_fits = a.verdict != Verdict::kNeedsWork, b_fits = b.verdict != Verdict::kNeedsWork;
  if (a_fits != b_fits) return a_fits;
  if (!a_fits) {
    return std::make_pair(a.scheduled_peak_bytes, a.slow_traffic_bytes) <
           std::make_pair(b.scheduled_peak_bytes, b.slow_traffic_bytes);
  }
  const std::array<int64_t, 3> ca = {a.recompute_macs, a.slow_traffic_bytes, TileSteps(a)};
  const std::array<int64_t, 3> cb = {b.recompute_macs, b.slow_traffic_bytes, TileSteps(b)};
  for (size_t i = 0; i < ca.size(); ++i) {
    if (ca[i] > cb[i]) return false;
  }
  return ca != cb || a.scheduled_peak_bytes < b.scheduled_peak_bytes;
}

}  // namespace

PlanResult PlanModel(const ir::Graph& model, const Budget& budget) {
  ValidateBudget(budget);
  if (model.ops.empty()) {
    throw Error(Status::kEmptyModel, "graph '" + model.name + "' has no ops to plan");
  }
  if (budget.search.objective != Objective::kNone) return SearchPlans(model, budget);
  // The split of dense pairs competes with the plan without it (issue 14: "the existing
  // strategies and FDT compete in the same search"): its estimate is per pair, and the
  // stages around it may plan better unsplit. The unsplit plan wins ties (fewer ops).
  std::optional<PlanResult> split;
  try {
    split = PlanPass(model, budget, /*split_dense=*/true);
  } catch (const Error& e) {
    // Rethrown as it is (a subclass such as UnpinnableTensor keeps its type), unless the
    // split's spills alone overran the slow budget: then the unsplit plan decides.
    if (e.status() != Status::kSlowBudgetTooSmall) throw;
  }
  if (split && !SplitsDensePairs(*split)) return std::move(*split);
  try {
    PlanResult unsplit = PlanPass(model, budget, /*split_dense=*/false);
    return split && Better(*split, unsplit) ? std::move(*split) : unsplit;
  } catch (const Error& e) {
    if (split && e.status() == Status::kSlowBudgetTooSmall) return std::move(*split);
    throw;
  }
}

}  // namespace tigris::plan
