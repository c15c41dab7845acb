// The execution plan the planner produces and the emitter (issue 4) serializes.
//
// A plan is a sequence of stages over the ops in execution order. Each stage runs with
// the fast arena to itself: tensors crossing a stage boundary are spilled to the slow
// arena by the stage producing them and reloaded by the stages reading them. A stage runs
// in one of three ways (tigris-tiling.txt, "Execution strategies"):
//   kNormal  its buffers are whole tensors at fixed fast offsets (Stage::buffers);
//   kTiled   its ops run once per row tile over row strips (Stage::tile);
//   kChain   consecutive tiled stages fused into one tile loop whose intermediates never
//            leave the fast arena (Chain::tile; the stages name the chain).
// docs/memory-model.md states when every buffer is live; docs/planning.md the algorithms.
#ifndef TIGRIS_PLAN_PLAN_H_
#define TIGRIS_PLAN_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/buffer.h"
#include "plan/exploration.h"
#include "plan/offset_layout.h"
#include "plan/rewrites.h"
#include "plan/schedule.h"
#include "plan/tile_plan.h"

namespace tigris::plan {

enum class StageStrategy : uint8_t { kNormal = 0, kTiled, kChain };
std::string_view StageStrategyName(StageStrategy strategy);  // "normal", "tiled", "chain"

enum class Verdict : uint8_t {
  kOk = 0,       // one normal stage fits
  kPartitioned,  // several normal stages, all fit
  kTiled,        // tiling or chains make every stage fit
  kNeedsWork,    // some stage does not fit (Stage::reasons say why)
};
std::string_view VerdictName(Verdict verdict);  // "ok", "partitioned", "tiled", "needs_work"

struct Stage {
  int id = 0;
  std::vector<int> ops;  // op indices, consecutive, in execution order
  StageStrategy strategy = StageStrategy::kNormal;
  // kNormal: whole-tensor buffers and scratch in the fast arena. Empty for tiled stages
  // (their strips are in tile) and chain stages (in the chain's tile).
  std::vector<Buffer> buffers;
  std::optional<TilePlan> tile;  // kTiled only
  int chain = -1;                // kChain: index into PlanResult::chains
  int64_t peak_bytes = 0;        // max offset + size of the fast buffers while it runs
  // How a normal stage's buffers were laid out (plan/offset_layout.h) and how close that
  // is to the least any layout needs.
  LayoutSummary layout;
  // Budget::reserve_weights, or copy_weights: bytes of the weight prefix its residency
  // unit (the stage, or its whole chain) copies to fast[0, weight_bytes) before the
  // activations; else 0.
  int64_t weight_bytes = 0;
  // Set by ChooseWeightCopies (plan/weight_residency.h) on a unit planned with its weights
  // in place that is worth copying after all: the emitter then gives it a weight block
  // even when every other unit reads in place.
  bool copy_weights = false;
  // Tensors reloaded from the slow arena (produced by an earlier stage) and spilled to it
  // (read by a later stage), in order of first use / production.
  std::vector<ir::TensorId> spill_in;
  std::vector<ir::TensorId> spill_out;
  int64_t spill_in_bytes = 0;        // payload bytes of spill_in tensors
  int64_t spill_out_bytes = 0;       // payload bytes of spill_out tensors
  bool fits = true;                  // weight_bytes + peak_bytes <= fast budget
  std::vector<std::string> reasons;  // why it does not fit, naming ops (needs_work)
};

struct Chain {
  int id = 0;
  std::vector<int> stages;  // consecutive stage ids
  TilePlan tile;            // the fused loop over all ops of the stages
};

// A tensor's home in the slow arena, live from the stage producing it to the last stage
// reading it (inclusive).
struct SlowBuffer {
  ir::TensorId tensor = ir::kNoTensor;
  int first_stage = 0;
  int last_stage = 0;
  int64_t bytes = 0;
  BufferHome home;  // region kSlow
};

// One execution step (op) of the plan, for the timeline chart.
// Fast-arena buffers only: the pinned arena is not the fast arena.
struct TimelineStep {
  int op = 0;
  int stage = 0;
  int64_t live_bytes = 0;   // aligned sizes of the fast buffers live at this op
  int64_t arena_bytes = 0;  // highest offset + size among them
};

struct PlanResult {
  // The graph every index of this plan refers to: the planner's own copy of the graph it
  // was given, with the rewrites below applied (plan/rewrites.h) and its ops in the
  // memory-aware order (plan/schedule.h). Emit and report from this graph, not the
  // caller's: the two differ after a rewrite or a reorder.
  ir::Graph graph;
  std::vector<Rewrite> rewrites;
  Schedule schedule;  // how the ops were ordered
  Budget budget;
  int64_t naive_peak_bytes = 0;  // single-stage, untiled timeline peak (live bytes)
  ir::TensorId largest_tensor = ir::kNoTensor;
  std::vector<Stage> stages;
  std::vector<Chain> chains;
  std::vector<SlowBuffer> slow_buffers;
  int64_t scheduled_peak_bytes = 0;  // max Stage::peak_bytes (activations only)
  int64_t slow_peak_bytes = 0;       // max offset + size in the slow arena
  // One RAM (plan/joint_arena.h): when set, the slow homes sit at the top of a fast arena
  // of this many bytes (region kFast), and slow_peak_bytes is their extent; 0: two arenas.
  int64_t joint_arena_bytes = 0;
  LayoutSummary slow_layout;  // how the slow arena was laid out
  // Tensors rules pinned to a memory of their own (plan/pinning.h), whole, for their whole
  // life: their arena's highest offset + size, 0 when none is pinned.
  int64_t pinned_peak_bytes = 0;
  Verdict verdict = Verdict::kOk;
  int64_t macs = 0;
  int64_t recompute_macs = 0;      // extra MACs of halo rows computed more than once
  int64_t slow_traffic_bytes = 0;  // bytes moved between the slow and the fast arena
  std::vector<TimelineStep> timeline;
  // Set when the plan was chosen by a search (Budget::search, plan/explore.h).
  std::optional<Exploration> exploration;
};

// The plan's tile steps: the tile count of every loop, and 1 for each stage run whole
// (each step costs a loop's fixed work: the search's fourth figure, plan/explore.h).
int64_t TileSteps(const PlanResult& plan);

// The fast arena the plan needs: the most any stage holds at once, its copied weights and
// its activations (what the emitter sizes Plan.fast_arena_bytes to, docs/memory-model.md);
// for a joined plan, the one arena holding the spills too (joint_arena_bytes).
int64_t FastArenaBytes(const PlanResult& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PLAN_H_
