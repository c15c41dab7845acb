#include "plan/plan_check.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/kernel_scratch.h"
#include "util/error.h"

namespace tigris::plan {
namespace {

constexpr int64_t kAlignment = 16;

std::string Range(const BufferHome& h) {
  return "[" + std::to_string(h.offset) + ", +" + std::to_string(h.size) + ")";
}

// Bytes of one row (H) of a rank-4 tensor, and of one pixel (one row, one column).
int64_t RowBytes(const ir::Tensor& t) {
  return t.num_elements() / t.shape[2] * static_cast<int64_t>(ir::DTypeSize(t.dtype));
}
int64_t PixelBytes(const ir::Tensor& t) { return RowBytes(t) / t.shape[3]; }

// The largest strip each op of a loop needs: input and output area (rows x columns) and,
// in a channel loop, the channels of its group (0: all of the tensor's channels).
struct StripNeed {
  int64_t in = 0;
  int64_t out = 0;
  int64_t channels = 0;
  int64_t in_channels = 0;
};
using StripNeeds = std::map<int, StripNeed>;

class Checker {
 public:
  Checker(const ir::Graph& graph, const PlanResult& plan, size_t max_defects)
      : g_(graph), p_(plan), max_(max_defects) {}

  std::vector<std::string> Run() {
    CheckStages();
    if (full()) return defects_;
    CheckSpills();
    if (full()) return defects_;
    CheckSlowArena();
    if (full()) return defects_;
    CheckPinnedArena();
    return defects_;
  }

  std::vector<std::string> RunTileLoop(const TilePlan& tile) {
    CheckTileRows(tile);
    return defects_;
  }

 private:
  bool full() const { return defects_.size() >= max_; }
  // Records a defect; returns `ok` so callers can write `if (!Expect(...)) return;`.
  bool Expect(bool ok, const std::string& what) {
    if (!ok && !full()) defects_.push_back(what);
    return ok;
  }
  std::string OpName(int op) const {
    return "op " + std::to_string(op) + " '" + g_.ops[static_cast<size_t>(op)].name + "'";
  }

  // One axis of a window op: the input span and its padding are exactly what the window
  // needs for the output span, counted directly (first tap of the first output to last tap
  // of the last), and padding lies only outside the tensor.
  void CheckSpan(const std::string& where, const char* axis, const analysis::RowWindow& w,
                 int64_t in_extent, const RowRange& input, const RowRange& output,
                 int64_t pad_before, int64_t pad_after) {
    const auto [first_tap, end_tap] = w.Taps(output.begin, output.end);
    Expect(input.begin - pad_before == first_tap && input.end + pad_after == end_tap,
           where + ": input " + axis + " and padding do not match the window");
    Expect(pad_before == 0 || input.begin == 0, where + ": leading padding inside the tensor");
    Expect(pad_after == 0 || input.end == in_extent,
           where + ": trailing padding inside the tensor");
  }

  // The largest input and output area (rows x columns) each op of `tile` touches over all
  // its tiles, and the row and column bookkeeping of every tile (TileRows is the planner's
  // function; what is checked here is recomputed from the windows).
  StripNeeds CheckTileRows(const TilePlan& tile) {
    StripNeeds largest;
    if (!Expect(!tile.ops.empty() && tile.tile_rows >= 1, "a tile loop without ops or rows")) {
      return largest;
    }
    const bool two_d = tile.tile_cols > 0;
    const bool channel_loop = tile.tile_channels > 0;
    if (!Expect(!tile.streamed || (!two_d && !channel_loop),
                "2-D tiles or channel groups in a streamed loop")) {
      return largest;
    }
    const int64_t height = GridRows(tile);
    const int64_t width = two_d ? GridCols(tile) : 1;                   // the grid's columns
    const int64_t depth = channel_loop ? tile.ops.back().channels : 1;  // and channels
    const int64_t bands = two_d ? (width + tile.tile_cols - 1) / tile.tile_cols : 1;
    const int64_t groups = channel_loop ? (depth + tile.tile_channels - 1) / tile.tile_channels : 1;
    const int64_t spatial_tiles = (height + tile.tile_rows - 1) / tile.tile_rows * bands;
    Expect(tile.count == spatial_tiles * groups,
           "tile count " + std::to_string(tile.count) + " does not cover " +
               std::to_string(height) + " rows in tiles of " + std::to_string(tile.tile_rows) +
               (two_d ? " and " + std::to_string(width) + " columns in tiles of " +
                            std::to_string(tile.tile_cols)
                      : "") +
               (channel_loop ? " and " + std::to_string(depth) + " channels in groups of " +
                                   std::to_string(tile.tile_channels)
                             : ""));
    // Coverage without a cell per element (a channel loop over a large tensor has billions:
    // fuzz_onnx, fuzz/regressions/onnx): along each axis the tiles' ranges must partition
    // the axis, and every combination of one range per axis must come from one tile.
    using Range = std::pair<int64_t, int64_t>;
    std::set<Range> row_ranges, col_ranges, chan_ranges;
    std::set<std::tuple<Range, Range, Range>> combinations;
    // Streamed: rows each intermediate op produced so far (each at most once).
    std::vector<std::vector<bool>> produced(tile.ops.size());
    for (size_t k = 0; k < tile.ops.size(); ++k) {
      produced[k].assign(static_cast<size_t>(std::max<int64_t>(tile.ops[k].out_rows, 0)), false);
    }
    const std::vector<std::vector<OpTileRows>> all = AllTileRows(tile);
    for (int64_t i = 0; i < tile.count && !full(); ++i) {
      if (!Expect(static_cast<size_t>(i) < all.size(), "tile " + std::to_string(i) + " missing")) {
        return largest;
      }
      const std::vector<OpTileRows>& rows = all[static_cast<size_t>(i)];
      const std::vector<OpTileRows>* prev = i > 0 ? &all[static_cast<size_t>(i - 1)] : nullptr;
      if (!Expect(rows.size() == tile.ops.size(), "tile " + std::to_string(i) + ": rows of " +
                                                      std::to_string(rows.size()) + " ops")) {
        return largest;
      }
      // The grid: the last op's output rows (and columns), or the bands a reduction reads.
      const RowRange& band = tile.ops.back().reduces ? rows.back().input : rows.back().output;
      const RowRange cols = !two_d                    ? RowRange{0, 1}
                            : tile.ops.back().reduces ? rows.back().input_cols
                                                      : rows.back().output_cols;
      const RowRange chans = channel_loop ? rows.back().channels : RowRange{0, 1};
      const Range grid_rows{band.begin, band.end}, grid_cols{cols.begin, cols.end},
          grid_chans{chans.begin, chans.end};
      row_ranges.insert(grid_rows);
      col_ranges.insert(grid_cols);
      chan_ranges.insert(grid_chans);
      if (!combinations.insert({grid_rows, grid_cols, grid_chans}).second) {
        Expect(false, "tile " + std::to_string(i) + " produces rows [" +
                          std::to_string(grid_rows.first) + ", " +
                          std::to_string(grid_rows.second) + ") of " + OpName(tile.ops.back().op) +
                          " (columns [" + std::to_string(grid_cols.first) + ", " +
                          std::to_string(grid_cols.second) + "), channels [" +
                          std::to_string(grid_chans.first) + ", " +
                          std::to_string(grid_chans.second) + ")) again");
      }
      for (size_t k = 0; k < rows.size(); ++k) {
        const TileOp& op = tile.ops[k];
        const OpTileRows& t = rows[k];
        const std::string where = "tile " + std::to_string(i) + ", " + OpName(op.op);
        Expect(t.input.begin >= 0 && t.input.end <= op.in_rows && t.input.begin < t.input.end,
               where + ": input rows [" + std::to_string(t.input.begin) + ", " +
                   std::to_string(t.input.end) + ") outside [0, " + std::to_string(op.in_rows) +
                   ")");
        Expect(t.output.begin >= 0 && t.output.end <= op.out_rows,
               where + ": output rows outside [0, " + std::to_string(op.out_rows) + ")");
        Expect(t.pad_top >= 0 && t.pad_bottom >= 0, where + ": negative padding");
        if (channel_loop) {
          // Every op of the tile writes the tile's group and reads it too, or, starting the
          // loop, every channel of its input (output-channel groups of a convolution).
          Expect(t.channels.begin >= 0 && t.channels.end <= op.channels && t.channels.size() > 0 &&
                     t.channels.begin == rows.back().channels.begin &&
                     t.channels.end == rows.back().channels.end,
                 where + ": channels outside the tile's group");
          const bool reads_all = op.reads_all_channels && k == 0;
          Expect(reads_all ? t.input_channels.begin == 0 && t.input_channels.end == op.in_channels
                           : t.input_channels.begin == t.channels.begin &&
                                 t.input_channels.end == t.channels.end,
                 where + (reads_all ? ": a group that does not read every input channel"
                                    : ": reads other channels than it writes"));
        } else {
          Expect(t.channels.begin == 0 && t.channels.end == op.channels &&
                     t.input_channels.begin == 0 && t.input_channels.end == op.in_channels,
                 where + ": a tile without channel groups that does not hold every channel");
        }
        if (two_d && op.reduces) {
          // Its box is its band of input columns; its output comes with the final tile.
          const bool final_tile = (i + 1) % spatial_tiles == 0;  // of its channel group
          Expect(t.input_cols.begin >= 0 && t.input_cols.end <= op.in_cols &&
                     t.input_cols.size() > 0 && t.pad_left == 0 && t.pad_right == 0 &&
                     t.output_cols.begin == 0 &&
                     t.output_cols.end == (final_tile ? op.out_cols : 0),
                 where + ": a reduction's columns are not its band");
        } else if (two_d) {
          Expect(t.input_cols.begin >= 0 && t.input_cols.end <= op.in_cols &&
                     t.input_cols.begin < t.input_cols.end && t.output_cols.begin >= 0 &&
                     t.output_cols.end <= op.out_cols && t.output_cols.size() > 0 &&
                     t.pad_left >= 0 && t.pad_right >= 0,
                 where + ": columns outside the tensors");
          CheckSpan(where, "columns", op.col_window, op.in_cols, t.input_cols, t.output_cols,
                    t.pad_left, t.pad_right);
          if (k + 1 < rows.size()) {
            Expect(t.output_cols.begin == rows[k + 1].input_cols.begin &&
                       t.output_cols.end == rows[k + 1].input_cols.end,
                   where + ": produces other columns than the next op reads");
          }
        } else {
          Expect(t.input_cols.begin == 0 && t.input_cols.end == op.in_cols &&
                     t.output_cols.begin == 0 && t.output_cols.end == op.out_cols,
                 where + ": a row tile that does not span the full width");
        }
        const bool streamed_link = tile.streamed && k + 1 < rows.size();
        StripNeed& need = largest[op.op];
        int64_t& in_area = need.in;
        int64_t& out_area = need.out;
        if (channel_loop) {
          need.channels = std::max(need.channels, t.channels.size());
          need.in_channels = std::max(need.in_channels, t.input_channels.size());
        }
        if (streamed_link) {
          // What op k+1 reads = rows kept from the previous tile + the rows op k adds now.
          const RowRange& reads = rows[k + 1].input;
          const int64_t kept_to = prev ? (*prev)[k + 1].input.end : reads.begin;
          Expect(!prev || reads.begin >= (*prev)[k + 1].input.begin,
                 where + ": its reader's window moves backwards");
          Expect(t.output.end == reads.end && t.output.begin == std::max(kept_to, reads.begin),
                 where + ": does not add exactly the rows its reader's window gains");
          for (int64_t r = std::max<int64_t>(t.output.begin, 0);
               r < std::min<int64_t>(t.output.end, op.out_rows); ++r) {
            Expect(!produced[k][static_cast<size_t>(r)],
                   where + ": row " + std::to_string(r) + " produced twice in a streamed loop");
            produced[k][static_cast<size_t>(r)] = true;
          }
          out_area = std::max(out_area, rows[k + 1].input_area());  // the whole window
        }
        if (op.reduces) {
          // Its band is its input, unpadded; its output rows come with the last band only.
          const bool last_tile = (i + 1) % spatial_tiles == 0;  // of its channel group
          Expect(k + 1 == rows.size() && t.pad_top == 0 && t.pad_bottom == 0 &&
                     t.output.begin == 0 && t.output.end == (last_tile ? op.out_rows : 0),
                 where + ": a reduction must end the loop and write its output with the last band");
          in_area = std::max(in_area, t.input_area());
          out_area = std::max(out_area, t.output_area());
          continue;
        }
        if (t.output.size() == 0) {
          Expect(streamed_link && prev && t.input.begin == (*prev)[k].input.begin &&
                     t.input.end == (*prev)[k].input.end,
                 where + ": produces no rows but its input window moves");
          continue;
        }
        CheckSpan(where, "rows", op.window, op.in_rows, t.input, t.output, t.pad_top, t.pad_bottom);
        if (k + 1 < rows.size() && !tile.streamed) {
          Expect(t.output.begin == rows[k + 1].input.begin && t.output.end == rows[k + 1].input.end,
                 where + ": produces other rows than the next op reads");
        }
        in_area = std::max(in_area, t.input_area());
        out_area = std::max(out_area, t.output_area());
      }
    }
    if (tile.ops.back().reduces) {
      const int op = tile.ops.back().op;
      const ir::Tensor& reduced = g_.tensor(g_.ops[static_cast<size_t>(op)].outputs[0]);
      // One channel group's accumulators in a channel loop.
      const int64_t need = reduced.num_elements() * 4 / (channel_loop ? reduced.shape[1] : 1) *
                           (channel_loop ? std::min(tile.tile_channels, reduced.shape[1]) : 1);
      bool found = false;
      for (const Buffer& b : tile.buffers) {
        found = found || (b.kind == BufferKind::kScratch && b.op == op && b.bytes >= need &&
                          b.first_op <= tile.ops.front().op && b.last_op >= op);
      }
      Expect(found, OpName(op) + ": no accumulators of " + std::to_string(need) +
                        " bytes live for the whole loop");
    }
    if (tile.streamed) {
      // A strip keeps rows from one tile to the next: no other buffer may take its bytes
      // at any op of the loop.
      for (size_t k = 0; k + 1 < tile.ops.size(); ++k) {
        const ir::TensorId t = g_.ops[static_cast<size_t>(tile.ops[k].op)].outputs[0];
        bool whole_loop = false;
        for (const Buffer& b : tile.buffers) {
          whole_loop = whole_loop || (b.tensor == t && b.first_op <= tile.ops.front().op &&
                                      b.last_op >= tile.ops.back().op);
        }
        Expect(whole_loop,
               "the streamed strip of '" + g_.tensor(t).name + "' is not live for the whole loop");
      }
    }
    auto partitions = [&](const std::set<Range>& ranges, int64_t extent, const char* axis) {
      int64_t next = 0;  // sorted by begin: each range must start where the last ended
      for (const Range& range : ranges) {
        if (!Expect(range.first == next && range.second > range.first,
                    std::string("the tiles' ") + axis + " of " + OpName(tile.ops.back().op) +
                        " do not partition [0, " + std::to_string(extent) + "): [" +
                        std::to_string(range.first) + ", " + std::to_string(range.second) +
                        ") after " + std::to_string(next))) {
          return;
        }
        next = range.second;
      }
      Expect(next == extent, std::string("the tiles' ") + axis + " of " +
                                 OpName(tile.ops.back().op) + " end at " + std::to_string(next) +
                                 " of " + std::to_string(extent));
    };
    partitions(row_ranges, height, "rows");
    partitions(col_ranges, width, "columns");
    partitions(chan_ranges, depth, "channels");
    Expect(combinations.size() == row_ranges.size() * col_ranges.size() * chan_ranges.size(),
           OpName(tile.ops.back().op) + ": " + std::to_string(combinations.size()) +
               " tiles do not cover every combination of " + std::to_string(row_ranges.size()) +
               " row, " + std::to_string(col_ranges.size()) + " column and " +
               std::to_string(chan_ranges.size()) + " channel ranges");
    return largest;
  }

  // Checks that `buffers` hold what op `op` needs and returns the homes live at it.
  std::vector<BufferHome> LiveAt(const std::vector<Buffer>& buffers, int op,
                                 const StripNeeds* strips) {
    const ir::Op& node = g_.ops[static_cast<size_t>(op)];
    auto resident = [&](ir::TensorId t, int64_t min_bytes) {
      for (const Buffer& b : buffers) {
        if (b.tensor == t && b.first_op <= op && op <= b.last_op && b.bytes >= min_bytes &&
            b.home.size >= b.bytes) {
          return true;
        }
      }
      return false;
    };
    auto needed = [&](ir::TensorId t, bool output) {
      if (strips == nullptr) return g_.tensor(t).byte_size();
      // An operand broadcast along H has one row, which every tile reads whole.
      if (!output && g_.tensor(t).shape.size() == 4 && g_.tensor(t).shape[2] == 1 &&
          node.outputs.size() == 1 && g_.tensor(node.outputs[0]).shape.size() == 4 &&
          g_.tensor(node.outputs[0]).shape[2] > 1) {
        return RowBytes(g_.tensor(t));
      }
      const auto it = strips->find(op);
      if (it == strips->end()) return int64_t{0};
      const int64_t bytes = (output ? it->second.out : it->second.in) * PixelBytes(g_.tensor(t));
      const int64_t channels = g_.tensor(t).shape[1];
      const int64_t held = output ? it->second.channels : it->second.in_channels;
      return held > 0 ? bytes / channels * held : bytes;
    };
    for (ir::TensorId in : node.inputs) {
      if (in == ir::kNoTensor || g_.tensor(in).is_constant) continue;
      Expect(resident(in, needed(in, false)),
             OpName(op) + ": input '" + g_.tensor(in).name + "' not resident");
    }
    for (ir::TensorId out : node.outputs) {
      if (out == ir::kNoTensor) continue;
      Expect(resident(out, needed(out, true)),
             OpName(op) + ": output '" + g_.tensor(out).name + "' not resident");
    }
    const int64_t scratch = analysis::KernelScratchBytes(g_, node);
    if (scratch > 0) {
      bool found = false;
      for (const Buffer& b : buffers) {
        found = found || (b.kind == BufferKind::kScratch && b.op == op && b.bytes >= scratch &&
                          b.first_op <= op && op <= b.last_op);
      }
      Expect(found, OpName(op) + ": no scratch of " + std::to_string(scratch) + " bytes");
    }
    std::vector<BufferHome> live;
    for (const Buffer& b : buffers) {
      if (b.first_op > op || op > b.last_op) continue;
      const bool pinned = b.home.region == MemoryRegion::kPinned && b.kind == BufferKind::kTensor &&
                          strips == nullptr;
      Expect(b.home.region == MemoryRegion::kFast || pinned,
             OpName(op) + ": a live buffer is neither fast nor a pinned whole tensor");
      Expect(b.home.offset % kAlignment == 0 && b.home.size % kAlignment == 0 &&
                 b.home.size >= b.bytes && b.home.size < b.bytes + kAlignment,
             OpName(op) + ": buffer " + Range(b.home) + " of " + std::to_string(b.bytes) +
                 " bytes is not its payload rounded up to 16");
      if (!pinned) live.push_back(b.home);  // the pinned arena is checked on its own
    }
    return live;
  }

  void ExpectNoOverlap(std::vector<BufferHome> homes, const std::string& where) {
    std::sort(homes.begin(), homes.end(),
              [](const BufferHome& a, const BufferHome& b) { return a.offset < b.offset; });
    int64_t end = 0;
    const BufferHome* last = nullptr;
    for (const BufferHome& h : homes) {
      if (h.size == 0) continue;
      if (last != nullptr && h.offset < end) {
        Expect(false, where + ": buffers " + Range(*last) + " and " + Range(h) + " overlap");
      }
      if (h.offset + h.size > end) {
        end = h.offset + h.size;
        last = &h;
      }
    }
  }

  void CheckStages() {
    stage_of_.assign(g_.ops.size(), -1);
    int64_t max_peak = 0;
    int next_op = 0;
    size_t step = 0;
    std::map<int, StripNeeds> chain_strips;
    for (const Stage& stage : p_.stages) {
      const std::string name = "stage " + std::to_string(stage.id);
      if (!Expect(!stage.ops.empty(), name + " has no ops")) continue;
      const TilePlan* tile = stage.tile ? &*stage.tile : nullptr;
      if (stage.chain >= 0) {
        if (!Expect(static_cast<size_t>(stage.chain) < p_.chains.size(),
                    name + " names a missing chain")) {
          continue;
        }
        tile = &p_.chains[static_cast<size_t>(stage.chain)].tile;
      }
      Expect((stage.strategy == StageStrategy::kTiled) == stage.tile.has_value(),
             name + ": strategy and tile plan disagree");
      Expect((stage.strategy == StageStrategy::kChain) == (stage.chain >= 0),
             name + ": strategy and chain disagree");
      StripNeeds own_strips;
      const StripNeeds* strips = nullptr;
      if (tile != nullptr) {
        if (stage.chain >= 0) {
          auto it = chain_strips.find(stage.chain);  // a chain's loop is checked once
          if (it == chain_strips.end())
            it = chain_strips.emplace(stage.chain, CheckTileRows(*tile)).first;
          strips = &it->second;
        } else {
          own_strips = CheckTileRows(*tile);
          strips = &own_strips;
        }
      }
      const std::vector<Buffer>& buffers = tile ? tile->buffers : stage.buffers;
      for (int op : stage.ops) {
        if (!Expect(op == next_op && op < static_cast<int>(g_.ops.size()),
                    name + ": op " + std::to_string(op) + " out of order (expected " +
                        std::to_string(next_op) + ")")) {
          return;
        }
        ++next_op;
        stage_of_[static_cast<size_t>(op)] = stage.id;
        const std::vector<BufferHome> live = LiveAt(buffers, op, strips);
        ExpectNoOverlap(live, name + ", " + OpName(op));
        int64_t live_bytes = 0;
        for (const BufferHome& h : live) live_bytes += h.size;
        if (step < p_.timeline.size()) {
          const TimelineStep& t = p_.timeline[step];
          Expect(t.op == op && t.stage == stage.id && t.live_bytes == live_bytes,
                 "timeline step " + std::to_string(step) + " disagrees with " + name + ", " +
                     OpName(op) + " (" + std::to_string(live_bytes) + " live bytes)");
        }
        ++step;
        if (full()) return;
      }
      int64_t end = 0;
      for (const Buffer& b : buffers) {
        if (b.home.region == MemoryRegion::kFast) end = std::max(end, b.home.offset + b.home.size);
      }
      Expect(stage.peak_bytes == end, name + ": stage.peak_bytes " +
                                          std::to_string(stage.peak_bytes) +
                                          " but its buffers end at " + std::to_string(end));
      if (stage.fits && p_.budget.fast_bytes > 0) {
        Expect(stage.weight_bytes + stage.peak_bytes <= p_.budget.fast_bytes,
               name + " claims to fit but needs " +
                   std::to_string(stage.weight_bytes + stage.peak_bytes) + " bytes of " +
                   std::to_string(p_.budget.fast_bytes));
      }
      max_peak = std::max(max_peak, stage.peak_bytes);
    }
    Expect(next_op == static_cast<int>(g_.ops.size()), "the stages cover " +
                                                           std::to_string(next_op) + " of " +
                                                           std::to_string(g_.ops.size()) + " ops");
    Expect(p_.timeline.size() == g_.ops.size(),
           "the timeline has " + std::to_string(p_.timeline.size()) + " steps for " +
               std::to_string(g_.ops.size()) + " ops");
    Expect(p_.scheduled_peak_bytes == max_peak,
           "scheduled_peak_bytes " + std::to_string(p_.scheduled_peak_bytes) +
               " is not the largest stage peak " + std::to_string(max_peak));
  }

  int ChainOf(int stage) const { return p_.stages[static_cast<size_t>(stage)].chain; }

  // Which tensors must cross stages, derived from the graph alone.
  void CheckSpills() {
    const std::vector<int> producer = g_.ProducerIndex();
    for (size_t op = 0; op < g_.ops.size() && !full(); ++op) {
      const int q = stage_of_[op];
      for (ir::TensorId in : g_.ops[op].inputs) {
        if (in == ir::kNoTensor || g_.tensor(in).is_constant) continue;
        const int prod = producer[static_cast<size_t>(in)];
        if (prod < 0) continue;  // a graph input: copied from the caller
        const int s = stage_of_[static_cast<size_t>(prod)];
        if (s < 0 || q < 0) continue;  // reported by CheckStages
        if (s == q || (ChainOf(s) >= 0 && ChainOf(s) == ChainOf(q))) continue;
        const std::string& name = g_.tensor(in).name;
        const auto& in_list = p_.stages[static_cast<size_t>(q)].spill_in;
        const auto& out_list = p_.stages[static_cast<size_t>(s)].spill_out;
        Expect(std::find(in_list.begin(), in_list.end(), in) != in_list.end(),
               "'" + name + "' is not reloaded by stage " + std::to_string(q));
        Expect(std::find(out_list.begin(), out_list.end(), in) != out_list.end(),
               "'" + name + "' is not spilled by stage " + std::to_string(s));
        const SlowBuffer* home = nullptr;
        for (const SlowBuffer& b : p_.slow_buffers) {
          if (b.tensor == in) home = &b;
        }
        if (!Expect(home != nullptr, "'" + name + "' crosses stages without a slow home")) {
          continue;
        }
        Expect(home->first_stage <= s && home->last_stage >= q &&
                   home->home.size >= g_.tensor(in).byte_size(),
               "'" + name + "': its slow home does not cover stages " + std::to_string(s) + " to " +
                   std::to_string(q));
      }
    }
  }

  // A chain runs its stages together, tile by tile: a slow buffer used by any stage of a
  // chain is live while every stage of that chain runs.
  void CheckSlowArena() {
    auto unit_first = [&](int stage) {
      const int c = ChainOf(stage);
      return c < 0 ? stage : p_.chains[static_cast<size_t>(c)].stages.front();
    };
    auto unit_last = [&](int stage) {
      const int c = ChainOf(stage);
      return c < 0 ? stage : p_.chains[static_cast<size_t>(c)].stages.back();
    };
    // A joined plan (plan/joint_arena.h) keeps its spills in the fast arena, above every
    // stage they live through.
    const bool joined = p_.joint_arena_bytes > 0;
    const MemoryRegion spills = joined ? MemoryRegion::kFast : MemoryRegion::kSlow;
    int64_t slow_end = 0;
    for (const SlowBuffer& b : p_.slow_buffers) {
      const std::string name = "'" + g_.tensor(b.tensor).name + "'";
      Expect((b.home.region == spills || b.home.region == MemoryRegion::kPinned) &&
                 b.home.offset % kAlignment == 0,
             "slow buffer of " + name + " is not a 16-aligned " +
                 (joined ? "home in the joint arena" : "slow home"));
      if (b.home.region != spills) continue;
      slow_end = std::max(slow_end, b.home.offset + b.home.size);
      for (int s = b.first_stage; joined && s <= b.last_stage; ++s) {
        const Stage& stage = p_.stages[static_cast<size_t>(s)];
        Expect(stage.weight_bytes + stage.peak_bytes <= b.home.offset,
               "the spill of " + name + " at fast offset " + std::to_string(b.home.offset) +
                   " overlaps stage " + std::to_string(s) + "'s " +
                   std::to_string(stage.weight_bytes + stage.peak_bytes) + " bytes");
      }
    }
    if (joined) {
      Expect(slow_end <= p_.joint_arena_bytes, "the spills end at " + std::to_string(slow_end) +
                                                   ", past the joint arena's " +
                                                   std::to_string(p_.joint_arena_bytes) + " bytes");
    }
    for (size_t s = 0; s < p_.stages.size() && !full(); ++s) {
      std::vector<BufferHome> live;
      for (const SlowBuffer& b : p_.slow_buffers) {
        if (b.home.region != spills) continue;
        if (unit_first(b.first_stage) <= static_cast<int>(s) &&
            static_cast<int>(s) <= unit_last(b.last_stage)) {
          live.push_back(b.home);
        }
      }
      ExpectNoOverlap(live, "slow arena at stage " + std::to_string(s));
    }
    Expect(joined || p_.slow_peak_bytes == slow_end,
           "slow_peak_bytes " + std::to_string(p_.slow_peak_bytes) + " but the slow homes end at " +
               std::to_string(slow_end));
  }

  // Pinned tensors (plan/pinning.h): each has one home in the pinned arena, which its
  // normal-stage buffers and its slow buffer share, live from the first op of any of them
  // to the last; tensors live at the same time do not overlap, and pinned_peak_bytes is
  // the highest end.
  void CheckPinnedArena() {
    struct Life {
      BufferHome home;
      int first = 0, last = 0;
    };
    std::map<ir::TensorId, Life> lives;
    auto add = [&](ir::TensorId t, const BufferHome& home, int first, int last) {
      auto [it, fresh] = lives.emplace(t, Life{home, first, last});
      Life& life = it->second;
      Expect(fresh || (life.home.offset == home.offset && life.home.size == home.size),
             "pinned tensor '" + g_.tensor(t).name + "' has two homes");
      life.first = std::min(life.first, first);
      life.last = std::max(life.last, last);
    };
    for (const Stage& stage : p_.stages) {
      for (const Buffer& b : stage.buffers) {
        if (b.home.region == MemoryRegion::kPinned) add(b.tensor, b.home, b.first_op, b.last_op);
      }
    }
    for (const SlowBuffer& b : p_.slow_buffers) {
      if (b.home.region != MemoryRegion::kPinned) continue;
      const Stage& first = p_.stages[static_cast<size_t>(b.first_stage)];
      const Stage& last = p_.stages[static_cast<size_t>(b.last_stage)];
      add(b.tensor, b.home, first.ops.front(), last.ops.back());
    }
    int64_t end = 0;
    for (auto a = lives.begin(); a != lives.end(); ++a) {
      end = std::max(end, a->second.home.offset + a->second.home.size);
      for (auto b = std::next(a); b != lives.end(); ++b) {
        const Life &x = a->second, &y = b->second;
        const bool together = x.first <= y.last && y.first <= x.last;
        const bool apart = x.home.offset + x.home.size <= y.home.offset ||
                           y.home.offset + y.home.size <= x.home.offset;
        Expect(!together || apart, "pinned tensors '" + g_.tensor(a->first).name + "' and '" +
                                       g_.tensor(b->first).name + "' overlap while both live");
      }
    }
    Expect(p_.pinned_peak_bytes == end, "pinned_peak_bytes " +
                                            std::to_string(p_.pinned_peak_bytes) +
                                            " but the pinned homes end at " + std::to_string(end));
  }

  const ir::Graph& g_;
  const PlanResult& p_;
  const size_t max_;
  std::vector<std::string> defects_;
  std::vector<int> stage_of_;
};

}  // namespace

std::vector<std::string> CheckPlan(const ir::Graph& graph, const PlanResult& plan,
                                   size_t max_defects) {
  return Checker(graph, plan, max_defects).Run();
}

std::vector<std::string> CheckTileLoop(const ir::Graph& graph, const TilePlan& tile,
                                       size_t max_defects) {
  const PlanResult none;
  return Checker(graph, none, max_defects).RunTileLoop(tile);
}

void VerifyPlan(const ir::Graph& graph, const PlanResult& plan) {
  const std::vector<std::string> defects = CheckPlan(graph, plan, 5);
  if (defects.empty()) return;
  std::string text;
  for (const std::string& d : defects) text += (text.empty() ? "" : "; ") + d;
  throw Error(Status::kInternal, "the planner made a plan of model '" + graph.name +
                                     "' that fails its own check (please report it): " + text);
}

}  // namespace tigris::plan
