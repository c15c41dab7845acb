// Stages and loops for one RAM (Budget::one_memory_bytes; issue 39, docs/planning.md "One
// memory").
//
// The default pass (PartitionStages, then TileStages) fills each stage up to the fast
// budget and tiles only the stages that do not fit, so the tensors between stages are
// whatever its greedy cuts leave. With two memories that is right: spills go to a large
// slow memory. With one, the spills share the fast arena's memory and cost as much: a
// 24x24x32 map spilled between two loops weighs more than the loops themselves.
//
// Here the op sequence is cut into segments instead, each of them
//   - a normal stage whose layout fits the budget, or
//   - a tile loop that fits it: one op (any strategy), or a chain of ops that streams
//     (nothing recomputed) whose links meet the chain conditions (plan/chains.h),
// and the cuts are chosen by dynamic programming to minimize the most bytes the slow
// arena holds at once: the tensors crossing a segment, produced before it and read in or
// after it, or produced in it and read after it. Ties: fewer segments (fewer spills and
// tile steps).
//
// The spills sit at the top of the one arena (plan/joint_arena.h), so a segment's budget is
// what they leave of the memory: min(fast_bytes, one_memory_bytes - its crossing bytes).
// A loop takes the largest tile that fits its budget, as in TileStages: a loop beside
// large spills gets short tiles, one beside none the whole memory.
//
// Cost: from each start, segments grow until one does not fit (a longer run of ops needs
// no less memory), one fit per segment; MobileNetV2-1.0 plans in milliseconds per budget.
#ifndef TIGRIS_PLAN_ONE_MEMORY_PARTITION_H_
#define TIGRIS_PLAN_ONE_MEMORY_PARTITION_H_

#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/plan.h"

namespace tigris::plan {

// Sets `stages` (ids, ops, strategies, fits) and appends the chains; false, with both left
// as they were, when some op fits in no segment (the default pass then says why).
bool PartitionForOneMemory(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                           std::vector<Stage>& stages, std::vector<Chain>& chains);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_ONE_MEMORY_PARTITION_H_
