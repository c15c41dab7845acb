// Halo recompute MACs (RecomputeMacs, plan.h PlanResult::recompute_macs): extra MACs of
// rows computed more than once. Regression: a strided pool that never reads its
// producer's last rows made "rows produced - full height" negative, and the CLI printed
// the negative count cast to unsigned as +2345243093179091.5%.
#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "analysis/macs.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "plan/planner.h"
#include "plan/row_tiling.h"
#include "support/test_env.h"

namespace tigris::plan {
namespace {

using testing::AddConv;
using testing::GraphBuilder;

// in 1x1x14x14 -> 3x3 conv pad 1 (14x14; 14 cols * 9 taps = 126 MACs per output row)
// -> MaxPool kernel 3, stride `stride`, no pad (graph output).
ir::Graph ConvThenPool(int64_t stride, int64_t pool_rows) {
  GraphBuilder g;
  const ir::TensorId in = g.Input("in", {1, 1, 14, 14});
  const ir::TensorId c = AddConv(g, "conv", in, {1, 3, 1, 1, 1});
  g.Output(g.Op(ir::OpType::kMaxPool, "pool", {c}, "p", {1, 1, pool_rows, pool_rows},
                testing::Attrs({{"kernel_shape", std::vector<int64_t>{3, 3}},
                                {"strides", std::vector<int64_t>{stride, stride}}})));
  return g.Take();
}

int64_t Recompute(const ir::Graph& g, int64_t tile_rows) {
  const GraphFacts facts = ComputeGraphFacts(g);
  std::string reason;
  std::optional<TilePlan> loop = MakeTileLoop(g, facts, {0, 1}, &reason);
  EXPECT_TRUE(loop.has_value()) << reason;
  if (!loop) return -1;
  LayoutTileLoop(g, facts, tile_rows, *loop);
  return RecomputeMacs(g, *loop);
}

TEST(RecomputeTest, RowsNoTileReadsAreNotNegativeRecompute) {
  // Pool 3x3 stride 3 over 14 rows: floor((14 - 3) / 3) + 1 = 4 output rows. 1-row tiles:
  // pool row i reads conv rows [3i, 3i + 3) (tile_plan.h row formula), so the conv
  // produces [0,3) [3,6) [6,9) [9,12): each row once, rows 12 and 13 never (no pool
  // window reaches them). Nothing is computed twice: 0. (Subtracting the conv's full
  // 14 rows gave (12 - 14) * 126 = -252.)
  const ir::Graph g = ConvThenPool(3, 4);
  EXPECT_EQ(Recompute(g, 1), 0);
}

TEST(RecomputeTest, OverlapCountedWhenBottomRowsAreSkipped) {
  // Pool 3x3 stride 2 over 14 rows: floor((14 - 3) / 2) + 1 = 6 output rows. Tiles of 2
  // pool rows: pool rows [2i, 2i + 2) read conv rows [4i, 4i + 2*2 + 1) = [0,5) [4,9)
  // [8,13): 15 rows produced, 13 distinct ([0,13); row 13 is never read), so rows 4 and 8
  // are computed twice: 2 * 126 = 252 MACs. (15 - 14 full rows would say 126.)
  const ir::Graph g = ConvThenPool(2, 6);
  EXPECT_EQ(Recompute(g, 2), 2 * 126);
}

// Invariant over real plans: 0 <= recompute_macs <= sum over tile loops of (count - 1)
// times the loop's MACs (each tile recomputes at most a whole pass, the first is free).
void ExpectRecomputeBounded(const std::string& path, std::initializer_list<int64_t> budgets) {
  ir::Graph g = onnx_import::LoadOnnxFile(path, {});
  passes::Normalize(g);
  for (int64_t bytes : budgets) {
    SCOPED_TRACE(path + " @" + std::to_string(bytes));
    const PlanResult p = PlanModel(g, {bytes, 0, 0});
    int64_t bound = 0;
    auto add = [&](const TilePlan& t) {
      int64_t macs = 0;
      for (const TileOp& op : t.ops) macs += analysis::OpMacs(g, g.ops[static_cast<size_t>(op.op)]);
      bound += (t.count - 1) * macs;
    };
    for (const Stage& s : p.stages) {
      if (s.tile) add(*s.tile);
    }
    for (const Chain& c : p.chains) add(c.tile);
    EXPECT_GE(p.recompute_macs, 0);
    EXPECT_LE(p.recompute_macs, bound);
  }
}

// The budgets that printed the absurd percentage (6K, 12K float; 3K, 2K, 1536 int8) and
// some around them.
TEST(RecomputeTest, RealModelRecomputeIsBounded) {
  ExpectRecomputeBounded(testing::SharedOnnxModel("mnist8.onnx"),
                         {4096, 6144, 8192, 12288, 16384, 24576});
  ExpectRecomputeBounded(testing::GeneratedModelsDir() + "/mnist8.int8.onnx",
                         {1024, 1536, 2048, 3072, 4096, 6144});
}

}  // namespace
}  // namespace tigris::plan
