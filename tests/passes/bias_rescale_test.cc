// bias-rescale: an int8 layer's int32 bias moves to the accumulator's grid, s_in * s_w[c]
// (passes/bias_rescale.cc).
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

// An int8 Gemm: x at scale 0.5, weights per channel at 0.25 and 0.125 (accumulator grid
// 0.125 and 0.0625), and a bias of codes `codes` at scale `bias_scale` per tensor.
ir::Graph Int8Gemm(std::vector<int32_t> codes, float bias_scale) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 3}, DType::kInt8);
  const ir::TensorId w = b.Const("w", {2, 3}, DType::kInt8, std::vector<int8_t>{1, 2, 3, 4, 5, 6});
  const ir::TensorId c = b.Const("c", {2}, DType::kInt32, codes);
  const ir::TensorId y = b.Op(OpType::kGemm, "fc", {x, w, c}, "y", {1, 2},
                              Attrs({{"transB", int64_t{1}}}), DType::kInt8);
  b.Output(y);
  ir::Graph g = b.Take();
  g.tensor(x).quant = ir::QuantParams{{0.5f}, {0}, -1};
  g.tensor(w).quant = ir::QuantParams{{0.25f, 0.125f}, {0, 0}, 0};
  g.tensor(c).quant = ir::QuantParams{{bias_scale}, {0}, -1};
  g.tensor(y).quant = ir::QuantParams{{1.0f}, {0}, -1};
  return g;
}

// quantize_static folds Gemm's beta = 0.5 into the bias scale: the values 0.03125 * codes
// become codes on grids 0.125 and 0.0625, rounded half to even (10 * 0.25 = 2.5 -> 2,
// 7 * 0.5 = 3.5 -> 4).
TEST(BiasRescale, ABiasOffTheGridMovesOntoIt) {
  ir::Graph g = Int8Gemm({10, 7}, 0.03125f);
  passes::BiasRescale(g);
  const ir::Tensor& c = g.tensor(g.ops[0].input(2));
  EXPECT_EQ(ir::ConstantAsInt64s(c), (std::vector<int64_t>{2, 4}));
  ASSERT_TRUE(c.quant.has_value());
  EXPECT_EQ(c.quant->scales, (std::vector<float>{0.125f, 0.0625f}));
  EXPECT_EQ(c.quant->axis, 0);
}

TEST(BiasRescale, ABiasOnTheGridIsLeftAlone) {
  ir::Graph g = Int8Gemm({10, 7}, 0.125f);
  g.tensor(g.ops[0].input(1)).quant = ir::QuantParams{{0.25f}, {0}, -1};
  const ir::TensorId before = g.ops[0].input(2);
  passes::BiasRescale(g);
  EXPECT_EQ(g.ops[0].input(2), before);
}

TEST(BiasRescale, ACodeThatLeavesInt32IsRefusedNamingTheBias) {
  ir::Graph g = Int8Gemm({2000000000, 1}, 1.0f);
  try {
    passes::BiasRescale(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("'c' channel 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
