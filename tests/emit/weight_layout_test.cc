// Layout permutations and constant transposition (emit/layout.h, emit/weight_layout.h).
#include "emit/weight_layout.h"

#include <gtest/gtest.h>

#include "emit/emit_test_util.h"

namespace tigris::emit {
namespace {

std::vector<uint8_t> Iota(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i);
  return v;
}

TEST(LayoutTest, TransposeBytesByHand) {
  // [2,3] row-major 0..5 transposed: [[0,3],[1,4],[2,5]].
  EXPECT_EQ(TransposeBytes(Iota(6), {2, 3}, {1, 0}, 1), (std::vector<uint8_t>{0, 3, 1, 4, 2, 5}));
  // NCHW [1,2,1,2] = c0:(0,1) c1:(2,3) -> NHWC [1,1,2,2]: (0,2),(1,3).
  EXPECT_EQ(TransposeBytes(Iota(4), {1, 2, 1, 2}, {0, 2, 3, 1}, 1),
            (std::vector<uint8_t>{0, 2, 1, 3}));
}

TEST(LayoutTest, TransposeBytesMatchesTheReferenceOnOddShapes) {
  const ir::Shape shape{2, 3, 4, 5};
  const std::vector<uint8_t> data = Iota(2 * 3 * 4 * 5 * 2);
  for (const Perm& p : {Perm{0, 2, 3, 1}, Perm{1, 2, 3, 0}, Perm{3, 1, 0, 2}}) {
    EXPECT_EQ(TransposeBytes(data, shape, p, 2), testing::ReferenceTranspose(data, shape, p, 2));
  }
}

TEST(LayoutTest, PermutationAlgebra) {
  EXPECT_EQ(InversePerm({0, 2, 3, 1}), (Perm{0, 3, 1, 2}));
  EXPECT_TRUE(IsIdentity(Compose(RuntimeLayout(4), InversePerm(RuntimeLayout(4)))));
  EXPECT_EQ(RuntimeShape({1, 8, 5, 7}), (ir::Shape{1, 5, 7, 8}));
  EXPECT_EQ(RuntimeShape({1, 8, 5}), (ir::Shape{1, 5, 8}));
  EXPECT_EQ(RuntimeShape({3, 8}), (ir::Shape{3, 8}));
  EXPECT_EQ(RuntimeAxis(1, 4), 3);  // C of NCHW is the last NHWC axis
  EXPECT_EQ(RuntimeAxis(2, 4), 1);
  EXPECT_TRUE(PermKeepsBytes({1, 8, 1, 1}, RuntimeLayout(4)));
  EXPECT_TRUE(PermKeepsBytes({1, 1, 49, 10}, RuntimeLayout(4)));
  EXPECT_FALSE(PermKeepsBytes({1, 2, 3, 3}, RuntimeLayout(4)));
}

TEST(WeightLayoutTest, DepthwiseFilterBecomesKhKwC) {
  // [C=2, 1, KH=1, KW=2]: c0 = (0,1), c1 = (2,3) -> [1, 2, 2]: kw0 (0,2), kw1 (1,3).
  ir::Tensor t;
  t.name = "dw";
  t.dtype = ir::DType::kInt8;
  t.shape = {2, 1, 1, 2};
  t.is_constant = true;
  t.data = Iota(4);
  t.quant = ir::QuantParams{{0.5f, 0.25f}, {0, 0}, 0};
  const LaidOutConstant out = LayOutConstant(t, WeightRole::kDepthwiseFilter, 0);
  EXPECT_EQ(out.shape, (ir::Shape{1, 2, 2}));
  EXPECT_EQ(out.data, (std::vector<uint8_t>{0, 2, 1, 3}));
  EXPECT_EQ(out.quant->axis, 2);
}

TEST(WeightLayoutTest, BroadcastOperandIsPaddedToTheOutputRank) {
  // A [C] constant broadcasts along W in ONNX: as [1,1,1,C] NCHW it is [1,1,C,1] NHWC.
  ir::Tensor t;
  t.name = "k";
  t.dtype = ir::DType::kFloat32;
  t.shape = {3};
  t.is_constant = true;
  t.data = Iota(12);
  const LaidOutConstant out = LayOutConstant(t, WeightRole::kBroadcastOperand, 4);
  EXPECT_EQ(out.shape, (ir::Shape{1, 1, 3, 1}));
  EXPECT_EQ(out.data, t.data);
}

TEST(WeightLayoutTest, BadShapesNameTheConstant) {
  ir::Tensor t;
  t.name = "w_bad";
  t.dtype = ir::DType::kInt8;
  t.shape = {2, 2, 1, 1};
  t.is_constant = true;
  t.data = Iota(4);
  try {
    LayOutConstant(t, WeightRole::kDepthwiseFilter, 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("w_bad"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::emit
