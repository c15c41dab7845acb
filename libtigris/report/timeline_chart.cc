// ChartFromPlan: the data of the timeline chart, taken from the plan's timeline (one entry
// per op, plan/plan.h TimelineStep) and its stages.
#include "report/timeline_svg.h"

#include "analysis/alignment.h"

namespace tigris::report {

TimelineChart ChartFromPlan(const ir::Graph& graph, const plan::PlanResult& plan,
                            const ChartMemories& memories) {
  TimelineChart chart;
  chart.model = graph.name;
  chart.scratch_memory = memories.scratch;
  chart.verdict = std::string(plan::VerdictName(plan.verdict));
  chart.budget_bytes = plan.budget.fast_bytes;
  chart.scheduled_peak_bytes = plan.scheduled_peak_bytes;
  chart.naive_peak_bytes = plan.naive_peak_bytes;
  for (const plan::TimelineStep& step : plan.timeline) {
    chart.steps.push_back({graph.ops[static_cast<size_t>(step.op)].name, step.stage,
                           step.live_bytes, step.arena_bytes});
  }
  // The timeline lists the stages' ops in stage order, so each stage is one run of steps.
  size_t next = 0;
  for (const plan::Stage& stage : plan.stages) {
    if (stage.ops.empty()) continue;
    ChartStage band;
    band.id = stage.id;
    band.first_step = next;
    band.last_step = next + stage.ops.size() - 1;
    band.strategy = stage.strategy;
    band.chain = stage.chain;
    band.fits = stage.fits;
    // A chain stage runs its chain's loop (plan/plan.h), so it shows the chain's tiles.
    const plan::TilePlan* tile = stage.tile ? &*stage.tile : nullptr;
    if (stage.chain >= 0) tile = &plan.chains[static_cast<size_t>(stage.chain)].tile;
    band.lower_bound_bytes = stage.layout.lower_bound_bytes;
    if (tile) {
      band.tile_rows = tile->tile_rows;
      band.tile_count = tile->count;
      band.lower_bound_bytes = tile->layout.lower_bound_bytes;
    }
    band.arena_bytes = stage.peak_bytes;
    chart.stages.push_back(band);
    next += stage.ops.size();
  }

  // The spills' memory: every slow buffer live over the step's stage.
  ChartLane spills{memories.spills, "spills", memories.spills_capacity, {}};
  ChartLane weights{memories.plan, "weights each op reads in place", memories.plan_capacity, {}};
  bool any_spill = false, any_weight = false;
  for (const plan::TimelineStep& step : plan.timeline) {
    int64_t live = 0;
    for (const plan::SlowBuffer& b : plan.slow_buffers) {
      if (b.first_stage <= step.stage && step.stage <= b.last_stage) {
        live += analysis::AlignUp(b.bytes);
      }
    }
    int64_t read = 0;
    for (ir::TensorId t : graph.ops[static_cast<size_t>(step.op)].inputs) {
      if (graph.IsConstant(t)) read += graph.tensor(t).byte_size();
    }
    any_spill = any_spill || live > 0;
    any_weight = any_weight || read > 0;
    spills.step_bytes.push_back(live);
    weights.step_bytes.push_back(read);
  }
  if (any_spill) chart.lanes.push_back(std::move(spills));
  if (any_weight) chart.lanes.push_back(std::move(weights));
  return chart;
}

}  // namespace tigris::report
