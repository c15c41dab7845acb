// An independent check of a finished plan: a brute-force replay of every execution step
// that "allocates" each buffer the plan says is live at the offset the plan gives and
// checks what the runtime will rely on (issue 11: a plan verifier in the library that every
// plan passes; it began as the test suite's simulator, tests/plan/plan_simulator.h):
//  - offsets and sizes are 16-byte aligned and no two simultaneously-live buffers overlap;
//  - every activation an op reads or writes (and its kernel scratch) is live at that op,
//    whole in a normal stage, as a strip holding its largest tile's rows in a tile loop;
//  - each stage's peak is the highest offset + size of its buffers, scheduled_peak_bytes
//    the largest stage peak, and a stage that fits is within the fast budget with its
//    weight prefix;
//  - tile rows: the last op's output rows cover [0, H) exactly once, every input range lies
//    within its tensor, padding fills each window exactly, and each op produces exactly
//    the rows the next one reads;
//  - every tensor crossing a stage boundary (outside a chain) is spilled by its producer's
//    stage, reloaded by the reader's, and has a slow home live over both; slow homes do
//    not overlap and slow_peak_bytes is their highest end;
//  - the timeline's live bytes equal the sum of the live buffers' sizes.
// It shares no code with the allocator, partitioner or tiler it checks.
#ifndef TIGRIS_PLAN_PLAN_CHECK_H_
#define TIGRIS_PLAN_PLAN_CHECK_H_

#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::plan {

// Every defect found, each naming the stage, op, tensor or buffer; empty for a sound plan.
// Stops after `max_defects`.
std::vector<std::string> CheckPlan(const ir::Graph& graph, const PlanResult& plan,
                                   size_t max_defects = 20);

// The row bookkeeping of one tile loop alone (the tile-rows part of CheckPlan).
std::vector<std::string> CheckTileLoop(const ir::Graph& graph, const TilePlan& tile,
                                       size_t max_defects = 20);

// Throws Error(kInternal) listing the defects when CheckPlan finds any: a planner bug, never
// a property of the model.
void VerifyPlan(const ir::Graph& graph, const PlanResult& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PLAN_CHECK_H_
