#include "plan/chains.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "plan/row_tiling.h"
#include "plan/temporal_partition.h"

namespace tigris::plan {
namespace {

using testing::AddConv;
using testing::GraphBuilder;

// in 1x1x32x32 float32 (4096 B, 128 B per row) -> conv1 3x3 pad 1 -> a -> conv2 3x3 pad 1
// -> b (graph output). Each conv alone needs 8192 B untiled.
ir::Graph TwoConvChain() {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 32, 32});
  ir::TensorId a = AddConv(g, "conv1", in, {1, 3, 1, 1, 1});
  g.Output(AddConv(g, "conv2", a, {1, 3, 1, 1, 1}));
  return g.Take();
}

// Chain iteration peak for output tile height h, derived by hand from the back-propagated
// heights: conv2 reads h + 2 rows of a, conv1 reads h + 4 rows of in (clipped to 32).
// First-fit: in strip @0, a strip above it, then b reuses in's space once conv1 is done
// (b's h rows fit below a because h <= h + 4). Peak = (in rows + a rows) * 128.
int64_t ChainPeak(int64_t h) {
  return (std::min<int64_t>(h + 4, 32) + std::min<int64_t>(h + 2, 32)) * 128;
}

TEST(ChainsTest, BinarySearchFindsLargestFittingHeight) {
  const ir::Graph g = TwoConvChain();
  // Budget 3000: (2h + 6) * 128 <= 3000 -> h = 8 fits (2816), h = 9 does not (3072).
  ASSERT_LE(ChainPeak(8), 3000);
  ASSERT_GT(ChainPeak(9), 3000);
  const PlanResult p = PlanModel(g, {3000, 0, 0});
  ASSERT_EQ(p.stages.size(), 2u);
  ASSERT_EQ(p.chains.size(), 1u);
  const Chain& c = p.chains[0];
  EXPECT_EQ(c.stages, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.tile.tile_rows, 8);
  EXPECT_EQ(c.tile.count, 4);
  EXPECT_EQ(c.tile.halo, 4);  // two 3x3 convs: RF 5
  EXPECT_EQ(c.tile.peak_bytes, ChainPeak(8));
  for (const Stage& s : p.stages) {
    EXPECT_EQ(s.strategy, StageStrategy::kChain);
    EXPECT_EQ(s.chain, 0);
    EXPECT_TRUE(s.spill_in.empty());  // a stays in the fast arena
    EXPECT_TRUE(s.spill_out.empty());
  }
  EXPECT_EQ(p.verdict, Verdict::kTiled);
  // conv1 computes a's rows [8i-1, 8i+9) clipped: 9 + 10 + 10 + 9 = 38 rows for 32, six
  // rows recomputed at 32 columns * 9 MACs each.
  EXPECT_EQ(p.recompute_macs, 6 * 32 * 9);
  EXPECT_EQ(p.slow_traffic_bytes, 0);
  testing::ExpectPlanReplays(g, p);
}

TEST(ChainsTest, DetectsLinkBetweenTileableStages) {
  const ir::Graph g = TwoConvChain();
  const GraphFacts facts = ComputeGraphFacts(g);
  std::vector<Stage> stages = {LayoutNormalStage(g, facts, 0, 0),
                               LayoutNormalStage(g, facts, 1, 1)};
  stages[1].id = 1;
  EXPECT_EQ(StageTileProblem(g, facts, stages[0]), "");
  EXPECT_EQ(StageTileProblem(g, facts, stages[1]), "");
  EXPECT_EQ(ChainLinkProblem(g, facts, stages, 0), "");
}

TEST(ChainsTest, FanOutBreaksTheChain) {
  // a feeds conv2 and also a later Add: condition 4 fails.
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 32, 32});
  ir::TensorId a = AddConv(g, "conv1", in, {1, 3, 1, 1, 1});
  ir::TensorId b = AddConv(g, "conv2", a, {1, 3, 1, 1, 1});
  g.Output(g.Op(ir::OpType::kAdd, "add", {b, a}, "c", {1, 1, 32, 32}));
  const GraphFacts facts = ComputeGraphFacts(g.graph());
  std::vector<Stage> stages;
  for (int i = 0; i < 3; ++i) {
    stages.push_back(LayoutNormalStage(g.graph(), facts, i, i));
    stages.back().id = i;
  }
  EXPECT_NE(ChainLinkProblem(g.graph(), facts, stages, 0).find("fans out"), std::string::npos);
  EXPECT_EQ(ChainLinkProblem(g.graph(), facts, stages, 1), "");
  // Planned at the same budget, conv1 is tiled alone; conv2 and add may chain.
  const PlanResult p = PlanModel(g.graph(), {3000, 0, 0});
  EXPECT_EQ(p.stages[0].strategy, StageStrategy::kTiled);
  EXPECT_EQ(p.verdict, Verdict::kTiled);
  testing::ExpectPlanReplays(g.graph(), p);
}

TEST(ChainsTest, OneRowIntermediateIsNotAChainLink) {
  // a is 1x8x1x32: nothing to tile along H (condition 5).
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 8, 1, 32});
  ir::TensorId a = g.Op(ir::OpType::kRelu, "r1", {in}, "a", {1, 8, 1, 32});
  g.Output(g.Op(ir::OpType::kRelu, "r2", {a}, "b", {1, 8, 1, 32}));
  const GraphFacts facts = ComputeGraphFacts(g.graph());
  std::vector<Stage> stages = {LayoutNormalStage(g.graph(), facts, 0, 0),
                               LayoutNormalStage(g.graph(), facts, 1, 1)};
  stages[1].id = 1;
  EXPECT_NE(ChainLinkProblem(g.graph(), facts, stages, 0).find("no rows"), std::string::npos);
}

TEST(ChainsTest, UntileableOpStageIsNotTileable) {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 4, 8, 8});
  ir::TensorId f = g.Op(ir::OpType::kReshape, "flatten", {in}, "f", {1, 256});
  ir::TensorId w = g.Floats("w", {10, 256}, std::vector<float>(2560));
  g.Output(g.Op(ir::OpType::kGemm, "fc", {f, w}, "y", {1, 10}));
  const GraphFacts facts = ComputeGraphFacts(g.graph());
  const Stage s = LayoutNormalStage(g.graph(), facts, 1, 1);
  const std::string why = StageTileProblem(g.graph(), facts, s);
  EXPECT_NE(why.find("'fc'"), std::string::npos);
  EXPECT_NE(why.find("Gemm"), std::string::npos);
}

TEST(ChainsTest, TwoSpatialOpsInOneStageAreNotTileable) {
  const ir::Graph g = TwoConvChain();
  const GraphFacts facts = ComputeGraphFacts(g);
  const Stage s = LayoutNormalStage(g, facts, 0, 1);
  EXPECT_NE(StageTileProblem(g, facts, s).find("2 spatial ops"), std::string::npos);
}

}  // namespace
}  // namespace tigris::plan
