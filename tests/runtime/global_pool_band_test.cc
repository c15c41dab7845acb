// Banded global pools (tgrs_global_pool_band_{f32,s8}, runtime/kernels/pooling.c) against
// the whole-tensor kernels: for every way of cutting H into bands, fed in order, the result
// must be the same bytes (the tile-loop invariant: tiled == untiled), and the output must
// stay untouched until the last band.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

constexpr tgrs_dims kIn = {2, 7, 5, 19};  // N 2, H 7, W 5, C 19 (not a channel-block multiple)

size_t Elements(const tgrs_dims& d) { return static_cast<size_t>(d.n) * d.h * d.w * d.c; }
size_t RowElements(const tgrs_dims& d) { return static_cast<size_t>(d.w) * d.c; }

// Rows [begin, end) of every batch of x, as the [N, rows, W, C] strip a tile loop holds.
template <typename T>
std::vector<T> Band(const std::vector<T>& x, int32_t begin, int32_t end) {
  std::vector<T> band;
  for (int32_t n = 0; n < kIn.n; ++n) {
    const size_t at = (static_cast<size_t>(n) * kIn.h + begin) * RowElements(kIn);
    band.insert(band.end(), x.begin() + static_cast<std::ptrdiff_t>(at),
                x.begin() + static_cast<std::ptrdiff_t>(at + (end - begin) * RowElements(kIn)));
  }
  return band;
}

// Every band height from 1 to H, and uneven cuts.
const std::vector<std::vector<int32_t>> kCuts = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 2, 4, 6, 7}, {0, 3, 6, 7}, {0, 4, 7}, {0, 7}, {0, 1, 6, 7}};

TEST(GlobalPoolBandTest, Float32BandsGiveTheWholeTensorBits) {
  const std::vector<float> x = RandomF32(Elements(kIn), 41, -3.0f, 3.0f);
  for (int is_max = 0; is_max <= 1; ++is_max) {
    std::vector<float> whole(static_cast<size_t>(kIn.n * kIn.c));
    ASSERT_EQ(is_max ? tgrs_global_max_pool_f32(&kIn, x.data(), whole.data())
                     : tgrs_global_avg_pool_f32(&kIn, x.data(), whole.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& cut : kCuts) {
      std::vector<float> acc(whole.size(), 12345.0f);  // garbage: the first band resets it
      std::vector<float> y(whole.size(), -7.0f);
      for (size_t b = 0; b + 1 < cut.size(); ++b) {
        const std::vector<float> band = Band(x, cut[b], cut[b + 1]);
        ASSERT_EQ(tgrs_global_pool_band_f32(is_max, &kIn, cut[b], cut[b + 1] - cut[b], band.data(),
                                            acc.data(), y.data()),
                  TGRS_KERNEL_OK);
        if (b + 2 < cut.size()) {
          ASSERT_EQ(y, std::vector<float>(whole.size(), -7.0f)) << "written before the end";
        }
      }
      EXPECT_EQ(0, std::memcmp(y.data(), whole.data(), y.size() * sizeof(float)))
          << (is_max ? "max" : "avg") << ", " << cut.size() - 1 << " bands";
    }
  }
}

TEST(GlobalPoolBandTest, Int8BandsGiveTheWholeTensorBytes) {
  const std::vector<int8_t> x = RandomS8(Elements(kIn), 42);
  const tgrs_quant_s8 q{-3, 5, -128, 127};
  tgrs_requant rq{};
  int shift = 0;
  ASSERT_EQ(tgrs_quantize_multiplier(0.8, &rq.multiplier, &shift), 0);
  rq.shift = shift;
  for (int is_max = 0; is_max <= 1; ++is_max) {
    std::vector<int8_t> whole(static_cast<size_t>(kIn.n * kIn.c));
    ASSERT_EQ(is_max ? tgrs_global_max_pool_s8(&q, &rq, &kIn, x.data(), whole.data())
                     : tgrs_global_avg_pool_s8(&q, &rq, &kIn, x.data(), whole.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& cut : kCuts) {
      std::vector<int32_t> acc(whole.size(), 999);
      std::vector<int8_t> y(whole.size(), 77);
      for (size_t b = 0; b + 1 < cut.size(); ++b) {
        const std::vector<int8_t> band = Band(x, cut[b], cut[b + 1]);
        ASSERT_EQ(tgrs_global_pool_band_s8(is_max, &q, &rq, &kIn, cut[b], cut[b + 1] - cut[b],
                                           band.data(), acc.data(), y.data()),
                  TGRS_KERNEL_OK);
      }
      EXPECT_EQ(y, whole) << (is_max ? "max" : "avg") << ", " << cut.size() - 1 << " bands";
    }
  }
}

TEST(GlobalPoolBandTest, BandsOutsideTheTensorAreRejected) {
  const std::vector<float> band(RowElements(kIn) * kIn.n * 2, 1.0f);
  std::vector<float> acc(static_cast<size_t>(kIn.n * kIn.c)), y(acc.size());
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, 6, 2, band.data(), acc.data(), y.data()),
            TGRS_KERNEL_BAD_WINDOW);  // rows 6, 7 of 7
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, -1, 1, band.data(), acc.data(), y.data()),
            TGRS_KERNEL_BAD_WINDOW);
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, 0, 0, band.data(), acc.data(), y.data()),
            TGRS_KERNEL_BAD_WINDOW);
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, 0, 1, band.data(), nullptr, y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  const tgrs_quant_s8 bad_zp{300, 0, -128, 127};
  const tgrs_requant rq{1 << 30, 1};
  const std::vector<int8_t> band8(band.size());
  std::vector<int32_t> acc8(acc.size());
  std::vector<int8_t> y8(y.size());
  EXPECT_EQ(
      tgrs_global_pool_band_s8(0, &bad_zp, &rq, &kIn, 0, 1, band8.data(), acc8.data(), y8.data()),
      TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
