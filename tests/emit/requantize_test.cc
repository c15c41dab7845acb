// QuantizeMultiplier (emit/requantize.h) against double precision and against the
// runtime's C implementation tgrs_quantize_multiplier (runtime/kernels/quant_helpers.c).
#include "emit/requantize.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/test_env.h"
#include "tgrs_kernels.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

// Scales from 2^-31 (just above TFLite's flush threshold 2^-32) to just below 2^30, dense
// in the mantissa: every power of two times 64 mantissas, plus the values whose mantissa
// rounds up to 2^31 (the carry edge) and typical int8 effective scales.
std::vector<double> Sweep() {
  std::vector<double> out;
  for (int e = -31; e < 30; ++e) {
    for (int k = 0; k < 64; ++k) out.push_back(std::ldexp(1.0 + k / 64.0 + 1e-7 * k, e));
    // Rounds up to 2^(e + 1) (the carry); at e = 29 that is 2^30, out of range.
    if (e < 29) out.push_back(std::ldexp(1.0 - std::ldexp(1.0, -33), e + 1));
  }
  for (double s : {0.0003782528219744563, 8.879089000402018e-05, 0.9999999, 1.0, 1.5, 3.0, 123.456,
                   1e-9, 3e-8}) {
    out.push_back(s);
  }
  return out;
}

TEST(QuantizeMultiplierTest, MatchesDoubleWithinTwoToMinus30OverTheSweep) {
  for (double s : Sweep()) {
    const auto q = QuantizeMultiplier(s);
    ASSERT_TRUE(q) << s;
    // Q0.31 mantissa in [2^30, 2^31): the rounding error is at most 2^-31 relative.
    EXPECT_GE(q->multiplier, int32_t{1} << 30) << s;
    const double m = std::ldexp(static_cast<double>(q->multiplier), q->shift - 31);
    EXPECT_LT(std::fabs(m - s) / s, std::ldexp(1.0, -30)) << s;
  }
}

TEST(QuantizeMultiplierTest, HandComputedValues) {
  // 1.0 = 0.5 * 2^1: multiplier 2^30, shift 1 (the runtime's documented identity).
  EXPECT_EQ(*QuantizeMultiplier(1.0), (QuantizedMultiplier{1 << 30, 1}));
  // 0.75 = 0.75 * 2^0: 0.75 * 2^31 = 1610612736.
  EXPECT_EQ(*QuantizeMultiplier(0.75), (QuantizedMultiplier{1610612736, 0}));
  // 2^-10 = 0.5 * 2^-9.
  EXPECT_EQ(*QuantizeMultiplier(std::ldexp(1.0, -10)), (QuantizedMultiplier{1 << 30, -9}));
  // Carry: q = 1 - 2^-34 rounds to 2^31, halved to 2^30 with the exponent + 1.
  EXPECT_EQ(*QuantizeMultiplier(1.0 - std::ldexp(1.0, -34)), (QuantizedMultiplier{1 << 30, 1}));
  // Scales above 1: 5 = 0.625 * 2^3 -> 0.625 * 2^31 = 1342177280, left shift 3.
  EXPECT_EQ(*QuantizeMultiplier(5.0), (QuantizedMultiplier{1342177280, 3}));
  // Negative (int8 BatchNormalization): the negated multiplier of |real|.
  EXPECT_EQ(*QuantizeMultiplier(-0.75), (QuantizedMultiplier{-1610612736, 0}));
  EXPECT_EQ(*QuantizeMultiplier(0.0), (QuantizedMultiplier{0, 0}));
}

TEST(QuantizeMultiplierTest, TinyScalesFlushAndHugeOnesAreRejected) {
  // 2^-33 = 0.5 * 2^-32: shift -32 < -31 would shift every bit out (TFLite flushes).
  EXPECT_EQ(*QuantizeMultiplier(std::ldexp(1.0, -33)), (QuantizedMultiplier{0, 0}));
  EXPECT_EQ(*QuantizeMultiplier(1e-13), (QuantizedMultiplier{0, 0}));
  // 2^-32 = 0.5 * 2^-31 is the smallest kept.
  EXPECT_EQ(*QuantizeMultiplier(std::ldexp(1.0, -32)), (QuantizedMultiplier{1 << 30, -31}));
  EXPECT_FALSE(QuantizeMultiplier(std::ldexp(1.0, 30)));  // shift 31 overflows int32
  EXPECT_TRUE(QuantizeMultiplier(std::ldexp(1.0, 30) * 0.99));
  EXPECT_FALSE(QuantizeMultiplier(NAN));
  EXPECT_FALSE(QuantizeMultiplier(INFINITY));
  try {
    QuantizeMultiplierOrThrow(INFINITY, "op 'c1' (Conv)");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("op 'c1'"), std::string::npos);
  }
}

// Bit-for-bit agreement with the runtime's C function (runtime/kernels/quant_helpers.c):
// the compiler and the MCU must derive the same multiplier and shift from every scale.
TEST(QuantizeMultiplierTest, AgreesBitForBitWithTheRuntime) {
  std::vector<double> scales = Sweep();
  for (double s : {-0.75, 0.0, std::ldexp(1.0, -33), 1e-13, std::ldexp(1.0, 30)}) {
    scales.push_back(s);
  }
  for (double s : scales) {
    int32_t m = 0;
    int shift = 0;
    const int ret = tgrs_quantize_multiplier(s, &m, &shift);
    const auto ours = QuantizeMultiplier(s);
    EXPECT_EQ(ret == 0, ours.has_value()) << s;
    if (ours) {
      EXPECT_EQ(m, ours->multiplier) << s;
      EXPECT_EQ(shift, ours->shift) << s;
    }
  }
}

}  // namespace
}  // namespace tigris::emit
