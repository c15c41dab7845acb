// The auto weight-residency policy (plan/weight_residency.h): a unit's weights are copied
// into the fast arena only where they fit beside its activations and are read at least
// twice per inference. Expected numbers are worked out by hand from the shapes.
#include "plan/weight_residency.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"

namespace tigris::plan {
namespace {

using ir::OpType;
using testing::AddConv;
using testing::GraphBuilder;

// in 1x1x16x16 float32 (1024 B) -> 3x3 conv pad 1, one output channel (weight 9 floats =
// 36 B, AlignUp 48) -> 1x1x16x16 (1024 B). Untiled peak 2048.
ir::Graph ConvStage() {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 16, 16});
  g.Output(AddConv(g, "conv", in, {1, 3, 1, 1, 1}));
  return g.Take();
}

// a [1, 64] float -> Gemm(B [32, 64] = 8192 B, C [32] = 128 B) -> y [1, 32].
ir::Graph Classifier() {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 64});
  ir::TensorId w = b.Floats("B", {32, 64}, std::vector<float>(32 * 64, 0.5f));
  ir::TensorId bias = b.Floats("C", {32}, std::vector<float>(32, 0.25f));
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, bias}, "y", {1, 32}));
  return b.Take();
}

Budget Fast(int64_t bytes) {
  Budget b;
  b.fast_bytes = bytes;
  return b;
}

TEST(WeightReadsTest, ConvolutionWalksItsWeightsOncePerOutputPixel) {
  const ir::Graph g = ConvStage();
  // 36 weight bytes, 16 * 16 = 256 output pixels of one channel.
  EXPECT_EQ(WeightReads(g, g.ops[0]), 36 * 256);
}

TEST(WeightReadsTest, AOneRowMatrixProductReadsItsWeightsOnce) {
  const ir::Graph g = Classifier();
  EXPECT_EQ(WeightReads(g, g.ops[0]), 8192 + 128);
}

TEST(WeightReadsTest, ABroadcastConstantIsReadOncePerBroadcast) {
  // x [1, 4, 8, 8] + c [4, 1, 1]: c's 16 bytes are read for each of the 64 pixels.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 8, 8});
  ir::TensorId c = b.Floats("c", {4, 1, 1}, {1, 2, 3, 4});
  b.Output(b.Op(OpType::kAdd, "add", {x, c}, "y", {1, 4, 8, 8}));
  const ir::Graph g = b.Take();
  EXPECT_EQ(WeightReads(g, g.ops[0]), 16 * 64);
}

TEST(ChooseWeightCopiesTest, CopiesAConvolutionThatFitsBesideItsActivations) {
  PlanResult p = PlanModel(ConvStage(), Fast(2048 + 48));
  ASSERT_EQ(p.stages.size(), 1u);
  ASSERT_EQ(p.stages[0].peak_bytes, 2048);
  ChooseWeightCopies(p, 2048 + 48);
  EXPECT_TRUE(p.stages[0].copy_weights);
  EXPECT_EQ(p.stages[0].weight_bytes, 48);
}

TEST(ChooseWeightCopiesTest, LeavesWeightsInPlaceWhenTheyDoNotFit) {
  // One byte short of prefix + peak: the plan stays exactly as planned.
  PlanResult p = PlanModel(ConvStage(), Fast(2048 + 47));
  ChooseWeightCopies(p, 2048 + 47);
  ASSERT_EQ(p.stages.size(), 1u);
  EXPECT_FALSE(p.stages[0].copy_weights);
  EXPECT_EQ(p.stages[0].weight_bytes, 0);
}

TEST(ChooseWeightCopiesTest, LeavesWeightsReadOnceInPlace) {
  // Plenty of room, but copying 8 KiB to read it once costs more than reading it in place.
  PlanResult p = PlanModel(Classifier(), Fast(1 << 20));
  ChooseWeightCopies(p, 1 << 20);
  ASSERT_EQ(p.stages.size(), 1u);
  EXPECT_FALSE(p.stages[0].copy_weights);
  EXPECT_EQ(p.stages[0].weight_bytes, 0);
}

TEST(ChooseWeightCopiesTest, WeighsAUnitsReadsTogether) {
  // conv (16x16 pixels, 9 weights) -> global pool -> 1x1 conv to 64 channels over the
  // 1x1 map. Alone the 1x1 conv's 256 weight bytes are read once and would stay in place;
  // in one unit with the 3x3 conv the unit reads 36 * 256 + 256 bytes of its 36 + 256,
  // well over twice, so the whole prefix (48 + 256 aligned) is copied.
  GraphBuilder b;
  ir::TensorId in = b.Input("in", {1, 1, 16, 16});
  ir::TensorId c = AddConv(b, "conv", in, {1, 3, 1, 1, 1});
  ir::TensorId pooled = b.Op(OpType::kGlobalAveragePool, "gap", {c}, "pooled", {1, 1, 1, 1});
  b.Output(AddConv(b, "expand", pooled, {64, 1, 1, 0, 1}));
  PlanResult p = PlanModel(b.Take(), Fast(1 << 20));
  ChooseWeightCopies(p, 1 << 20);
  ASSERT_EQ(p.stages.size(), 1u);
  EXPECT_TRUE(p.stages[0].copy_weights);
  EXPECT_EQ(p.stages[0].weight_bytes, 48 + 256);
  testing::ExpectPlanReplays(p);
}

}  // namespace
}  // namespace tigris::plan
