// Reference pass 5 (tigris-compilation-pipeline.txt, stage 2): Conv with group == C_in
// becomes DepthwiseConv (including depth multipliers, C_out = m * C_in).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// Conv on x [1, c_in, 5, 5] with weight [c_out, c_in / group, 3, 3].
ir::Graph ConvGraph(int64_t c_in, int64_t c_out, int64_t group) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, c_in, 5, 5});
  const int64_t per_group = c_in / group;
  ir::TensorId w = b.Floats("w", {c_out, per_group, 3, 3},
                            std::vector<float>(static_cast<size_t>(c_out * per_group * 9), 1.0f));
  b.Output(b.Op(OpType::kConv, "conv", {x, w}, "y", {1, c_out, 3, 3},
                Attrs({{"group", group}, {"kernel_shape", std::vector<int64_t>{3, 3}}})));
  return b.Take();
}

TEST(DepthwiseConvRelabel, GroupEqualToInputChannelsIsDepthwise) {
  ir::Graph g = ConvGraph(4, 4, 4);
  passes::DepthwiseConvRelabel(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"DepthwiseConv"});
  // Attributes (group, kernel_shape) are kept for the kernel.
  EXPECT_EQ(g.ops[0].attrs.GetInt("group"), 4);
  EXPECT_EQ(g.ops[0].attrs.GetInts("kernel_shape"), (std::vector<int64_t>{3, 3}));
}

TEST(DepthwiseConvRelabel, DepthMultiplierTwoIsDepthwise) {
  // C_out = 2 * C_in: each input channel feeds two output channels.
  ir::Graph g = ConvGraph(4, 8, 4);
  passes::DepthwiseConvRelabel(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"DepthwiseConv"});
}

TEST(DepthwiseConvRelabel, PlainAndGroupedConvsStayConv) {
  ir::Graph plain = ConvGraph(4, 4, 1);
  passes::DepthwiseConvRelabel(plain);
  EXPECT_EQ(OpTypes(plain), std::vector<std::string>{"Conv"});

  ir::Graph grouped = ConvGraph(4, 4, 2);  // two groups of two channels
  passes::DepthwiseConvRelabel(grouped);
  EXPECT_EQ(OpTypes(grouped), std::vector<std::string>{"Conv"});

  ir::Graph single = ConvGraph(1, 1, 1);  // group = C_in = 1: an ordinary Conv
  passes::DepthwiseConvRelabel(single);
  EXPECT_EQ(OpTypes(single), std::vector<std::string>{"Conv"});
}

TEST(DepthwiseConvRelabel, OneDimensionalDepthwiseIsLeftForConv1D) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 10});
  ir::TensorId w = b.Floats("w", {4, 1, 3}, std::vector<float>(12, 1.0f));
  b.Output(b.Op(OpType::kConv, "conv", {x, w}, "y", {1, 4, 8}, Attrs({{"group", int64_t{4}}})));
  ir::Graph g = b.Take();

  passes::DepthwiseConvRelabel(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
}

TEST(DepthwiseConvRelabel, WeightNotMatchingGroupIsInvalidModel) {
  // group == C_in == 4 but the weight says 2 input channels per group.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 5, 5});
  ir::TensorId w = b.Floats("w", {4, 2, 3, 3}, std::vector<float>(72, 1.0f));
  b.Output(
      b.Op(OpType::kConv, "badconv", {x, w}, "y", {1, 4, 3, 3}, Attrs({{"group", int64_t{4}}})));
  ir::Graph g = b.Take();

  try {
    passes::DepthwiseConvRelabel(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'badconv'"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris
