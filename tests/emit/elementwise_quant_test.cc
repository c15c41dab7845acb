// int8 Add/Sub/Max/Min/Mul parameters and fused-activation clamps (emit/elementwise_quant.h).
#include "emit/elementwise_quant.h"

#include <gtest/gtest.h>

#include "util/error.h"

namespace tigris::emit {
namespace {

TEST(ElementwiseQuantTest, AddFollowsTfliteWithLeftShift20) {
  // s1 = 0.5, s2 = 0.25, s_out = 1: twice_max = 1.
  //  input1: 0.5 = 0.5 * 2^0 -> {2^30, 0};  input2: 0.25 = 0.5 * 2^-1 -> {2^30, -1}
  //  output: 1 / (2^20 * 1) = 0.5 * 2^-19 -> {2^30, -19}
  const AddSubQuant q = ComputeAddSubQuant(0.5, 0.25, 1.0, "op 'add'");
  EXPECT_EQ(q.left_shift, 20);
  EXPECT_EQ(q.input1, (QuantizedMultiplier{1 << 30, 0}));
  EXPECT_EQ(q.input2, (QuantizedMultiplier{1 << 30, -1}));
  EXPECT_EQ(q.output, (QuantizedMultiplier{1 << 30, -19}));
}

TEST(ElementwiseQuantTest, MaxMinRescaleEachInputToTheOutputGrid) {
  // s1 = 0.5, s2 = 0.25, s_out = 1: bound 255 * 2 * 0.5 = 255 < 2^8, so left_shift 22
  // (255 * 2^22 < 2^31). input1 0.5 -> {2^30, 0}; input2 0.25 -> {2^30, -1}; output
  // 2^-22 = 0.5 * 2^-21 -> {2^30, -21}.
  const AddSubQuant q = ComputeExtremeQuant(0.5, 0.25, 1.0, "op 'max'");
  EXPECT_EQ(q.left_shift, 22);
  EXPECT_EQ(q.input1, (QuantizedMultiplier{1 << 30, 0}));
  EXPECT_EQ(q.input2, (QuantizedMultiplier{1 << 30, -1}));
  EXPECT_EQ(q.output, (QuantizedMultiplier{1 << 30, -21}));
  // An input scale 64 times the output's: 255 * 2 * 64 < 2^15, so left_shift 16.
  EXPECT_EQ(ComputeExtremeQuant(64.0, 1.0, 1.0, "op 'max'").left_shift, 16);
  // Beyond 2^22 times: the shifted values could not stay in int32.
  EXPECT_THROW(ComputeExtremeQuant(1e7, 1.0, 1.0, "op 'max'"), Error);
}

TEST(ElementwiseQuantTest, MulIsTheProductOverTheOutputScale) {
  // 0.5 * 0.5 / 0.125 = 2 = 0.5 * 2^2 -> {2^30, 2}
  EXPECT_EQ(ComputeMulQuant(0.5, 0.5, 0.125, "op 'mul'"), (QuantizedMultiplier{1 << 30, 2}));
  EXPECT_THROW(ComputeMulQuant(0.5, 0.0, 0.125, "op 'mul'"), Error);
  EXPECT_THROW(ComputeAddSubQuant(-1.0, 0.5, 1.0, "op 'add'"), Error);
}

TEST(ElementwiseQuantTest, ActivationRangeInTheOutputDomain) {
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kNone, 0.05f, -10).min, -128);
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kNone, 0.05f, -10).max, 127);
  // relu: real 0 is the zero point.
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kRelu, 0.05f, -10).min, -10);
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kRelu, 0.05f, -10).max, 127);
  // relu6: 6 / 0.05 = 120 -> -10 + 120 = 110.
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kRelu6, 0.05f, -10).max, 110);
  // relu6 past the int8 range clamps to 127; zp below -128 clamps to -128.
  EXPECT_EQ(Int8ActivationRange(ir::Activation::kRelu6, 0.01f, 0).max, 127);
}

}  // namespace
}  // namespace tigris::emit
