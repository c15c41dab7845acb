// One RAM (Budget::one_memory_bytes, plan/one_memory_partition.h; plan/joint_arena.h): the
// cuts keep the spills small, since they share the fast arena's memory, and one arena holds
// both. Expected plans are worked out by hand.
#include "plan/one_memory_partition.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "plan/joint_arena.h"
#include "plan/plan_check.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"

namespace tigris::plan {
namespace {

using testing::AddConv;
using testing::ExpectPlanReplays;
using testing::GraphBuilder;

// in 1x1x32x32 float32 (128 B per row) -> conv1 3x3 pad 1 -> a -> conv2 3x3 pad 1 -> b ->
// GlobalAveragePool -> y[1,1,1,1] (graph output). Each conv needs 8192 B untiled, the pool
// 4096 + 16.
ir::Graph ConvConvPool() {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 32, 32});
  ir::TensorId a = AddConv(g, "conv1", in, {1, 3, 1, 1, 1});
  ir::TensorId b = AddConv(g, "conv2", a, {1, 3, 1, 1, 1});
  g.Output(g.Op(ir::OpType::kGlobalAveragePool, "gap", {b}, "y", {1, 1, 1, 1}));
  return g.Take();
}

// One memory of `fast` bytes, every stage capped at all of it.
// in 1x8x32x32 -> conv1 3x3 (8 ch, a: 32 KiB) -> conv2 3x3 stride 2 (b: 8 KiB) -> conv3 ->
// conv4 (graph output), float32.
ir::Graph StridedConvs() {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 8, 32, 32});
  ir::TensorId a = AddConv(g, "conv1", in, {8, 3, 1, 1, 1});
  ir::TensorId b = AddConv(g, "conv2", a, {8, 3, 2, 1, 1});
  ir::TensorId c = AddConv(g, "conv3", b, {8, 3, 1, 1, 1});
  g.Output(AddConv(g, "conv4", c, {8, 3, 1, 1, 1}));
  return g.Take();
}

Budget OneMemory(int64_t fast) {
  Budget budget{fast, 0, 0};
  budget.one_memory_bytes = fast;
  return budget;
}

TEST(OneMemoryPartitionTest, TheLoopTakesTheStageThatFitsRatherThanSpillIntoIt) {
  const ir::Graph graph = ConvConvPool();
  // At 5000 B the two convs must stream (2h + 4 rows of 128 B), and the pool fits whole
  // (4112 B). The default pass fills stages: conv1 + conv2 as a chain, b spilled whole
  // (4096 B) for the pool's own stage.
  const PlanResult two = PlanModel(graph, {5000, 0, 0});
  ASSERT_EQ(two.chains.size(), 1u);
  EXPECT_EQ(two.stages.size(), 3u);
  EXPECT_EQ(two.slow_peak_bytes, 4096);
  // One memory: the pool closes the loop as a banded reduction, b is never whole, nothing
  // is spilled, nothing recomputed; the loop still fits the budget.
  const PlanResult one = PlanModel(graph, OneMemory(5000));
  EXPECT_EQ(one.verdict, Verdict::kTiled);
  ASSERT_EQ(one.chains.size(), 1u);
  EXPECT_EQ(one.chains[0].stages, (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(one.chains[0].tile.streamed);
  EXPECT_TRUE(one.chains[0].tile.ops.back().reduces);
  EXPECT_EQ(one.slow_peak_bytes, 0);
  EXPECT_EQ(one.recompute_macs, 0);
  EXPECT_LE(one.scheduled_peak_bytes, 5000);
  ExpectPlanReplays(one);
}

TEST(OneMemoryPartitionTest, CutsWhereTheSpilledTensorIsSmallest) {
  // in 1x8x32x32 -> conv1 3x3 stride 2 -> b (8x16x16, 8 KiB) -> conv2 3x3 to 32 channels ->
  // big (32 KiB) -> conv3 3x3 back to 8 -> c (8 KiB) -> conv4 -> graph output. At 10 and
  // 12 KiB no loop streams all four. The default pass grows its first chain as far as it
  // fits, through conv2, and so cuts on the 32 KiB map; the one-memory partition cuts on an
  // 8 KiB one and never spills `big`. (The memory is left unbounded here: only the cuts
  // differ, every segment gets the same budget.)
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 8, 32, 32});
  ir::TensorId b = AddConv(g, "conv1", in, {8, 3, 2, 1, 1});
  ir::TensorId big = AddConv(g, "conv2", b, {32, 3, 1, 1, 1});
  ir::TensorId c = AddConv(g, "conv3", big, {8, 3, 1, 1, 1});
  g.Output(AddConv(g, "conv4", c, {8, 3, 1, 1, 1}));
  const ir::Graph graph = g.Take();
  auto spills = [&big](const PlanResult& p) {
    for (const SlowBuffer& s : p.slow_buffers) {
      if (s.tensor == big) return true;
    }
    return false;
  };
  for (const int64_t budget : {10 * 1024, 12 * 1024}) {
    const PlanResult two = PlanModel(graph, {budget, 0, 0});
    ASSERT_TRUE(spills(two)) << "the default pass no longer cuts on the 32 KiB map at " << budget;
    Budget unbounded{budget, 0, 0};
    unbounded.one_memory_bytes = int64_t{1} << 30;
    const PlanResult one = PlanModel(graph, unbounded);
    ASSERT_NE(one.verdict, Verdict::kNeedsWork) << budget;
    EXPECT_FALSE(spills(one)) << "the 32 KiB map is spilled at " << budget;
    EXPECT_EQ(one.slow_peak_bytes, 8 * 1024) << budget;
    EXPECT_EQ(one.recompute_macs, 0) << budget;
    ExpectPlanReplays(one);
  }
}

TEST(OneMemoryPartitionTest, AnOpThatFitsNoSegmentLeavesTheDefaultPassToSayWhy) {
  // One pixel of the conv's 64 channels needs more than 64 B: nothing fits, and the plan's
  // reasons are the default pass's.
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 64, 8, 8});
  g.Output(AddConv(g, "conv", in, {64, 3, 1, 1, 1}));
  const PlanResult one = PlanModel(g.Take(), OneMemory(64));
  EXPECT_EQ(one.verdict, Verdict::kNeedsWork);
  ASSERT_FALSE(one.stages.empty());
  EXPECT_FALSE(one.stages[0].reasons.empty());
}

TEST(JointArenaTest, SpillsSitAboveEveryStageTheyLiveThroughInOneArena) {
  // StridedConvs planned at 16K with the default pass: the spills need a slow arena beside
  // the fast one; joined, each
  // home sits above the stages it lives through, and one arena holds both, no larger than
  // the two side by side.
  PlanResult plan = PlanModel(StridedConvs(), {16 * 1024, 0, 0});
  ASSERT_GT(plan.slow_peak_bytes, 0) << "no spills at 16K: pick less";
  const int64_t side_by_side = FastArenaBytes(plan) + plan.slow_peak_bytes;
  JoinArenas(plan);
  const int64_t joint = plan.joint_arena_bytes;
  ASSERT_GT(joint, 0);
  EXPECT_EQ(FastArenaBytes(plan), joint);
  EXPECT_LE(joint, side_by_side);
  for (const SlowBuffer& s : plan.slow_buffers) {
    EXPECT_EQ(s.home.region, MemoryRegion::kFast);
    EXPECT_LE(s.home.offset + s.home.size, joint);
    for (int k = s.first_stage; k <= s.last_stage; ++k) {
      const Stage& stage = plan.stages[static_cast<size_t>(k)];
      EXPECT_LE(stage.weight_bytes + stage.peak_bytes, s.home.offset);
    }
  }
  ExpectPlanReplays(plan);
  // The replay catches a home moved into a stage's buffers.
  PlanResult broken = plan;
  broken.slow_buffers.front().home.offset = 0;
  EXPECT_FALSE(CheckPlan(broken.graph, broken).empty());
}

}  // namespace
}  // namespace tigris::plan
