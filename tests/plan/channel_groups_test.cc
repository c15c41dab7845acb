// Channel groups (docs/planning.md, "Channel groups"): a loop of channel-wise ops whose
// every pixel is over budget also cuts channels. Expected shapes and bytes are worked out
// by hand from the strip sizes (16-byte aligned homes, docs/memory-model.md).
#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "analysis/tileability.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"

namespace tigris::plan {
namespace {

using testing::AddConv;
using testing::GraphBuilder;

TEST(ChannelGroupsTest, AGlobalPoolOverAThousandBytesPerPixel) {
  // GlobalAveragePool over x 1x64x4x4 float: a pixel is 64 * 4 = 256 bytes. Rows: one row
  // is 1024 + 256 (output) + 256 (accumulators); 2-D: one pixel 256 + 256 + 256 = 768; both
  // over 512. A group of g channels in 1-row tiles needs 16g (4 pixels) + 4g (output) + 4g
  // (accumulators), each home rounded up to 16: g = 20 gives 320 + 80 + 80 = 480, g = 21
  // gives 336 + 96 + 96 = 528. Two rows of 20 channels need 640 + 160: 1-row tiles. 64
  // channels in groups of 20 are 4 groups (the last of 4), x 4 row bands = 16 tiles.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 64, 4, 4});
  g.Output(g.Op(ir::OpType::kGlobalAveragePool, "gap", {x}, "y", {1, 64, 1, 1}));
  const ir::Graph graph = g.Take();
  const PlanResult p = PlanModel(graph, {512, 0, 0});
  ASSERT_EQ(p.verdict, Verdict::kTiled);
  const TilePlan& t = *p.stages[0].tile;
  EXPECT_EQ(t.tile_rows, 1);
  EXPECT_EQ(t.tile_cols, 0);
  EXPECT_EQ(t.tile_channels, 20);
  EXPECT_EQ(t.count, 16);
  EXPECT_EQ(t.peak_bytes, 480);
  const std::vector<std::vector<OpTileRows>> all = AllTileRows(t);
  ASSERT_EQ(all.size(), 16u);
  for (size_t i = 0; i < all.size(); ++i) {
    const OpTileRows& r = all[i][0];
    const int64_t group = static_cast<int64_t>(i / 4), band = static_cast<int64_t>(i % 4);
    SCOPED_TRACE("tile " + std::to_string(i));
    // Group by group; within a group the rows in order, so each channel's sum keeps the
    // whole-tensor order.
    EXPECT_EQ(r.channels.begin, 20 * group);
    EXPECT_EQ(r.channels.end, std::min<int64_t>(20 * group + 20, 64));
    EXPECT_EQ(r.input.begin, band);
    EXPECT_EQ(r.input.end, band + 1);
    // Each group's output pixel comes with its last row band.
    EXPECT_EQ(r.output_area(), band == 3 ? 1 : 0);
  }
  EXPECT_EQ(p.recompute_macs, 0);
  testing::ExpectPlanReplays(graph, p);
}

TEST(ChannelGroupsTest, ADepthwiseConvolutionByChannelGroups) {
  // 3x3 pad-1 depthwise over 1x64x4x4 float (a pixel is 256 bytes): one output pixel reads
  // 3 x 3 input pixels, 2304 + 256 = 2560 bytes, over 1024. Groups of g channels in 1-row
  // full-width tiles read 3 rows x 4 columns and write 1 row: 48g + 16g; g = 16 gives
  // exactly 1024, g = 17 gives 816 + 272. Two rows of 16 channels need 1024 + 512. 4 groups
  // x 4 row bands = 16 tiles; each op's per-channel filter and bias follow the group.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 64, 4, 4});
  g.Output(AddConv(g, "dw", x, {64, 3, 1, 1, 1, true}));
  const ir::Graph graph = g.Take();
  const PlanResult p = PlanModel(graph, {1024, 0, 0});
  ASSERT_EQ(p.verdict, Verdict::kTiled);
  const TilePlan& t = *p.stages[0].tile;
  EXPECT_EQ(t.tile_rows, 1);
  EXPECT_EQ(t.tile_cols, 0);
  EXPECT_EQ(t.tile_channels, 16);
  EXPECT_EQ(t.count, 16);
  EXPECT_EQ(t.peak_bytes, 1024);
  EXPECT_EQ(p.recompute_macs, 0);  // channel groups share no halo
  testing::ExpectPlanReplays(graph, p);
}

TEST(ChannelGroupsTest, OnlyChannelWiseOpsWithoutPerChannelParameters) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 8, 4, 4});
  ir::TensorId conv = AddConv(g, "conv", x, {8, 3, 1, 1, 1});
  ir::TensorId dw = AddConv(g, "dw", x, {8, 3, 1, 1, 1, true});
  ir::TensorId relu = g.Op(ir::OpType::kRelu, "relu", {conv}, "r", {1, 8, 4, 4});
  g.Output(relu);
  g.Output(dw);
  const ir::Graph& graph = g.graph();
  auto classify = [&](const std::string& name) {
    for (const ir::Op& op : graph.ops) {
      if (op.name == name) return analysis::ClassifyChannelTiling(graph, op);
    }
    return analysis::ChannelTileability{};
  };
  EXPECT_TRUE(classify("relu").tileable);
  EXPECT_FALSE(classify("conv").tileable);
  EXPECT_NE(classify("conv").reason.find("mixes or indexes channels"), std::string::npos);
  EXPECT_TRUE(classify("dw").tileable);  // multiplier 1: its parameters are offset per group
}

}  // namespace
}  // namespace tigris::plan
