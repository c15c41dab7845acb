#include "plan/pinning.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <string>

#include "analysis/alignment.h"
#include "plan/offset_layout.h"
#include "plan/plan_check.h"
#include "plan/planner.h"
#include "util/error.h"

namespace tigris::plan {
namespace {

// One pinned tensor's life: op steps [first, last] over every stage that holds it whole.
struct Pin {
  ir::TensorId tensor = ir::kNoTensor;
  int first = INT_MAX;
  int last = -1;
  int64_t bytes = 0;
};

bool IsNormal(const Stage& stage) { return !stage.tile && stage.chain < 0; }

// Why `t` cannot be pinned: the stage holding it only as row strips, else "no op".
[[noreturn]] void RefuseUnheld(const PlanResult& plan, ir::TensorId t) {
  const ir::Graph& graph = plan.graph;
  std::string where = "no op of the plan reads or writes it";
  for (const Stage& stage : plan.stages) {
    const TilePlan* loop = stage.tile ? &*stage.tile : nullptr;
    if (stage.chain >= 0) loop = &plan.chains[static_cast<size_t>(stage.chain)].tile;
    if (loop == nullptr) continue;
    const bool strips = std::any_of(loop->buffers.begin(), loop->buffers.end(),
                                    [t](const Buffer& b) { return b.tensor == t; });
    if (!strips) continue;
    std::string ops;
    for (int op : stage.ops) {
      ops += (ops.empty() ? "" : ", ") + graph.ops[static_cast<size_t>(op)].name;
    }
    where = "stage " + std::to_string(stage.id) + " (ops " + ops +
            ") computes it in tiles and no stage holds it whole";
    break;
  }
  throw UnpinnableTensor(
      graph.tensor(t).name,
      "tensor '" + graph.tensor(t).name + "' cannot be pinned to a memory of its own: " + where);
}

// The end of the highest of `buffers` in the fast arena, as laid out now.
int64_t FastEnd(const std::vector<Buffer>& buffers) {
  int64_t end = 0;
  for (const Buffer& b : buffers) end = std::max(end, b.home.offset + b.home.size);
  return end;
}

// Lays out the fast buffers of a normal stage pinned tensors left, keeping the offsets they
// had when that is no higher (a greedy layout of fewer buffers is not always lower).
void LayOutStageAgain(Stage& stage, const LayoutOptions& options) {
  std::vector<Buffer> fast;
  std::vector<size_t> where;
  for (size_t i = 0; i < stage.buffers.size(); ++i) {
    if (stage.buffers[i].home.region != MemoryRegion::kFast) continue;
    fast.push_back(stage.buffers[i]);
    where.push_back(i);
  }
  const int64_t kept = FastEnd(fast);
  std::vector<Buffer> again = fast;
  const Layout layout = LayOutBuffers(again, MemoryRegion::kFast, options);
  if (layout.peak_bytes < kept) {
    for (size_t k = 0; k < again.size(); ++k) stage.buffers[where[k]] = again[k];
    stage.layout = layout.summary;
  }
  stage.peak_bytes = std::min(kept, layout.peak_bytes);
}

// The same for the slow arena (intervals over stages, spills.cc).
void LayOutSlowAgain(PlanResult& plan) {
  std::vector<size_t> where;
  std::vector<Interval> intervals;
  int64_t kept = 0;
  for (size_t i = 0; i < plan.slow_buffers.size(); ++i) {
    const SlowBuffer& slow = plan.slow_buffers[i];
    if (slow.home.region != MemoryRegion::kSlow) continue;
    where.push_back(i);
    intervals.push_back({slow.first_stage, slow.last_stage, slow.bytes});
    kept = std::max(kept, slow.home.offset + slow.home.size);
  }
  const Layout layout = LayOut(intervals, plan.budget.layout);
  if (layout.peak_bytes < kept) {
    for (size_t k = 0; k < where.size(); ++k) {
      plan.slow_buffers[where[k]].home.offset = layout.offsets[k];
    }
    plan.slow_layout = layout.summary;
  }
  plan.slow_peak_bytes = std::min(kept, layout.peak_bytes);
}

}  // namespace

void PinTensors(PlanResult& plan, const std::vector<ir::TensorId>& tensors) {
  if (tensors.empty()) return;
  const ir::Graph& graph = plan.graph;
  const std::set<ir::TensorId> pinned(tensors.begin(), tensors.end());

  // Each tensor's life over the stages holding it whole.
  std::map<ir::TensorId, Pin> pins;
  for (ir::TensorId t : pinned) {
    if (graph.tensor(t).is_constant) {
      throw UnpinnableTensor(graph.tensor(t).name,
                             "tensor '" + graph.tensor(t).name +
                                 "' is a constant: constants are read in place or staged "
                                 "(CONSTANT rules), never pinned");
    }
    Pin pin;
    pin.tensor = t;
    pin.bytes = graph.tensor(t).byte_size();
    for (const Stage& stage : plan.stages) {
      for (const Buffer& b : stage.buffers) {
        if (b.kind != BufferKind::kTensor || b.tensor != t) continue;
        pin.first = std::min(pin.first, b.first_op);
        pin.last = std::max(pin.last, b.last_op);
      }
    }
    for (const SlowBuffer& slow : plan.slow_buffers) {
      if (slow.tensor != t) continue;
      pin.first =
          std::min(pin.first, plan.stages[static_cast<size_t>(slow.first_stage)].ops.front());
      pin.last = std::max(pin.last, plan.stages[static_cast<size_t>(slow.last_stage)].ops.back());
    }
    if (pin.last < 0) RefuseUnheld(plan, t);
    pins.emplace(t, pin);
  }

  // Their homes in the pinned arena (LayOut wants the intervals by birth).
  std::vector<Pin> order;
  for (const auto& [t, pin] : pins) order.push_back(pin);
  std::stable_sort(order.begin(), order.end(),
                   [](const Pin& a, const Pin& b) { return a.first < b.first; });
  std::vector<Interval> intervals;
  for (const Pin& pin : order) intervals.push_back({pin.first, pin.last, pin.bytes});
  const Layout layout = LayOut(intervals, plan.budget.layout);
  std::map<ir::TensorId, BufferHome> homes;
  for (size_t i = 0; i < order.size(); ++i) {
    homes[order[i].tensor] = {MemoryRegion::kPinned, layout.offsets[i],
                              analysis::AlignUp(order[i].bytes)};
  }
  plan.pinned_peak_bytes = layout.peak_bytes;

  // Spilled tensors whose copies between normal stages end now (not those a first call
  // already pinned: pinning again changes nothing).
  std::set<ir::TensorId> unspilled;
  for (const SlowBuffer& slow : plan.slow_buffers) {
    if (pinned.count(slow.tensor) && slow.home.region == MemoryRegion::kSlow) {
      unspilled.insert(slow.tensor);
    }
  }

  // Every whole-tensor home moves there; the arenas they left are laid out again.
  for (Stage& stage : plan.stages) {
    bool moved = false;
    for (Buffer& b : stage.buffers) {
      if (b.kind != BufferKind::kTensor || !pinned.count(b.tensor)) continue;
      b.home = homes.at(b.tensor);
      moved = true;
    }
    if (moved) LayOutStageAgain(stage, plan.budget.layout);
    // A normal stage's reload and spill of a pinned tensor copy nothing now.
    if (!IsNormal(stage)) continue;
    for (ir::TensorId t : stage.spill_in) {
      if (unspilled.count(t)) plan.slow_traffic_bytes -= graph.tensor(t).byte_size();
    }
    for (ir::TensorId t : stage.spill_out) {
      if (unspilled.count(t)) plan.slow_traffic_bytes -= graph.tensor(t).byte_size();
    }
  }
  bool slow_moved = false;
  for (SlowBuffer& slow : plan.slow_buffers) {
    if (!pinned.count(slow.tensor)) continue;
    slow.home = homes.at(slow.tensor);
    slow_moved = true;
  }
  if (slow_moved) LayOutSlowAgain(plan);

  plan.scheduled_peak_bytes = 0;
  for (const Stage& stage : plan.stages) {
    plan.scheduled_peak_bytes = std::max(plan.scheduled_peak_bytes, stage.peak_bytes);
  }
  plan.timeline = BuildTimeline(plan);
  VerifyPlan(graph, plan);
}

}  // namespace tigris::plan
