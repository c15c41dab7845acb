#include "plan/spatial_partition.h"

#include <string>

#include "plan/chains.h"
#include "plan/row_tiling.h"

namespace tigris::plan {
namespace {

// Names the stage's ops: the reasons are what a user reads to learn which op blocks.
std::string OverBudget(const ir::Graph& graph, const Stage& stage, int64_t fast_bytes) {
  std::string ops;
  for (int op : stage.ops) {
    ops += (ops.empty() ? "'" : ", '") + graph.ops[static_cast<size_t>(op)].name + "'";
  }
  return "stage " + std::to_string(stage.id) + " (" + ops + ") needs " +
         std::to_string(stage.peak_bytes) + " bytes untiled, over the fast budget of " +
         std::to_string(fast_bytes);
}

std::vector<int> OpsOf(const std::vector<Stage>& stages, size_t first, size_t last) {
  std::vector<int> ops;
  for (size_t s = first; s <= last; ++s) {
    ops.insert(ops.end(), stages[s].ops.begin(), stages[s].ops.end());
  }
  return ops;
}

}  // namespace

void TileStages(const ir::Graph& graph, const GraphFacts& facts, int64_t fast_bytes,
                std::vector<Stage>& stages, std::vector<Chain>& chains) {
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
    int64_t rows = LargestFittingTileRows(graph, facts, *loop, fast_bytes);
    if (rows == 0) {
      TilePlan one_row = *loop;
      LayoutTileLoop(graph, facts, 1, one_row);
      first.reasons = {OverBudget(graph, first, fast_bytes),
                       "even 1-row tiles need " + std::to_string(one_row.peak_bytes) + " bytes"};
      ++i;
      continue;
    }
    // Grow the loop into the following over-budget stages while it still fits.
    size_t last = i;
    while (last + 1 < stages.size() && !stages[last + 1].fits &&
           StageTileProblem(graph, facts, stages[last + 1]).empty() &&
           ChainLinkProblem(graph, facts, stages, last).empty()) {
      std::optional<TilePlan> longer =
          MakeTileLoop(graph, facts, OpsOf(stages, i, last + 1), &reason);
      if (!longer) break;
      const int64_t longer_rows = LargestFittingTileRows(graph, facts, *longer, fast_bytes);
      if (longer_rows == 0) break;
      loop = std::move(longer);
      rows = longer_rows;
      ++last;
    }
    if (last == i) {
      rows = SelectTileRows(graph, facts, *loop, fast_bytes, first.peak_bytes);
      LayoutTileLoop(graph, facts, rows, *loop);
      first.strategy = StageStrategy::kTiled;
      first.peak_bytes = loop->peak_bytes;
      first.tile = std::move(*loop);
      first.buffers.clear();
      first.fits = true;
    } else {
      LayoutTileLoop(graph, facts, rows, *loop);
      Chain chain;
      chain.id = static_cast<int>(chains.size());
      for (size_t s = i; s <= last; ++s) {
        Stage& stage = stages[s];
        chain.stages.push_back(stage.id);
        stage.strategy = StageStrategy::kChain;
        stage.chain = chain.id;
        stage.peak_bytes = loop->peak_bytes;  // the stages share one iteration's arena
        stage.buffers.clear();
        stage.fits = true;
      }
      chain.tile = std::move(*loop);
      chains.push_back(std::move(chain));
    }
    i = last + 1;
  }
}

}  // namespace tigris::plan
