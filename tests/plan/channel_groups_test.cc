// Channel groups (docs/planning.md, "Channel groups"): a loop of channel-wise ops whose
// every pixel is over budget also cuts channels. Expected shapes and bytes are worked out
// by hand from the strip sizes (16-byte aligned homes, docs/memory-model.md).
#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "analysis/tileability.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "plan/row_tiling.h"

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
  testing::ExpectPlanReplays(p);
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
  testing::ExpectPlanReplays(p);
}

TEST(ChannelGroupsTest, AConvolutionByOutputChannelGroupsReadsEveryInputChannel) {
  // A 1x1 convolution 1x64x1x1 -> 1x100x1x1 float (a classifier): input 256 bytes, output
  // 400, 656 together, over 400. Rows and 2-D tiles cannot cut a single pixel. A group of g
  // output channels reads all 256 input bytes and writes 4g, rounded up to 16: g = 36 gives
  // 256 + 144 = 400, g = 37 gives 256 + 160. 100 channels in groups of 36 are 3 tiles
  // (36, 36, 28); each reads channels [0, 64) and writes its own.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 64, 1, 1});
  g.Output(AddConv(g, "fc", x, {100, 1, 1, 0, 1}));
  const ir::Graph graph = g.Take();
  const PlanResult p = PlanModel(graph, {400, 0, 0});
  ASSERT_EQ(p.verdict, Verdict::kTiled);
  const TilePlan& t = *p.stages[0].tile;
  EXPECT_EQ(t.tile_rows, 1);
  EXPECT_EQ(t.tile_cols, 0);
  EXPECT_EQ(t.tile_channels, 36);
  EXPECT_EQ(t.count, 3);
  EXPECT_EQ(t.peak_bytes, 400);
  const std::vector<std::vector<OpTileRows>> all = AllTileRows(t);
  ASSERT_EQ(all.size(), 3u);
  for (size_t i = 0; i < all.size(); ++i) {
    const OpTileRows& r = all[i][0];
    SCOPED_TRACE("tile " + std::to_string(i));
    EXPECT_EQ(r.input_channels.begin, 0);
    EXPECT_EQ(r.input_channels.end, 64);
    EXPECT_EQ(r.channels.begin, 36 * static_cast<int64_t>(i));
    EXPECT_EQ(r.channels.end, std::min<int64_t>(36 * static_cast<int64_t>(i) + 36, 100));
  }
  testing::ExpectPlanReplays(p);
}

TEST(ChannelGroupsTest, AConvolutionAfterAChannelGroupOpCannotShareItsLoop) {
  // Relu then a 1x1 convolution: the convolution would need every channel the Relu makes
  // one group at a time.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 8, 1, 1});
  ir::TensorId r = g.Op(ir::OpType::kRelu, "relu", {x}, "r", {1, 8, 1, 1});
  AddConv(g, "fc", r, {4, 1, 1, 0, 1});
  const ir::Graph graph = g.Take();
  const GraphFacts facts = ComputeGraphFacts(graph);
  std::string reason;
  const std::optional<TilePlan> loop = MakeTileLoop(graph, facts, {0, 1}, &reason);
  ASSERT_TRUE(loop.has_value()) << reason;
  EXPECT_NE(ChannelTileProblem(graph, *loop).find("reads every channel of its input"),
            std::string::npos);
  std::optional<TilePlan> alone = MakeTileLoop(graph, facts, {1}, &reason);
  ASSERT_TRUE(alone.has_value()) << reason;
  EXPECT_EQ(ChannelTileProblem(graph, *alone), "");
}

TEST(ChannelGroupsTest, ChannelWiseOpsAndConvolutionsCutChannels) {
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
  EXPECT_FALSE(classify("relu").reads_all_channels);
  // A convolution makes a group of output channels from every input channel.
  EXPECT_TRUE(classify("conv").tileable);
  EXPECT_TRUE(classify("conv").reads_all_channels);
  EXPECT_TRUE(classify("dw").tileable);  // multiplier 1: its parameters are offset per group
  EXPECT_FALSE(classify("dw").reads_all_channels);
}

}  // namespace
}  // namespace tigris::plan
