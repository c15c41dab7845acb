// ReduceMean and BatchNormalization kernels (runtime/kernels/reduce.c, batch_norm.c).
#include <gtest/gtest.h>

#include <cmath>

#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

// The reduction tests' input: [2, 3, 4, 5] (N, H, W, C).
constexpr tgrs_dims kReduceDims = {2, 3, 4, 5};

// Sums of x[n, h, w, c] - offset over the dims set in `mask` (bit 0 = N ... 3 = C), in
// the kept dims' row-major order, and the number of values each sums.
template <typename Acc, typename T>
std::vector<Acc> MaskedSums(const std::vector<T>& x, uint32_t mask, Acc offset, int* count) {
  const int dim[4] = {kReduceDims.n, kReduceDims.h, kReduceDims.w, kReduceDims.c};
  int out_dim[4];
  *count = 1;
  for (int i = 0; i < 4; ++i) {
    out_dim[i] = (mask & (1u << i)) ? 1 : dim[i];
    *count *= (mask & (1u << i)) ? dim[i] : 1;
  }
  std::vector<Acc> sum(static_cast<size_t>(out_dim[0] * out_dim[1] * out_dim[2] * out_dim[3]),
                       Acc{0});
  for (int a = 0; a < dim[0]; ++a)
    for (int b = 0; b < dim[1]; ++b)
      for (int c = 0; c < dim[2]; ++c)
        for (int e = 0; e < dim[3]; ++e) {
          const int o[4] = {mask & 1 ? 0 : a, mask & 2 ? 0 : b, mask & 4 ? 0 : c, mask & 8 ? 0 : e};
          sum[static_cast<size_t>(((o[0] * out_dim[1] + o[1]) * out_dim[2] + o[2]) * out_dim[3] +
                                  o[3])] +=
              static_cast<Acc>(
                  x[static_cast<size_t>(((a * dim[1] + b) * dim[2] + c) * dim[3] + e)]) -
              offset;
        }
  return sum;
}

TEST(ReduceMean, EveryAxisSubset) {
  const tgrs_dims d = kReduceDims;
  const std::vector<float> x = RandomF32(120, 600);
  for (uint32_t mask = 1; mask < 16; ++mask) {
    int count = 0;
    const std::vector<double> sum = MaskedSums<double>(x, mask, 0.0, &count);
    std::vector<float> got(sum.size());
    ASSERT_EQ(tgrs_reduce_mean_f32(mask, &d, x.data(), got.data()), TGRS_KERNEL_OK);
    for (size_t i = 0; i < sum.size(); ++i) EXPECT_NEAR(got[i], sum[i] / count, 1e-6) << mask;
  }
}

// The exact int8 mean: zp_out + round_half_even(sum * m / (2^(31 - shift) * count)),
// clamped, in 128-bit integers (independent of tgrs_average_requant's long division).
__extension__ typedef __int128 Int128;  // GCC and Clang on 64-bit hosts (the tests' hosts)

int8_t ExactMeanS8(int64_t sum, int64_t count, int32_t m, int32_t shift, int32_t zp_out) {
  const Int128 num = static_cast<Int128>(sum) * m;
  const Int128 den = (static_cast<Int128>(1) << (31 - shift)) * count;
  Int128 q = num / den, r = num % den;  // truncates toward zero
  if (r < 0) {                          // floor
    q -= 1;
    r += den;
  }
  if (2 * r > den || (2 * r == den && (q & 1) != 0)) q += 1;
  const Int128 v = q + zp_out;
  return static_cast<int8_t>(v < -128 ? -128 : v > 127 ? 127 : v);
}

TEST(ReduceMean, S8EveryAxisSubsetRoundsOnce) {
  const tgrs_dims d = kReduceDims;
  const std::vector<int8_t> x = RandomS8(120, 601);
  const tgrs_quant_s8 q{-7, 3, -128, 127, TGRS_ROUNDING_ONNX};
  // s_in / s_out = 0.8 and 1.7 (an output scale smaller than the input's) as Q0.31.
  for (const tgrs_requant rq : {tgrs_requant{1717986918, 0}, tgrs_requant{1825361101, 1}}) {
    for (uint32_t mask = 1; mask < 16; ++mask) {
      int count = 0;
      const std::vector<int64_t> sum =
          MaskedSums<int64_t>(x, mask, int64_t{q.input_zero_point}, &count);
      std::vector<int8_t> got(sum.size(), 0);
      ASSERT_EQ(tgrs_reduce_mean_s8(mask, &q, &rq, &d, x.data(), got.data()), TGRS_KERNEL_OK);
      for (size_t i = 0; i < sum.size(); ++i) {
        ASSERT_EQ(got[i], ExactMeanS8(sum[i], count, rq.multiplier, rq.shift, q.output_zero_point))
            << "mask " << mask << " output " << i;
      }
      if (mask == 6u) {  // over H, W: what the global average pool computes
        std::vector<int8_t> pool(got.size());
        ASSERT_EQ(tgrs_global_avg_pool_s8(&q, &rq, &d, x.data(), pool.data()), TGRS_KERNEL_OK);
        EXPECT_EQ(pool, got);
      }
    }
  }
}

TEST(ReduceMean, S8ClampsToTheActivationRangeAndRejectsBadArguments) {
  const tgrs_dims d{1, 1, 1, 4};
  const std::vector<int8_t> x = {127, 127, 127, 127};
  const tgrs_requant rq{1073741824, 2};  // x2: the mean 127 saturates
  tgrs_quant_s8 q{0, 0, -5, 100, TGRS_ROUNDING_ONNX};
  int8_t y = 0;
  ASSERT_EQ(tgrs_reduce_mean_s8(8u, &q, &rq, &d, x.data(), &y), TGRS_KERNEL_OK);
  EXPECT_EQ(y, 100);
  EXPECT_EQ(tgrs_reduce_mean_s8(16u, &q, &rq, &d, x.data(), &y), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_reduce_mean_s8(8u, nullptr, &rq, &d, x.data(), &y), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_reduce_mean_s8(8u, &q, nullptr, &d, x.data(), &y), TGRS_KERNEL_BAD_ARGUMENT);
  q.act_min = 101;  // above act_max
  EXPECT_EQ(tgrs_reduce_mean_s8(8u, &q, &rq, &d, x.data(), &y), TGRS_KERNEL_BAD_ARGUMENT);
  // A count of 2^23 could overflow the int32 sum: refused before reading.
  const tgrs_dims huge{1, 1, 1 << 12, 1 << 11};
  q.act_min = -128;
  EXPECT_EQ(tgrs_reduce_mean_s8(12u, &q, &rq, &huge, x.data(), &y), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(BatchNorm, F32IsPerChannelAffine) {
  const tgrs_dims d{2, 3, 2, 4};
  const std::vector<float> x = RandomF32(48, 610), scale{0.5f, -2.0f, 1.0f, 3.0f},
                           shift{1.0f, 0.0f, -0.5f, 0.25f};
  std::vector<float> y(48);
  ASSERT_EQ(tgrs_batch_norm_f32(&d, scale.data(), shift.data(), x.data(), y.data()),
            TGRS_KERNEL_OK);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(y[i], x[i] * scale[i % 4] + shift[i % 4]);
}

TEST(BatchNorm, S8RequantizesPerChannelWithSignedMultipliers) {
  const tgrs_dims d{1, 4, 3, 3};
  const std::vector<int8_t> x = RandomS8(36, 620);
  const ChannelQuant cq = MakeChannelQuant({0.7, -1.3, 0.05});  // negative gamma in channel 1
  // Offsets in the multiplier's fixed point: 10.5, -20.25 and 0 output steps.
  const std::vector<double> offset_real{10.5, -20.25, 0.0};
  std::vector<int32_t> offset(3);
  for (int c = 0; c < 3; ++c) {
    offset[c] = static_cast<int32_t>(std::ldexp(offset_real[c], 31 - cq.shift[c]));
  }
  const tgrs_quant_s8 q{-3, 4, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq = cq.view();
  std::vector<int8_t> y(36);
  ASSERT_EQ(tgrs_batch_norm_s8(&q, &pcq, offset.data(), &d, x.data(), y.data()), TGRS_KERNEL_OK);
  for (int i = 0; i < 36; ++i) {
    const int c = i % 3;
    // One rounding (ties to even) of the exact fixed-point value, in long double.
    const long double exact = std::ldexp(
        static_cast<long double>(x[i] + 3) * cq.multiplier[c] + offset[c], cq.shift[c] - 31);
    const int64_t v = static_cast<int64_t>(std::nearbyintl(exact)) + 4;
    EXPECT_EQ(y[i], std::clamp<int64_t>(v, -128, 127)) << i;
  }
}

TEST(BatchNorm, S8RoundsOnceNotPerTerm) {
  // scale 0.5 and offset 0.5 output steps, both exact at k = 31 (multiplier 2^30, shift 0,
  // offset 2^30). x - zp = 0, 1, 2, 3 give exact reals 0.5, 1.0, 1.5, 2.0, which round
  // (ties to even) to 0, 1, 2, 2. Rounding each term apart would give
  // round(0.5 x) + round(0.5) = 0, 0, 1, 2 (ties to even again): different at x - zp = 1
  // and 2.
  const tgrs_dims d{1, 1, 1, 4};
  const std::vector<int32_t> multiplier{1 << 30, 1 << 30, 1 << 30, 1 << 30};
  const std::vector<int8_t> shift{0, 0, 0, 0};
  const std::vector<int32_t> offset{1 << 30, 1 << 30, 1 << 30, 1 << 30};
  const tgrs_per_channel_quant pcq{multiplier.data(), shift.data(), 4, nullptr, 0};
  const tgrs_quant_s8 q{0, 0, -128, 127, TGRS_ROUNDING_ONNX};
  const std::vector<int8_t> x{0, 1, 2, 3};
  std::vector<int8_t> y(4);
  ASSERT_EQ(tgrs_batch_norm_s8(&q, &pcq, offset.data(), &d, x.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{0, 1, 2, 2}));
}

}  // namespace
}  // namespace tigris::ref
