// broadcast-rank-lift: a lower-rank run-time operand of Add/Sub/Mul/Div is reshaped to the
// output's rank, so the runtime's layout right-aligns it as ONNX does. The values are checked
// end to end by the ONNX conformance cases test_add_bcast, test_mul_bcast, ...
// (tests/conformance/onnx_conformance.py); here, the rewrite itself.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

TEST(BroadcastRankLift, VectorOperandOfARankThreeAddIsLiftedWithLeadingOnes) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {3, 4, 5});
  ir::TensorId y = b.Input("y", {5});
  b.Output(b.Op(ir::OpType::kAdd, "add", {x, y}, "z", {3, 4, 5}));
  ir::Graph g = b.Take();
  BroadcastRankLift(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "Add"}));
  EXPECT_EQ(g.ops[0].inputs[0], y);
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{1, 1, 5}));
  EXPECT_EQ(g.ops[1].inputs[0], x);
  EXPECT_EQ(g.ops[1].inputs[1], g.ops[0].outputs[0]);
  EXPECT_EQ(g.tensor(g.ops[1].inputs[1]).shape, (ir::Shape{1, 1, 5}));
}

TEST(BroadcastRankLift, QuantizationFollowsTheLiftedOperand) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 4}, ir::DType::kInt8);
  ir::TensorId y = b.Input("y", {3, 4}, ir::DType::kInt8);
  b.Output(b.Op(ir::OpType::kMul, "mul", {x, y}, "z", {1, 2, 3, 4}, {}, ir::DType::kInt8));
  ir::Graph g = b.Take();
  g.tensor(y).quant = ir::QuantParams{{0.5f}, {3}, -1};
  BroadcastRankLift(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "Mul"}));
  const ir::Tensor& lifted = g.tensor(g.ops[1].inputs[1]);
  EXPECT_EQ(lifted.shape, (ir::Shape{1, 1, 3, 4}));
  EXPECT_EQ(lifted.dtype, ir::DType::kInt8);
  ASSERT_TRUE(lifted.quant.has_value());
  EXPECT_TRUE(*lifted.quant == *g.tensor(y).quant);
}

TEST(BroadcastRankLift, EqualRanksConstantsAndMatricesAreLeftAlone) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 4});
  ir::TensorId same = b.Input("same", {1, 2, 1, 1});
  ir::TensorId t = b.Op(ir::OpType::kAdd, "same_rank", {x, same}, "t", {1, 2, 3, 4});
  ir::TensorId u =
      b.Op(ir::OpType::kSub, "constant", {t, b.Floats("c", {4}, {1, 2, 3, 4})}, "u", {1, 2, 3, 4});
  ir::TensorId m = b.Input("m", {2, 5});
  ir::TensorId v = b.Input("v", {5});
  b.Output(u);
  b.Output(b.Op(ir::OpType::kDiv, "matrix", {m, v}, "w", {2, 5}));
  ir::Graph g = b.Take();
  BroadcastRankLift(g);
  EXPECT_EQ(OpTypes(g), (Strings{"Add", "Sub", "Div"}));
}

}  // namespace
}  // namespace tigris::passes
