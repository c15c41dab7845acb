// The int8 kernels' arithmetic at the edges of its parameters: every shift an int8 field can
// hold, zero points far outside int8, scaled inputs at the int32 limits, a pool window of
// 2^30 taps. The kernels are a public API and a verified plan keeps these parameters in
// range, but a kernel must still saturate or reject, never overflow (fuzz_plan found each).
// Built into the sanitized runtime tests too (tests/runtime/sanitized), where UBSan turns
// any signed overflow here into a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "requantize.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace {

constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();

// tgrs_mbqm against the long-double reference for every shift an int8 can hold: inside the
// kernels' range [-31, 30] and beyond it on both sides, where it must saturate (or round to
// zero) exactly as the real product would.
TEST(KernelArithmeticEdges, MbqmMatchesTheReferenceForEveryInt8Shift) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  const int32_t extremes[] = {0, 1, -1, 255, -255, kMax, kMin, 1 << 30, -(1 << 30)};
  for (int shift = -128; shift <= 127; ++shift) {
    std::vector<std::pair<int32_t, int32_t>> pairs;
    for (int32_t x : extremes) {
      for (int32_t m : extremes) pairs.emplace_back(x, m);
    }
    for (int i = 0; i < 200; ++i) pairs.emplace_back(any(rng), any(rng));
    for (const auto& [x, m] : pairs) {
      ASSERT_EQ(tgrs_mbqm(x, m, shift), tigris::ref::MultiplyByQuantizedMultiplier(x, m, shift))
          << "x " << x << " m " << m << " shift " << shift;
    }
  }
}

// QuantizeLinear with a zero point no int8 tensor has (only a kernel caller can pass one:
// the verifier rejects such plans): the zero point saturates to int8 first, so the result
// is saturate(round_half_even(v) + saturate(zero_point)), never an overflow.
// The kernels' inline requantization and tgrs_mbqm_inline (requantize.h) against the general path
// and the long-double reference: random operands, the int32 limits and exact ties (fraction 1/2,
// where half to even decides) for every shift an int8 can hold, with and without a
// clamping activation range. Its fast path covers shifts -31..-1; the rest must fall
// through to the general path unchanged.
TEST(KernelArithmeticEdges, InlineRequantizeIsTheGeneralPathBitForBit) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> any(kMin, kMax);
  std::uniform_int_distribution<int32_t> mantissa(1 << 30, kMax);
  std::uniform_int_distribution<int32_t> zero_point(-128, 127);
  const int32_t edges[] = {0, 1, -1, 2, -2, kMax, kMin, kMax - 1, kMin + 1, 1 << 30, -(1 << 30)};
  for (int shift = -128; shift <= 127; ++shift) {
    std::vector<std::pair<int32_t, int32_t>> operands;
    for (int32_t a : edges) {
      for (int32_t m : edges) operands.emplace_back(a, m);
    }
    for (int i = 0; i < 2000; ++i)
      operands.emplace_back(any(rng), i % 2 ? mantissa(rng) : any(rng));
    // Ties: with m = 2^30, acc * m / 2^(31 - shift) = acc / 2^(1 - shift) has fraction 1/2
    // exactly when acc mod 2^(1 - shift) = 2^(-shift) (shift 0: every odd acc).
    if (shift <= 0 && shift >= -29) {
      for (int64_t k = -40; k <= 40; ++k) {
        const int64_t acc = k * (int64_t{2} << -shift) + (int64_t{1} << -shift);
        if (acc >= kMin && acc <= kMax) operands.emplace_back(static_cast<int32_t>(acc), 1 << 30);
      }
    }
    for (const auto& [acc, m] : operands) {
      const int32_t zp = zero_point(rng);
      for (const auto& [lo, hi] : {std::pair{-128, 127}, std::pair{0, 127}, std::pair{-20, 6}}) {
        ASSERT_EQ(tgrs_mbqm_inline(acc, m, shift), tgrs_mbqm(acc, m, shift))
            << "acc " << acc << " multiplier " << m << " shift " << shift;
        const int8_t general = tgrs_requantize_s8(acc, m, shift, zp, lo, hi);
        const tgrs_requant_ch ch = tgrs_requant_prepare(m, shift, TGRS_ROUNDING_ONNX);
        ASSERT_EQ(tgrs_requantize_s8_ch(acc, &ch, zp, lo, hi), general)
            << "acc " << acc << " multiplier " << m << " shift " << shift << " zp " << zp;
        ASSERT_EQ(tgrs_requantize_s8_inline(acc, m, shift, zp, lo, hi), general)
            << "acc " << acc << " multiplier " << m << " shift " << shift << " zp " << zp;
        if (shift >= -31 && shift <= 30) {
          ASSERT_EQ(general, tigris::ref::Requantize(acc, m, shift, zp, lo, hi))
              << "acc " << acc << " multiplier " << m << " shift " << shift;
        }
      }
    }
  }
}

TEST(KernelArithmeticEdges, QuantizeSaturatesAnyZeroPointToInt8First) {
  const float inputs[] = {-3.5f, 0.0f, 2.5f, 1e30f, -1e30f};
  for (int32_t zp : {kMin, kMin + 1, -1129, -129, -128, 127, 128, 1128, kMax - 1, kMax}) {
    int8_t out[5];
    tgrs_quantize_f32_s8(1.0f, zp, 5, inputs, out);
    const double zp8 = std::clamp(zp, -128, 127);
    for (int i = 0; i < 5; ++i) {
      const double exact = std::nearbyint(static_cast<double>(inputs[i])) + zp8;
      const int expected = exact > 127 ? 127 : exact < -128 ? -128 : static_cast<int>(exact);
      EXPECT_EQ(out[i], expected) << "input " << inputs[i] << " zero point " << zp;
    }
  }
}

tgrs_dims Dims(int32_t n, int32_t h, int32_t w, int32_t c) {
  tgrs_dims d;
  d.n = n;
  d.h = h;
  d.w = w;
  d.c = c;
  return d;
}

// Add with input scales 2^30 apart: both scaled inputs sit at the int32 limits and their
// sum must saturate (the output is then clamped to int8 either way).
TEST(KernelArithmeticEdges, AddSaturatesScaledInputsAtTheInt32Limits) {
  tgrs_add_s8_params p{};
  p.left_shift = 20;
  p.input1 = {kMax, 30};
  p.input2 = {kMax, 30};
  p.output = {1 << 30, 1};  // identity
  p.act_min = -128;
  p.act_max = 127;
  const tgrs_dims d = Dims(1, 1, 1, 2);
  const int8_t a[2] = {127, -128}, b[2] = {127, -128};
  int8_t out[2] = {0, 0};
  ASSERT_EQ(tgrs_add_s8(&p, &d, a, &d, b, &d, out), TGRS_KERNEL_OK);
  EXPECT_EQ(out[0], 127);
  EXPECT_EQ(out[1], -128);
  ASSERT_EQ(tgrs_sub_s8(&p, &d, a, &d, b, &d, out), TGRS_KERNEL_OK);
  EXPECT_EQ(out[0], 0);  // equal inputs: the difference is exactly zero
  EXPECT_EQ(out[1], 0);
}

TEST(KernelArithmeticEdges, AddAndMulRejectZeroPointsOutsideInt8) {
  const tgrs_dims d = Dims(1, 1, 1, 1);
  const int8_t a[1] = {1}, b[1] = {2};
  int8_t out[1];
  for (int which = 0; which < 3; ++which) {
    tgrs_add_s8_params p{};
    p.left_shift = 20;
    p.input1 = p.input2 = p.output = {1 << 30, 1};
    p.act_min = -128;
    p.act_max = 127;
    tgrs_mul_s8_params q{};
    q.rq = {1 << 30, 1};
    q.act_min = -128;
    q.act_max = 127;
    int32_t* add_zp[] = {&p.input1_zero_point, &p.input2_zero_point, &p.output_zero_point};
    int32_t* mul_zp[] = {&q.input1_zero_point, &q.input2_zero_point, &q.output_zero_point};
    *add_zp[which] = kMax;
    *mul_zp[which] = 128;
    EXPECT_EQ(tgrs_add_s8(&p, &d, a, &d, b, &d, out), TGRS_KERNEL_BAD_ARGUMENT) << which;
    EXPECT_EQ(tgrs_mul_s8(&q, &d, a, &d, b, &d, out), TGRS_KERNEL_BAD_ARGUMENT) << which;
  }
}

// A 2^30-wide average pool padded by 2^30 - 1 on the left over a one-pixel row: one output
// pixel whose window holds 2^30 taps of which one is real. The taps are not scanned one by
// one (that took minutes); with count_include_pad the divisor is 2^30, without it 1.
TEST(KernelArithmeticEdges, AvgPoolOverAHugePaddedWindowIsImmediateAndExact) {
  tgrs_pool_params pool{};
  pool.kernel_h = 1;
  pool.kernel_w = 1 << 30;
  pool.stride_h = pool.stride_w = 1;
  pool.dilation_h = pool.dilation_w = 1;
  pool.pad_left = (1 << 30) - 1;
  const tgrs_dims in = Dims(1, 1, 1, 1), out = Dims(1, 1, 1, 1);
  tgrs_row_window window{};
  window.out_row_begin = 0;
  window.out_row_end = 1;
  window.in_row_begin = 0;
  window.in_rows = 1;
  const float x[1] = {6.0f};
  float y[1] = {0.0f};
  pool.count_include_pad = 0;
  ASSERT_EQ(tgrs_avg_pool_f32(&pool, &window, &in, x, &out, y), TGRS_KERNEL_OK);
  EXPECT_EQ(y[0], 6.0f);
  pool.count_include_pad = 1;
  ASSERT_EQ(tgrs_avg_pool_f32(&pool, &window, &in, x, &out, y), TGRS_KERNEL_OK);
  EXPECT_EQ(y[0], 6.0f / static_cast<float>(1 << 30));

  // int8: the real tap (value 100, zero point 0) requantized by a scale of 2^30 saturates
  // the int32 requantization; the average and the zero point must still not overflow.
  tgrs_quant_s8 q{};
  q.input_zero_point = 0;
  q.output_zero_point = 127;
  q.act_min = -128;
  q.act_max = 127;
  const tgrs_requant huge = {kMax, 30};
  const int8_t xs[1] = {100};
  int8_t ys[1] = {0};
  pool.count_include_pad = 0;
  ASSERT_EQ(tgrs_avg_pool_s8(&pool, &window, &q, &huge, &in, xs, &out, ys), TGRS_KERNEL_OK);
  EXPECT_EQ(ys[0], 127);
}

}  // namespace
