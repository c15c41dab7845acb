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

std::vector<OpTileRows> TileRows(const TilePlan& plan, int64_t tile_index) {
  std::vector<OpTileRows> rows(plan.ops.size());
  if (plan.ops.empty()) return rows;
  const int64_t last_rows = plan.ops.back().out_rows;
  RowRange wanted{tile_index * plan.tile_rows,
                  std::min((tile_index + 1) * plan.tile_rows, last_rows)};
  for (size_t k = plan.ops.size(); k-- > 0;) {
    const TileOp& t = plan.ops[k];
    OpTileRows& r = rows[k];
    r.op = t.op;
    r.output = wanted;
    const int64_t start = wanted.begin * t.window.stride - t.window.pad_top;
    const int64_t end = start + t.window.InputRows(wanted.size());
    r.input.begin = std::clamp<int64_t>(start, 0, t.in_rows);
    r.input.end = std::clamp<int64_t>(end, r.input.begin, t.in_rows);
    r.pad_top = r.input.begin - start;
    r.pad_bottom = end - r.input.end;
    wanted = r.input;  // the previous op must produce exactly these rows
  }
  return rows;
}

}  // namespace tigris::plan
