// tgrs_quantize_multiplier and tgrs_activation_range_s8 (runtime/kernels/quant_helpers.c)
// against double precision and the TFLite definitions.
#include <gtest/gtest.h>

#include <cmath>

#include "tgrs_kernels.h"

namespace {

// Sweep 1e-9 .. 1e3 (and negatives): m * 2^(shift - 31) reproduces real to within 2^-30
// relative, because m has 31 significant bits rounded to nearest.
TEST(QuantizeMultiplier, ReproducesRealToWithinTwoToTheMinus30) {
  int checked = 0;
  for (double e = -9.0; e <= 3.0; e += 0.0137) {
    for (double sign : {1.0, -1.0}) {
      const double real = sign * std::pow(10.0, e);
      int32_t m = 0;
      int shift = 0;
      ASSERT_EQ(tgrs_quantize_multiplier(real, &m, &shift), 0) << real;
      const double back = static_cast<double>(m) * std::ldexp(1.0, shift - 31);
      EXPECT_LT(std::fabs(back - real) / std::fabs(real), std::ldexp(1.0, -30)) << real;
      // Normalized: |m| in [2^30, 2^31).
      EXPECT_GE(std::llabs(int64_t{m}), int64_t{1} << 30) << real;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1700);
}

TEST(QuantizeMultiplier, ExactPowersOfTwo) {
  int32_t m = 0;
  int shift = 0;
  // 0.5 = 2^30 * 2^(0 - 31): frexp(0.5) = (0.5, 0).
  ASSERT_EQ(tgrs_quantize_multiplier(0.5, &m, &shift), 0);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 0);
  // 1.0 = 0.5 * 2^1.
  ASSERT_EQ(tgrs_quantize_multiplier(1.0, &m, &shift), 0);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 1);
}

TEST(QuantizeMultiplier, RoundingUpToTwoToThe31CarriesIntoTheShift) {
  // real = 1 - 2^-34: frexp gives q = real (exponent 0); q * 2^31 = 2^31 - 2^-3 rounds to
  // 2^31, which TFLite halves and carries: m = 2^30, shift = 1.
  int32_t m = 0;
  int shift = 0;
  ASSERT_EQ(tgrs_quantize_multiplier(1.0 - std::ldexp(1.0, -34), &m, &shift), 0);
  EXPECT_EQ(m, 1 << 30);
  EXPECT_EQ(shift, 1);
}

TEST(QuantizeMultiplier, TinyRealsBecomeZeroAndZeroIsZero) {
  int32_t m = 7;
  int shift = 7;
  // 2^-40: shift would be -39 < -31, TFLite returns multiplier 0, shift 0.
  ASSERT_EQ(tgrs_quantize_multiplier(std::ldexp(1.0, -40), &m, &shift), 0);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(shift, 0);
  ASSERT_EQ(tgrs_quantize_multiplier(0.0, &m, &shift), 0);
  EXPECT_EQ(m, 0);
  EXPECT_EQ(shift, 0);
}

TEST(QuantizeMultiplier, RejectsNonFiniteAndHuge) {
  int32_t m = 0;
  int shift = 0;
  EXPECT_NE(tgrs_quantize_multiplier(INFINITY, &m, &shift), 0);
  EXPECT_NE(tgrs_quantize_multiplier(NAN, &m, &shift), 0);
  EXPECT_NE(tgrs_quantize_multiplier(std::ldexp(1.0, 31), &m, &shift), 0);
}

TEST(ActivationRange, ReluAndRelu6Bounds) {
  int32_t lo = 0, hi = 0;
  tgrs_activation_range_s8(TGRS_ACT_NONE, 0.1f, 5, &lo, &hi);
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  tgrs_activation_range_s8(TGRS_ACT_RELU, 0.1f, -20, &lo, &hi);
  EXPECT_EQ(lo, -20);
  EXPECT_EQ(hi, 127);
  // relu6 at scale 0.05, zp -100: 6 / 0.05 = 120 -> hi = 20.
  tgrs_activation_range_s8(TGRS_ACT_RELU6, 0.05f, -100, &lo, &hi);
  EXPECT_EQ(lo, -100);
  EXPECT_EQ(hi, 20);
  // relu6 whose 6.0 is beyond int8: clamped to 127.
  tgrs_activation_range_s8(TGRS_ACT_RELU6, 0.01f, 0, &lo, &hi);
  EXPECT_EQ(hi, 127);
}

TEST(AddParams, MatchTfliteDerivation) {
  // s1 = 0.1, s2 = 0.05, out 0.2: twice_max = 0.2; input multipliers 0.5 and 0.25; output
  // multiplier 0.2 / (2^20 * 0.2) = 2^-20.
  tgrs_add_s8_params p;
  ASSERT_EQ(tgrs_add_s8_params_init(0.1, 1, 0.05, 2, 0.2, 3, &p), 0);
  EXPECT_EQ(p.left_shift, 20);
  EXPECT_EQ(p.input1.multiplier, 1 << 30);
  EXPECT_EQ(p.input1.shift, 0);
  EXPECT_EQ(p.input2.multiplier, 1 << 30);
  EXPECT_EQ(p.input2.shift, -1);
  EXPECT_EQ(p.output.multiplier, 1 << 30);
  EXPECT_EQ(p.output.shift, -19);
  EXPECT_NE(tgrs_add_s8_params_init(0.0, 0, 0.1, 0, 0.1, 0, &p), 0);
}

}  // namespace
