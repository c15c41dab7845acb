// Reference pass 4 (tigris-compilation-pipeline.txt, stage 2): Silu -> Sigmoid + Mul,
// since silu(x) = x * sigmoid(x).
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

TEST(SiluDecompose, SiluBecomesSigmoidThenMul) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3, 3});
  ir::TensorId y = b.Op(OpType::kSilu, "silu", {x}, "y", {1, 2, 3, 3});
  b.Output(b.Op(OpType::kRelu, "relu", {y}, "z", {1, 2, 3, 3}));
  ir::Graph g = b.Take();

  passes::SiluDecompose(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Sigmoid", "Mul", "Relu"}));
  const ir::Op& sigmoid = g.ops[0];
  const ir::Op& mul = g.ops[1];
  EXPECT_EQ(sigmoid.inputs, std::vector<ir::TensorId>{x});
  const ir::TensorId s = sigmoid.outputs.at(0);
  EXPECT_EQ(g.tensor(s).shape, (ir::Shape{1, 2, 3, 3}));
  EXPECT_EQ(g.tensor(s).dtype, DType::kFloat32);
  EXPECT_FALSE(g.tensor(s).quant.has_value());
  EXPECT_EQ(mul.inputs, (std::vector<ir::TensorId>{x, s}));
  EXPECT_EQ(mul.outputs, std::vector<ir::TensorId>{y});  // readers of y are untouched
  EXPECT_EQ(g.ops[2].inputs, std::vector<ir::TensorId>{y});
  EXPECT_NE(sigmoid.name, mul.name);
}

TEST(SiluDecompose, Int8SigmoidOutputGetsTfliteLogisticQuantization) {
  // int8 LOGISTIC output in TFLite: scale 1/256, zero point -128 (covers [0, 1)).
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4}, DType::kInt8);
  b.graph().tensor(x).quant = ir::QuantParams{{0.05f}, {3}, -1};
  ir::TensorId y = b.Op(OpType::kSilu, "silu", {x}, "y", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(y).quant = ir::QuantParams{{0.04f}, {-10}, -1};
  b.Output(y);
  ir::Graph g = b.Take();

  passes::SiluDecompose(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Sigmoid", "Mul"}));
  const ir::Tensor& s = g.tensor(g.ops[0].outputs.at(0));
  EXPECT_EQ(s.dtype, DType::kInt8);
  ASSERT_TRUE(s.quant.has_value());
  EXPECT_EQ(s.quant->scales, std::vector<float>{1.0f / 256.0f});
  EXPECT_EQ(s.quant->zero_points, std::vector<int32_t>{-128});
  // The Mul writes the Silu's output with its own quantization.
  EXPECT_EQ(g.tensor(g.ops[1].outputs.at(0)).quant->scales, std::vector<float>{0.04f});
}

TEST(SiluDecompose, MalformedSiluIsInvalidModel) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  b.Output(b.Op(OpType::kSilu, "silu", {x, x}, "y", {1, 4}));
  ir::Graph g = b.Take();

  try {
    passes::SiluDecompose(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'silu'"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris
