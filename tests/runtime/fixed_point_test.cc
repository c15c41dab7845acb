// The fixed-point functions of runtime/kernels/fixed_point.h against the real functions
// they approximate (computed in long double here), at their special points and over sweeps
// of their domains. Their bit-exactness with TFLite is held by TFLM's recorded outputs
// (tests/e2e/test_tflite.py, the single-op cases); this test holds their accuracy, so a
// step lost or doubled fails here with the value named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "fixed_point.h"

namespace {

// A raw int32 in Q(integer_bits) as a real.
long double Real(int32_t raw, int integer_bits) {
  return std::ldexp(static_cast<long double>(raw), integer_bits - 31);
}

int32_t Raw(long double real, int integer_bits) {
  return static_cast<int32_t>(std::llround(std::ldexp(real, 31 - integer_bits)));
}

// (a b + nudge) / 2^31 truncated: ties go up, toward +infinity, on both signs.
TEST(FixedPoint, RoundingDoublingHighMultiplyRoundsHalfUpAndSaturates) {
  EXPECT_EQ(tgrs_fx_srdhm(1 << 30, 1 << 30), 1 << 29);  // 0.5 * 0.5
  EXPECT_EQ(tgrs_fx_srdhm(INT32_MIN, INT32_MIN), INT32_MAX);
  EXPECT_EQ(tgrs_fx_srdhm(3, 1 << 30), 2);    // 1.5 -> 2
  EXPECT_EQ(tgrs_fx_srdhm(-3, 1 << 30), -1);  // -1.5 -> -1
  EXPECT_EQ(tgrs_fx_srdhm(1, 1 << 30), 1);    // 0.5 -> 1
  EXPECT_EQ(tgrs_fx_srdhm(-1, 1 << 30), 0);   // -0.5 -> 0
  EXPECT_EQ(tgrs_fx_srdhm(-5, 3 << 29), -4);  // -3.75 -> -4
}

TEST(FixedPoint, RoundingDivideByPowerOfTwoRoundsHalfAwayFromZero) {
  EXPECT_EQ(tgrs_fx_rdbpot(5, 1), 3);
  EXPECT_EQ(tgrs_fx_rdbpot(-5, 1), -3);
  EXPECT_EQ(tgrs_fx_rdbpot(6, 2), 2);    // 1.5
  EXPECT_EQ(tgrs_fx_rdbpot(-6, 2), -2);  // -1.5
  EXPECT_EQ(tgrs_fx_rdbpot(5, 2), 1);    // 1.25
  EXPECT_EQ(tgrs_fx_rdbpot(7, 0), 7);
  EXPECT_EQ(tgrs_fx_rdbpot(INT32_MAX, 31), 1);
}

// The series to x^4 around -1/8 leaves at most (1/8)^5 / 5! = 2.5e-7 on [-1/4, 0].
TEST(FixedPoint, ExpOfZeroIsOneAndOfNegativesIsAccurate) {
  for (int bits : {0, 4, 5, 6}) {
    EXPECT_EQ(tgrs_fx_exp_on_negative_values(0, bits), INT32_MAX) << bits;
    const long double lowest = bits == 0 ? -1.0L : -std::ldexp(1.0L, bits) + 1e-6L;
    for (int i = 1; i <= 4000; ++i) {
      const long double x = lowest * i / 4000;
      const int32_t raw = Raw(x, bits);
      const long double got = Real(tgrs_fx_exp_on_negative_values(raw, bits), 0);
      const long double want = std::exp(Real(raw, bits));
      EXPECT_NEAR(static_cast<double>(got), static_cast<double>(want), 3e-7)
          << "exp(" << static_cast<double>(Real(raw, bits)) << ") with " << bits << " integer bits";
    }
  }
}

TEST(FixedPoint, ExpBelowMinusThirtyTwoIsZeroWithSixIntegerBits) {
  EXPECT_EQ(tgrs_fx_exp_on_negative_values(Raw(-33.0L, 6), 6), 0);
}

TEST(FixedPoint, OneOverOnePlusXIsAccurateOnZeroToOne) {
  for (int i = 0; i < 4000; ++i) {
    const long double x = static_cast<long double>(i) / 4000;
    const int32_t raw = Raw(x, 0);
    const long double got = Real(tgrs_fx_one_over_one_plus_x(raw), 0);
    EXPECT_NEAR(static_cast<double>(got), static_cast<double>(1.0L / (1.0L + Real(raw, 0))), 1e-8)
        << "1 / (1 + " << static_cast<double>(x) << ")";
  }
}

TEST(FixedPoint, ReciprocalNormalizesTheSum) {
  // sums in Q12.19 from 1 to 4000: sum * scale = 2^bits_over_unit, scale in (1/2, 1]
  for (int32_t whole = 1; whole <= 4000; whole += 7) {
    const int32_t sum = Raw(whole + 0.37L, 12);
    int bits = -1;
    const long double scale = Real(tgrs_fx_reciprocal(sum, 12, &bits), 0);
    EXPECT_GE(bits, 0);
    EXPECT_NEAR(static_cast<double>(Real(sum, 12) * scale / std::ldexp(1.0L, bits)), 1.0, 1e-8)
        << "sum " << whole;
  }
}

TEST(FixedPoint, LogisticAndTanhAreAccurateAndSymmetric) {
  constexpr int kBits = 4;  // TFLite's int8 inputs: Q4.27
  EXPECT_EQ(tgrs_fx_logistic(0, kBits), 1 << 30);
  EXPECT_EQ(tgrs_fx_tanh(0, kBits), 0);
  for (int i = -4000; i <= 4000; ++i) {
    const int32_t raw = Raw(15.9L * i / 4000, kBits);
    const long double x = Real(raw, kBits);
    const long double logistic = Real(tgrs_fx_logistic(raw, kBits), 0);
    const long double tanh = Real(tgrs_fx_tanh(raw, kBits), 0);
    EXPECT_NEAR(static_cast<double>(logistic), static_cast<double>(1.0L / (1.0L + std::exp(-x))),
                3e-7)
        << "logistic(" << static_cast<double>(x) << ")";
    EXPECT_NEAR(static_cast<double>(tanh), static_cast<double>(std::tanh(x)), 6e-7)
        << "tanh(" << static_cast<double>(x) << ")";
    EXPECT_EQ(tgrs_fx_tanh(-raw, kBits), -tgrs_fx_tanh(raw, kBits)) << static_cast<double>(x);
  }
}

TEST(FixedPoint, MultiplyByQuantizedMultiplierRoundsTwice) {
  // 0.75 * 2^-2 of 13 = 2.4375: the high multiply gives round(9.75) = 10, the shift
  // round(10 / 4) = round(2.5) = 3, where one rounding would give 2.
  EXPECT_EQ(tgrs_mbqm_tflite(13, 3 << 29, -2), 3);
  EXPECT_EQ(tgrs_mbqm_tflite(-13, 3 << 29, -2), -3);
  EXPECT_EQ(tgrs_mbqm_tflite(5, 1 << 30, 1), 5);  // the identity {2^30, 1}
}

}  // namespace
