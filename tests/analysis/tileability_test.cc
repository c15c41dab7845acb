#include "analysis/tileability.h"

#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

RowTileClass ClassOfLast(const GraphBuilder& g) {
  GraphBuilder& mutable_g = const_cast<GraphBuilder&>(g);
  return ClassifyRowTiling(mutable_g.graph(), mutable_g.graph().ops.back()).kind;
}

TEST(TileabilityTest, ReferenceCategories) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4, 8, 8});
  ir::TensorId c = testing::AddConv(g, "conv", x, {4, 3, 1, 1, 1});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kSpatial);
  ir::TensorId r = g.Op(ir::OpType::kRelu, "relu", {c}, "r", {1, 4, 8, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  g.Op(ir::OpType::kAdd, "add", {r, x}, "s", {1, 4, 8, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  g.Op(ir::OpType::kConcat, "cat_c", {r, x}, "cc", {1, 8, 8, 8});  // joins channels
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  g.Op(ir::OpType::kConcat, "cat_h", {r, x}, "ch", {1, 4, 16, 8});  // joins rows
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kUntileable);
  g.Op(ir::OpType::kGlobalAveragePool, "gap", {r}, "p", {1, 4, 1, 1});  // banded
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kReduction);
  g.Op(ir::OpType::kGlobalMaxPool, "gmp", {r}, "m", {1, 4, 1, 1});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kReduction);
  g.Op(ir::OpType::kReshape, "flat", {r}, "f", {1, 256});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kUntileable);
}

TEST(TileabilityTest, PaddingAWholeWindowKeepsTheTensorWhole) {
  // A 3x3 pool padded by 3 rows above (its window's whole extent): output row 0 reads rows
  // [-3, 0), no input row, so no tile can start there (fuzz_onnx found 65 rows over a
  // 3-row kernel). Padding 2 (the most a window can take and still read a row) tiles.
  // Columns the same way.
  auto pool = [](std::vector<int64_t> pads, int64_t out_h, int64_t out_w) {
    GraphBuilder g;
    ir::TensorId x = g.Input("x", {1, 1, 8, 8});
    g.Op(ir::OpType::kMaxPool, "pool", {x}, "y", {1, 1, out_h, out_w},
         testing::Attrs({{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", pads}}));
    return g.Take();
  };
  const ir::Graph two = pool({2, 0, 0, 0}, 8, 6);
  EXPECT_EQ(ClassifyRowTiling(two, two.ops[0]).kind, RowTileClass::kSpatial);
  const ir::Graph three = pool({3, 0, 0, 0}, 9, 6);
  const RowTileability rows = ClassifyRowTiling(three, three.ops[0]);
  EXPECT_EQ(rows.kind, RowTileClass::kUntileable);
  EXPECT_NE(rows.reason.find("pads a whole window of rows or more (3 above, 0 below)"),
            std::string::npos)
      << rows.reason;
  const ir::Graph right = pool({0, 0, 0, 3}, 6, 9);  // pads: top, left, bottom, right
  EXPECT_EQ(ClassifyRowTiling(right, right.ops[0]).kind, RowTileClass::kSpatial);
  const ColumnTileability cols = ClassifyColumnTiling(right, right.ops[0]);
  EXPECT_FALSE(cols.tileable);
  EXPECT_NE(cols.reason.find("pads a whole window of columns"), std::string::npos) << cols.reason;
}

TEST(TileabilityTest, AConcatAlongCTilesColumnsAlongWDoesNot) {
  GraphBuilder g;
  const ir::TensorId a = g.Input("a", {1, 4, 8, 8});
  const ir::TensorId b = g.Input("b", {1, 2, 8, 8});
  g.Op(ir::OpType::kConcat, "cat_c", {a, b}, "cc", {1, 6, 8, 8});
  EXPECT_TRUE(ClassifyColumnTiling(g.graph(), g.graph().ops.back()).tileable);
  g.Op(ir::OpType::kConcat, "cat_w", {a, a}, "cw", {1, 4, 8, 16});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);  // rows are whole in each input
  const ColumnTileability w = ClassifyColumnTiling(g.graph(), g.graph().ops.back());
  EXPECT_FALSE(w.tileable);
  EXPECT_EQ(w.reason, "Concat joins along W");
}

TEST(TileabilityTest, AChannelShuffleTilesByRowsAndColumns) {
  GraphBuilder g;
  const ir::TensorId x = g.Input("x", {1, 8, 6, 6});
  g.Op(ir::OpType::kChannelShuffle, "shuffle", {x}, "y", {1, 8, 6, 6},
       testing::Attrs({{"group", int64_t{2}}}));
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  EXPECT_TRUE(ClassifyColumnTiling(g.graph(), g.graph().ops.back()).tileable);
}

TEST(TileabilityTest, DenseOpsAreUntileableWithReason) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 16});
  ir::TensorId w = g.Floats("w", {4, 16}, std::vector<float>(64));
  g.Op(ir::OpType::kGemm, "fc", {x, w}, "y", {1, 4});
  const RowTileability t = ClassifyRowTiling(g.graph(), g.graph().ops[0]);
  EXPECT_EQ(t.kind, RowTileClass::kUntileable);
  EXPECT_NE(t.reason.find("Gemm"), std::string::npos);
}

TEST(TileabilityTest, AnActivationOfOneRowIsBroadcastToEveryTile) {
  // A squeeze-excite scale [1, C, 1, 1] multiplied into [1, C, 8, 8]: every tile reads the
  // scale whole.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4, 8, 8});
  ir::TensorId s = g.Input("s", {1, 4, 1, 1});
  ir::TensorId y = g.Op(ir::OpType::kMul, "scale", {x, s}, "y", {1, 4, 8, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  const ir::Graph& graph = g.graph();
  EXPECT_TRUE(BroadcastsAlongRows(graph, graph.ops.back(), s));
  EXPECT_FALSE(BroadcastsAlongRows(graph, graph.ops.back(), x));
  ir::TensorId k = g.Floats("k", {4, 1, 1}, {1, 2, 3, 4});  // per-channel constant
  g.Op(ir::OpType::kMul, "scale_const", {x, k}, "z", {1, 4, 8, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
  // A rank-3 activation operand has no H of its own to broadcast.
  ir::TensorId v = g.Input("v", {4, 1, 1});
  g.Op(ir::OpType::kAdd, "bias_act", {y, v}, "w", {1, 4, 8, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kUntileable);
}

TEST(TileabilityTest, PadAlongRowsIsUntileable) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4, 8, 8});
  g.Op(ir::OpType::kPad, "pad_h", {x}, "y", {1, 4, 10, 8});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kUntileable);
  g.Op(ir::OpType::kPad, "pad_w", {x}, "z", {1, 4, 8, 10});
  EXPECT_EQ(ClassOfLast(g), RowTileClass::kPointwise);
}

}  // namespace
}  // namespace tigris::analysis
