// The planner's search (issue 14, items 3 and 4): instead of one planning pass, plan the
// model under every configuration of the planner's choices, each at a descending series of
// planning budgets, keep every plan that fits, mark the Pareto front over (fast memory,
// recompute MACs, slow traffic, tile steps) and return the plan the objective picks.
//
// The choices are the ones that trade those figures against each other: which feature-map
// tiling strategies a loop may use (Budget::strategies: streamed rows never recompute,
// recomputing rows and 2-D tiles overlap their strips, channel groups run one after
// another), whether the FDT paper's splits are made (embedding-as-rows,
// fdt-fan-out-fan-in), and how much of the budget the planner may use (a lower planning
// budget makes smaller tiles, shorter chains and more spills). The existing strategies and
// FDT thereby compete in one search, as the paper's combined flow does (docs/planning.md,
// "Search").
#ifndef TIGRIS_PLAN_EXPLORE_H_
#define TIGRIS_PLAN_EXPLORE_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/exploration.h"
#include "plan/plan.h"

namespace tigris::plan {

// Plans `graph` for `budget` by searching (budget.search.objective is kMemory or kLatency):
// configurations run on budget.search.threads worker threads, each deterministic, so the
// result does not depend on the thread count. The plan returned is the chosen one, planned
// again with the caller's layout options (the search lays out greedily), with
// PlanResult::exploration set. When no configuration fits, the single pass's plan (its
// stages say why) with an exploration that chose nothing. Throws what PlanModel throws,
// and kDoesNotFit when plans fit but none within max_recompute_percent (the message gives
// the least recompute found).
PlanResult SearchPlans(const ir::Graph& graph, const Budget& budget);

// The configurations SearchPlans runs for `graph`: every strategy subset it tries, with
// and without each FDT rewrite that applies to the graph (none when budget.fdt is off).
std::vector<SearchConfig> SearchConfigs(const ir::Graph& graph, const Budget& budget);

// Sets ExploredPlan::on_front: a plan is on the front when no other plan is at most as
// large in every figure and smaller in one.
void MarkParetoFront(std::vector<ExploredPlan>& plans);

// The index of the plan `options` choose among `plans`, -1 when none recomputes at most
// options.max_recompute_percent of `model_macs`. Ties go to the earliest.
int ChoosePlan(const std::vector<ExploredPlan>& plans, const SearchOptions& options,
               int64_t model_macs);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_EXPLORE_H_
