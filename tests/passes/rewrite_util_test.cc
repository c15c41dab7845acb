// Helpers shared by the rewriting passes (passes/rewrite_util.h).
#include "passes/rewrite_util.h"

#include <gtest/gtest.h>

#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(RewriteUtil, SoleConsumerIgnoresGraphOutputsAndFanOut) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(OpType::kRelu, "a", {x}, "ta", {4});
  ir::TensorId c = b.Op(OpType::kRelu, "c", {a}, "tc", {4});
  b.Op(OpType::kAdd, "d", {x, c}, "td", {4});
  b.Output(b.Op(OpType::kAdd, "e", {c, c}, "te", {4}));
  b.Output(a);
  const ir::Graph& g = b.graph();
  const auto consumers = g.ConsumerIndex();

  EXPECT_EQ(passes::SoleConsumer(g, consumers, a), -1);  // read by c, but a graph output
  EXPECT_EQ(passes::SoleConsumer(g, consumers, x), -1);  // read by a and d
  EXPECT_EQ(passes::SoleConsumer(g, consumers, c), -1);  // read by d and e
  EXPECT_EQ(passes::SoleConsumer(g, consumers, g.ops[2].outputs[0]), -1);  // no reader
}

TEST(RewriteUtil, SoleConsumerFindsTheOneReader) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId a = b.Op(OpType::kRelu, "a", {x}, "ta", {4});
  b.Output(b.Op(OpType::kAdd, "twice", {a, a}, "y", {4}));  // one op reading a twice
  const ir::Graph& g = b.graph();
  EXPECT_EQ(passes::SoleConsumer(g, g.ConsumerIndex(), a), 1);
}

TEST(RewriteUtil, AbsorbSuccessorMovesOutputAndKillsOp) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId t = b.Op(OpType::kRelu, "p", {x}, "t", {4});
  ir::TensorId y = b.Op(OpType::kRelu, "s", {t}, "y", {4});
  b.Output(y);
  ir::Graph g = b.Take();
  std::vector<bool> dead(2, false);

  passes::AbsorbSuccessor(g, 0, 1, dead);

  EXPECT_EQ(dead, (std::vector<bool>{false, true}));
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{y});
  EXPECT_TRUE(g.ops[1].inputs.empty());
}

TEST(RewriteUtil, TransposeMatrixBytesKeepsElementsWhole) {
  // 2-byte elements [2, 3] = [[a, b, c], [d, e, f]] -> [[a, d], [b, e], [c, f]]; each
  // element's two bytes (low, high) travel together.
  const std::vector<uint8_t> m = {1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60};
  EXPECT_EQ(passes::TransposeMatrixBytes(m, 2, 3, 2),
            (std::vector<uint8_t>{1, 10, 4, 40, 2, 20, 5, 50, 3, 30, 6, 60}));
  EXPECT_THROW(passes::TransposeMatrixBytes(m, 3, 3, 2), Error);
}

TEST(RewriteUtil, BroadcastShapesFollowsNumpy) {
  EXPECT_EQ(passes::BroadcastShapes({1, 4}, {4}, "x"), (ir::Shape{1, 4}));
  EXPECT_EQ(passes::BroadcastShapes({2, 1, 3}, {5, 1}, "x"), (ir::Shape{2, 5, 3}));
  EXPECT_EQ(passes::BroadcastShapes({}, {3}, "x"), (ir::Shape{3}));
  EXPECT_THROW(passes::BroadcastShapes({2, 3}, {4}, "x"), Error);
}

TEST(RewriteUtil, OpNamerAvoidsExistingAndIssuedNames) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  b.Output(b.Op(OpType::kRelu, "n", {x}, "y", {4}));
  passes::OpNamer namer(b.graph());
  EXPECT_EQ(namer.Unique("n"), "n_1");
  EXPECT_EQ(namer.Unique("n"), "n_2");
  EXPECT_EQ(namer.Unique("m"), "m");
}

TEST(RewriteUtil, FloatConstantChecksDtypeAndSize) {
  GraphBuilder b;
  ir::TensorId f = b.Floats("f", {2}, {1.5f, 2.5f});
  ir::TensorId i = b.Int64s("i", {2}, {1, 2});
  ir::TensorId short_data = b.Floats("s", {3}, {1.0f});
  const ir::Graph& g = b.graph();
  EXPECT_EQ(passes::FloatConstant(g.tensor(f)), (std::vector<float>{1.5f, 2.5f}));
  EXPECT_THROW(passes::FloatConstant(g.tensor(i)), Error);
  EXPECT_THROW(passes::FloatConstant(g.tensor(short_data)), Error);
}

}  // namespace
}  // namespace tigris
