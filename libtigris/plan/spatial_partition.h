// Spatial partitioning (tigris-compilation-pipeline.txt, stage 6): tiles the stages whose
// normal layout exceeds the fast budget.
//
// Walking the stages in order, an over-budget stage that is tileable (plan/chains.h)
// starts a tile loop. The loop grows greedily into the following over-budget stages while
// the chain conditions hold and the fused loop still fits at some tile height (found by
// binary search, plan/row_tiling.h). A loop of one stage becomes a kTiled stage whose
// tile height starts at the reference's estimate and moves row by row on the exact
// layout (SelectTileRows);
// a longer loop becomes a Chain at its largest fitting tile height. A stage that cannot
// be tiled, or whose 1-row tiles still exceed the budget, keeps its normal layout with
// fits = false and reasons naming the ops.
//
// With Budget::reserve_weights a loop's tiles get the fast budget minus the loop's weight
// prefix (analysis/weight_prefix.h): a tiled stage's constants, or every chained stage's,
// since the fused loop runs all their ops per tile (docs/plan-format.md, "Weights").
#ifndef TIGRIS_PLAN_SPATIAL_PARTITION_H_
#define TIGRIS_PLAN_SPATIAL_PARTITION_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/plan.h"

namespace tigris::plan {

void TileStages(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                std::vector<Stage>& stages, std::vector<Chain>& chains);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_SPATIAL_PARTITION_H_
