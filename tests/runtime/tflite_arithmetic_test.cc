// TFLite's integer arithmetic in the runtime (runtime/kernels/requantize.h,
// tgrs_rounding TGRS_ROUNDING_TFLITE) against its definition restated here in plain
// 128-bit arithmetic: SaturatingRoundingDoublingHighMul is floor(a b / 2^31 + 1/2) (ties
// toward +infinity; INT32_MIN squared saturates), RoundingDivideByPOT rounds half away
// from zero, the average pool's division too. The plans' bytes against TFLM's own
// interpreter are held by tests/e2e/test_tflite.py.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "requantize.h"
#include "tgrs_kernels.h"

namespace {

__extension__ typedef __int128 i128;  // GCC and Clang; exact for every product here

i128 FloorDiv(i128 n, i128 d) {  // d > 0
  i128 q = n / d;
  if ((n % d) != 0 && n < 0) --q;
  return q;
}

int32_t ReferenceMbqm(int32_t x, int32_t multiplier, int32_t shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift < 0 ? -shift : 0;
  i128 a = static_cast<i128>(x) * (static_cast<i128>(1) << left);
  if (a > INT32_MAX) a = INT32_MAX;
  if (a < INT32_MIN) a = INT32_MIN;
  i128 high;
  if (a == INT32_MIN && multiplier == INT32_MIN) {
    high = INT32_MAX;
  } else {
    high = FloorDiv(a * multiplier + (static_cast<i128>(1) << 30), static_cast<i128>(1) << 31);
  }
  if (right == 0) return static_cast<int32_t>(high);
  const i128 d = static_cast<i128>(1) << right;
  const i128 magnitude = high < 0 ? -high : high;
  const i128 rounded = (2 * magnitude + d) / (2 * d);  // floor(|v| / d + 1/2)
  return static_cast<int32_t>(high < 0 ? -rounded : rounded);
}

TEST(TfliteArithmetic, MultiplyByQuantizedMultiplierMatchesItsDefinition) {
  std::mt19937 rng(41);
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int32_t> acc(-(1 << 20), 1 << 20);
  std::uniform_int_distribution<int32_t> mantissa(1 << 30, INT32_MAX);
  for (int shift = -31; shift <= 30; ++shift) {
    for (int i = 0; i < 4000; ++i) {
      const int32_t x = i % 2 ? any(rng) : acc(rng);
      const int32_t m = i % 3 ? mantissa(rng) : any(rng);
      ASSERT_EQ(tgrs_mbqm_tflite(x, m, shift), ReferenceMbqm(x, m, shift))
          << "x " << x << " m " << m << " shift " << shift;
      ASSERT_EQ(tgrs_mbqm_tflite_inline(x, m, shift), ReferenceMbqm(x, m, shift))
          << "inline: x " << x << " m " << m << " shift " << shift;
    }
  }
  const int32_t edges[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30), -1, 0, 1, 1 << 30, INT32_MAX};
  for (int32_t x : edges) {
    for (int32_t m : edges) {
      for (int shift : {-31, -17, -1, 0, 1, 30}) {
        ASSERT_EQ(tgrs_mbqm_tflite(x, m, shift), ReferenceMbqm(x, m, shift))
            << "x " << x << " m " << m << " shift " << shift;
        ASSERT_EQ(tgrs_mbqm_tflite_inline(x, m, shift), ReferenceMbqm(x, m, shift))
            << "inline: x " << x << " m " << m << " shift " << shift;
      }
    }
  }
}

// Where the two arithmetics part: multiplier 2^30 (0.5) with shift -1 scales by 1/4. For
// x = 6, x / 4 = 1.5: one rounding half to even gives 2, TFLite's two roundings give
// SRDHM(6, 2^30) = 3, then 3 / 2 = 1.5 rounded away from zero: 2 as well; for x = 2
// (0.5): ONNX 0 (even), TFLite 1 (half up, then away from zero); for x = -2 (-0.5): ONNX
// 0, TFLite SRDHM -1 -> -1 / 2 = -0.5 rounded away: -1.
TEST(TfliteArithmetic, HandComputedTiesPartFromOnnxRounding) {
  EXPECT_EQ(tgrs_mbqm_tflite(6, 1 << 30, -1), 2);
  EXPECT_EQ(tgrs_mbqm(6, 1 << 30, -1), 2);
  EXPECT_EQ(tgrs_mbqm_tflite(2, 1 << 30, -1), 1);
  EXPECT_EQ(tgrs_mbqm(2, 1 << 30, -1), 0);
  EXPECT_EQ(tgrs_mbqm_tflite(-2, 1 << 30, -1), -1);
  EXPECT_EQ(tgrs_mbqm(-2, 1 << 30, -1), 0);
  // The requantization adds the zero point and clamps after it.
  EXPECT_EQ(tgrs_requantize_s8_tflite(2, 1 << 30, -1, 10, -128, 127), 11);
  EXPECT_EQ(tgrs_requantize_s8_tflite(1 << 20, 1 << 30, 0, 0, -128, 127), 127);
  EXPECT_EQ(tgrs_requantize_s8_as(TGRS_ROUNDING_TFLITE, 2, 1 << 30, -1, 0, -128, 127), 1);
  EXPECT_EQ(tgrs_requantize_s8_as(TGRS_ROUNDING_ONNX, 2, 1 << 30, -1, 0, -128, 127), 0);
}

TEST(TfliteArithmetic, IntegerAverageRoundsHalfAwayFromZeroOnTheRawSum) {
  // acc is the sum of (x - zp); TFLite divides the raw sum.
  for (int32_t zp : {-128, -5, 0, 7, 127}) {
    for (int32_t count = 1; count <= 9; ++count) {
      for (int32_t raw = -128 * count; raw <= 127 * count; ++raw) {
        const int32_t acc = raw - zp * count;
        const int32_t magnitude = raw < 0 ? -raw : raw;
        const int32_t want_magnitude = (2 * magnitude + count) / (2 * count);
        const int32_t want = raw < 0 ? -want_magnitude : want_magnitude;
        ASSERT_EQ(tgrs_average_tflite(acc, zp, count), want)
            << "raw " << raw << " count " << count << " zp " << zp;
      }
    }
  }
}

// The pool kernel picks TFLite's average only for an op that asks for it; [0, 1] averages
// to 0.5: 1 in TFLite's arithmetic, 0 (half to even) in ONNX's.
TEST(TfliteArithmetic, AveragePoolKernelFollowsTheOpsRounding) {
  const int8_t input[2] = {0, 1};
  tgrs_pool_params pool{};
  pool.kernel_h = 1;
  pool.kernel_w = 2;
  pool.stride_h = pool.stride_w = 1;
  pool.dilation_h = pool.dilation_w = 1;
  const tgrs_dims in{1, 1, 2, 1}, out{1, 1, 1, 1};
  const tgrs_row_window window = tgrs_row_window_full(1, 1);
  const tgrs_requant identity{1 << 30, 1};
  for (int32_t rounding : {TGRS_ROUNDING_ONNX, TGRS_ROUNDING_TFLITE}) {
    const tgrs_quant_s8 q{0, 0, -128, 127, rounding};
    int8_t y = 99;
    ASSERT_EQ(tgrs_avg_pool_s8(&pool, &window, &q, &identity, &in, input, &out, &y),
              TGRS_KERNEL_OK);
    EXPECT_EQ(y, rounding == TGRS_ROUNDING_TFLITE ? 1 : 0);
  }
  const tgrs_quant_s8 bad{0, 0, -128, 127, 2};
  int8_t y = 0;
  EXPECT_EQ(tgrs_avg_pool_s8(&pool, &window, &bad, &identity, &in, input, &out, &y),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
