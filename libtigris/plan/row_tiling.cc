#include "plan/row_tiling.h"

#include <algorithm>

#include "analysis/alignment.h"
#include "analysis/macs.h"
#include "analysis/tileability.h"
#include "plan/arena_allocator.h"

namespace tigris::plan {
namespace {

std::string OpLabel(const ir::Op& op) {
  return "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + ")";
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
    loop.ops.push_back(tile_op);
  }
  loop.halo = analysis::ComputeReceptiveField(spatial).halo;
  return loop;
}

void LayoutTileLoop(const ir::Graph& graph, const GraphFacts& facts, int64_t tile_rows,
                    TilePlan& loop) {
  const int64_t grid_rows = GridRows(loop);
  loop.tile_rows = tile_rows;
  loop.count = (grid_rows + tile_rows - 1) / tile_rows;
  // Largest input and output row counts of each op over all tiles. A streamed loop's
  // intermediate strip holds its reader's whole input window (rows kept from the previous
  // tile plus the new ones), not only the rows produced in one tile.
  std::vector<int64_t> max_in(loop.ops.size(), 0);
  std::vector<int64_t> max_out(loop.ops.size(), 0);
  for (const std::vector<OpTileRows>& rows : AllTileRows(loop)) {
    for (size_t k = 0; k < rows.size(); ++k) {
      max_in[k] = std::max(max_in[k], rows[k].input.size());
      const bool kept = loop.streamed && k + 1 < rows.size();
      max_out[k] = std::max(max_out[k], kept ? rows[k + 1].input.size() : rows[k].output.size());
    }
  }
  loop.buffers.clear();
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
      b.bytes = (whole ? 1 : max_in[k]) * RowBytes(graph, in);
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
    out.bytes = max_out[k] * RowBytes(graph, out.tensor);
    loop.buffers.push_back(out);
    if (loop.ops[k].reduces) {
      // Per-channel accumulators (float or int32, [N, C]) carried from band to band.
      const ir::Tensor& out_t = graph.tensor(out.tensor);
      Buffer acc;
      acc.kind = BufferKind::kScratch;
      acc.op = op;
      acc.first_op = loop.ops.front().op;
      acc.last_op = loop.ops.back().op;
      acc.bytes = out_t.num_elements() * 4;
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
  // First-fit places in order of birth; a streamed strip is born with the loop.
  std::stable_sort(loop.buffers.begin(), loop.buffers.end(),
                   [](const Buffer& a, const Buffer& b) { return a.first_op < b.first_op; });
  FirstFitArena arena;
  for (Buffer& b : loop.buffers) {
    b.home.region = MemoryRegion::kFast;
    b.home.offset = arena.Place(b.first_op, b.last_op, b.bytes);
    b.home.size = analysis::AlignUp(b.bytes);
  }
  loop.peak_bytes = arena.peak_bytes();
}

int64_t LargestFittingTileRows(const ir::Graph& graph, const GraphFacts& facts,
                               const TilePlan& loop, int64_t fast_bytes) {
  TilePlan trial = loop;
  auto fits = [&](int64_t rows) {
    LayoutTileLoop(graph, facts, rows, trial);
    return trial.peak_bytes <= fast_bytes;
  };
  if (!fits(1)) return 0;
  int64_t lo = 1;               // fits
  int64_t hi = GridRows(loop);  // candidate
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
  const int64_t height = GridRows(loop);
  int64_t rows = EstimateTileRows(loop, fast_bytes, untiled_peak);
  if (fits(rows)) {
    // The proportional estimate is only a starting point: grow while the exact layout
    // still fits.
    while (rows < height && fits(rows + 1)) ++rows;
    return rows;
  }
  // The reference "adjusts tile_h downward if needed".
  while (--rows >= 1) {
    if (fits(rows)) return rows;
  }
  return 0;
}

int64_t RecomputeMacs(const ir::Graph& graph, const TilePlan& loop) {
  // Per op: rows produced summed over tiles, minus the distinct rows produced. Not minus
  // the op's full height: a strided or floor-mode consumer may never read an op's last
  // rows (a 3x3 stride-3 pool over 14 rows reads 12), so the loop skips them and
  // "tiled - untiled" would go negative although nothing is recomputed.
  std::vector<std::vector<RowRange>> produced(loop.ops.size());
  for (const std::vector<OpTileRows>& rows : AllTileRows(loop)) {
    for (size_t k = 0; k < rows.size(); ++k) produced[k].push_back(rows[k].output);
  }
  int64_t extra = 0;
  for (size_t k = 0; k < loop.ops.size(); ++k) {
    const ir::Op& op = graph.ops[static_cast<size_t>(loop.ops[k].op)];
    const int64_t out_rows = loop.ops[k].out_rows;
    const int64_t macs_per_row = out_rows > 0 ? analysis::OpMacs(graph, op) / out_rows : 0;
    std::vector<RowRange>& ranges = produced[k];
    std::sort(ranges.begin(), ranges.end(),
              [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
    int64_t summed = 0;
    int64_t distinct = 0;
    int64_t covered_to = 0;  // the sorted ranges so far cover no row at or after this
    for (const RowRange& r : ranges) {
      summed += r.size();
      distinct += std::max<int64_t>(0, r.end - std::max(r.begin, covered_to));
      covered_to = std::max(covered_to, r.end);
    }
    extra += (summed - distinct) * macs_per_row;
  }
  return extra;
}

}  // namespace tigris::plan
