// Graph bookkeeping: producer/consumer indices, use rewriting, op erasure, compaction.
#include "ir/graph.h"

#include <gtest/gtest.h>

#include "support/graph_builder.h"

namespace tigris::ir {
namespace {

using testing::GraphBuilder;

// x -> Relu(a) -> y ; y -> Add(b, y, y) -> z   (b reads y twice: one consumer)
Graph Diamond() {
  GraphBuilder b;
  TensorId x = b.Input("x", {1, 4});
  TensorId y = b.Op(OpType::kRelu, "a", {x}, "y", {1, 4});
  TensorId z = b.Op(OpType::kAdd, "b", {y, y}, "z", {1, 4});
  b.Output(z);
  return b.Take();
}

TEST(GraphTest, ProducerAndConsumerIndices) {
  Graph g = Diamond();
  std::vector<int> producer = g.ProducerIndex();
  EXPECT_EQ(producer[0], -1);  // graph input
  EXPECT_EQ(producer[1], 0);
  EXPECT_EQ(producer[2], 1);
  std::vector<std::vector<int>> consumers = g.ConsumerIndex();
  EXPECT_EQ(consumers[0], std::vector<int>{0});
  EXPECT_EQ(consumers[1], std::vector<int>{1});  // Add(y, y) counts once
  EXPECT_TRUE(consumers[2].empty());
}

TEST(GraphTest, ReplaceUsesRewritesOpInputsAndGraphOutputs) {
  Graph g = Diamond();
  g.ReplaceUses(1, 0);  // bypass the Relu
  EXPECT_EQ(g.ops[1].inputs, (std::vector<TensorId>{0, 0}));
  g.ReplaceUses(2, 0);
  EXPECT_EQ(g.outputs, std::vector<TensorId>{0});
}

TEST(GraphTest, CompactDropsUnreferencedTensorsAndRenumbers) {
  Graph g = Diamond();
  g.AddConstant("unused", DType::kFloat32, {1}, std::vector<uint8_t>(4, 0));
  // Remove the Relu and feed x to the Add directly: "y" becomes unreferenced.
  g.ReplaceUses(1, 0);
  g.EraseOps({true, false});
  g.Compact();
  ASSERT_EQ(g.tensors.size(), 2u);  // x and z survive; y and "unused" are gone
  EXPECT_EQ(g.tensors[0].name, "x");
  EXPECT_EQ(g.tensors[1].name, "z");
  ASSERT_EQ(g.ops.size(), 1u);
  EXPECT_EQ(g.ops[0].inputs, (std::vector<TensorId>{0, 0}));
  EXPECT_EQ(g.ops[0].outputs, std::vector<TensorId>{1});
  EXPECT_EQ(g.outputs, std::vector<TensorId>{1});
}

TEST(GraphTest, CompactKeepsAbsentOptionalInputs) {
  GraphBuilder b;
  TensorId x = b.Input("x", {1, 2, 4, 4});
  TensorId w = b.Floats("w", {2, 2, 1, 1}, {1, 0, 0, 1});
  b.Activation("orphan", {3});
  TensorId y = b.Op(OpType::kConv, "conv", {x, w, kNoTensor}, "y", {1, 2, 4, 4});
  b.Output(y);
  Graph g = b.Take();
  g.Compact();
  EXPECT_EQ(g.ops[0].inputs[2], kNoTensor);
  EXPECT_EQ(g.tensors.size(), 3u);
}

TEST(GraphTest, UniqueTensorNameAppendsCounter) {
  Graph g = Diamond();
  EXPECT_EQ(g.UniqueTensorName("fresh"), "fresh");
  EXPECT_EQ(g.UniqueTensorName("y"), "y_1");
  g.AddConstant("y", DType::kInt64, {1}, std::vector<uint8_t>(8, 0));
  EXPECT_EQ(g.tensors.back().name, "y_1");
  EXPECT_EQ(g.UniqueTensorName("y"), "y_2");
}

TEST(GraphTest, DTypeNameFollowsQuantizedActivations) {
  Graph g = Diamond();
  EXPECT_EQ(g.ComputeDTypeName(), "float32");
  g.tensors[1].quant = QuantParams{{0.5f}, {0}, -1};
  EXPECT_EQ(g.ComputeDTypeName(), "int8");
}

}  // namespace
}  // namespace tigris::ir
