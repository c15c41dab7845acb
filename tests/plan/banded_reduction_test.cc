// Banded reductions (docs/planning.md): a GlobalAveragePool whose input does not fit runs
// as a tile loop over its input rows, accumulating per channel, its output row written with
// the last band. Expected layouts are worked out by hand from the strip sizes.
#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"

namespace tigris::plan {
namespace {

using testing::GraphBuilder;

TEST(BandedReductionTest, AGlobalAveragePoolOverBudgetRunsBandByBand) {
  // x 1x4x16x16 float32: 16 rows of 16 * 4 * 4 = 256 bytes; the pool alone needs 4096 + 16.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4, 16, 16});
  g.Output(g.Op(ir::OpType::kGlobalAveragePool, "gap", {x}, "y", {1, 4, 1, 1}));
  const ir::Graph graph = g.Take();

  const PlanResult p = PlanModel(graph, {1024, 0, 0});

  ASSERT_EQ(p.stages.size(), 1u);
  const Stage& s = p.stages[0];
  ASSERT_EQ(s.strategy, StageStrategy::kTiled);
  const TilePlan& t = *s.tile;
  EXPECT_TRUE(t.ops.back().reduces);
  // A band of h rows (256h) + the output row (16) + 4 float accumulators (16): h = 3 is
  // the tallest band within 1024 (800), h = 4 needs 1056. 16 rows in bands of 3: 6 tiles.
  EXPECT_EQ(t.tile_rows, 3);
  EXPECT_EQ(t.count, 6);
  EXPECT_EQ(t.peak_bytes, 3 * 256 + 16 + 16);
  const std::vector<std::vector<OpTileRows>> rows = AllTileRows(t);
  ASSERT_EQ(rows.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(rows[i][0].input.begin, 3 * static_cast<int64_t>(i));
    EXPECT_EQ(rows[i][0].input.end, std::min<int64_t>(3 * static_cast<int64_t>(i) + 3, 16));
    EXPECT_EQ(rows[i][0].output.size(), i == 5 ? 1 : 0) << "tile " << i;
  }
  EXPECT_EQ(p.recompute_macs, 0);
  EXPECT_EQ(p.verdict, Verdict::kTiled);
  testing::ExpectPlanReplays(p);
}

TEST(BandedReductionTest, AReductionEndsAChainAndNeverStartsOne) {
  // conv 3x3 -> GlobalAveragePool -> Relu: the pool may close the conv's loop; the Relu
  // after it has one row and stays out.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 1, 32, 32});
  ir::TensorId c = testing::AddConv(g, "conv", x, {1, 3, 1, 1, 1});
  ir::TensorId gap = g.Op(ir::OpType::kGlobalAveragePool, "gap", {c}, "p", {1, 1, 1, 1});
  g.Output(g.Op(ir::OpType::kRelu, "relu", {gap}, "y", {1, 1, 1, 1}));
  const ir::Graph graph = g.Take();

  const PlanResult p = PlanModel(graph, {3000, 0, 0});

  ASSERT_EQ(p.chains.size(), 1u);
  const TilePlan& t = p.chains[0].tile;
  ASSERT_EQ(t.ops.size(), 2u);
  EXPECT_TRUE(t.ops.back().reduces);
  EXPECT_EQ(p.stages.back().strategy, StageStrategy::kNormal);  // the Relu
  testing::ExpectPlanReplays(p);
}

}  // namespace
}  // namespace tigris::plan
