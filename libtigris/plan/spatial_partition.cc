#include "plan/spatial_partition.h"

#include <string>

#include "analysis/macs.h"
#include "analysis/weight_prefix.h"
#include "plan/chains.h"
#include "plan/row_tiling.h"
#include "plan/tiling_strategy.h"

namespace tigris::plan {
namespace {

// Names the stage's ops: the reasons are what a user reads to learn which op blocks.
std::string OverBudget(const ir::Graph& graph, const Stage& stage, int64_t fast_bytes) {
  std::string ops;
  for (int op : stage.ops) {
    ops += (ops.empty() ? "'" : ", '") + graph.ops[static_cast<size_t>(op)].name + "'";
  }
  const std::string weights = stage.weight_bytes > 0
                                  ? " + " + std::to_string(stage.weight_bytes) +
                                        " bytes of weights copied to fast memory (not xip)"
                                  : "";
  return "stage " + std::to_string(stage.id) + " (" + ops + ") needs " +
         std::to_string(stage.peak_bytes) + " bytes untiled" + weights +
         ", over the fast budget of " + std::to_string(fast_bytes);
}

// What the shortest row tiles need: "even 1-row tiles need N bytes", or, for a loop so
// tall that 1-row tiles would pass kMaxTilesPerLoop, what the fewest rows within it need.
std::string FewestRowsNeed(const ir::Graph& graph, const GraphFacts& facts, TilePlan loop) {
  const int64_t fewest = FewestTileRows(loop, 1);
  LayoutTileLoop(graph, facts, fewest, loop);
  if (fewest == 1) return "even 1-row tiles need " + std::to_string(loop.peak_bytes) + " bytes";
  return "1-row tiles would make " + std::to_string(GridRows(loop)) + " tiles, over the limit of " +
         std::to_string(kMaxTilesPerLoop) + " per loop, and " + std::to_string(fewest) +
         "-row tiles need " + std::to_string(loop.peak_bytes) + " bytes";
}

// A 2-D chain recomputes its halo along both axes, and more with every op it grows by
// (MobileNetV2-1.0 at 64 KiB: +118% MACs when 2-D chains grew while they fit). It grows
// only while its recompute stays within this share of its MACs; past it, the spill of
// one intermediate costs less than recomputing it tile by tile (docs/planning.md).
constexpr int64_t kTwoDRecomputePercent = 5;

bool WithinTwoDRecompute(const ir::Graph& graph, const GraphFacts& facts, TilePlan loop,
                         const TileShape& shape) {
  LayoutTileLoop(graph, facts, shape.rows, loop, shape.cols);
  int64_t macs = 0;
  for (const TileOp& t : loop.ops)
    macs += analysis::OpMacs(graph, graph.ops[static_cast<size_t>(t.op)]);
  return RecomputeMacs(graph, loop) * 100 <= macs * kTwoDRecomputePercent;
}

std::vector<int> OpsOf(const std::vector<Stage>& stages, size_t first, size_t last) {
  std::vector<int> ops;
  for (size_t s = first; s <= last; ++s) {
    ops.insert(ops.end(), stages[s].ops.begin(), stages[s].ops.end());
  }
  return ops;
}

}  // namespace

int64_t LoopWeightBytes(const ir::Graph& graph, const Budget& budget, const std::vector<int>& ops) {
  return budget.reserve_weights ? analysis::WeightPrefixBytes(graph, ops) : 0;
}

TileShape FitLoop(const ir::Graph& graph, const GraphFacts& facts, TilePlan& loop,
                  const Budget& budget, int64_t weights, bool allow_recompute) {
  const int64_t fast_bytes = budget.fast_bytes;
  if (weights >= fast_bytes) return {};
  loop.tile_cols = 0;
  const std::vector<TilingStrategy>& strategies = TilingStrategies();
  for (size_t k = 0; k < strategies.size(); ++k) {
    const TilingStrategy& strategy = strategies[k];
    if ((budget.strategies & (1u << k)) == 0) continue;  // not allowed (Budget::strategies)
    if (!strategy.streamed && !allow_recompute) continue;
    loop.streamed = strategy.streamed;
    if (!strategy.problem(graph, loop).empty()) continue;
    const TileShape shape = strategy.fit(graph, facts, loop, fast_bytes - weights);
    if (shape.rows > 0) {
      loop.strategy = strategy.name;
      return shape;
    }
  }
  loop.streamed = false;
  return {};
}

void CommitLoop(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                std::vector<Stage>& stages, size_t first_stage, size_t last_stage, TilePlan loop,
                TileShape shape, int64_t weights, std::vector<Chain>& chains) {
  const int64_t fast_bytes = budget.fast_bytes;
  if (last_stage == first_stage) {
    Stage& first = stages[first_stage];
    if (shape.cols == 0 && shape.channels == 0) {
      shape.rows = SelectTileRows(graph, facts, loop, fast_bytes - weights, first.peak_bytes);
    }
    LayoutTileLoop(graph, facts, shape.rows, loop, shape.cols, shape.channels);
    first.strategy = StageStrategy::kTiled;
    first.peak_bytes = loop.peak_bytes;
    first.tile = std::move(loop);
    first.buffers.clear();
    first.fits = true;
    return;
  }
  LayoutTileLoop(graph, facts, shape.rows, loop, shape.cols, shape.channels);
  Chain chain;
  chain.id = static_cast<int>(chains.size());
  for (size_t s = first_stage; s <= last_stage; ++s) {
    Stage& stage = stages[s];
    chain.stages.push_back(stage.id);
    stage.strategy = StageStrategy::kChain;
    stage.chain = chain.id;
    stage.peak_bytes = loop.peak_bytes;  // the stages share one iteration's arena
    stage.weight_bytes = weights;
    stage.buffers.clear();
    stage.fits = true;
  }
  chain.tile = std::move(loop);
  chains.push_back(std::move(chain));
}

void TileStages(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                std::vector<Stage>& stages, std::vector<Chain>& chains) {
  const int64_t fast_bytes = budget.fast_bytes;
  size_t i = 0;
  while (i < stages.size()) {
    Stage& first = stages[i];
    if (first.fits) {
      ++i;
      continue;
    }
    std::string problem = StageTileProblem(graph, facts, first);
    if (!problem.empty()) {
      first.reasons = {OverBudget(graph, first, fast_bytes), problem};
      ++i;
      continue;
    }
    std::string reason;
    std::optional<TilePlan> loop = MakeTileLoop(graph, facts, first.ops, &reason);
    int64_t weights = first.weight_bytes;
    TileShape shape = FitLoop(graph, facts, *loop, budget, weights);
    if (shape.rows == 0) {
      std::string why;
      if (weights >= fast_bytes) {
        why = "its weights alone need " + std::to_string(weights) +
              " bytes of fast memory (not xip); use xip or a larger budget";
      } else {
        why = FewestRowsNeed(graph, facts, *loop);
        const std::string no_columns = ColumnTileProblem(graph, *loop);
        if (no_columns.empty()) {
          TilePlan one_pixel = *loop;
          LayoutTileLoop(graph, facts, 1, one_pixel, 1);
          why += one_pixel.count > kMaxTilesPerLoop
                     ? " and 1 x 1 tiles would make " + std::to_string(one_pixel.count) + " tiles"
                     : " and 1 x 1 tiles " + std::to_string(one_pixel.peak_bytes);
        } else {
          why += " (no 2-D tiles: " + no_columns + ")";
        }
        const int64_t group_rows = FewestTileRows(*loop, loop->ops.back().channels);
        if (ChannelTileProblem(graph, *loop).empty() && group_rows > 0) {
          TilePlan one_channel = *loop;
          LayoutTileLoop(graph, facts, group_rows, one_channel, 0, 1);
          why += " and 1-channel groups " + std::to_string(one_channel.peak_bytes);
        }
        if (weights > 0) {
          why += ", over the " + std::to_string(fast_bytes - weights) + " left after " +
                 std::to_string(weights) + " bytes of weights (not xip)";
        }
      }
      first.reasons = {OverBudget(graph, first, fast_bytes), why};
      ++i;
      continue;
    }
    // Grow the loop into the following over-budget stages while it still fits.
    size_t last = i;
    while (last + 1 < stages.size() && !stages[last + 1].fits &&
           StageTileProblem(graph, facts, stages[last + 1]).empty() &&
           ChainLinkProblem(graph, facts, stages, last).empty()) {
      const std::vector<int> longer_ops = OpsOf(stages, i, last + 1);
      std::optional<TilePlan> longer = MakeTileLoop(graph, facts, longer_ops, &reason);
      if (!longer) break;
      // A chain's stages share one prefix holding all their weights.
      const int64_t longer_weights = LoopWeightBytes(graph, budget, longer_ops);
      // A streamed loop grows only while it stays streamed: a longer chain that must
      // recompute its halo costs more MACs than the spill it saves (issue 11: vww at 64 KiB
      // recomputed 34.7% of its MACs in one 8-stage chain).
      const TileShape longer_shape =
          FitLoop(graph, facts, *longer, budget, longer_weights, !loop->streamed);
      if (longer_shape.rows == 0) break;
      if (longer_shape.cols > 0 && !WithinTwoDRecompute(graph, facts, *longer, longer_shape)) {
        break;
      }
      loop = std::move(longer);
      shape = longer_shape;
      weights = longer_weights;
      ++last;
    }
    CommitLoop(graph, facts, budget, stages, i, last, std::move(*loop), shape, weights, chains);
    i = last + 1;
  }
}

}  // namespace tigris::plan
