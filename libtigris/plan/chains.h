// Chain detection (tigris-tiling.txt, "Chain detection"). Consecutive stages N and N + 1
// can share one tile loop when
//   1. stage N is tileable,
//   2. stage N + 1 is tileable,
//   3. stage N has exactly one output tensor (a tensor it produces that a later stage
//      reads or that is a graph output),
//   4. that tensor is read only by stage N + 1 (no fan-out) and is not a graph output,
//   5. that tensor has spatial extent (NCHW with more than one row), not a 1-D vector.
// A stage is tileable when all its ops are row-tileable, they form a linear sequence,
// and at most one of them is spatial.
#ifndef TIGRIS_PLAN_CHAINS_H_
#define TIGRIS_PLAN_CHAINS_H_

#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/plan.h"

namespace tigris::plan {

// Conditions 1-2 for one stage: "" when it is tileable, else why (naming the op).
std::string StageTileProblem(const ir::Graph& graph, const GraphFacts& facts, const Stage& stage);

// Conditions 3-5 between stages[first] and stages[first + 1]: "" when they can chain,
// else why (naming the tensor).
std::string ChainLinkProblem(const ir::Graph& graph, const GraphFacts& facts,
                             const std::vector<Stage>& stages, size_t first);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_CHAINS_H_
