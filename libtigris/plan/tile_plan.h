// A row-tile loop: the ops it runs per tile, the tile grid, and each op's exact rows per
// tile (tigris-tiling.txt, "Spatial tiling" and "Chain tiling").
//
// Tiles are defined on the output rows of the last op: tile i produces rows
// [i * tile_rows, min((i + 1) * tile_rows, H)). Rows are back-propagated through the ops
// in reverse: an op producing output rows [a, b) reads input rows
//   [a * stride - pad_top, (b - 1) * stride - pad_top + (kernel - 1) * dilation + 1),
// clipped to the input; the rows cut off at the top and bottom are the op's border
// padding for that tile, so top padding applies only to the first tile and bottom padding
// only to the last. Because tiles are cut on the output grid, every input tile starts at
// a * stride - pad_top: tile starts are stride-aligned by construction. The runtime
// mirrors TileRows() exactly.
#ifndef TIGRIS_PLAN_TILE_PLAN_H_
#define TIGRIS_PLAN_TILE_PLAN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/receptive_field.h"
#include "plan/buffer.h"
#include "plan/offset_layout.h"

namespace tigris::plan {

// The dimension `regions` cut: rows. Columns (tile_cols) and channels (tile_channels)
// are cut alongside it, not instead of it.
enum class TileDim : uint8_t { kHeight = 0 };
std::string_view TileDimName(TileDim dim);  // "H"

// One op of the tile loop. In execution order, op k + 1 reads op k's output; every data
// input of an op has `in_rows` rows (H) and its single output `out_rows`.
struct TileOp {
  int op = 0;  // index into Graph::ops
  analysis::RowWindow window;
  int64_t in_rows = 0;
  int64_t out_rows = 0;
  // Along W, for 2-D tiles: the window (kernel_w, stride_w, pad_left as pad_top, ...) and
  // the columns of its data inputs and output. Set by MakeTileLoop when the op can run on
  // a column view (ColumnTileProblem); the identity window otherwise.
  analysis::RowWindow col_window;
  int64_t in_cols = 0;
  int64_t out_cols = 0;
  // Channels of its output (C) and of its data input. A channel loop's ops keep their
  // input's channels, except one that makes each group of output channels from all of its
  // input channels (a convolution), which can only start the loop.
  int64_t channels = 0;
  int64_t in_channels = 0;
  bool reads_all_channels = false;
  // A reduction over every input row (GlobalAveragePool/GlobalMaxPool), only ever the
  // loop's last op: it takes one band of input rows per tile into accumulators and writes
  // its output rows with the last band.
  bool reduces = false;
};

struct TilePlan {
  TileDim dim = TileDim::kHeight;
  // The strategy that shaped it (TilingStrategy::name, plan/tiling_strategy.h).
  std::string strategy;
  std::vector<TileOp> ops;
  int64_t tile_rows = 0;  // output rows of the last op per tile (the last tile may be short)
  // 2-D tiles: output columns of the last op per tile (the last column band may be
  // narrower); 0 = every tile spans the full width. Only recomputing loops cut columns.
  int64_t tile_cols = 0;
  // Channel tiles: channels per tile (the last group may be smaller); 0 = all channels.
  // Only loops of channel-wise ops (ChannelTileProblem) cut channels; they keep whole
  // columns.
  int64_t tile_channels = 0;
  // Tiles: ChannelBands * RowBands * ColumnBands, numbered channel group by channel group,
  // then row band by row band, left to right within a band.
  int64_t count = 0;
  int64_t halo = 0;  // RF - 1 over the loop's spatial ops (reverse walk)
  // Streamed (line-buffered): every intermediate strip keeps, from tile to tile, the rows
  // its reader's window still needs, so each op computes each of its rows once (no halo
  // recompute). Its strips then live for the whole loop iteration. See TileRows.
  bool streamed = false;
  // Fast-arena layout of one tile iteration (row strips sized for their largest tile,
  // plus scratch); every tile reuses it.
  std::vector<Buffer> buffers;
  int64_t peak_bytes = 0;
  // How `buffers` were laid out (plan/offset_layout.h) and how close that is to the least
  // any layout needs.
  LayoutSummary layout;
};

// The most tiles one loop may have. A plan stores every tile's rows (and columns, and
// channels) per op, and the planner, the plan check and the runtime's verifier walk them,
// so the limit bounds the plan's size and the work to make and verify it. Real models
// stay far below it: MobileNetV2-1.0/224 at its smallest budget has 1,568 tiles in its
// largest loop, and 224 x 224 in 1 x 1 tiles would be 50,176. A shape that needs more
// (a fuzzed model a million rows tall) does not fit, with a reason that says so.
constexpr int64_t kMaxTilesPerLoop = int64_t{1} << 16;

// The rows the tile grid cuts: the last op's output rows, or its input rows when it reduces.
int64_t GridRows(const TilePlan& plan);
// The columns a 2-D grid cuts, the same way: the last op's output or reduced columns.
int64_t GridCols(const TilePlan& plan);
// Row bands (ceil(GridRows / tile_rows)), column bands (1 without columns) and channel
// groups (1 without channel tiles).
int64_t RowBands(const TilePlan& plan);
int64_t ColumnBands(const TilePlan& plan);
int64_t ChannelBands(const TilePlan& plan);

struct RowRange {
  int64_t begin = 0;  // inclusive
  int64_t end = 0;    // exclusive
  int64_t size() const { return end - begin; }
};

struct OpTileRows {
  int op = 0;
  RowRange input;          // rows of each data input read (within [0, in_rows))
  RowRange output;         // rows of the output produced (within [0, out_rows))
  int64_t pad_top = 0;     // virtual zero rows above `input` (first tile only)
  int64_t pad_bottom = 0;  // virtual rows below `input` (last tile only)
  // Columns, the same way along W: the full width [0, in_cols) / [0, out_cols) without
  // column tiles.
  RowRange input_cols;
  RowRange output_cols;
  int64_t pad_left = 0;
  int64_t pad_right = 0;
  // Channels written (all of the output's without channel tiles) and read: the same range,
  // or all of the input's for an op that reads every channel (TileOp::reads_all_channels).
  RowRange channels;
  RowRange input_channels;
  int64_t input_area() const { return input.size() * input_cols.size(); }
  int64_t output_area() const { return output.size() * output_cols.size(); }
};

// Rows (and columns) of every op of `plan` for tile `tile_index` (0 <= tile_index < count),
// in the order of plan.ops. Requires tile_rows >= 1. A 2-D tile's columns are walked back
// from the last op's column band exactly as its rows are from its row band.
//
// Recomputing loop (streamed false): each op produces exactly the rows the next op reads
// in this tile, halo included, so rows near tile borders are computed by both tiles.
//
// Streamed loop: op k < last produces only rows no earlier tile produced. With R = op k+1's
// input rows in tile i and P its input rows in tile i - 1, op k produces
// [max(P.end, R.begin), R.end) (R whole in tile 0): the strip keeps [R.begin, P.end) from
// the previous tile, moved to its top, and op k appends the rest. An op that produces no
// row in a tile keeps its previous input rows, so the strip under it does not move.
std::vector<OpTileRows> TileRows(const TilePlan& plan, int64_t tile_index);
// Every tile's rows at once (index [tile][op]): linear in tiles, where calling TileRows per
// tile on a streamed loop is quadratic.
std::vector<std::vector<OpTileRows>> AllTileRows(const TilePlan& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_TILE_PLAN_H_
