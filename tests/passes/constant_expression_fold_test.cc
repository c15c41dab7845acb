// constant-expression-fold: shape arithmetic over constants becomes constants
// (passes/constant_expression_fold.cc).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// torch's `x.chunk(2, dim=1)` as torchvision's ShuffleNetV2 exports it: the split point is
// (Shape(x)[1] + 1) / 2 * 1, then Slice(x, 0, that) along C. Folded, the Slice's ends is
// the constant 24 and the Slice itself stays (it reads an activation).
TEST(ConstantExpressionFold, ChunkSplitPointFoldsToAConstant) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 48, 8, 8});
  const ir::TensorId shape = b.Op(OpType::kShape, "shape", {x}, "s", {4}, {}, DType::kInt64);
  const ir::TensorId c = b.Op(OpType::kGather, "gather", {shape, b.Int64s("one", {1}, {1})}, "c",
                              {1}, Attrs({{"axis", int64_t{0}}}), DType::kInt64);
  const ir::TensorId up =
      b.Op(OpType::kAdd, "add", {c, b.Int64s("k1", {1}, {1})}, "up", {1}, {}, DType::kInt64);
  const ir::TensorId half =
      b.Op(OpType::kDiv, "div", {up, b.Int64s("k2", {1}, {2})}, "half", {1}, {}, DType::kInt64);
  const ir::TensorId end =
      b.Op(OpType::kMul, "mul", {half, b.Int64s("k3", {1}, {1})}, "end", {1}, {}, DType::kInt64);
  b.Output(b.Op(OpType::kSlice, "slice",
                {x, b.Int64s("start", {1}, {0}), end, b.Int64s("axes", {1}, {1})}, "y",
                {1, 24, 8, 8}));
  ir::Graph g = b.Take();

  passes::ConstantExpressionFold(g);
  g.Compact();

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Slice"});
  const ir::Tensor& ends = g.tensor(g.ops[0].input(2));
  ASSERT_TRUE(ends.is_constant);
  EXPECT_EQ(ir::ConstantAsInt64s(ends), std::vector<int64_t>{24});
}

// Multidirectional broadcasting, int32, and Div truncating toward zero (onnxruntime's
// integer Div): [[-7], [7]] / [2, -2, 4] = [[-3, 3, -1], [3, -3, 1]].
TEST(ConstantExpressionFold, IntegerArithmeticBroadcastsAndTruncates) {
  GraphBuilder b;
  const ir::TensorId l = b.Const<int32_t>("l", {2, 1}, DType::kInt32, {-7, 7});
  const ir::TensorId r = b.Const<int32_t>("r", {3}, DType::kInt32, {2, -2, 4});
  const ir::TensorId q = b.Op(OpType::kDiv, "div", {l, r}, "q", {2, 3}, {}, DType::kInt32);
  const ir::TensorId x = b.Input("x", {2, 3}, DType::kInt32);
  b.Output(b.Op(OpType::kAdd, "use", {x, q}, "y", {2, 3}, {}, DType::kInt32));
  ir::Graph g = b.Take();

  passes::ConstantExpressionFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Add"});
  const ir::Tensor& folded = g.tensor(q);
  ASSERT_TRUE(folded.is_constant);
  EXPECT_EQ(folded.DataAs<int32_t>(), (std::vector<int32_t>{-3, 3, -1, 3, -3, 1}));
}

// torch's expand(-1, -1, 4, 5) keeps the input's extents by Where(Equal(shape, -1), ones,
// shape): both fold, the bool mask into a bool constant, the selection into [1, 1, 4, 5].
TEST(ConstantExpressionFold, ComparisonAndWhereOverShapeValuesFold) {
  GraphBuilder b;
  const ir::TensorId shape = b.Int64s("shape", {4}, {-1, -1, 4, 5});
  const ir::TensorId ones = b.Int64s("ones", {4}, {1, 1, 1, 1});
  const ir::TensorId keep = b.Op(OpType::kEqual, "eq", {shape, b.Int64s("neg", {1}, {-1})}, "keep",
                                 {4}, {}, DType::kBool);
  const ir::TensorId target =
      b.Op(OpType::kWhere, "where", {keep, ones, shape}, "target", {4}, {}, DType::kInt64);
  const ir::TensorId x = b.Input("x", {1, 3, 1, 1});
  b.Output(b.Op(OpType::kExpand, "expand", {x, target}, "y", {1, 3, 4, 5}));
  ir::Graph g = b.Take();

  passes::ConstantExpressionFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Expand"});
  ASSERT_TRUE(g.tensor(keep).is_constant);
  EXPECT_EQ(g.tensor(keep).data, (std::vector<uint8_t>{1, 1, 0, 0}));
  ASSERT_TRUE(g.tensor(target).is_constant);
  EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(target)), (std::vector<int64_t>{1, 1, 4, 5}));
}

TEST(ConstantExpressionFold, FloatArithmeticAndActivationsStay) {
  // Float constants are weights' business (their rounding belongs to the kernels), and an
  // activation operand is data: neither folds.
  GraphBuilder b;
  const ir::TensorId f =
      b.Op(OpType::kMul, "scale", {b.Floats("w", {2}, {1.5f, 2.0f}), b.Floats("k", {1}, {3.0f})},
           "f", {2});
  const ir::TensorId x = b.Input("x", {2});
  b.Output(b.Op(OpType::kAdd, "add", {x, f}, "y", {2}));
  ir::Graph g = b.Take();
  passes::ConstantExpressionFold(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Mul", "Add"}));
}

// A Gather of a quantized int8 constant (NegativeLogLikelihoodLoss's class weights under
// quantize_static) folds into a constant that keeps the codes' quantization, which the
// runtime's Dequantize needs; an output quantized differently would need its codes
// requantized, and arithmetic on codes is not arithmetic on values: both stay ops.
ir::Graph GatherOfQuantizedConstant(float output_scale, OpType type = OpType::kGather) {
  GraphBuilder b;
  const ir::TensorId w = b.Const<int8_t>("w", {4}, DType::kInt8, {-3, 5, 7, 9});
  const ir::TensorId i = b.Int64s("i", {2}, {2, 0});
  const ir::TensorId g =
      type == OpType::kGather
          ? b.Op(type, "gather", {w, i}, "g", {2}, Attrs({{"axis", int64_t{0}}}), DType::kInt8)
          : b.Op(type, "add", {w, w}, "g", {4}, {}, DType::kInt8);
  b.Output(b.Op(OpType::kDequantize, "dq", {g}, "gf", {type == OpType::kGather ? 2 : 4}));
  ir::Graph graph = b.Take();
  graph.tensor(w).quant = ir::QuantParams{{0.5f}, {1}, -1};
  graph.tensor(g).quant = ir::QuantParams{{output_scale}, {1}, -1};
  return graph;
}

TEST(ConstantExpressionFold, GatherOfAQuantizedConstantKeepsItsQuantization) {
  ir::Graph g = GatherOfQuantizedConstant(0.5f);
  passes::ConstantExpressionFold(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Dequantize"});
  const ir::Tensor& folded = g.tensor(g.ops[0].input(0));
  ASSERT_TRUE(folded.is_constant && folded.quant);
  EXPECT_EQ(folded.quant->scales, std::vector<float>{0.5f});
  EXPECT_EQ(folded.data, (std::vector<uint8_t>{7, static_cast<uint8_t>(-3)}));
}

TEST(ConstantExpressionFold, CodesThatWouldNeedRequantizingOrArithmeticStayOps) {
  ir::Graph requantized = GatherOfQuantizedConstant(0.25f);
  passes::ConstantExpressionFold(requantized);
  EXPECT_EQ(OpTypes(requantized), (std::vector<std::string>{"Gather", "Dequantize"}));
  ir::Graph summed = GatherOfQuantizedConstant(0.5f, OpType::kAdd);
  passes::ConstantExpressionFold(summed);
  EXPECT_EQ(OpTypes(summed), (std::vector<std::string>{"Add", "Dequantize"}));
}

TEST(ConstantExpressionFold, IntegerDivisionByZeroIsAnInvalidModel) {
  GraphBuilder b;
  const ir::TensorId q =
      b.Op(OpType::kDiv, "div", {b.Int64s("n", {1}, {5}), b.Int64s("z", {1}, {0})}, "q", {1}, {},
           DType::kInt64);
  const ir::TensorId x = b.Input("x", {1}, DType::kInt64);
  b.Output(b.Op(OpType::kAdd, "use", {x, q}, "y", {1}, {}, DType::kInt64));
  ir::Graph g = b.Take();
  try {
    passes::ConstantExpressionFold(g);
    FAIL() << "a division by zero folded";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'div'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
