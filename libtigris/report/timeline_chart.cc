// ChartFromPlan: the data of the timeline chart, taken from the plan's timeline (one entry
// per op, plan/plan.h TimelineStep) and its stages.
#include "report/timeline_svg.h"

namespace tigris::report {

TimelineChart ChartFromPlan(const ir::Graph& graph, const plan::PlanResult& plan) {
  TimelineChart chart;
  chart.model = graph.name;
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
  return chart;
}

}  // namespace tigris::report
