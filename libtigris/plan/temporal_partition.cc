#include "plan/temporal_partition.h"

#include <algorithm>

#include "analysis/alignment.h"
#include "analysis/weight_prefix.h"
#include "plan/arena_allocator.h"
#include "plan/offset_layout.h"

namespace tigris::plan {
namespace {

std::vector<Interval> Intervals(const std::vector<Buffer>& buffers) {
  std::vector<Interval> intervals;
  intervals.reserve(buffers.size());
  for (const Buffer& b : buffers) {
    if (b.home.region == MemoryRegion::kFast) intervals.push_back({b.first_op, b.last_op, b.bytes});
  }
  return intervals;
}

// The fast-arena layout of a normal stage under construction.
class NormalStageBuilder {
 public:
  NormalStageBuilder(const GraphFacts& facts, int first, const Budget& budget)
      : facts_(&facts), budget_(&budget), first_(first), resident_(facts.lifetimes.size(), false) {}

  int op_count() const { return next_ - first_; }
  // What the stage needs of the fast arena: its weight prefix below its activations, laid
  // out first fit as the ops come (incremental: births only move forward). An upper bound
  // on what Finish() lays out.
  int64_t fast_bytes() const { return weights_.bytes() + arena_.peak_bytes(); }
  // The same with the layout Finish() makes (plan/offset_layout.h) over the buffers as the
  // stage would end now: the lower of first fit and greedy by size, and with an exact
  // layout the solver's, which may stop as soon as the stage fits. Not incremental.
  int64_t laid_out_fast_bytes() const {
    std::vector<Buffer> buffers = ClippedBuffers();
    const int64_t room = budget_->fast_bytes - weights_.bytes();
    LayoutOptions options = budget_->layout;
    if (room <= 0) options.mode = LayoutMode::kGreedy;  // the weights alone do not fit
    return weights_.bytes() + LayOutBuffers(buffers, MemoryRegion::kFast, options, room).peak_bytes;
  }

  // Lays out op `step` (== first + op_count()): inputs not yet in the arena are loaded
  // (reloaded spills, caller-fed graph inputs), then its outputs, then its scratch.
  void AddOp(const ir::Graph& graph, int step) {
    saved_arena_ = arena_;
    saved_weights_ = weights_;
    saved_buffers_ = buffers_.size();
    if (budget_->reserve_weights) weights_.AddOp(graph, step);
    for (ir::TensorId in : facts_->activation_inputs[static_cast<size_t>(step)]) {
      if (!resident_[static_cast<size_t>(in)]) AddTensor(in, step);
    }
    for (ir::TensorId out : graph.ops[static_cast<size_t>(step)].outputs) {
      if (out != ir::kNoTensor && !resident_[static_cast<size_t>(out)]) AddTensor(out, step);
    }
    const int64_t scratch = facts_->scratch_bytes[static_cast<size_t>(step)];
    if (scratch > 0) {
      Buffer b;
      b.kind = BufferKind::kScratch;
      b.op = step;
      b.first_op = b.last_op = step;
      b.bytes = scratch;
      Place(b);
    }
    next_ = step + 1;
  }

  // Takes back the last AddOp.
  void UndoLastOp() {
    arena_ = saved_arena_;
    weights_ = saved_weights_;
    for (size_t i = saved_buffers_; i < buffers_.size(); ++i) {
      if (buffers_[i].tensor != ir::kNoTensor) {
        resident_[static_cast<size_t>(buffers_[i].tensor)] = false;
      }
    }
    buffers_.resize(saved_buffers_);
    --next_;
  }

  // The finished stage: buffers end at their last consumer or the stage's last op, laid out
  // by LayOut (the lower of first fit and greedy by size; with an exact layout, the solver
  // works on to the live bound).
  Stage Finish(int id) const {
    Stage stage;
    stage.id = id;
    for (int op = first_; op < next_; ++op) stage.ops.push_back(op);
    stage.buffers = ClippedBuffers();
    // A stage over budget even at its live bound is tiled or reported: no solve for it.
    LayoutOptions options = budget_->layout;
    if (budget_->fast_bytes > 0 &&
        weights_.bytes() + LiveLowerBound(Intervals(stage.buffers)) > budget_->fast_bytes) {
      options.mode = LayoutMode::kGreedy;
    }
    const Layout layout = LayOutBuffers(stage.buffers, MemoryRegion::kFast, options);
    stage.peak_bytes = layout.peak_bytes;
    stage.layout = layout.summary;
    stage.weight_bytes = weights_.bytes();
    return stage;
  }

 private:
  std::vector<Buffer> ClippedBuffers() const {
    std::vector<Buffer> buffers = buffers_;
    for (Buffer& b : buffers) b.last_op = std::min(b.last_op, next_ - 1);
    return buffers;
  }

  void AddTensor(ir::TensorId id, int step) {
    resident_[static_cast<size_t>(id)] = true;
    Buffer b;
    b.kind = BufferKind::kTensor;
    b.tensor = id;
    b.first_op = step;
    // Its global death; Finish() clips it to the stage (see the header).
    b.last_op = facts_->lifetimes[static_cast<size_t>(id)].death;
    b.bytes = facts_->lifetimes[static_cast<size_t>(id)].bytes;
    if (facts_->pinned[static_cast<size_t>(id)]) {
      // Outside the fast arena (Budget::pinned): PinTensors gives it its home.
      b.home.region = MemoryRegion::kPinned;
      b.home.size = analysis::AlignUp(b.bytes);
      buffers_.push_back(b);
      return;
    }
    Place(b);
  }

  void Place(Buffer b) {
    b.home.region = MemoryRegion::kFast;
    b.home.offset = arena_.Place(b.first_op, b.last_op, b.bytes);
    b.home.size = analysis::AlignUp(b.bytes);
    buffers_.push_back(b);
  }

  const GraphFacts* facts_;  // pointers: builders are reassigned
  const Budget* budget_;
  int first_;
  int next_ = first_;
  std::vector<bool> resident_;
  std::vector<Buffer> buffers_;
  FirstFitArena arena_;
  FirstFitArena saved_arena_;
  analysis::WeightPrefix weights_;
  analysis::WeightPrefix saved_weights_;
  size_t saved_buffers_ = 0;
};

}  // namespace

Stage LayoutNormalStage(const ir::Graph& graph, const GraphFacts& facts, int first, int last) {
  static const Budget kActivationsOnly{};  // greedy layout, weights not reserved
  NormalStageBuilder builder(facts, first, kActivationsOnly);
  for (int op = first; op <= last; ++op) builder.AddOp(graph, op);
  return builder.Finish(0);
}

Stage LayoutNormalStage(const ir::Graph& graph, const GraphFacts& facts, int first, int last,
                        const Budget& budget, int id) {
  NormalStageBuilder builder(facts, first, budget);
  for (int op = first; op <= last; ++op) builder.AddOp(graph, op);
  Stage stage = builder.Finish(id);
  stage.fits = stage.weight_bytes + stage.peak_bytes <= budget.fast_bytes;
  return stage;
}

int LongestNormalStage(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                       int first) {
  NormalStageBuilder builder(facts, first, budget);
  const int op_count = static_cast<int>(graph.ops.size());
  for (int op = first; op < op_count; ++op) {
    builder.AddOp(graph, op);
    if (builder.fast_bytes() > budget.fast_bytes &&
        builder.laid_out_fast_bytes() > budget.fast_bytes) {
      return op - 1;
    }
  }
  return op_count - 1;
}

std::vector<Stage> PartitionStages(const ir::Graph& graph, const GraphFacts& facts,
                                   const Budget& budget) {
  const int64_t fast_bytes = budget.fast_bytes;
  std::vector<Stage> stages;
  auto close = [&](const NormalStageBuilder& builder) {
    Stage stage = builder.Finish(static_cast<int>(stages.size()));
    stage.fits = stage.weight_bytes + stage.peak_bytes <= fast_bytes;
    stages.push_back(std::move(stage));
  };
  auto fresh = [&](int first) { return NormalStageBuilder(facts, first, budget); };
  const int op_count = static_cast<int>(graph.ops.size());
  NormalStageBuilder builder = fresh(0);
  // Incremental first fit answers most steps; only when it is over the budget is the
  // stage laid out as it would end (issue 13: cuts evaluated with the chosen layout).
  auto fits = [&](const NormalStageBuilder& b) {
    return b.fast_bytes() <= fast_bytes || b.laid_out_fast_bytes() <= fast_bytes;
  };
  for (int step = 0; step < op_count; ++step) {
    builder.AddOp(graph, step);
    if (fits(builder)) continue;
    if (builder.op_count() > 1) {
      // Cut before this op; it starts the next stage.
      builder.UndoLastOp();
      close(builder);
      builder = fresh(step);
      builder.AddOp(graph, step);
      if (fits(builder)) continue;
    }
    // The op alone exceeds the budget: a stage of its own, to be tiled if it can.
    close(builder);
    builder = fresh(step + 1);
  }
  if (builder.op_count() > 0) close(builder);
  return stages;
}

}  // namespace tigris::plan
