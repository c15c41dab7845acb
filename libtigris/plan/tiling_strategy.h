// The tiling strategies of a tile loop (docs/planning.md, "Strategies"), as data: the
// planner tries them in the order TilingStrategies() lists, SMAUG's preference
// (smaug-tiling-optimizers.txt): the simplest tiling dims that fit first, and within a
// strategy the largest tile that fits. Each entry says whether it applies to a loop (why
// not, naming the op) and finds its tile shape; a new strategy is a new entry here, with
// the plan fields, verifier rules and kernels it needs.
#ifndef TIGRIS_PLAN_TILING_STRATEGY_H_
#define TIGRIS_PLAN_TILING_STRATEGY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/row_tiling.h"
#include "plan/tile_plan.h"

namespace tigris::plan {

struct TilingStrategy {
  const char* name;  // "streamed rows", "rows", "H x W", "channel groups"
  // Its loops keep each intermediate's rows from tile to tile (line buffers), so nothing
  // is recomputed; the others recompute halos (rows, H x W) or run groups one after
  // another (channel groups), and a loop sets TilePlan::streamed from this.
  bool streamed;
  // Why the strategy cannot tile `loop`, naming the op; empty when it can.
  std::string (*problem)(const ir::Graph& graph, const TilePlan& loop);
  // Its largest tile shape whose layout fits `fast_bytes`; rows == 0 when none does.
  TileShape (*fit)(const ir::Graph& graph, const GraphFacts& facts, const TilePlan& loop,
                   int64_t fast_bytes);
};

// Streamed rows, rows, H x W, channel groups.
const std::vector<TilingStrategy>& TilingStrategies();

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_TILING_STRATEGY_H_
