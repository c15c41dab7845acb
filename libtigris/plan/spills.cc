#include "plan/spills.h"

#include <algorithm>
#include <utility>

#include "analysis/alignment.h"
#include "analysis/tileability.h"
#include "plan/offset_layout.h"
#include "plan/row_tiling.h"

namespace tigris::plan {
namespace {

std::vector<int> StageOfOp(const ir::Graph& graph, const PlanResult& plan) {
  std::vector<int> stage_of(graph.ops.size(), -1);
  for (const Stage& stage : plan.stages) {
    for (int op : stage.ops) stage_of[static_cast<size_t>(op)] = stage.id;
  }
  return stage_of;
}

// The first and last stage running together with `stage`: its chain's, or itself.
std::pair<int, int> ChainBounds(const PlanResult& plan, int stage) {
  const int chain = plan.stages[static_cast<size_t>(stage)].chain;
  if (chain < 0) return {stage, stage};
  const std::vector<int>& stages = plan.chains[static_cast<size_t>(chain)].stages;
  return {stages.front(), stages.back()};
}

bool Contains(const std::vector<ir::TensorId>& list, ir::TensorId id) {
  return std::find(list.begin(), list.end(), id) != list.end();
}

}  // namespace

void AssignSpills(const ir::Graph& graph, const GraphFacts& facts, PlanResult& plan) {
  const std::vector<int> stage_of = StageOfOp(graph, plan);
  plan.slow_buffers.clear();
  // Tensors in production order (op order, then output order): slow homes in order of p.
  for (size_t op = 0; op < graph.ops.size(); ++op) {
    const int p = stage_of[op];
    for (ir::TensorId t : graph.ops[op].outputs) {
      if (!facts.IsActivation(t)) continue;
      int last_reader_stage = -1;
      for (int reader : facts.consumers[static_cast<size_t>(t)]) {
        const int q = stage_of[static_cast<size_t>(reader)];
        if (q == p) continue;
        const int chain = plan.stages[static_cast<size_t>(q)].chain;
        if (chain >= 0 && chain == plan.stages[static_cast<size_t>(p)].chain) continue;
        Stage& reading = plan.stages[static_cast<size_t>(q)];
        if (!Contains(reading.spill_in, t)) reading.spill_in.push_back(t);
        last_reader_stage = std::max(last_reader_stage, q);
      }
      if (last_reader_stage < 0) continue;
      plan.stages[static_cast<size_t>(p)].spill_out.push_back(t);
      SlowBuffer slow;
      slow.tensor = t;
      slow.first_stage = p;
      slow.last_stage = last_reader_stage;
      slow.bytes = facts.lifetimes[static_cast<size_t>(t)].bytes;
      plan.slow_buffers.push_back(slow);
    }
  }
  // Reload order is first use within each stage: sort spill_in by first reading op.
  for (Stage& stage : plan.stages) {
    auto first_use = [&](ir::TensorId t) {
      for (int reader : facts.consumers[static_cast<size_t>(t)]) {
        if (stage_of[static_cast<size_t>(reader)] == stage.id) return reader;
      }
      return -1;
    };
    std::stable_sort(stage.spill_in.begin(), stage.spill_in.end(),
                     [&](ir::TensorId a, ir::TensorId b) { return first_use(a) < first_use(b); });
    stage.spill_in_bytes = stage.spill_out_bytes = 0;
    for (ir::TensorId t : stage.spill_in) {
      stage.spill_in_bytes += facts.lifetimes[static_cast<size_t>(t)].bytes;
    }
    for (ir::TensorId t : stage.spill_out) {
      stage.spill_out_bytes += facts.lifetimes[static_cast<size_t>(t)].bytes;
    }
  }
  // A chain runs all its stages at once, tile by tile: a tensor live in any stage of a
  // chain is live for the whole chain. Without this widening the chain's input (last read
  // by its first stage) and its output (first written by its last stage) could share a
  // slow home, and tile 0's output rows would overwrite input rows tile 1 still reads.
  for (SlowBuffer& slow : plan.slow_buffers) {
    slow.first_stage = ChainBounds(plan, slow.first_stage).first;
    slow.last_stage = ChainBounds(plan, slow.last_stage).second;
  }
  std::stable_sort(
      plan.slow_buffers.begin(), plan.slow_buffers.end(),
      [](const SlowBuffer& a, const SlowBuffer& b) { return a.first_stage < b.first_stage; });
  std::vector<Interval> intervals;
  for (const SlowBuffer& slow : plan.slow_buffers) {
    intervals.push_back({slow.first_stage, slow.last_stage, slow.bytes});
  }
  const Layout layout = LayOut(intervals, plan.budget.layout);
  for (size_t i = 0; i < plan.slow_buffers.size(); ++i) {
    SlowBuffer& slow = plan.slow_buffers[i];
    slow.home.region = MemoryRegion::kSlow;
    slow.home.offset = layout.offsets[i];
    slow.home.size = analysis::AlignUp(slow.bytes);
  }
  plan.slow_peak_bytes = layout.peak_bytes;
  plan.slow_layout = layout.summary;
}

int64_t SlowTrafficBytes(const ir::Graph& graph, const PlanResult& plan) {
  int64_t traffic = 0;
  for (const Stage& stage : plan.stages) {
    const TilePlan* loop = stage.tile ? &*stage.tile : nullptr;
    if (stage.chain >= 0) loop = &plan.chains[static_cast<size_t>(stage.chain)].tile;
    if (!loop) {
      traffic += stage.spill_in_bytes + stage.spill_out_bytes;
      continue;
    }
    // Row strips of this stage's ops that are reloaded or spilled, tile by tile: boxes of
    // rows, columns and, in a channel loop, the tile's channel group.
    auto group = [&](const OpTileRows& r) {
      return loop->tile_channels > 0 ? r.channels.size() : int64_t{0};
    };
    for (const std::vector<OpTileRows>& rows : AllTileRows(*loop)) {
      for (size_t k = 0; k < rows.size(); ++k) {
        const int op = loop->ops[k].op;
        if (std::find(stage.ops.begin(), stage.ops.end(), op) == stage.ops.end()) continue;
        const ir::Op& node = graph.ops[static_cast<size_t>(op)];
        std::vector<ir::TensorId> counted;  // Add(x, x) reads x's strip once
        for (ir::TensorId in : node.inputs) {
          if (in != ir::kNoTensor && Contains(stage.spill_in, in) && !Contains(counted, in)) {
            counted.push_back(in);
            const bool whole = analysis::BroadcastsAlongRows(graph, node, in);
            traffic += whole ? RowBytes(graph, in)
                             : StripBytes(graph, in, rows[k].input_area(), group(rows[k]));
          }
        }
        if (Contains(stage.spill_out, node.outputs[0])) {
          traffic += StripBytes(graph, node.outputs[0], rows[k].output_area(), group(rows[k]));
        }
      }
    }
  }
  return traffic;
}

}  // namespace tigris::plan
