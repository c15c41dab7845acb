#include "plan/chains.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "plan/plan_json.h"
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

// A streamed loop keeps rows between tiles instead of recomputing them. For output tile
// height h: conv1 adds h rows of a per tile and reads h + 2 rows of in (its window); a's
// strip holds conv2's window, h + 2 rows, for the whole loop; b's h rows reuse in's space.
// Peak = (in rows + a rows) * 128 = (2h + 4) * 128.
int64_t StreamedChainPeak(int64_t h) { return (2 * h + 4) * 128; }

TEST(ChainsTest, BinarySearchFindsLargestFittingStreamedHeight) {
  const ir::Graph g = TwoConvChain();
  // Budget 3000: (2h + 4) * 128 <= 3000 -> h = 9 fits (2816), h = 10 does not (3072).
  ASSERT_LE(StreamedChainPeak(9), 3000);
  ASSERT_GT(StreamedChainPeak(10), 3000);
  const PlanResult p = PlanModel(g, {3000, 0, 0});
  ASSERT_EQ(p.stages.size(), 2u);
  ASSERT_EQ(p.chains.size(), 1u);
  const Chain& c = p.chains[0];
  EXPECT_EQ(c.stages, (std::vector<int>{0, 1}));
  EXPECT_TRUE(c.tile.streamed);
  EXPECT_EQ(c.tile.tile_rows, 9);
  EXPECT_EQ(c.tile.count, 4);
  EXPECT_EQ(c.tile.halo, 4);  // two 3x3 convs: RF 5
  EXPECT_EQ(c.tile.peak_bytes, StreamedChainPeak(9));
  // What analyze --json says of the loop: a's line buffer holds conv2's window, 9 + 2 rows,
  // and a streamed loop recomputes nothing.
  const nlohmann::json tile = PlanToJson(p.graph, p)["stages"][0]["tile"];
  EXPECT_EQ(tile["strategy"], "streamed rows");
  EXPECT_EQ(tile["line_buffer_rows"], nlohmann::json::array({11}));
  EXPECT_EQ(tile["recompute_macs"], 0);
  for (const Stage& s : p.stages) {
    EXPECT_EQ(s.strategy, StageStrategy::kChain);
    EXPECT_EQ(s.chain, 0);
    EXPECT_TRUE(s.spill_in.empty());  // a stays in the fast arena
    EXPECT_TRUE(s.spill_out.empty());
  }
  EXPECT_EQ(p.verdict, Verdict::kTiled);
  // Every row of a is computed once: conv1 adds a's rows [0, 10), [10, 19), [19, 28),
  // [28, 32) (conv2's windows end at 10, 19, 28 and 32).
  EXPECT_EQ(p.recompute_macs, 0);
  const std::vector<std::vector<OpTileRows>> rows = AllTileRows(c.tile);
  ASSERT_EQ(rows.size(), 4u);
  const int64_t a_ends[] = {10, 19, 28, 32};
  int64_t a_begin = 0;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(rows[i][0].output.begin, a_begin) << "tile " << i;
    EXPECT_EQ(rows[i][0].output.end, a_ends[i]) << "tile " << i;
    a_begin = a_ends[i];
  }
  EXPECT_EQ(p.slow_traffic_bytes, 0);
  testing::ExpectPlanReplays(p);
}

TEST(ChainsTest, RecomputingLoopRecomputesTheHalo) {
  // The same loop in its recomputing form (what the planner falls back to when streamed
  // strips, all live at once, do not fit): conv1 produces exactly the rows conv2 reads in
  // each tile, so a's strip is h + 2 rows and in's h + 4 (clipped to 32), never both
  // kept; peak = (min(h + 4, 32) + min(h + 2, 32)) * 128.
  const ir::Graph g = TwoConvChain();
  const GraphFacts facts = ComputeGraphFacts(g);
  std::string reason;
  std::optional<TilePlan> loop = MakeTileLoop(g, facts, {0, 1}, &reason);
  ASSERT_TRUE(loop) << reason;
  ASSERT_FALSE(loop->streamed);
  // Budget 3000: (2h + 6) * 128 <= 3000 -> h = 8 fits (2816), h = 9 does not (3072).
  ASSERT_LE(ChainPeak(8), 3000);
  ASSERT_GT(ChainPeak(9), 3000);
  EXPECT_EQ(LargestFittingTileRows(g, facts, *loop, 3000), 8);
  LayoutTileLoop(g, facts, 8, *loop);
  EXPECT_EQ(loop->count, 4);
  EXPECT_EQ(loop->peak_bytes, ChainPeak(8));
  // conv1 computes a's rows [8i-1, 8i+9) clipped: 9 + 10 + 10 + 9 = 38 rows for 32, six
  // rows recomputed at 32 columns * 9 MACs each.
  EXPECT_EQ(RecomputeMacs(g, *loop), 6 * 32 * 9);
  testing::ExpectTileRowsConsistent(g, *loop);
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
  testing::ExpectPlanReplays(p);
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
