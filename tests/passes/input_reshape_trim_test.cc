// input-reshape-trim: a Reshape that alone reads a graph input and keeps the runtime's bytes
// moves to the host (passes/input_reshape_trim.cc).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

// x (the caller's shape) -> Reshape -> r[to] -> Relu -> y.
ir::Graph LeadingReshape(const ir::Shape& from, const ir::Shape& to) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", from);
  ir::TensorId r = b.Op(OpType::kReshape, "reshape", {x}, "r", to);
  b.Output(b.Op(OpType::kRelu, "relu", {r}, "y", to));
  return b.Take();
}

TEST(InputReshapeTrim, OneChannelNhwcInputMovesToHost) {
  // TFLite person detection: [1, 96, 96, 1] NHWC -> [1, 1, 96, 96]. The runtime keeps
  // [1, 1, 96, 96] as NHWC [1, 96, 96, 1]: the caller's bytes, as they are.
  ir::Graph g = LeadingReshape({1, 96, 96, 1}, {1, 1, 96, 96});
  passes::InputReshapeTrim(g);
  g.Compact();
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  const ir::Tensor& in = g.tensor(g.inputs[0]);
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.shape, (ir::Shape{1, 1, 96, 96}));
  EXPECT_EQ(in.host_shape, (ir::Shape{1, 96, 96, 1}));
  EXPECT_TRUE(in.host_permutation.empty());
  EXPECT_EQ(g.ops[0].inputs, g.inputs);
}

TEST(InputReshapeTrim, AVectorBecomingAPixelMovesToHost) {
  // [1, 64] -> [1, 64, 1, 1]: H == W == 1, another rank for the caller.
  ir::Graph g = LeadingReshape({1, 64}, {1, 64, 1, 1});
  passes::InputReshapeTrim(g);
  g.Compact();
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  EXPECT_EQ(g.tensor(g.inputs[0]).host_shape, (ir::Shape{1, 64}));
}

TEST(InputReshapeTrim, ReshapesThatMoveRuntimeBytesStay) {
  // Several channels and pixels: NHWC of [1, 3, 4, 4] is not the caller's row-major order.
  ir::Graph multi = LeadingReshape({1, 48}, {1, 3, 4, 4});
  passes::InputReshapeTrim(multi);
  EXPECT_EQ(OpTypes(multi), (std::vector<std::string>{"Reshape", "Relu"}));
  // One channel, but a 4-D caller's shape that is not the runtime's [N, H, W, C]: the
  // runtime's input copy would read it as a permutation (host_io.c), so it stays.
  ir::Graph other = LeadingReshape({1, 96, 1, 96}, {1, 1, 96, 96});
  passes::InputReshapeTrim(other);
  EXPECT_EQ(OpTypes(other), (std::vector<std::string>{"Reshape", "Relu"}));
  EXPECT_TRUE(other.tensor(other.inputs[0]).host_shape.empty());
}

TEST(InputReshapeTrim, AnInputWithOtherReadersKeepsItsReshape) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 8, 1});
  ir::TensorId r = b.Op(OpType::kReshape, "reshape", {x}, "r", {1, 1, 8, 8});
  b.Output(b.Op(OpType::kRelu, "relu_r", {r}, "y", {1, 1, 8, 8}));
  b.Output(b.Op(OpType::kRelu, "relu_x", {x}, "z", {1, 8, 8, 1}));
  ir::Graph g = b.Take();
  passes::InputReshapeTrim(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Reshape", "Relu", "Relu"}));
}

}  // namespace
}  // namespace tigris
