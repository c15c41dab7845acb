// The planner's entry point: analysis (lifetimes, timeline) and planning (temporal
// partitioning, spatial tiling, chains, spills, verdict) of a normalized graph.
// docs/planning.md walks through the steps; docs/memory-model.md defines every byte.
#ifndef TIGRIS_PLAN_PLANNER_H_
#define TIGRIS_PLAN_PLANNER_H_

#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/plan.h"

namespace tigris::plan {

// Plans `graph` (normalized: passes::Normalize) for `budget`. The plan refers to its own
// copy of the graph (PlanResult::graph), which budget-driven rewrites may have changed
// (PlanResult::rewrites, plan/rewrites.h); `graph` itself is left as it was. A plan whose stages do
// not all fit is still returned, with verdict kNeedsWork and reasons on the failing stages. With
// budget.reserve_weights (not xip) a stage fits when its weight prefix plus its activation peak
// does (Stage::weight_bytes + Stage::peak_bytes <= fast_bytes). Throws kInvalidBudget
// (ValidateBudget), kEmptyModel for a graph without ops, kSlowBudgetTooSmall when a given slow
// budget is below the spills' slow_peak_bytes (the message states both), and kInvalidModel /
// kUnsupportedDType for malformed tensors or attributes (naming them). When the split of
// dense pairs (plan/dense_split.h) applies, the plan without it is made too and the better
// of the two returned (it fits, else the lower fast peak, else the lower slow traffic; the
// unsplit plan on a tie).
// With budget.search.objective set, PlanModel searches instead (plan/explore.h).
PlanResult PlanModel(const ir::Graph& graph, const Budget& budget);

// One planning pass with `budget` as it is (PlanModel without the competition between the
// split and unsplit plans, and without the search): the dense split only with
// `split_dense` (and budget.fdt). Throws as PlanModel does.
PlanResult PlanPass(const ir::Graph& graph, const Budget& budget, bool split_dense);

// Per op, the live bytes and the end of the fast buffers live at it (PlanResult::timeline),
// from the plan's stages; for passes that move buffers after planning (plan/pinning.h).
std::vector<TimelineStep> BuildTimeline(const PlanResult& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PLANNER_H_
