// matmul-add-to-gemm: MatMul with a constant 2-D weight (+ bias Add) becomes a canonical
// Gemm (transA=0, transB=1, alpha=beta=1, B' = B^T as [N, K], C as [N]).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

// B [K=3, N=2] = [[1, 2], [3, 4], [5, 6]]; B^T [2, 3] = [[1, 3, 5], [2, 4, 6]].
const std::vector<float> kB = {1, 2, 3, 4, 5, 6};
const std::vector<float> kBT = {1, 3, 5, 2, 4, 6};

void ExpectCanonicalAttrs(const ir::Op& op) {
  EXPECT_EQ(op.attrs.GetInt("transA", -1), 0);
  EXPECT_EQ(op.attrs.GetInt("transB", -1), 1);
  EXPECT_EQ(op.attrs.GetFloat("alpha", -1.0f), 1.0f);
  EXPECT_EQ(op.attrs.GetFloat("beta", -1.0f), 1.0f);
}

TEST(MatMulAddToGemm, MatMulPlusRowBiasBecomesGemm) {
  // As in mnist8.onnx: MatMul on a [1, K] input, then Add with a [1, N] bias.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {3, 2}, kB);
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, w}, "t", {1, 2});
  ir::TensorId bias = b.Floats("bias", {1, 2}, {0.5f, -0.5f});
  ir::TensorId y = b.Op(OpType::kAdd, "add", {t, bias}, "y", {1, 2});
  b.Output(y);
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Gemm"});
  const ir::Op& gemm = g.ops[0];
  ExpectCanonicalAttrs(gemm);
  ASSERT_EQ(gemm.inputs.size(), 3u);
  EXPECT_EQ(gemm.inputs[0], a);
  EXPECT_EQ(g.tensor(gemm.inputs[1]).shape, (ir::Shape{2, 3}));
  EXPECT_EQ(g.tensor(gemm.inputs[1]).DataAs<float>(), kBT);
  EXPECT_EQ(g.tensor(gemm.inputs[2]).shape, (ir::Shape{2}));
  EXPECT_EQ(g.tensor(gemm.inputs[2]).DataAs<float>(), (std::vector<float>{0.5f, -0.5f}));
  EXPECT_EQ(gemm.outputs, std::vector<ir::TensorId>{y});
}

TEST(MatMulAddToGemm, BiasOnTheLeftOfTheAddIsFused) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {4, 3});
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {4, 2});
  ir::TensorId bias = b.Floats("bias", {2}, {7.0f, 8.0f});
  b.Output(b.Op(OpType::kAdd, "add", {bias, t}, "y", {4, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(g.tensor(g.ops[0].inputs[2]).DataAs<float>(), (std::vector<float>{7.0f, 8.0f}));
}

TEST(MatMulAddToGemm, MatMulWithoutAddBecomesBiaslessGemm) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {1, 2});
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "y", {1, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Relu"}));
  ExpectCanonicalAttrs(g.ops[0]);
  ASSERT_EQ(g.ops[0].inputs.size(), 2u);
  EXPECT_EQ(g.tensor(g.ops[0].inputs[1]).DataAs<float>(), kBT);
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{t});
}

TEST(MatMulAddToGemm, SharedMatMulOutputKeepsItsAdd) {
  // t is read by the Add and by a Relu: the Add cannot be absorbed, the MatMul still
  // becomes a Gemm.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {1, 2});
  b.Output(b.Op(OpType::kAdd, "add", {t, b.Floats("bias", {2}, {1, 1})}, "y", {1, 2}));
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "r", {1, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Add", "Relu"}));
  EXPECT_EQ(g.ops[0].inputs.size(), 2u);
}

TEST(MatMulAddToGemm, FullMatrixAddIsNotABias) {
  // Add with a [2, 2] constant varies along M: not a per-channel bias, so it stays.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {2, 3});
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {2, 2});
  b.Output(b.Op(OpType::kAdd, "add", {t, b.Floats("m", {2, 2}, {1, 2, 3, 4})}, "y", {2, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Add"}));
}

TEST(MatMulAddToGemm, ActivationTimesActivationStaysMatMul) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {2, 3});
  ir::TensorId w = b.Input("w", {3, 2});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, w}, "t", {2, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"MatMul"});
}

TEST(MatMulAddToGemm, BatchedMatMulStaysMatMul) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {2, 1, 3});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {2, 1, 2}));
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"MatMul"});
}

TEST(MatMulAddToGemm, Int8WeightTransposesWithItsChannelAxisAndKeepsTheAdd) {
  // Per-channel int8 B [K=3, N=2] quantized along axis 1 (N). B^T [2, 3] is quantized
  // along axis 0 with the same two scales. The quantized MatMul output t is rounded before
  // the bias Add in the model, so the Add stays separate.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3}, DType::kInt8);
  b.graph().tensor(a).quant = ir::QuantParams{{0.1f}, {0}, -1};
  ir::TensorId w = b.Const("B", {3, 2}, DType::kInt8, std::vector<int8_t>{1, 2, 3, 4, 5, 6});
  b.graph().tensor(w).quant = ir::QuantParams{{0.5f, 0.25f}, {0, 0}, 1};
  ir::TensorId t = b.Op(OpType::kMatMul, "mm", {a, w}, "t", {1, 2}, {}, DType::kInt8);
  b.graph().tensor(t).quant = ir::QuantParams{{0.2f}, {0}, -1};
  ir::TensorId y =
      b.Op(OpType::kAdd, "add", {t, b.Floats("bias", {2}, {1, 1})}, "y", {1, 2}, {}, DType::kInt8);
  b.graph().tensor(y).quant = ir::QuantParams{{0.2f}, {0}, -1};
  b.Output(y);
  ir::Graph g = b.Take();

  passes::MatMulAddToGemm(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Add"}));
  const ir::Tensor& bt = g.tensor(g.ops[0].inputs[1]);
  EXPECT_EQ(bt.dtype, DType::kInt8);
  EXPECT_EQ(bt.shape, (ir::Shape{2, 3}));
  EXPECT_EQ(bt.DataAs<int8_t>(), (std::vector<int8_t>{1, 3, 5, 2, 4, 6}));
  ASSERT_TRUE(bt.quant.has_value());
  EXPECT_EQ(bt.quant->axis, 0);
  EXPECT_EQ(bt.quant->scales, (std::vector<float>{0.5f, 0.25f}));
}

TEST(MatMulAddToGemm, DisagreeingInnerDimensionIsInvalidModel) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4});
  b.Output(b.Op(OpType::kMatMul, "bad_mm", {a, b.Floats("B", {3, 2}, kB)}, "t", {1, 2}));
  ir::Graph g = b.Take();

  try {
    passes::MatMulAddToGemm(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'bad_mm'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
