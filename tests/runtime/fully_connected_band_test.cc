// tgrs_fully_connected_band_{f32,s8} (runtime/kernels/fully_connected.c): a fully connected
// layer over a [N, H, W, C] map fed box by box, as a tile loop feeds the planner's
// gemm-as-banded-reduction, against the whole-tensor kernel on the same map read as
// [N, K]: float bits equal for one-row boxes and for full-width bands (the additions come
// in ascending k), int8 equal for any boxes (exact int32 sums), and the output untouched
// before the last box.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

constexpr tgrs_dims kMap = {2, 3, 5, 4};  // N, H, W, C: K = 60 per batch
constexpr int32_t kK = 60, kOut = 7;

// The box's values of `map` ([N, H, W, C]) as [N, rows, cols, C].
template <typename T>
std::vector<T> Box(const std::vector<T>& map, const tgrs_pool_box& b) {
  std::vector<T> out;
  for (int32_t n = 0; n < kMap.n; ++n) {
    for (int32_t y = b.row_begin; y < b.row_begin + b.rows; ++y) {
      const size_t at = ((static_cast<size_t>(n) * kMap.h + y) * kMap.w + b.col_begin) * kMap.c;
      out.insert(
          out.end(), map.begin() + static_cast<std::ptrdiff_t>(at),
          map.begin() + static_cast<std::ptrdiff_t>(at + static_cast<size_t>(b.cols) * kMap.c));
    }
  }
  return out;
}

// Boxes of `rows` x `cols` covering the map, row band by row band, left to right.
std::vector<tgrs_pool_box> Boxes(int32_t rows, int32_t cols) {
  std::vector<tgrs_pool_box> boxes;
  for (int32_t r = 0; r < kMap.h; r += rows) {
    for (int32_t c = 0; c < kMap.w; c += cols) {
      boxes.push_back({r, std::min(rows, kMap.h - r), c, std::min(cols, kMap.w - c)});
    }
  }
  return boxes;
}

TEST(FullyConnectedBand, FloatBitsEqualTheWholeKernelForRowsAndFullWidthBands) {
  const std::vector<float> map = RandomF32(static_cast<size_t>(kMap.n) * kK, 11);
  const std::vector<float> filter = RandomF32(static_cast<size_t>(kOut) * kK, 12);
  const std::vector<float> bias = RandomF32(kOut, 13);
  const tgrs_act_f32 act = {-0.5f, 0.75f};
  std::vector<float> whole(static_cast<size_t>(kMap.n) * kOut);
  ASSERT_EQ(tgrs_fully_connected_f32(&act, kMap.n, kK, kOut, map.data(), filter.data(), bias.data(),
                                     whole.data()),
            TGRS_KERNEL_OK);
  for (const auto& [rows, cols] : {std::pair{1, 5}, std::pair{1, 2}, std::pair{2, 5}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    std::vector<float> acc(static_cast<size_t>(kMap.n) * kOut);
    std::vector<float> out(whole.size(), -7.0f);
    const std::vector<tgrs_pool_box> boxes = Boxes(rows, cols);
    for (size_t i = 0; i < boxes.size(); ++i) {
      const std::vector<float> band = Box(map, boxes[i]);
      ASSERT_EQ(tgrs_fully_connected_band_f32(&act, &kMap, &boxes[i], kOut, band.data(),
                                              filter.data(), bias.data(), acc.data(), out.data()),
                TGRS_KERNEL_OK);
      if (i + 1 < boxes.size()) {
        ASSERT_EQ(out, std::vector<float>(whole.size(), -7.0f)) << "written before the last box";
      }
    }
    EXPECT_EQ(0, std::memcmp(out.data(), whole.data(), whole.size() * sizeof(float)));
  }
}

TEST(FullyConnectedBand, Int8EqualsTheWholeKernelForAnyBoxes) {
  const std::vector<int8_t> map = RandomS8(static_cast<size_t>(kMap.n) * kK, 21);
  const std::vector<int8_t> filter = RandomS8(static_cast<size_t>(kOut) * kK, 22);
  const std::vector<int32_t> bias = RandomS32(kOut, 23, -5000, 5000);
  const std::vector<int32_t> multiplier = RandomS32(kOut, 24, 1 << 29, (1 << 30) + (1 << 29));
  const std::vector<int8_t> shift(kOut, -8);
  const std::vector<int32_t> filter_zp = {0, 3, -2, 0, 1, 0, -7};
  const tgrs_quant_s8 q = {-3, 5, -128, 127, TGRS_ROUNDING_ONNX};
  for (bool asymmetric : {false, true}) {
    SCOPED_TRACE(asymmetric ? "asymmetric filter" : "symmetric filter");
    tgrs_per_channel_quant pcq{multiplier.data(), shift.data(), kOut, nullptr, 0};
    if (asymmetric) {
      pcq.filter_zero_point = filter_zp.data();
      pcq.filter_zero_point_count = kOut;
    }
    std::vector<int8_t> whole(static_cast<size_t>(kMap.n) * kOut);
    ASSERT_EQ(tgrs_fully_connected_s8(&q, &pcq, kMap.n, kK, kOut, map.data(), filter.data(),
                                      bias.data(), whole.data()),
              TGRS_KERNEL_OK);
    for (const auto& [rows, cols] : {std::pair{2, 2}, std::pair{3, 1}, std::pair{1, 3}}) {
      std::vector<int32_t> acc(static_cast<size_t>(kMap.n) * kOut);
      std::vector<int8_t> out(whole.size(), 99);
      for (const tgrs_pool_box& b : Boxes(rows, cols)) {
        const std::vector<int8_t> band = Box(map, b);
        ASSERT_EQ(tgrs_fully_connected_band_s8(&q, &pcq, &kMap, &b, kOut, band.data(),
                                               filter.data(), bias.data(), acc.data(), out.data()),
                  TGRS_KERNEL_OK);
      }
      EXPECT_EQ(out, whole) << rows << "x" << cols;
    }
  }
}

TEST(FullyConnectedBand, ABoxOutsideTheMapIsABadWindow) {
  const std::vector<float> band(200), filter(static_cast<size_t>(kOut) * kK);
  std::vector<float> acc(64), out(64);
  for (const tgrs_pool_box& b : {tgrs_pool_box{2, 2, 0, 5}, tgrs_pool_box{0, 1, 4, 2},
                                 tgrs_pool_box{-1, 1, 0, 5}, tgrs_pool_box{0, 0, 0, 5}}) {
    EXPECT_EQ(tgrs_fully_connected_band_f32(nullptr, &kMap, &b, kOut, band.data(), filter.data(),
                                            nullptr, acc.data(), out.data()),
              TGRS_KERNEL_BAD_WINDOW);
  }
  const tgrs_pool_box ok = {0, 1, 0, 5};
  EXPECT_EQ(tgrs_fully_connected_band_f32(nullptr, &kMap, &ok, 0, band.data(), filter.data(),
                                          nullptr, acc.data(), out.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
