#include "plan/tiling_strategy.h"

namespace tigris::plan {
namespace {

// The runtime streams loops of batch-1 tensors (its strips keep rows as [rows, W, C]).
std::string StreamProblem(const ir::Graph& graph, const TilePlan& loop) {
  if (loop.ops.size() < 2) return "one op keeps nothing between tiles";
  for (const TileOp& t : loop.ops) {
    const ir::Op& op = graph.ops[static_cast<size_t>(t.op)];
    for (ir::TensorId id : op.inputs) {
      if (id != ir::kNoTensor && !graph.tensor(id).is_constant &&
          graph.tensor(id).shape.at(0) != 1) {
        return "op '" + op.name + "' reads a batch of several";
      }
    }
    if (graph.tensor(op.outputs[0]).shape.at(0) != 1) {
      return "op '" + op.name + "' writes a batch of several";
    }
  }
  return "";
}

std::string NoProblem(const ir::Graph&, const TilePlan&) { return ""; }

TileShape FitRows(const ir::Graph& graph, const GraphFacts& facts, const TilePlan& loop,
                  int64_t fast_bytes) {
  return {LargestFittingTileRows(graph, facts, loop, fast_bytes), 0, 0};
}

}  // namespace

const std::vector<TilingStrategy>& TilingStrategies() {
  static const std::vector<TilingStrategy> kStrategies = {
      // Each row computed once, whenever they fit at all (docs/planning.md, "Streamed
      // loops").
      {"streamed rows", true, StreamProblem, FitRows},
      // Recomputing rows: their strips can overlap from op to op, so they may fit where
      // streamed strips, all live at once, do not.
      {"rows", false, NoProblem, FitRows},
      // When one row is over budget: columns too (docs/planning.md, "2-D tiles").
      {"H x W", false, ColumnTileProblem, LargestFitting2DTile},
      // When one pixel is over budget: channel groups, typically a global pool over a
      // thousand channels or a classifier's output channels (docs/planning.md, "Channel
      // groups").
      {"channel groups", false, ChannelTileProblem, LargestFittingChannelTile},
  };
  return kStrategies;
}

}  // namespace tigris::plan
