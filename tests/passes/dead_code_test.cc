// Dead-op elimination shared by shape-op-fold and reshape-canonicalize (dead_code.h).
#include "passes/dead_code.h"

#include <gtest/gtest.h>

#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(EraseDeadOps, RemovesWholeUnreadChainInOneCall) {
  // x -> Relu -> y (output); x -> Shape -> Gather -> Unsqueeze (read by nobody). The three
  // shape ops die together: Unsqueeze has no reader, then Gather's only reader is gone,
  // then Shape's.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  b.Output(b.Op(OpType::kRelu, "relu", {x}, "y", {1, 4}));
  ir::TensorId s = b.Op(OpType::kShape, "shape", {x}, "s", {2}, {}, DType::kInt64);
  ir::TensorId n =
      b.Op(OpType::kGather, "gather", {s, b.Int64s("i", {}, {0})}, "n", {}, {}, DType::kInt64);
  b.Op(OpType::kUnsqueeze, "unsqueeze", {n, b.Int64s("a", {1}, {0})}, "u", {1}, {}, DType::kInt64);
  ir::Graph g = b.Take();

  EXPECT_EQ(passes::EraseDeadOps(g), 3u);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
}

TEST(EraseDeadOps, KeepsOpWithOneReadOutputAndOpsFeedingOutputs) {
  // Dropout's mask output is unread but its data output is a graph output: it stays. The
  // Relu beside it is read by nobody: it goes (1 removal).
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId y = b.Activation("y", {1, 4});
  ir::TensorId mask = b.Activation("mask", {1, 4}, DType::kBool);
  b.OpWithOutputs(OpType::kDropout, "dropout", {x}, {y, mask});
  b.Output(y);
  b.Op(OpType::kRelu, "unread_relu", {x}, "z", {1, 4});
  ir::Graph g = b.Take();

  EXPECT_EQ(passes::EraseDeadOps(g), 1u);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Dropout"});
}

}  // namespace
}  // namespace tigris
