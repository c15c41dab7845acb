// Spatial row tiling (tigris-tiling.txt, "Spatial tiling", "Tile height selection",
// "Binary search for tile height"): building a tile loop over a linear sequence of
// row-tileable ops, laying out one iteration exactly, and choosing the tile height.
#ifndef TIGRIS_PLAN_ROW_TILING_H_
#define TIGRIS_PLAN_ROW_TILING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/graph_facts.h"
#include "plan/tile_plan.h"

namespace tigris::plan {

// The loop over `ops` (execution order) with tile_rows/count/buffers unset, or nullopt
// with `reason` naming the op at fault when an op is not row-tileable
// (analysis/tileability.h) or the ops are not a linear sequence (op k + 1 reads op k's
// output, which nothing else reads and which is not a graph output).
std::optional<TilePlan> MakeTileLoop(const ir::Graph& graph, const GraphFacts& facts,
                                     const std::vector<int>& ops, std::string* reason);

// Sets tile_rows and count and lays out one iteration: per op, a strip for each data input
// the previous op did not produce (loaded, freed after the op), a strip for its output
// (freed after the next op reads it; the last op's is written out), and its scratch.
// Each strip is sized for its largest tile (every tile's rows from TileRows), rounded up
// to the alignment, and placed first-fit (plan/arena_allocator.h).
// With tile_cols > 0 the loop is a 2-D (recomputing) loop of tiles tile_rows x tile_cols
// (ColumnTileProblem must be empty); strips then hold [N, rows, cols, C].
// With tile_channels > 0 it is a channel loop (ChannelTileProblem must be empty): strips
// hold that many channels, groups run one after another.
// A grid of more than kMaxTilesPerLoop tiles is not laid out: its buffers are cleared and
// its peak is INT64_MAX, so it fits no budget.
void LayoutTileLoop(const ir::Graph& graph, const GraphFacts& facts, int64_t tile_rows,
                    TilePlan& loop, int64_t tile_cols = 0, int64_t tile_channels = 0);

// Why the loop cannot cut columns (2-D tiles), naming the op; empty when it can.
std::string ColumnTileProblem(const ir::Graph& graph, const TilePlan& loop);

// Why the loop cannot cut channels (channel groups), naming the op; empty when it can.
std::string ChannelTileProblem(const ir::Graph& graph, const TilePlan& loop);

struct TileShape {
  int64_t rows = 0;
  int64_t cols = 0;      // 0: full width
  int64_t channels = 0;  // 0: all channels
};
// The 2-D tile shape for a loop whose 1-row tiles do not fit: the fewest tiles of any
// (rows, cols) whose recomputing layout fits `fast_bytes` (ties: the larger tile); {0, 0}
// when even 1 x 1 tiles do not fit. Requires ColumnTileProblem(loop) to be empty.
TileShape LargestFitting2DTile(const ir::Graph& graph, const GraphFacts& facts,
                               const TilePlan& loop, int64_t fast_bytes);

// The fewest tile rows whose grid, with `other_bands` column bands times channel groups,
// stays within kMaxTilesPerLoop tiles; 0 when no row count does (other_bands alone is
// over the limit). 1 for every real model.
int64_t FewestTileRows(const TilePlan& loop, int64_t other_bands);

// Largest tile_rows in [FewestTileRows, output rows] whose layout fits `fast_bytes`, by
// binary search over the exact layout; 0 if even the fewest rows do not fit.
int64_t LargestFittingTileRows(const ir::Graph& graph, const GraphFacts& facts,
                               const TilePlan& loop, int64_t fast_bytes);

// The reference's tile height estimate, tile_h = floor(budget * H / peak) - halo, clamped
// to [1, H]; H is the loop's output rows and `untiled_peak` the stage's normal peak.
int64_t EstimateTileRows(const TilePlan& loop, int64_t fast_bytes, int64_t untiled_peak);

// Tile height of a single tiled stage: starts at EstimateTileRows, then searches with the
// exact layout (not the reference's proportional tiled_peak): the largest height above it
// that fits if the estimate fits, else the largest below it that fits (the reference
// "adjusts tile_h downward"), by binary search in both cases. 0 if the fewest rows
// (FewestTileRows) do not fit.
int64_t SelectTileRows(const ir::Graph& graph, const GraphFacts& facts, const TilePlan& loop,
                       int64_t fast_bytes, int64_t untiled_peak);

// MACs spent recomputing halo rows: per op, the rows it produces summed over tiles minus
// the distinct rows it produces, times its MACs per output row (analysis/macs.h). Never
// negative: rows no tile needs (below a strided consumer's last window) are skipped, not
// counted as savings.
int64_t RecomputeMacs(const ir::Graph& graph, const TilePlan& loop);

// Channel groups for a loop whose 1 x 1 tiles do not fit either: the most channels per
// group with 1-row full-width tiles, then the tallest tiles; {0, 0, 0} when one channel of
// one row does not fit. Requires ChannelTileProblem(loop) to be empty.
TileShape LargestFittingChannelTile(const ir::Graph& graph, const GraphFacts& facts,
                                    const TilePlan& loop, int64_t fast_bytes);

// Payload bytes of a strip of `area` pixels of `tensor`, holding `channels` of its
// channels (all when 0).
int64_t StripBytes(const ir::Graph& graph, ir::TensorId tensor, int64_t area, int64_t channels);

// Payload bytes of one row of an NCHW activation (N * C * W * element size).
int64_t RowBytes(const ir::Graph& graph, ir::TensorId tensor);
// Payload bytes of one column of one row (N * C * element size): a 2-D strip holds
// rows x cols of them.
int64_t PixelBytes(const ir::Graph& graph, ir::TensorId tensor);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_ROW_TILING_H_
