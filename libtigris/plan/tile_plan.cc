#include "plan/tile_plan.h"

#include <algorithm>

namespace tigris::plan {

std::string_view TileDimName(TileDim dim) {
  switch (dim) {
    case TileDim::kHeight:
      return "H";
  }
  return "?";
}

namespace {

// Along one axis, an op with window `w` over `extent` input positions producing `wanted`:
// the input positions it reads, clipped to the input, and the padding the clipping cut off.
void ReadSpan(const analysis::RowWindow& w, int64_t extent, const RowRange& wanted, RowRange& input,
              int64_t& pad_before, int64_t& pad_after) {
  const auto [start, end] = w.Taps(wanted.begin, wanted.end);
  input.begin = std::clamp<int64_t>(start, 0, extent);
  input.end = std::clamp<int64_t>(end, input.begin, extent);
  pad_before = input.begin - start;
  pad_after = end - input.end;
}

// Op `t` producing output rows `wanted`: its input rows, clipped to the input, and the
// border padding the clipping cut off. Columns stay whole (ApplyColumns cuts them).
void ReadWindow(const TileOp& t, const RowRange& wanted, OpTileRows& r) {
  r.op = t.op;
  r.output = wanted;
  ReadSpan(t.window, t.in_rows, wanted, r.input, r.pad_top, r.pad_bottom);
  r.output_cols = {0, t.out_cols};
  r.input_cols = {0, t.in_cols};
  r.pad_left = r.pad_right = 0;
  r.channels = {0, t.channels};
  r.input_channels = {0, t.in_channels};
}

// Cuts column band `band` into the rows of one tile: the last op produces the band's
// columns (a reduction reads them, and writes its output in the final tile only), every
// earlier op the columns its reader reads.
void ApplyColumns(const TilePlan& plan, int64_t band, bool final_tile,
                  std::vector<OpTileRows>& rows) {
  const TileOp& last = plan.ops.back();
  RowRange wanted{band * plan.tile_cols, std::min((band + 1) * plan.tile_cols, GridCols(plan))};
  size_t k = plan.ops.size();
  if (last.reduces) {
    OpTileRows& r = rows[--k];
    r.input_cols = wanted;
    r.output_cols = final_tile ? RowRange{0, last.out_cols} : RowRange{0, 0};
    r.pad_left = r.pad_right = 0;
  }
  while (k-- > 0) {
    OpTileRows& r = rows[k];
    r.output_cols = wanted;
    ReadSpan(plan.ops[k].col_window, plan.ops[k].in_cols, wanted, r.input_cols, r.pad_left,
             r.pad_right);
    wanted = r.input_cols;
  }
}

RowRange GridBand(const TilePlan& plan, int64_t band) {
  return {band * plan.tile_rows, std::min((band + 1) * plan.tile_rows, GridRows(plan))};
}

// The last op's rows in tile `tile_index`: its output rows, or for a reduction its band of
// input rows, with the output rows in the last tile only.
OpTileRows LastOpTile(const TilePlan& plan, int64_t tile_index) {
  const TileOp& last = plan.ops.back();
  OpTileRows r;
  if (!last.reduces) {
    ReadWindow(last, GridBand(plan, tile_index), r);
    return r;
  }
  r.op = last.op;
  r.input = GridBand(plan, tile_index);
  r.output = tile_index + 1 == RowBands(plan) ? RowRange{0, last.out_rows} : RowRange{0, 0};
  r.input_cols = {0, last.in_cols};
  r.output_cols = {0, last.out_cols};
  r.channels = {0, last.channels};
  r.input_channels = {0, last.in_channels};
  return r;
}

// One tile of a streamed loop, given the previous tile's rows (nullptr for tile 0).
std::vector<OpTileRows> StreamedTile(const TilePlan& plan, int64_t tile_index,
                                     const std::vector<OpTileRows>* previous) {
  std::vector<OpTileRows> rows(plan.ops.size());
  rows.back() = LastOpTile(plan, tile_index);
  RowRange wanted;
  for (size_t k = plan.ops.size() - 1; k-- > 0;) {
    const RowRange& reads = rows[k + 1].input;
    wanted = reads;
    if (previous != nullptr) {
      wanted.begin = std::max((*previous)[k + 1].input.end, reads.begin);
    }
    OpTileRows& r = rows[k];
    if (wanted.size() <= 0 && previous != nullptr) {
      // Nothing new to produce: no kernel call, and the input strip stays where it was.
      r = (*previous)[k];
      r.output = {wanted.end, wanted.end};
      r.pad_top = r.pad_bottom = 0;
      continue;
    }
    ReadWindow(plan.ops[k], wanted, r);
  }
  return rows;
}

// One tile of a recomputing loop: each op produces exactly the rows (and, in a 2-D loop,
// the columns) the next one reads. Tile t is row band t / ColumnBands, column band
// t % ColumnBands.
std::vector<OpTileRows> RecomputingTile(const TilePlan& plan, int64_t tile_index) {
  const int64_t bands = ColumnBands(plan);
  const int64_t spatial_tiles = RowBands(plan) * bands;  // per channel group
  const int64_t group = tile_index / spatial_tiles;
  tile_index %= spatial_tiles;
  // A reduction writes each channel group's output with the group's last spatial tile.
  const bool final_tile = tile_index + 1 == spatial_tiles;
  std::vector<OpTileRows> rows(plan.ops.size());
  rows.back() = LastOpTile(plan, tile_index / bands);
  if (plan.ops.back().reduces && !final_tile) rows.back().output = {0, 0};
  for (size_t k = plan.ops.size() - 1; k-- > 0;)
    ReadWindow(plan.ops[k], rows[k + 1].input, rows[k]);
  if (plan.tile_cols > 0) ApplyColumns(plan, tile_index % bands, final_tile, rows);
  if (plan.tile_channels > 0) {
    const RowRange channels{group * plan.tile_channels,
                            std::min((group + 1) * plan.tile_channels, plan.ops.back().channels)};
    for (size_t k = 0; k < rows.size(); ++k) {
      rows[k].channels = channels;
      rows[k].input_channels =
          plan.ops[k].reads_all_channels ? RowRange{0, plan.ops[k].in_channels} : channels;
    }
  }
  return rows;
}

}  // namespace

int64_t GridRows(const TilePlan& plan) {
  if (plan.ops.empty()) return 0;
  return plan.ops.back().reduces ? plan.ops.back().in_rows : plan.ops.back().out_rows;
}

int64_t RowBands(const TilePlan& plan) {
  return plan.tile_rows > 0 ? (GridRows(plan) + plan.tile_rows - 1) / plan.tile_rows : 0;
}

int64_t GridCols(const TilePlan& plan) {
  if (plan.ops.empty()) return 0;
  return plan.ops.back().reduces ? plan.ops.back().in_cols : plan.ops.back().out_cols;
}

int64_t ChannelBands(const TilePlan& plan) {
  if (plan.tile_channels <= 0 || plan.ops.empty()) return 1;
  return (plan.ops.back().channels + plan.tile_channels - 1) / plan.tile_channels;
}

int64_t ColumnBands(const TilePlan& plan) {
  if (plan.tile_cols <= 0 || plan.ops.empty()) return 1;
  return (GridCols(plan) + plan.tile_cols - 1) / plan.tile_cols;
}

std::vector<std::vector<OpTileRows>> AllTileRows(const TilePlan& plan) {
  std::vector<std::vector<OpTileRows>> all;
  if (plan.ops.empty() || plan.tile_rows < 1) return all;
  all.reserve(static_cast<size_t>(std::max<int64_t>(plan.count, 0)));
  for (int64_t i = 0; i < plan.count; ++i) {
    if (plan.streamed) {
      all.push_back(StreamedTile(plan, i, i > 0 ? &all.back() : nullptr));
      continue;
    }
    all.push_back(RecomputingTile(plan, i));
  }
  return all;
}

std::vector<OpTileRows> TileRows(const TilePlan& plan, int64_t tile_index) {
  if (plan.ops.empty()) return {};
  if (plan.streamed) {
    std::vector<OpTileRows> rows = StreamedTile(plan, 0, nullptr);
    for (int64_t i = 1; i <= tile_index; ++i) rows = StreamedTile(plan, i, &rows);
    return rows;
  }
  return RecomputingTile(plan, tile_index);
}

}  // namespace tigris::plan
