// Reference pass 3 (tigris-compilation-pipeline.txt, stage 2), extended to Gemm:
// BatchNormalization after Conv/Gemm folds into the weights and bias.
// w' = w * s, b' = (b - mean) * s + beta with s = gamma / sqrt(var + eps).
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

// BN parameters chosen so every step is exact in float32: eps = 0.25 and var = {3.75, 0.75}
// give sqrt(var + eps) = {2, 1}; gamma = {4, 0.5} then gives s = {2, 0.5}.
struct BnInputs {
  ir::TensorId gamma, beta, mean, var;
};
BnInputs AddBnParams(GraphBuilder& b) {
  return {b.Floats("gamma", {2}, {4.0f, 0.5f}), b.Floats("beta", {2}, {0.5f, 1.0f}),
          b.Floats("mean", {2}, {1.0f, 2.0f}), b.Floats("var", {2}, {3.75f, 0.75f})};
}
ir::TensorId AddBn(GraphBuilder& b, ir::TensorId t, const ir::Shape& shape,
                   const std::string& out = "y") {
  BnInputs p = AddBnParams(b);
  return b.Op(OpType::kBatchNormalization, "bn", {t, p.gamma, p.beta, p.mean, p.var}, out, shape,
              Attrs({{"epsilon", 0.25f}}));
}

std::vector<float> Floats(const ir::Graph& g, ir::TensorId id) {
  return g.tensor(id).DataAs<float>();
}

TEST(BatchNormFold, FoldsIntoConvWeightsAndBias) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId bias = b.Floats("b", {2}, {1.0f, -1.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w, bias}, "t", {1, 2, 2, 2});
  ir::TensorId y = AddBn(b, t, {1, 2, 2, 2});
  b.Output(y);
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  const ir::Op& conv = g.ops[0];
  // The conv now writes the BN's output tensor, which stays the graph output.
  EXPECT_EQ(conv.outputs, std::vector<ir::TensorId>{y});
  EXPECT_EQ(g.outputs, std::vector<ir::TensorId>{y});
  // w' = w * s = {2 * 2, 3 * 0.5}.
  EXPECT_EQ(Floats(g, conv.inputs[1]), (std::vector<float>{4.0f, 1.5f}));
  EXPECT_EQ(g.tensor(conv.inputs[1]).shape, (ir::Shape{2, 1, 1, 1}));
  // b' = (b - mean) * s + beta = {(1 - 1) * 2 + 0.5, (-1 - 2) * 0.5 + 1}.
  EXPECT_EQ(Floats(g, conv.inputs[2]), (std::vector<float>{0.5f, -0.5f}));
  // The original weight is not edited in place (it could be shared).
  EXPECT_EQ(Floats(g, w), (std::vector<float>{2.0f, 3.0f}));
}

TEST(BatchNormFold, CreatesBiasForConvWithoutOne) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  ASSERT_EQ(g.ops[0].inputs.size(), 3u);
  // b' = (0 - mean) * s + beta = {-1 * 2 + 0.5, -2 * 0.5 + 1}.
  EXPECT_EQ(Floats(g, g.ops[0].inputs[2]), (std::vector<float>{-1.5f, 0.0f}));
  EXPECT_EQ(g.tensor(g.ops[0].inputs[2]).shape, (ir::Shape{2}));
}

TEST(BatchNormFold, FoldsIntoCanonicalGemmRows) {
  // Canonical Gemm: B [N=2, K=3], one row per output channel, so row n scales by s[n].
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {2}, {3.0f, 2.0f});
  ir::TensorId t = b.Op(
      OpType::kGemm, "fc", {a, w, c}, "t", {1, 2},
      Attrs({{"transA", int64_t{0}}, {"transB", int64_t{1}}, {"alpha", 1.0f}, {"beta", 1.0f}}));
  b.Output(AddBn(b, t, {1, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Gemm"});
  // Row 0 * 2, row 1 * 0.5.
  EXPECT_EQ(Floats(g, g.ops[0].inputs[1]), (std::vector<float>{2, 4, 6, 2, 2.5f, 3}));
  // C' = {(3 - 1) * 2 + 0.5, (2 - 2) * 0.5 + 1}.
  EXPECT_EQ(Floats(g, g.ops[0].inputs[2]), (std::vector<float>{4.5f, 1.0f}));
}

TEST(BatchNormFold, ChainedBatchNormsBothFold) {
  // Conv -> BN -> BN: the second BN sees the Conv (now writing y1) as its producer.
  // Weights: 2 * 2 * 2 = 8 and 3 * 0.5 * 0.5 = 0.75.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 2, 2, 2});
  ir::TensorId y1 = AddBn(b, t, {1, 2, 2, 2}, "y1");
  BnInputs p = AddBnParams(b);
  b.Output(b.Op(OpType::kBatchNormalization, "bn2", {y1, p.gamma, p.beta, p.mean, p.var}, "y2",
                {1, 2, 2, 2}, Attrs({{"epsilon", 0.25f}})));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  EXPECT_EQ(Floats(g, g.ops[0].inputs[1]), (std::vector<float>{8.0f, 0.75f}));
}

TEST(BatchNormFold, ConvOutputWithTwoReadersIsNotFolded) {
  // t feeds the BN and a Relu: the unnormalized t is still needed, so nothing changes.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "r", {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "BatchNormalization", "Relu"}));
  EXPECT_EQ(g.ops[0].inputs[1], w);
}

TEST(BatchNormFold, ConvOutputThatIsGraphOutputIsNotFolded) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  b.Output(t);
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "BatchNormalization"}));
}

TEST(BatchNormFold, Int8WeightLeavesStandaloneBatchNorm) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Const("w", {2, 1, 1, 1}, DType::kInt8, std::vector<int8_t>{20, 30});
  b.graph().tensor(w).quant = ir::QuantParams{{0.1f, 0.1f}, {0, 0}, 0};
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "BatchNormalization"}));
  EXPECT_EQ(g.ops[0].inputs[1], w);
}

TEST(BatchNormFold, BatchNormAfterOtherOpStays) {
  // conv2d_small_maxpool.onnx has BN after Selu: a standalone runtime BN.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 2, 2});
  ir::TensorId t = b.Op(OpType::kSelu, "selu", {x}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Selu", "BatchNormalization"}));
}

TEST(BatchNormFold, SharedWeightKeepsOtherConvUnchanged) {
  // Two convs read the same weight; only conv1 has a BN. conv2 must still see {2, 3}.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {2.0f, 3.0f});
  ir::TensorId t = b.Op(OpType::kConv, "conv1", {x, w}, "t", {1, 2, 2, 2});
  b.Output(AddBn(b, t, {1, 2, 2, 2}));
  b.Output(b.Op(OpType::kConv, "conv2", {x, w}, "u", {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  passes::BatchNormFold(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Conv"}));
  EXPECT_EQ(Floats(g, g.ops[0].inputs[1]), (std::vector<float>{4.0f, 1.5f}));
  EXPECT_EQ(g.ops[1].inputs[1], w);
  EXPECT_EQ(Floats(g, w), (std::vector<float>{2.0f, 3.0f}));
}

TEST(BatchNormFold, ParameterCountMismatchIsInvalidModel) {
  // Conv has 3 output channels, the BN parameters 2: the model is broken.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId w = b.Floats("w", {3, 1, 1, 1}, {1, 2, 3});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, w}, "t", {1, 3, 2, 2});
  b.Output(AddBn(b, t, {1, 3, 2, 2}));
  ir::Graph g = b.Take();

  try {
    passes::BatchNormFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'bn'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
