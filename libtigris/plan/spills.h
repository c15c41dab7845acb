// Spills between stages and the slow-arena layout (tigris-compilation-pipeline.txt,
// stage 5: "A stage's inputs ... must be spilled to PSRAM").
//
// A tensor produced in stage p and read by a later stage q is spilled to the slow arena
// by p and reloaded by every such q, except across a chain link (the fused loop keeps it
// in the fast arena). Graph inputs are never spilled: every stage reading one copies it
// from the caller's buffer. Each spilled tensor gets a slow home live over stages
// [p, last q]; homes are placed first-fit in order of p (plan/arena_allocator.h), and
// slow_peak_bytes is the highest offset + size.
#ifndef TIGRIS_PLAN_SPILLS_H_
#define TIGRIS_PLAN_SPILLS_H_

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/plan.h"

namespace tigris::plan {

// Fills Stage::spill_in/out and their byte counts, PlanResult::slow_buffers and
// slow_peak_bytes. Stages and chains must be final.
void AssignSpills(const ir::Graph& graph, const GraphFacts& facts, PlanResult& plan);

// Bytes moved between the slow and the fast arena: whole spilled tensors for normal
// stages; for tile loops every tile's rows of each spilled input (halo rows are read
// again) and of each spilled output.
int64_t SlowTrafficBytes(const ir::Graph& graph, const PlanResult& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_SPILLS_H_
