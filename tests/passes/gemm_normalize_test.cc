// gemm-normalize: every Gemm becomes transA=0, transB=1, alpha=1, beta=1 with B [N, K]
// and C absent or [N]; alpha, beta and the transposition move into the constants.
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

void ExpectCanonicalAttrs(const ir::Op& op) {
  EXPECT_EQ(op.attrs.GetInt("transA", -1), 0);
  EXPECT_EQ(op.attrs.GetInt("transB", -1), 1);
  EXPECT_EQ(op.attrs.GetFloat("alpha", -1.0f), 1.0f);
  EXPECT_EQ(op.attrs.GetFloat("beta", -1.0f), 1.0f);
}

std::vector<float> Floats(const ir::Graph& g, ir::TensorId id) {
  return g.tensor(id).DataAs<float>();
}

Status CaughtStatus(ir::Graph& g, const std::string& node) {
  try {
    passes::GemmNormalize(g);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'" + node + "'"), std::string::npos) << e.what();
    return e.status();
  }
  ADD_FAILURE() << "expected an error";
  return Status::kOk;
}

TEST(GemmNormalize, TransBZeroTransposesWeight) {
  // kws_small_cnn.onnx style: no alpha/beta attributes, transB=0, B [K=3, N=2].
  // B = [[1, 2], [3, 4], [5, 6]] -> B' = [[1, 3, 5], [2, 4, 6]].
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {3, 2}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {2}, {0.5f, 0.25f});
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, c}, "y", {1, 2}, Attrs({{"transB", int64_t{0}}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  const ir::Op& op = g.ops[0];
  ExpectCanonicalAttrs(op);
  EXPECT_EQ(g.tensor(op.inputs[1]).shape, (ir::Shape{2, 3}));
  EXPECT_EQ(Floats(g, op.inputs[1]), (std::vector<float>{1, 3, 5, 2, 4, 6}));
  EXPECT_EQ(op.inputs[2], c);  // already a [N] vector with beta = 1: untouched
}

TEST(GemmNormalize, AlphaAndBetaFoldIntoConstants) {
  // alpha = 2: B' = 2 * B. beta = 0.5 and C [1, 2] = {4, 6}: C' = [2] {2, 3}.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {1, 2}, {4, 6});
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, c}, "y", {1, 2},
                Attrs({{"transB", int64_t{1}}, {"alpha", 2.0f}, {"beta", 0.5f}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  const ir::Op& op = g.ops[0];
  ExpectCanonicalAttrs(op);
  EXPECT_EQ(Floats(g, op.inputs[1]), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(g.tensor(op.inputs[2]).shape, (ir::Shape{2}));
  EXPECT_EQ(Floats(g, op.inputs[2]), (std::vector<float>{2, 3}));
  EXPECT_EQ(Floats(g, w), (std::vector<float>{1, 2, 3, 4, 5, 6}));  // not edited in place
}

TEST(GemmNormalize, ScalarBiasBroadcastsToEveryChannel) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {}, {5});
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, c}, "y", {1, 2}, Attrs({{"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  EXPECT_EQ(g.tensor(g.ops[0].inputs[2]).shape, (ir::Shape{2}));
  EXPECT_EQ(Floats(g, g.ops[0].inputs[2]), (std::vector<float>{5, 5}));
}

TEST(GemmNormalize, BetaZeroDropsBias) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {2}, {5, 5});
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, c}, "y", {1, 2},
                Attrs({{"transB", int64_t{1}}, {"beta", 0.0f}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  EXPECT_EQ(g.ops[0].inputs.size(), 2u);
  ExpectCanonicalAttrs(g.ops[0]);
}

TEST(GemmNormalize, CanonicalGemmKeepsItsTensors) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {2}, {5, 5});
  b.Output(b.Op(OpType::kGemm, "fc", {a, w, c}, "y", {1, 2}, Attrs({{"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{a, w, c}));
  ExpectCanonicalAttrs(g.ops[0]);  // defaults written explicitly
}

TEST(GemmNormalize, Int8WeightTransposeMovesChannelAxis) {
  // Per-channel int8 B [K=3, N=2] along axis 1 -> B' [2, 3] along axis 0, same scales.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3}, DType::kInt8);
  b.graph().tensor(a).quant = ir::QuantParams{{0.1f}, {0}, -1};
  ir::TensorId w = b.Const("B", {3, 2}, DType::kInt8, std::vector<int8_t>{1, 2, 3, 4, 5, 6});
  b.graph().tensor(w).quant = ir::QuantParams{{0.5f, 0.25f}, {0, 0}, 1};
  ir::TensorId y = b.Op(OpType::kGemm, "fc", {a, w}, "y", {1, 2}, {}, DType::kInt8);
  b.graph().tensor(y).quant = ir::QuantParams{{0.2f}, {0}, -1};
  b.Output(y);
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  const ir::Tensor& bt = g.tensor(g.ops[0].inputs[1]);
  EXPECT_EQ(bt.shape, (ir::Shape{2, 3}));
  EXPECT_EQ(bt.DataAs<int8_t>(), (std::vector<int8_t>{1, 3, 5, 2, 4, 6}));
  ASSERT_TRUE(bt.quant.has_value());
  EXPECT_EQ(bt.quant->axis, 0);
  EXPECT_EQ(bt.quant->scales, (std::vector<float>{0.5f, 0.25f}));
}

// alpha on an int8 weight scales the values its codes stand for: the codes stay, the scale
// doubles (test_gemm_alpha as quantize_static quantizes it). A negative alpha has no scale
// to carry it.
ir::Graph Int8GemmWithAlpha(float alpha) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3}, DType::kInt8);
  ir::TensorId w = b.Const("B", {2, 3}, DType::kInt8, std::vector<int8_t>{1, 2, 3, 4, 5, 6});
  b.graph().tensor(w).quant = ir::QuantParams{{0.5f}, {0}, -1};
  b.Output(b.Op(OpType::kGemm, "qfc", {a, w}, "y", {1, 2},
                Attrs({{"transB", int64_t{1}}, {"alpha", alpha}}), DType::kInt8));
  return b.Take();
}

TEST(GemmNormalize, Int8WeightTakesAlphaIntoItsScale) {
  ir::Graph g = Int8GemmWithAlpha(2.0f);
  passes::GemmNormalize(g);
  const ir::Tensor& w = g.tensor(g.ops[0].input(1));
  ASSERT_TRUE(w.quant.has_value());
  EXPECT_EQ(w.quant->scales, std::vector<float>{1.0f});
  EXPECT_EQ(w.data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(g.ops[0].attrs.GetFloat("alpha", 0.0f), 1.0f);
}

TEST(GemmNormalize, Int8WeightWithNegativeAlphaIsUnsupportedQuantization) {
  ir::Graph g = Int8GemmWithAlpha(-2.0f);
  EXPECT_EQ(CaughtStatus(g, "qfc"), Status::kUnsupportedQuantization);
}

TEST(GemmNormalize, TransAIsUnsupportedOp) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {3, 1});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Output(b.Op(OpType::kGemm, "ta", {a, w}, "y", {1, 2},
                Attrs({{"transA", int64_t{1}}, {"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  EXPECT_EQ(CaughtStatus(g, "ta"), Status::kUnsupportedOp);
}

TEST(GemmNormalize, RuntimeWeightNeedingTransposeIsUnsupportedOp) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Input("w", {3, 2});
  b.Output(b.Op(OpType::kGemm, "dyn", {a, w}, "y", {1, 2}));
  ir::Graph g = b.Take();

  EXPECT_EQ(CaughtStatus(g, "dyn"), Status::kUnsupportedOp);
}

TEST(GemmNormalize, RuntimeWeightAlreadyTransposedIsKept) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId w = b.Input("w", {2, 3});
  b.Output(b.Op(OpType::kGemm, "dyn", {a, w}, "y", {1, 2}, Attrs({{"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  passes::GemmNormalize(g);

  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{a, w}));
  ExpectCanonicalAttrs(g.ops[0]);
}

TEST(GemmNormalize, BiasVaryingAlongMIsUnsupportedOp) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {2, 3});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId c = b.Floats("C", {2, 2}, {1, 2, 3, 4});
  b.Output(b.Op(OpType::kGemm, "mbias", {a, w, c}, "y", {2, 2}, Attrs({{"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  EXPECT_EQ(CaughtStatus(g, "mbias"), Status::kUnsupportedOp);
}

TEST(GemmNormalize, MismatchedInnerDimensionIsInvalidModel) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4});
  ir::TensorId w = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Output(b.Op(OpType::kGemm, "badk", {a, w}, "y", {1, 2}, Attrs({{"transB", int64_t{1}}})));
  ir::Graph g = b.Take();

  EXPECT_EQ(CaughtStatus(g, "badk"), Status::kInvalidModel);
}

}  // namespace
}  // namespace tigris
