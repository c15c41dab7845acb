// Planning plus emission with the budget checks only the emitted plan can make
// (the C ABI's tigris_plan is a thin wrapper over Compile):
//  - every stage must fit the fast budget (else kDoesNotFit naming the stage's ops, from
//    the planner's Stage::reasons);
//  - with xip = false, a stage's reserved weight prefix plus its activation peak must fit
//    too (else kDoesNotFit with both numbers). The planner is given the whole fast budget:
//    which weights a stage holds depends on where the planner cuts, so subtracting them
//    beforehand is circular; the check afterwards is exact (docs/plan-format.md);
//  - with xip and copy_where_faster (the default policy, plan/weight_residency.h), the
//    units worth copying are chosen after planning, each within the fast budget;
//  - the .tgrs file must fit flash_bytes when given (else kFlashBudgetTooSmall with both
//    numbers).
#ifndef TIGRIS_EMIT_COMPILE_H_
#define TIGRIS_EMIT_COMPILE_H_

#include "emit/plan_writer.h"
#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/plan.h"

namespace tigris::emit {

struct CompiledPlan {
  plan::PlanResult result;
  EmittedPlan emitted;
};

CompiledPlan Compile(const ir::Graph& graph, const plan::Budget& budget,
                     const EmitOptions& options);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_COMPILE_H_
