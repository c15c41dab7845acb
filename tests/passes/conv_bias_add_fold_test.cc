#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// x[1,1,4,4] -> Conv(W[2,1,1,1], no bias) -> t[1,2,4,4] -> Add(t, b) -> y -> Relu -> z
ir::Graph ConvAdd(ir::Shape addend_shape, std::vector<float> addend,
                  std::vector<float> conv_bias = {}) {
  GraphBuilder b;
  auto x = b.Input("x", {1, 1, 4, 4});
  auto w = b.Floats("w", {2, 1, 1, 1}, {1.0f, 2.0f});
  std::vector<ir::TensorId> conv_in = {x, w};
  if (!conv_bias.empty()) conv_in.push_back(b.Floats("cb", {2}, conv_bias));
  auto t = b.Op(OpType::kConv, "conv", conv_in, "t", {1, 2, 4, 4},
                Attrs({{"kernel_shape", std::vector<int64_t>{1, 1}}}));
  auto c = b.Floats("b", std::move(addend_shape), addend);
  auto y = b.Op(OpType::kAdd, "add", {t, c}, "y", {1, 2, 4, 4});
  auto z = b.Op(OpType::kRelu, "relu", {y}, "z", {1, 2, 4, 4});
  b.Output(z);
  return b.Take();
}

std::vector<float> BiasOf(const ir::Graph& g) {
  return g.tensor(g.ops[0].inputs.at(2)).DataAs<float>();
}

TEST(ConvBiasAddFold, PerChannelAddBecomesTheBias) {
  // mnist8's form: the addend is [C,1,1] and broadcasts over N, H, W.
  ir::Graph g = ConvAdd({2, 1, 1}, {0.5f, -1.0f});
  ConvBiasAddFold(g);
  g.Compact();
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu"}));
  EXPECT_EQ(BiasOf(g), (std::vector<float>{0.5f, -1.0f}));
  // The Conv now writes the Add's output tensor, which the Relu reads.
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).name, "y");
  EXPECT_EQ(g.ops[1].inputs[0], g.ops[0].outputs[0]);
}

TEST(ConvBiasAddFold, AddsToAnExistingBiasAndBroadcastsScalars) {
  // Existing bias {1, 2} plus a scalar 0.25 on both channels: {1.25, 2.25}.
  ir::Graph g = ConvAdd({1}, {0.25f}, {1.0f, 2.0f});
  ConvBiasAddFold(g);
  g.Compact();
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu"}));
  EXPECT_EQ(BiasOf(g), (std::vector<float>{1.25f, 2.25f}));
}

TEST(ConvBiasAddFold, SpatiallyVaryingAddendStays) {
  // [1,1,4,4] varies along H and W: not a bias.
  ir::Graph g = ConvAdd({1, 1, 4, 4}, std::vector<float>(16, 1.0f));
  ConvBiasAddFold(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Add", "Relu"}));
}

TEST(ConvBiasAddFold, ConvWithAnotherReaderStays) {
  ir::Graph g = ConvAdd({2, 1, 1}, {0.5f, -1.0f});
  g.outputs.push_back(g.ops[0].outputs[0]);  // the pre-bias value is also a graph output
  ConvBiasAddFold(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Add", "Relu"}));
}

TEST(ConstantExpressionFold, ReshapeOfInitializerBecomesConstant) {
  // mnist8 feeds its MatMul a Reshape of a [256,10] initializer; after the fold the MatMul
  // reads a constant with the Reshape's output shape and the same bytes.
  GraphBuilder b;
  auto x = b.Input("x", {1, 6});
  std::vector<float> w_values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  auto w = b.Floats("w", {1, 6, 2}, w_values);
  auto shape = b.Int64s("shape", {2}, {6, 2});
  auto w2 = b.Op(OpType::kReshape, "reshape_w", {w, shape}, "w2", {6, 2});
  auto y = b.Op(OpType::kMatMul, "mm", {x, w2}, "y", {1, 2});
  b.Output(y);
  ir::Graph g = b.Take();
  ConstantExpressionFold(g);
  g.Compact();
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"MatMul"});
  const ir::Tensor& folded = g.tensor(g.ops[0].inputs[1]);
  EXPECT_TRUE(folded.is_constant);
  EXPECT_EQ(folded.shape, (ir::Shape{6, 2}));
  EXPECT_EQ(folded.DataAs<float>(), w_values);
}

}  // namespace
}  // namespace tigris::passes
