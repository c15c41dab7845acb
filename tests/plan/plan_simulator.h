// Brute-force replay of a plan, independent of the planner's allocator: walks every
// execution step, "allocates" each buffer the plan says is live at the offset the plan
// gives, and checks what the runtime will rely on:
//  - offsets and sizes are 16-byte aligned and no two simultaneously-live buffers overlap;
//  - every activation an op reads or writes (and its kernel scratch) is live at that op,
//    whole for normal stages, as a strip at least as large as every tile's rows for tiled
//    and chain stages;
//  - each stage's peak equals the highest offset + size of its buffers, and
//    scheduled_peak_bytes is the largest stage peak; fitting stages are within budget;
//  - tile rows: the last op's output rows of all tiles cover [0, H) exactly once, every
//    input range lies within its tensor, padding fills the window exactly, and each op
//    produces exactly the rows the next reads;
//  - every tensor crossing a stage boundary (outside a chain) is spilled by its producer,
//    reloaded by the reader, and has a slow home live over both; slow homes do not
//    overlap and slow_peak_bytes is their highest end;
//  - the timeline's live bytes equal the sum of the live buffers' sizes.
#ifndef TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_
#define TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/kernel_scratch.h"
#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::testing {

inline int64_t SimRowBytes(const ir::Tensor& t) {
  return t.num_elements() / t.shape[2] * static_cast<int64_t>(ir::DTypeSize(t.dtype));
}

inline void ExpectNoOverlap(const std::vector<plan::BufferHome>& homes, const std::string& where) {
  for (size_t i = 0; i < homes.size(); ++i) {
    for (size_t j = i + 1; j < homes.size(); ++j) {
      const bool disjoint = homes[i].offset + homes[i].size <= homes[j].offset ||
                            homes[j].offset + homes[j].size <= homes[i].offset ||
                            homes[i].size == 0 || homes[j].size == 0;
      EXPECT_TRUE(disjoint) << where << ": buffers " << i << " [" << homes[i].offset << ", +"
                            << homes[i].size << ") and " << j << " [" << homes[j].offset << ", +"
                            << homes[j].size << ") overlap";
    }
  }
}

inline void ExpectTileRowsConsistent(const plan::TilePlan& tile) {
  ASSERT_FALSE(tile.ops.empty());
  ASSERT_GE(tile.tile_rows, 1);
  const int64_t height = tile.ops.back().out_rows;
  EXPECT_EQ(tile.count, (height + tile.tile_rows - 1) / tile.tile_rows);
  std::vector<int> covered(static_cast<size_t>(height), 0);
  for (int64_t i = 0; i < tile.count; ++i) {
    const std::vector<plan::OpTileRows> rows = plan::TileRows(tile, i);
    ASSERT_EQ(rows.size(), tile.ops.size());
    for (int64_t r = rows.back().output.begin; r < rows.back().output.end; ++r) {
      ++covered[static_cast<size_t>(r)];
    }
    for (size_t k = 0; k < rows.size(); ++k) {
      const plan::TileOp& op = tile.ops[k];
      EXPECT_GE(rows[k].input.begin, 0);
      EXPECT_LE(rows[k].input.end, op.in_rows);
      EXPECT_LT(rows[k].input.begin, rows[k].input.end);
      EXPECT_GE(rows[k].output.begin, 0);
      EXPECT_LE(rows[k].output.end, op.out_rows);
      EXPECT_GE(rows[k].pad_top, 0);
      EXPECT_GE(rows[k].pad_bottom, 0);
      // Rows a window of `kernel` taps at `stride` needs for the produced rows, counted
      // directly: first tap of the first row to last tap of the last row.
      const int64_t first_tap = rows[k].output.begin * op.window.stride - op.window.pad_top;
      const int64_t last_tap = (rows[k].output.end - 1) * op.window.stride - op.window.pad_top +
                               (op.window.kernel - 1) * op.window.dilation;
      EXPECT_EQ(rows[k].input.begin - rows[k].pad_top, first_tap);
      EXPECT_EQ(rows[k].input.end + rows[k].pad_bottom, last_tap + 1);
      if (rows[k].pad_top > 0) {
        EXPECT_EQ(rows[k].input.begin, 0);
      }
      if (rows[k].pad_bottom > 0) {
        EXPECT_EQ(rows[k].input.end, op.in_rows);
      }
      if (k + 1 < rows.size()) {
        EXPECT_EQ(rows[k].output.begin, rows[k + 1].input.begin) << "op " << op.op;
        EXPECT_EQ(rows[k].output.end, rows[k + 1].input.end) << "op " << op.op;
      }
    }
  }
  for (int64_t r = 0; r < height; ++r) {
    EXPECT_EQ(covered[static_cast<size_t>(r)], 1) << "output row " << r;
  }
}

// Checks that `buffers` hold what `op` needs at that step and returns the live homes.
inline std::vector<plan::BufferHome> LiveAt(const ir::Graph& g,
                                            const std::vector<plan::Buffer>& buffers, int op,
                                            const plan::TilePlan* tile) {
  std::vector<plan::BufferHome> live;
  auto has = [&](ir::TensorId t, int64_t min_bytes) {
    for (const plan::Buffer& b : buffers) {
      if (b.tensor == t && b.first_op <= op && op <= b.last_op && b.bytes >= min_bytes &&
          b.home.size >= b.bytes) {
        return true;
      }
    }
    return false;
  };
  const ir::Op& node = g.ops[static_cast<size_t>(op)];
  // Largest rows of each tensor this op touches, over every tile.
  auto strip_bytes = [&](ir::TensorId t, bool output) {
    if (!tile) return g.tensor(t).byte_size();
    int64_t rows = 0;
    for (int64_t i = 0; i < tile->count; ++i) {
      for (const plan::OpTileRows& r : plan::TileRows(*tile, i)) {
        if (r.op == op) rows = std::max(rows, output ? r.output.size() : r.input.size());
      }
    }
    return rows * SimRowBytes(g.tensor(t));
  };
  for (ir::TensorId in : node.inputs) {
    if (in == ir::kNoTensor || g.tensor(in).is_constant) continue;
    EXPECT_TRUE(has(in, strip_bytes(in, false)))
        << "op '" << node.name << "' input '" << g.tensor(in).name << "' not resident";
  }
  for (ir::TensorId out : node.outputs) {
    EXPECT_TRUE(has(out, strip_bytes(out, true)))
        << "op '" << node.name << "' output '" << g.tensor(out).name << "' not resident";
  }
  const int64_t scratch = analysis::KernelScratchBytes(g, node);
  if (scratch > 0) {
    bool found = false;
    for (const plan::Buffer& b : buffers) {
      found = found || (b.kind == plan::BufferKind::kScratch && b.op == op && b.bytes >= scratch &&
                        b.first_op <= op && op <= b.last_op);
    }
    EXPECT_TRUE(found) << "op '" << node.name << "' has no scratch";
  }
  for (const plan::Buffer& b : buffers) {
    if (b.first_op > op || op > b.last_op) continue;
    EXPECT_EQ(b.home.region, plan::MemoryRegion::kFast);
    EXPECT_EQ(b.home.offset % 16, 0);
    EXPECT_EQ(b.home.size % 16, 0);
    EXPECT_GE(b.home.size, b.bytes);
    EXPECT_LT(b.home.size, b.bytes + 16);
    live.push_back(b.home);
  }
  return live;
}

inline void ExpectPlanReplays(const ir::Graph& g, const plan::PlanResult& p) {
  std::vector<int> stage_of(g.ops.size(), -1);
  int64_t max_peak = 0;
  int next_op = 0;
  size_t timeline_index = 0;
  for (const plan::Stage& stage : p.stages) {
    ASSERT_FALSE(stage.ops.empty());
    const plan::TilePlan* tile = stage.tile ? &*stage.tile : nullptr;
    if (stage.chain >= 0) tile = &p.chains.at(static_cast<size_t>(stage.chain)).tile;
    const std::vector<plan::Buffer>& buffers = tile ? tile->buffers : stage.buffers;
    EXPECT_EQ(stage.strategy == plan::StageStrategy::kTiled, stage.tile.has_value());
    EXPECT_EQ(stage.strategy == plan::StageStrategy::kChain, stage.chain >= 0);
    if (tile) ExpectTileRowsConsistent(*tile);
    for (int op : stage.ops) {
      EXPECT_EQ(op, next_op++) << "stages must cover the ops in order";
      stage_of[static_cast<size_t>(op)] = stage.id;
      const std::vector<plan::BufferHome> live = LiveAt(g, buffers, op, tile);
      ExpectNoOverlap(live, "stage " + std::to_string(stage.id) + " op " + std::to_string(op));
      int64_t live_bytes = 0;
      for (const plan::BufferHome& h : live) live_bytes += h.size;
      if (timeline_index < p.timeline.size()) {
        EXPECT_EQ(p.timeline[timeline_index].op, op);
        EXPECT_EQ(p.timeline[timeline_index].stage, stage.id);
        EXPECT_EQ(p.timeline[timeline_index].live_bytes, live_bytes);
      }
      ++timeline_index;
    }
    int64_t end = 0;
    for (const plan::Buffer& b : buffers) end = std::max(end, b.home.offset + b.home.size);
    EXPECT_EQ(stage.peak_bytes, end) << "stage " << stage.id;
    if (stage.fits) {
      EXPECT_LE(stage.peak_bytes, p.budget.fast_bytes) << "stage " << stage.id;
    }
    max_peak = std::max(max_peak, stage.peak_bytes);
  }
  EXPECT_EQ(next_op, static_cast<int>(g.ops.size()));
  EXPECT_EQ(p.timeline.size(), g.ops.size());
  EXPECT_EQ(p.scheduled_peak_bytes, max_peak);

  // Slow memory: independently derive which tensors must cross stages.
  auto chain_of = [&](int stage) { return p.stages[static_cast<size_t>(stage)].chain; };
  auto slow_home = [&](ir::TensorId t) -> const plan::SlowBuffer* {
    for (const plan::SlowBuffer& s : p.slow_buffers) {
      if (s.tensor == t) return &s;
    }
    return nullptr;
  };
  const std::vector<int> producer = g.ProducerIndex();
  for (size_t op = 0; op < g.ops.size(); ++op) {
    const int q = stage_of[op];
    for (ir::TensorId in : g.ops[op].inputs) {
      if (in == ir::kNoTensor || g.tensor(in).is_constant) continue;
      const int prod = producer[static_cast<size_t>(in)];
      if (prod < 0) continue;  // graph input: copied from the caller
      const int s = stage_of[static_cast<size_t>(prod)];
      if (s == q || (chain_of(s) >= 0 && chain_of(s) == chain_of(q))) continue;
      const auto& in_list = p.stages[static_cast<size_t>(q)].spill_in;
      const auto& out_list = p.stages[static_cast<size_t>(s)].spill_out;
      EXPECT_NE(std::find(in_list.begin(), in_list.end(), in), in_list.end())
          << g.tensor(in).name << " not reloaded by stage " << q;
      EXPECT_NE(std::find(out_list.begin(), out_list.end(), in), out_list.end())
          << g.tensor(in).name << " not spilled by stage " << s;
      const plan::SlowBuffer* home = slow_home(in);
      ASSERT_NE(home, nullptr) << g.tensor(in).name;
      EXPECT_LE(home->first_stage, s);
      EXPECT_GE(home->last_stage, q);
      EXPECT_GE(home->home.size, g.tensor(in).byte_size());
    }
  }
  // A chain executes its stages together (tile by tile), so a slow buffer used by any
  // stage of a chain is live while every stage of that chain runs.
  auto unit_first = [&](int stage) {
    const int c = chain_of(stage);
    return c < 0 ? stage : p.chains[static_cast<size_t>(c)].stages.front();
  };
  auto unit_last = [&](int stage) {
    const int c = chain_of(stage);
    return c < 0 ? stage : p.chains[static_cast<size_t>(c)].stages.back();
  };
  int64_t slow_end = 0;
  for (size_t s = 0; s < p.stages.size(); ++s) {
    std::vector<plan::BufferHome> live;
    for (const plan::SlowBuffer& b : p.slow_buffers) {
      EXPECT_EQ(b.home.region, plan::MemoryRegion::kSlow);
      EXPECT_EQ(b.home.offset % 16, 0);
      if (unit_first(b.first_stage) <= static_cast<int>(s) &&
          static_cast<int>(s) <= unit_last(b.last_stage)) {
        live.push_back(b.home);
      }
      slow_end = std::max(slow_end, b.home.offset + b.home.size);
    }
    ExpectNoOverlap(live, "slow arena at stage " + std::to_string(s));
  }
  EXPECT_EQ(p.slow_peak_bytes, slow_end);
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_
