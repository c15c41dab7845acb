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

// Op `t` producing output rows `wanted`: its input rows, clipped to the input, and the
// border padding the clipping cut off.
void ReadWindow(const TileOp& t, const RowRange& wanted, OpTileRows& r) {
  r.op = t.op;
  r.output = wanted;
  const int64_t start = wanted.begin * t.window.stride - t.window.pad_top;
  const int64_t end = start + t.window.InputRows(wanted.size());
  r.input.begin = std::clamp<int64_t>(start, 0, t.in_rows);
  r.input.end = std::clamp<int64_t>(end, r.input.begin, t.in_rows);
  r.pad_top = r.input.begin - start;
  r.pad_bottom = end - r.input.end;
}

RowRange GridBand(const TilePlan& plan, int64_t tile_index) {
  return {tile_index * plan.tile_rows, std::min((tile_index + 1) * plan.tile_rows, GridRows(plan))};
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
  r.output = tile_index + 1 == plan.count ? RowRange{0, last.out_rows} : RowRange{0, 0};
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

// One tile of a recomputing loop: each op produces exactly the rows the next one reads.
std::vector<OpTileRows> RecomputingTile(const TilePlan& plan, int64_t tile_index) {
  std::vector<OpTileRows> rows(plan.ops.size());
  rows.back() = LastOpTile(plan, tile_index);
  for (size_t k = plan.ops.size() - 1; k-- > 0;)
    ReadWindow(plan.ops[k], rows[k + 1].input, rows[k]);
  return rows;
}

}  // namespace

int64_t GridRows(const TilePlan& plan) {
  if (plan.ops.empty()) return 0;
  return plan.ops.back().reduces ? plan.ops.back().in_rows : plan.ops.back().out_rows;
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
