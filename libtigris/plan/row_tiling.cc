#include "plan/row_tiling.h"

#include <algorithm>
#include <limits>

#include "analysis/alignment.h"
#include "analysis/macs.h"
#include "analysis/tileability.h"
#include "plan/offset_layout.h"

namespace tigris::plan {
namespace {

std::string OpLabel(const ir::Op& op) {
  return "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + ")";
}

// The largest x in [lo, hi] with fits(x), by binary search, given fits(lo) (the layouts
// behind `fits` grow with x).
template <typename Fits>
int64_t LargestFitting(int64_t lo, int64_t hi, Fits fits) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// Data inputs of an op in a tile loop: the activations whose rows it reads.
std::vector<ir::TensorId> DataInputs(const GraphFacts& facts, int op) {
  return facts.activation_inputs[static_cast<size_t>(op)];
}

}  // namespace

int64_t RowBytes(const ir::Graph& graph, ir::TensorId tensor) {
  const ir::Tensor& t = graph.tensor(tensor);
  const int64_t rows = t.shape.size() == 4 ? t.shape[2] : 1;
  return rows > 0 ? t.num_elements() / rows * static_cast<int64_t>(ir::DTypeSize(t.dtype)) : 0;
}

int64_t PixelBytes(const ir::Graph& graph, ir::TensorId tensor) {
  const ir::Tensor& t = graph.tensor(tensor);
  const int64_t cols = t.shape.size() == 4 ? t.shape[3] : 1;
  return cols > 0 ? RowBytes(graph, tensor) / cols : 0;
}

std::optional<TilePlan> MakeTileLoop(const ir::Graph& graph, const GraphFacts& facts,
                                     const std::vector<int>& ops, std::string* reason) {
  TilePlan loop;
  std::vector<analysis::RowWindow> spatial;
  for (size_t k = 0; k < ops.size(); ++k) {
    const ir::Op& op = graph.ops[static_cast<size_t>(ops[k])];
    const analysis::RowTileability t = analysis::ClassifyRowTiling(graph, op);
    if (t.kind == analysis::RowTileClass::kUntileable) {
      *reason = OpLabel(op) + " cannot be row-tiled: " + t.reason;
      return std::nullopt;
    }
    if (t.kind == analysis::RowTileClass::kSpatial) spatial.push_back(t.window);
    if (t.kind == analysis::RowTileClass::kReduction && k + 1 != ops.size()) {
      *reason = OpLabel(op) + " reduces every row, so it can only end a tile loop";
      return std::nullopt;
    }
    const std::vector<ir::TensorId> inputs = DataInputs(facts, ops[k]);
    if (inputs.empty()) {
      *reason = OpLabel(op) + " cannot be row-tiled: it reads no activation";
      return std::nullopt;
    }
    if (k > 0) {
      const ir::TensorId prev = graph.ops[static_cast<size_t>(ops[k - 1])].outputs[0];
      const auto& readers = facts.consumers[static_cast<size_t>(prev)];
      if (std::find(inputs.begin(), inputs.end(), prev) == inputs.end()) {
        *reason = OpLabel(op) + " does not read '" + graph.tensor(prev).name +
                  "', so it cannot share a tile loop with its producer";
        return std::nullopt;
      }
      if (readers.size() != 1 || facts.graph_output[static_cast<size_t>(prev)]) {
        *reason = "'" + graph.tensor(prev).name + "' fans out, so " + OpLabel(op) +
                  " cannot share a tile loop with its producer";
        return std::nullopt;
      }
    }
    TileOp tile_op;
    tile_op.op = ops[k];
    tile_op.window = t.window;
    // The rows of its data inputs; an operand broadcast along H (one row) is read whole.
    tile_op.in_rows = 0;
    for (ir::TensorId in : inputs) {
      if (!analysis::BroadcastsAlongRows(graph, op, in)) {
        tile_op.in_rows = std::max(tile_op.in_rows, graph.tensor(in).shape[2]);
      }
    }
    tile_op.out_rows = graph.tensor(op.outputs[0]).shape[2];
    tile_op.reduces = t.kind == analysis::RowTileClass::kReduction;
    // Columns: the widest full-width data input (a one-pixel operand is read whole).
    tile_op.out_cols = graph.tensor(op.outputs[0]).shape[3];
    for (ir::TensorId in : inputs) {
      const ir::Shape& shape = graph.tensor(in).shape;
      if (shape.size() == 4) tile_op.in_cols = std::max(tile_op.in_cols, shape[3]);
    }
    const analysis::ColumnTileability cols = analysis::ClassifyColumnTiling(graph, op);
    if (cols.tileable) tile_op.col_window = cols.window;
    tile_op.channels = graph.tensor(op.outputs[0]).shape[1];
    tile_op.in_channels = graph.tensor(inputs.front()).shape[1];
    tile_op.reads_all_channels = analysis::ClassifyChannelTiling(graph, op).reads_all_channels;
    loop.ops.push_back(tile_op);
  }
  loop.halo = analysis::ComputeReceptiveField(spatial).halo;
  return loop;
}

std::string ColumnTileProblem(const ir::Graph& graph, const TilePlan& loop) {
  if (loop.streamed) return "a streamed loop keeps whole rows";
  for (const TileOp& t : loop.ops) {
    const ir::Op& op = graph.ops[static_cast<size_t>(t.op)];
    const analysis::ColumnTileability cols = analysis::ClassifyColumnTiling(graph, op);
    if (!cols.tileable) return OpLabel(op) + " cannot be tiled along W: " + cols.reason;
  }
  return "";
}

std::string ChannelTileProblem(const ir::Graph& graph, const TilePlan& loop) {
  if (loop.streamed) return "a streamed loop keeps every channel";
  for (size_t k = 0; k < loop.ops.size(); ++k) {
    const ir::Op& op = graph.ops[static_cast<size_t>(loop.ops[k].op)];
    const analysis::ChannelTileability c = analysis::ClassifyChannelTiling(graph, op);
    if (!c.tileable) return OpLabel(op) + " cannot be tiled along C: " + c.reason;
    if (c.reads_all_channels && k > 0) {
      return OpLabel(op) + " reads every channel of its input, which the op before it makes " +
             "one group at a time";
    }
  }
  return "";
}

int64_t StripBytes(const ir::Graph& graph, ir::TensorId tensor, int64_t area, int64_t channels) {
  const int64_t bytes = area * PixelBytes(graph, tensor);
  const ir::Tensor& t = graph.tensor(tensor);
  if (channels <= 0 || t.shape.size() != 4 || t.shape[1] <= 0) return bytes;
  return bytes / t.shape[1] * std::min(channels, t.shape[1]);
}

namespace {

// Largest input and output area (rows x columns) of each op over all tiles. A streamed
// loop's intermediate strip holds its reader's whole input window (rows kept from the
// previous tile plus the new ones), not only the rows produced in one tile. In a 2-D loop
// an op's rows depend only on the row band and its columns only on the column band, so
// the largest area is the largest rows times the largest columns: one walk per band
// instead of one per tile.
void LargestAreas(const TilePlan& loop, std::vector<int64_t>& max_in,
                  std::vector<int64_t>& max_out) {
  max_in.assign(loop.ops.size(), 0);
  max_out.assign(loop.ops.size(), 0);
  if (loop.tile_cols <= 0) {
    TilePlan one_group = loop;  // every channel group has the same rows
    one_group.count = RowBands(loop);
    for (const std::vector<OpTileRows>& rows : AllTileRows(one_group)) {
      for (size_t k = 0; k < rows.size(); ++k) {
        max_in[k] = std::max(max_in[k], rows[k].input_area());
        const bool kept = loop.streamed && k + 1 < rows.size();
        max_out[k] = std::max(max_out[k], kept ? rows[k + 1].input_area() : rows[k].output_area());
      }
    }
    return;
  }
  TilePlan row_only = loop;
  row_only.tile_cols = row_only.tile_channels = 0;
  row_only.count = RowBands(loop);
  std::vector<int64_t> in_rows(loop.ops.size(), 0), out_rows(loop.ops.size(), 0);
  for (const std::vector<OpTileRows>& rows : AllTileRows(row_only)) {
    for (size_t k = 0; k < rows.size(); ++k) {
      in_rows[k] = std::max(in_rows[k], rows[k].input.size());
      out_rows[k] = std::max(out_rows[k], rows[k].output.size());
    }
  }
  std::vector<int64_t> in_cols(loop.ops.size(), 0), out_cols(loop.ops.size(), 0);
  // The columns of the last row band (a reduction writes its output in its last tile).
  const int64_t bands = ColumnBands(loop);
  for (int64_t band = 0; band < bands; ++band) {
    const std::vector<OpTileRows> rows = TileRows(loop, (RowBands(loop) - 1) * bands + band);
    for (size_t k = 0; k < rows.size(); ++k) {
      in_cols[k] = std::max(in_cols[k], rows[k].input_cols.size());
      out_cols[k] = std::max(out_cols[k], rows[k].output_cols.size());
    }
  }
  for (size_t k = 0; k < loop.ops.size(); ++k) {
    max_in[k] = in_rows[k] * in_cols[k];
    max_out[k] = out_rows[k] * out_cols[k];
  }
}

}  // namespace

void LayoutTileLoop(const ir::Graph& graph, const GraphFacts& facts, int64_t tile_rows,
                    TilePlan& loop, int64_t tile_cols, int64_t tile_channels) {
  loop.tile_rows = tile_rows;
  loop.tile_cols = tile_cols;
  loop.tile_channels = tile_channels;
  loop.count = RowBands(loop) * ColumnBands(loop) * ChannelBands(loop);
  loop.buffers.clear();
  if (loop.count > kMaxTilesPerLoop) {
    loop.peak_bytes = std::numeric_limits<int64_t>::max();
    return;
  }
  std::vector<int64_t> max_in, max_out;
  LargestAreas(loop, max_in, max_out);
  for (size_t k = 0; k < loop.ops.size(); ++k) {
    const int op = loop.ops[k].op;
    const ir::TensorId produced_before =
        k > 0 ? graph.ops[static_cast<size_t>(loop.ops[k - 1].op)].outputs[0] : ir::kNoTensor;
    for (ir::TensorId in : DataInputs(facts, op)) {
      if (in == produced_before) continue;
      Buffer b;
      b.kind = BufferKind::kRowStrip;
      b.tensor = in;
      b.first_op = b.last_op = op;
      const bool whole =
          analysis::BroadcastsAlongRows(graph, graph.ops[static_cast<size_t>(op)], in);
      const int64_t in_channels = loop.ops[k].reads_all_channels ? 0 : tile_channels;
      b.bytes = whole ? RowBytes(graph, in) : StripBytes(graph, in, max_in[k], in_channels);
      loop.buffers.push_back(b);
    }
    Buffer out;
    out.kind = BufferKind::kRowStrip;
    out.tensor = graph.ops[static_cast<size_t>(op)].outputs[0];
    out.first_op = op;
    out.last_op = k + 1 < loop.ops.size() ? loop.ops[k + 1].op : op;
    if (loop.streamed && k + 1 < loop.ops.size()) {
      // Its rows outlive the iteration: nothing else may use its bytes at any op.
      out.first_op = loop.ops.front().op;
      out.last_op = loop.ops.back().op;
    }
    out.bytes = StripBytes(graph, out.tensor, max_out[k], tile_channels);
    loop.buffers.push_back(out);
    if (loop.ops[k].reduces) {
      // Per-channel accumulators (float or int32, [N, C]) carried from band to band.
      const ir::Tensor& out_t = graph.tensor(out.tensor);
      Buffer acc;
      acc.kind = BufferKind::kScratch;
      acc.op = op;
      acc.first_op = loop.ops.front().op;
      acc.last_op = loop.ops.back().op;
      // One channel group's accumulators with channel tiles (groups run one after another).
      acc.bytes = StripBytes(graph, out.tensor, 1, tile_channels) /
                  static_cast<int64_t>(ir::DTypeSize(out_t.dtype)) * 4;
      loop.buffers.push_back(acc);
    }
    if (facts.scratch_bytes[static_cast<size_t>(op)] > 0) {
      Buffer s;
      s.kind = BufferKind::kScratch;
      s.op = op;
      s.first_op = s.last_op = op;
      s.bytes = facts.scratch_bytes[static_cast<size_t>(op)];
      loop.buffers.push_back(s);
    }
  }
  // In order of birth (first fit places in that order); a streamed strip is born with the
  // loop.
  std::stable_sort(loop.buffers.begin(), loop.buffers.end(),
                   [](const Buffer& a, const Buffer& b) { return a.first_op < b.first_op; });
  const Layout layout = LayOutBuffers(loop.buffers, MemoryRegion::kFast);
  loop.peak_bytes = layout.peak_bytes;
  loop.layout = layout.summary;
}

int64_t FewestTileRows(const TilePlan& loop, int64_t other_bands) {
  if (other_bands < 1 || other_bands > kMaxTilesPerLoop) return 0;
  const int64_t row_bands = kMaxTilesPerLoop / other_bands;
  return std::max<int64_t>(1, (GridRows(loop) + row_bands - 1) / row_bands);
}

int64_t LargestFittingTileRows(const ir::Graph& graph, const GraphFacts& facts,
                               const TilePlan& loop, int64_t fast_bytes) {
  TilePlan trial = loop;
  auto fits = [&](int64_t rows) {
    LayoutTileLoop(graph, facts, rows, trial);
    return trial.peak_bytes <= fast_bytes;
  };
  const int64_t fewest = FewestTileRows(loop, 1);
  if (fewest == 0 || !fits(fewest)) return 0;
  return LargestFitting(fewest, GridRows(loop), fits);
}

TileShape LargestFitting2DTile(const ir::Graph& graph, const GraphFacts& facts,
                               const TilePlan& loop, int64_t fast_bytes) {
  TilePlan trial = loop;
  trial.streamed = false;
  auto fits = [&](int64_t rows, int64_t cols) {
    LayoutTileLoop(graph, facts, rows, trial, cols);
    return trial.peak_bytes <= fast_bytes;
  };
  const int64_t width = GridCols(loop);
  auto fewest_rows = [&](int64_t cols) { return FewestTileRows(loop, (width + cols - 1) / cols); };
  if (width < 1 || fewest_rows(1) == 0 || !fits(fewest_rows(1), 1)) return {};
  // A float reduction adds its boxes in the whole-tensor order only when each box is one
  // row (tgrs_global_pool_band_f32): its loop keeps 1-row tiles, so tiled == untiled bits.
  const TileOp& last = loop.ops.back();
  const ir::TensorId reduced = graph.ops[static_cast<size_t>(last.op)].outputs[0];
  const bool one_row = last.reduces && graph.tensor(reduced).dtype == ir::DType::kFloat32;
  // Widest tile of the fewest rows that fits; then, for every column band count from there
  // up, the tallest tile of the narrowest width with that many bands (a narrower tile fits
  // at least as many rows, so no width with the same band count needs fewer tiles); keep
  // the shape with the fewest tiles (ties: the larger area, which SMAUG prefers: the one
  // that uses the most SRAM; smaug-tiling-optimizers.txt). Walking band counts rather
  // than widths visits at most 2 * sqrt(width) widths.
  const int64_t widest = LargestFitting(1, width, [&](int64_t cols) {
    const int64_t fewest = fewest_rows(cols);
    return fewest > 0 && fits(fewest, cols);
  });
  TileShape best;
  int64_t best_tiles = 0;
  const int64_t height = GridRows(loop);
  int64_t rows_floor = 1;  // a narrower tile fits at least as many rows
  for (int64_t cols = widest; cols >= 1;) {
    cols = (width + (width + cols - 1) / cols - 1) / ((width + cols - 1) / cols);  // narrowest
    const int64_t bands = (width + cols - 1) / cols;
    if (best_tiles > 0 && bands >= best_tiles) break;  // even one row band cannot beat it
    const int64_t fewest = fewest_rows(cols);
    if (fewest == 0) break;  // more column bands than the tile limit
    rows_floor = std::max(rows_floor, fewest);
    if ((one_row && rows_floor > 1) || !fits(rows_floor, cols)) break;
    const int64_t rows =
        LargestFitting(rows_floor, one_row ? 1 : height, [&](int64_t r) { return fits(r, cols); });
    rows_floor = rows;
    const int64_t tiles = ((height + rows - 1) / rows) * bands;
    if (best_tiles == 0 || tiles < best_tiles ||
        (tiles == best_tiles && rows * cols > best.rows * best.cols)) {
      best = {rows, cols};
      best_tiles = tiles;
    }
    if (cols == 1) break;
    cols -= 1;  // the next band count: the widest tile with one band more is at most this
  }
  return best;
}

TileShape LargestFittingChannelTile(const ir::Graph& graph, const GraphFacts& facts,
                                    const TilePlan& loop, int64_t fast_bytes) {
  TilePlan trial = loop;
  trial.streamed = false;
  auto fits = [&](int64_t rows, int64_t channels) {
    LayoutTileLoop(graph, facts, rows, trial, 0, channels);
    return trial.peak_bytes <= fast_bytes;
  };
  const int64_t channels = loop.ops.empty() ? 0 : loop.ops.back().channels;
  auto fewest_rows = [&](int64_t c) { return FewestTileRows(loop, (channels + c - 1) / c); };
  auto fits_fewest = [&](int64_t c) {
    const int64_t fewest = fewest_rows(c);
    return fewest > 0 && fits(fewest, c);
  };
  if (channels < 1 || !fits_fewest(1)) return {};
  // The most channels per group at the fewest rows (1-row tiles in every real model), then
  // the tallest tiles at that group size (a group's rows run in order, so a float
  // reduction keeps its summation order).
  TileShape shape;
  shape.channels = LargestFitting(1, channels, fits_fewest);
  shape.rows = LargestFitting(fewest_rows(shape.channels), GridRows(loop),
                              [&](int64_t r) { return fits(r, shape.channels); });
  return shape;
}

int64_t EstimateTileRows(const TilePlan& loop, int64_t fast_bytes, int64_t untiled_peak) {
  const int64_t height = GridRows(loop);
  if (untiled_peak <= 0) return height;
  // tile_h = floor(budget * H / peak) - halo (tigris-tiling.txt); long double avoids
  // overflowing budget * H for multi-gigabyte budgets.
  const auto scaled = static_cast<int64_t>(static_cast<long double>(fast_bytes) * height /
                                           static_cast<long double>(untiled_peak));
  return std::clamp<int64_t>(scaled - loop.halo, 1, height);
}

int64_t SelectTileRows(const ir::Graph& graph, const GraphFacts& facts, const TilePlan& loop,
                       int64_t fast_bytes, int64_t untiled_peak) {
  TilePlan trial = loop;
  auto fits = [&](int64_t rows) {
    LayoutTileLoop(graph, facts, rows, trial);
    return trial.peak_bytes <= fast_bytes;
  };
  const int64_t fewest = FewestTileRows(loop, 1);
  if (fewest == 0) return 0;
  const int64_t rows = std::max(fewest, EstimateTileRows(loop, fast_bytes, untiled_peak));
  // The proportional estimate is only a starting point: grow while the exact layout still
  // fits, or, as the reference "adjusts tile_h downward if needed", shrink until it does.
  if (fits(rows)) return LargestFitting(rows, GridRows(loop), fits);
  if (rows == fewest || !fits(fewest)) return 0;
  return LargestFitting(fewest, rows - 1, fits);
}

int64_t RecomputeMacs(const ir::Graph& graph, const TilePlan& loop) {
  // Per op: positions produced summed over tiles, minus the distinct positions produced,
  // along rows and (2-D tiles) columns. Not minus the op's full height: a strided or
  // floor-mode consumer may never read an op's last rows (a 3x3 stride-3 pool over 14 rows
  // reads 12), so the loop skips them and "tiled - untiled" would go negative although
  // nothing is recomputed. A 2-D loop's tiles are a grid, rows by row band and columns by
  // column band, so its produced area is a product along each axis.
  auto summed_and_distinct = [](std::vector<RowRange>& ranges) {
    std::sort(ranges.begin(), ranges.end(),
              [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
    int64_t summed = 0;
    int64_t distinct = 0;
    int64_t covered_to = 0;  // the sorted ranges so far cover no position at or after this
    for (const RowRange& r : ranges) {
      summed += r.size();
      distinct += std::max<int64_t>(0, r.end - std::max(r.begin, covered_to));
      covered_to = std::max(covered_to, r.end);
    }
    return std::pair<int64_t, int64_t>(summed, distinct);
  };
  TilePlan row_only = loop;
  row_only.tile_cols = row_only.tile_channels = 0;  // channel groups recompute nothing
  row_only.count = RowBands(loop);
  std::vector<std::vector<RowRange>> rows_made(loop.ops.size());
  for (const std::vector<OpTileRows>& rows : AllTileRows(row_only)) {
    for (size_t k = 0; k < rows.size(); ++k) rows_made[k].push_back(rows[k].output);
  }
  std::vector<std::vector<RowRange>> cols_made(loop.ops.size());
  const int64_t bands = ColumnBands(loop);
  for (int64_t band = 0; band < bands; ++band) {
    const std::vector<OpTileRows> rows = TileRows(loop, (RowBands(loop) - 1) * bands + band);
    for (size_t k = 0; k < rows.size(); ++k) cols_made[k].push_back(rows[k].output_cols);
  }
  int64_t extra = 0;
  for (size_t k = 0; k < loop.ops.size(); ++k) {
    const ir::Op& op = graph.ops[static_cast<size_t>(loop.ops[k].op)];
    const int64_t area = loop.ops[k].out_rows * std::max<int64_t>(loop.ops[k].out_cols, 1);
    const int64_t macs_per_position = area > 0 ? analysis::OpMacs(graph, op) / area : 0;
    const auto [rows_summed, rows_distinct] = summed_and_distinct(rows_made[k]);
    const auto [cols_summed, cols_distinct] = summed_and_distinct(cols_made[k]);
    extra += (rows_summed * cols_summed - rows_distinct * cols_distinct) * macs_per_position;
  }
  return extra;
}

}  // namespace tigris::plan
