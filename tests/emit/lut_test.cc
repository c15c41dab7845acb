// Lookup tables of int8 ops (emit/lut.h), entries computed by hand.
#include "emit/lut.h"

#include <gtest/gtest.h>

#include <cmath>

#include "util/error.h"

namespace tigris::emit {
namespace {

ir::Op MakeOp(ir::OpType type) {
  ir::Op op;
  op.type = type;
  op.name = "act";
  return op;
}

TEST(LutTest, SigmoidHandComputedEntries) {
  // s_in = 1/16, zp_in = 0, s_out = 1/256, zp_out = -128.
  const Lut lut =
      BuildLut(LutFunction(MakeOp(ir::OpType::kSigmoid)), {1.0 / 16, 0}, {1.0 / 256, -128});
  EXPECT_EQ(lut[128], 0);    // q = 0: x = 0, round(0.5 * 256) - 128 = 0
  EXPECT_EQ(lut[144], 59);   // q = 16: x = 1, sigmoid 0.7310586 * 256 = 187.15 -> 187 - 128
  EXPECT_EQ(lut[112], -59);  // q = -16: x = -1, 0.2689414 * 256 = 68.85 -> 69 - 128
  EXPECT_EQ(lut[255], 127);  // q = 127: x = 7.94, 0.99964 * 256 = 255.9 -> 256 - 128 saturates
  EXPECT_EQ(lut[0], -128);   // q = -128: x = -8, 0.000335 * 256 = 0.086 -> 0 - 128
}

TEST(LutTest, RoundsHalfToEvenAndSaturates) {
  // LeakyRelu alpha 0.5 with s_in = 1, s_out = 1: q = -1 -> -0.5 -> -0 (even); q = -3 ->
  // -1.5 -> -2; q = -5 -> -2.5 -> -2 (even); positive q unchanged.
  ir::Op op = MakeOp(ir::OpType::kLeakyRelu);
  op.attrs.Set("alpha", 0.5f);
  const Lut lut = BuildLut(LutFunction(op), {1.0, 0}, {1.0, 0});
  EXPECT_EQ(lut[128 - 1], 0);
  EXPECT_EQ(lut[128 - 3], -2);
  EXPECT_EQ(lut[128 - 5], -2);
  EXPECT_EQ(lut[128 + 100], 100);
  // Output zero point 100 pushes large inputs past 127: saturated.
  const Lut shifted = BuildLut(LutFunction(op), {1.0, 0}, {1.0, 100});
  EXPECT_EQ(shifted[128 + 50], 127);
  EXPECT_EQ(shifted[128 + 20], 120);
}

TEST(LutTest, OtherFunctionsAtHandPickedPoints) {
  // Identity quantization s = 0.5, zp = 0: q -> x = q / 2, output q' = round(2 f(x)).
  const AffineQuant q{0.5, 0};
  const Lut hswish = BuildLut(LutFunction(MakeOp(ir::OpType::kHardSwish)), q, q);
  EXPECT_EQ(hswish[128 + 6], 6);  // x = 3: 3 * min(1, 1) = 3 -> 6
  EXPECT_EQ(hswish[128 + 2], 1);  // x = 1: 1 * (1/6 + 0.5) = 0.6667 -> 1.333 -> 1
  EXPECT_EQ(hswish[128 - 6], 0);  // x = -3: 0
  const Lut hsig = BuildLut(LutFunction(MakeOp(ir::OpType::kHardSigmoid)), q, {1.0 / 100, 0});
  EXPECT_EQ(hsig[128], 50);        // 0.2 * 0 + 0.5 = 0.5 -> 50
  EXPECT_EQ(hsig[128 + 10], 100);  // x = 5: min(1, 1.5) -> 100
  const Lut tanh = BuildLut(LutFunction(MakeOp(ir::OpType::kTanh)), q, {1.0 / 127, 0});
  EXPECT_EQ(tanh[128 + 2], 97);  // tanh(1) = 0.761594 * 127 = 96.72 -> 97
  EXPECT_EQ(tanh[128 - 2], -97);
  const Lut selu = BuildLut(LutFunction(MakeOp(ir::OpType::kSelu)), q, {1.0 / 16, 0});
  EXPECT_EQ(selu[128 + 2], 17);   // 1.0507 * 1 * 16 = 16.81 -> 17
  EXPECT_EQ(selu[128 - 2], -18);  // 1.0507 * 1.67326 * (e^-1 - 1) * 16 = -17.77 -> -18
}

TEST(LutTest, OpsWithoutATableFormAreRejected) {
  EXPECT_TRUE(IsLutOp(ir::OpType::kSigmoid));
  EXPECT_FALSE(IsLutOp(ir::OpType::kConv));
  try {
    LutFunction(MakeOp(ir::OpType::kConv));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp);
    EXPECT_NE(std::string(e.what()).find("'act'"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::emit
