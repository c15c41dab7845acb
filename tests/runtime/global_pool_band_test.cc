// Banded global pools (tgrs_global_pool_band_{f32,s8}, runtime/kernels/pooling.c) against
// the whole-tensor kernels: for every way of cutting H into bands (and, for 2-D tiles, W
// into column bands), fed in order, the result must be the same bytes (the tile-loop
// invariant: tiled == untiled), and the output must stay untouched until the last box.
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

// Rows [r0, r1) x columns [c0, c1) of every batch of x, as the [N, rows, cols, C] box a
// tile loop holds.
template <typename T>
std::vector<T> Box(const std::vector<T>& x, int32_t r0, int32_t r1, int32_t c0 = 0,
                   int32_t c1 = kIn.w) {
  std::vector<T> box;
  for (int32_t n = 0; n < kIn.n; ++n) {
    for (int32_t y = r0; y < r1; ++y) {
      const size_t at = ((static_cast<size_t>(n) * kIn.h + y) * kIn.w + c0) * kIn.c;
      box.insert(box.end(), x.begin() + static_cast<std::ptrdiff_t>(at),
                 x.begin() + static_cast<std::ptrdiff_t>(at + (c1 - c0) * kIn.c));
    }
  }
  return box;
}

tgrs_pool_box PoolBox(int32_t r0, int32_t r1, int32_t c0 = 0, int32_t c1 = kIn.w) {
  return tgrs_pool_box{r0, r1 - r0, c0, c1 - c0};
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
        const std::vector<float> band = Box(x, cut[b], cut[b + 1]);
        const tgrs_pool_box box = PoolBox(cut[b], cut[b + 1]);
        ASSERT_EQ(tgrs_global_pool_band_f32(is_max, &kIn, &box, band.data(), acc.data(), y.data()),
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
  const tgrs_quant_s8 q{-3, 5, -128, 127, TGRS_ROUNDING_ONNX};
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
        const std::vector<int8_t> band = Box(x, cut[b], cut[b + 1]);
        const tgrs_pool_box box = PoolBox(cut[b], cut[b + 1]);
        ASSERT_EQ(tgrs_global_pool_band_s8(is_max, &q, &rq, &kIn, &box, band.data(), acc.data(),
                                           y.data()),
                  TGRS_KERNEL_OK);
      }
      EXPECT_EQ(y, whole) << (is_max ? "max" : "avg") << ", " << cut.size() - 1 << " bands";
    }
  }
}

// Column cuts of W = 5 for 2-D tiles.
const std::vector<std::vector<int32_t>> kColumnCuts = {{0, 1, 2, 3, 4, 5}, {0, 2, 4, 5}, {0, 3, 5}};

TEST(GlobalPoolBandTest, Float32OneRowBoxesGiveTheWholeTensorBits) {
  // One-row boxes add in the whole-tensor order (row by row, column by column): the rule
  // the planner keeps for float reductions in 2-D loops.
  const std::vector<float> x = RandomF32(Elements(kIn), 43, -3.0f, 3.0f);
  for (int is_max = 0; is_max <= 1; ++is_max) {
    std::vector<float> whole(static_cast<size_t>(kIn.n * kIn.c));
    ASSERT_EQ(is_max ? tgrs_global_max_pool_f32(&kIn, x.data(), whole.data())
                     : tgrs_global_avg_pool_f32(&kIn, x.data(), whole.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& cols : kColumnCuts) {
      std::vector<float> acc(whole.size(), 12345.0f);
      std::vector<float> y(whole.size(), -7.0f);
      for (int32_t r = 0; r < kIn.h; ++r) {
        for (size_t c = 0; c + 1 < cols.size(); ++c) {
          const std::vector<float> band = Box(x, r, r + 1, cols[c], cols[c + 1]);
          const tgrs_pool_box box = PoolBox(r, r + 1, cols[c], cols[c + 1]);
          ASSERT_EQ(
              tgrs_global_pool_band_f32(is_max, &kIn, &box, band.data(), acc.data(), y.data()),
              TGRS_KERNEL_OK);
          if (r + 1 < kIn.h || c + 2 < cols.size()) {
            ASSERT_EQ(y, std::vector<float>(whole.size(), -7.0f)) << "written before the end";
          }
        }
      }
      EXPECT_EQ(0, std::memcmp(y.data(), whole.data(), y.size() * sizeof(float)))
          << (is_max ? "max" : "avg") << ", " << cols.size() - 1 << " column bands";
    }
  }
}

TEST(GlobalPoolBandTest, Int8BoxesOfAnyShapeGiveTheWholeTensorBytes) {
  const std::vector<int8_t> x = RandomS8(Elements(kIn), 44);
  const tgrs_quant_s8 q{4, -2, -128, 127, TGRS_ROUNDING_ONNX};
  tgrs_requant rq{};
  int shift = 0;
  ASSERT_EQ(tgrs_quantize_multiplier(1.3, &rq.multiplier, &shift), 0);
  rq.shift = shift;
  for (int is_max = 0; is_max <= 1; ++is_max) {
    std::vector<int8_t> whole(static_cast<size_t>(kIn.n * kIn.c));
    ASSERT_EQ(is_max ? tgrs_global_max_pool_s8(&q, &rq, &kIn, x.data(), whole.data())
                     : tgrs_global_avg_pool_s8(&q, &rq, &kIn, x.data(), whole.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& rows : kCuts) {
      for (const std::vector<int32_t>& cols : kColumnCuts) {
        std::vector<int32_t> acc(whole.size(), 999);
        std::vector<int8_t> y(whole.size(), 77);
        for (size_t r = 0; r + 1 < rows.size(); ++r) {
          for (size_t c = 0; c + 1 < cols.size(); ++c) {
            const std::vector<int8_t> band = Box(x, rows[r], rows[r + 1], cols[c], cols[c + 1]);
            const tgrs_pool_box box = PoolBox(rows[r], rows[r + 1], cols[c], cols[c + 1]);
            ASSERT_EQ(tgrs_global_pool_band_s8(is_max, &q, &rq, &kIn, &box, band.data(), acc.data(),
                                               y.data()),
                      TGRS_KERNEL_OK);
          }
        }
        EXPECT_EQ(y, whole) << (is_max ? "max" : "avg") << ", " << rows.size() - 1 << " x "
                            << cols.size() - 1 << " boxes";
      }
    }
  }
}

TEST(GlobalPoolBandTest, BoxesOutsideTheTensorAreRejected) {
  const std::vector<float> band(RowElements(kIn) * kIn.n * 2, 1.0f);
  std::vector<float> acc(static_cast<size_t>(kIn.n * kIn.c)), y(acc.size());
  const tgrs_pool_box past_h = PoolBox(6, 8), negative = PoolBox(-1, 0), empty = PoolBox(0, 0);
  const tgrs_pool_box past_w = PoolBox(0, 1, 3, 6), no_cols = PoolBox(0, 1, 2, 2);
  const tgrs_pool_box left = PoolBox(0, 1, -1, 2), first = PoolBox(0, 1);
  for (const tgrs_pool_box* box : {&past_h, &negative, &empty, &past_w, &no_cols, &left}) {
    EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, box, band.data(), acc.data(), y.data()),
              TGRS_KERNEL_BAD_WINDOW)
        << "rows " << box->row_begin << " + " << box->rows << ", columns " << box->col_begin
        << " + " << box->cols;
  }
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, &first, band.data(), nullptr, y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_global_pool_band_f32(0, &kIn, nullptr, band.data(), acc.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  const tgrs_quant_s8 bad_zp{300, 0, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_requant rq{1 << 30, 1};
  const std::vector<int8_t> band8(band.size());
  std::vector<int32_t> acc8(acc.size());
  std::vector<int8_t> y8(y.size());
  EXPECT_EQ(
      tgrs_global_pool_band_s8(0, &bad_zp, &rq, &kIn, &first, band8.data(), acc8.data(), y8.data()),
      TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
