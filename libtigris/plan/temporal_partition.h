// Temporal partitioning (tigris-compilation-pipeline.txt, stage 5): the greedy forward
// pass that cuts the op sequence into stages whose normal (untiled) layout fits the fast
// budget.
//
//   start a stage; add ops one at a time, laying out each op's new buffers;
//   if the stage's peak exceeds the budget, cut before this op and start a new stage
//   with it; an op that alone exceeds the budget gets a stage of its own (a candidate
//   for tiling) and the next op starts a fresh stage.
//
// With Budget::reserve_weights the stage's "peak" is its weight prefix (the distinct
// constants its ops read, analysis/weight_prefix.h) plus its activation peak: the prefix
// sits below the activations in the same arena (docs/plan-format.md, "Weights").
//
// The layout is incremental (plan/arena_allocator.h): a buffer's offset depends only on
// the buffers live at its birth, and a tensor stays in a stage's arena until its last
// consumer anywhere or the stage's end, whichever is first (docs/memory-model.md), so
// adding an op never moves earlier buffers. Partitioning is linear in ops times live
// buffers instead of re-simulating the stage after every op.
#ifndef TIGRIS_PLAN_TEMPORAL_PARTITION_H_
#define TIGRIS_PLAN_TEMPORAL_PARTITION_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/plan.h"

namespace tigris::plan {

// Normal stages covering all ops, with ids, ops, buffers, peak_bytes, weight_bytes (0
// unless budget.reserve_weights) and fits (weight_bytes + peak_bytes <= fast_bytes) set.
std::vector<Stage> PartitionStages(const ir::Graph& graph, const GraphFacts& facts,
                                   const Budget& budget);

// Normal layout of the stage running ops [first, last] (the same rule the partitioner
// applies incrementally); used to report a stage and by tests.
Stage LayoutNormalStage(const ir::Graph& graph, const GraphFacts& facts, int first, int last);

// The last op `last` such that ops [first, last] fit `budget` as one normal stage, by the
// partitioner's rule (incremental first fit, else the stage laid out as it would end);
// first - 1 when op `first` alone does not fit.
int LongestNormalStage(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                       int first);

// The same under `budget` (its weight prefix when reserve_weights, its layout options),
// with fits set as PartitionStages sets it, and id `id`.
Stage LayoutNormalStage(const ir::Graph& graph, const GraphFacts& facts, int first, int last,
                        const Budget& budget, int id);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_TEMPORAL_PARTITION_H_
