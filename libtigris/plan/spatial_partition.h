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
#include "plan/row_tiling.h"

namespace tigris::plan {

void TileStages(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                std::vector<Stage>& stages, std::vector<Chain>& chains);

// The building blocks, shared with the one-memory partition (plan/one_memory_partition.h):

// The weight prefix of a loop over `ops` (0 unless budget.reserve_weights).
int64_t LoopWeightBytes(const ir::Graph& graph, const Budget& budget, const std::vector<int>& ops);

// The largest fitting tile when the tiles get what the weight prefix leaves; {0, 0, 0} if
// none. Tries the strategies in their order (plan/tiling_strategy.h) and takes the first
// that applies and fits; `loop.streamed` and `loop.strategy` are left as the chosen one's.
// Without `allow_recompute` (a chain growing), only streamed strategies: a longer chain
// that must recompute its halo costs more MACs than the spill it saves.
TileShape FitLoop(const ir::Graph& graph, const GraphFacts& facts, TilePlan& loop,
                  const Budget& budget, int64_t weights, bool allow_recompute = true);

// Makes stages[first_stage..last_stage] one loop of shape `shape` (as FitLoop found it):
// a kTiled stage when it is one stage (its row height then chosen by SelectTileRows), else
// a Chain appended to `chains` whose stages share the loop's arena and weight prefix.
void CommitLoop(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                std::vector<Stage>& stages, size_t first_stage, size_t last_stage, TilePlan loop,
                TileShape shape, int64_t weights, std::vector<Chain>& chains);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_SPATIAL_PARTITION_H_
