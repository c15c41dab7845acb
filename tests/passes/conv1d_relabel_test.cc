// Reference pass 6 (tigris-compilation-pipeline.txt, stage 2): Conv with a 1-D kernel
// becomes Conv1D.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(Conv1dRelabel, RankThreeConvBecomesConv1D) {
  // x [1, 2, 10], w [4, 2, 3]: a 1-D convolution over length 10.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 10});
  ir::TensorId w = b.Floats("w", {4, 2, 3}, std::vector<float>(24, 1.0f));
  b.Output(b.Op(OpType::kConv, "conv", {x, w}, "y", {1, 4, 8},
                Attrs({{"strides", std::vector<int64_t>{1}}})));
  ir::Graph g = b.Take();

  passes::Conv1dRelabel(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv1D"});
  EXPECT_EQ(g.ops[0].attrs.GetInts("strides"), std::vector<int64_t>{1});
}

TEST(Conv1dRelabel, TwoDimensionalConvAndDepthwiseStay) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 5, 5});
  ir::TensorId w = b.Floats("w", {2, 2, 3, 3}, std::vector<float>(36, 1.0f));
  ir::TensorId y = b.Op(OpType::kConv, "conv", {x, w}, "y", {1, 2, 3, 3});
  ir::TensorId dw = b.Floats("dw", {2, 1, 3, 3}, std::vector<float>(18, 1.0f));
  b.Output(b.Op(OpType::kDepthwiseConv, "dwconv", {y, dw}, "z", {1, 2, 1, 1},
                Attrs({{"group", int64_t{2}}})));
  ir::Graph g = b.Take();

  passes::Conv1dRelabel(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "DepthwiseConv"}));
}

}  // namespace
}  // namespace tigris
