// tgrs_slice (runtime/kernels/slice.c): strided windows of a [N, H, W, C] tensor whose
// element values are their own flat index, so each expected output is the list of source
// indices, worked out by hand from out[i] = in[start + i * step] per axis.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "tgrs_kernels.h"

namespace {

// in: [1, 2, 3, 4] holding 0..23 (flat NHWC index) as int8 and as float.
constexpr tgrs_dims kIn = {1, 2, 3, 4};

std::vector<int8_t> Iota8() {
  std::vector<int8_t> v(24);
  std::iota(v.begin(), v.end(), int8_t{0});
  return v;
}

std::vector<int8_t> Slice8(const int32_t start[4], const int32_t step[4], tgrs_dims out,
                           tgrs_kernel_status* status) {
  const std::vector<int8_t> in = Iota8();
  std::vector<int8_t> y(static_cast<size_t>(out.n * out.h * out.w * out.c), -1);
  *status = tgrs_slice(1, start, step, &kIn, in.data(), &out, y.data());
  return y;
}

TEST(SliceKernelTest, ChannelRangeOfEveryPixel) {
  // C 1..3 of each of the 6 pixels: index 4 * pixel + {1, 2}.
  const int32_t start[4] = {0, 0, 0, 1}, step[4] = {1, 1, 1, 1};
  tgrs_kernel_status st;
  const std::vector<int8_t> y = Slice8(start, step, {1, 2, 3, 2}, &st);
  ASSERT_EQ(st, TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22}));
}

TEST(SliceKernelTest, StridesOnEveryAxisAndBackwards) {
  // H from 1 backwards (1, 0); W 0, 2; C 3, 1: index 12h + 4w + c.
  const int32_t start[4] = {0, 1, 0, 3}, step[4] = {1, -1, 2, -2};
  tgrs_kernel_status st;
  const std::vector<int8_t> y = Slice8(start, step, {1, 2, 2, 2}, &st);
  ASSERT_EQ(st, TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{15, 13, 23, 21, 3, 1, 11, 9}));
}

TEST(SliceKernelTest, FloatElementsMoveWhole) {
  std::vector<float> in(24);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5f + static_cast<float>(i);
  const int32_t start[4] = {0, 1, 2, 0}, step[4] = {1, 1, 1, 3};
  const tgrs_dims out = {1, 1, 1, 2};
  std::vector<float> y(2, -1.0f);
  ASSERT_EQ(tgrs_slice(sizeof(float), start, step, &kIn, in.data(), &out, y.data()),
            TGRS_KERNEL_OK);
  // H 1, W 2, C 0 and 3: 12 + 8 + {0, 3}.
  EXPECT_EQ(y, (std::vector<float>{20.5f, 23.5f}));
}

TEST(SliceKernelTest, WindowsPastTheInputAreRejectedBeforeAnyWrite) {
  struct Bad {
    const char* what;
    int32_t start[4], step[4];
    tgrs_dims out;
  };
  const Bad cases[] = {
      {"last index past W", {0, 0, 1, 0}, {1, 1, 2, 1}, {1, 2, 3, 4}},  // W 1, 3, 5
      {"start past C", {0, 0, 0, 4}, {1, 1, 1, 1}, {1, 2, 3, 1}},
      {"negative start", {0, -1, 0, 0}, {1, 1, 1, 1}, {1, 1, 3, 4}},
      {"backwards below 0", {0, 0, 1, 0}, {1, 1, -1, 1}, {1, 2, 3, 4}},
      {"step 0", {0, 0, 0, 0}, {1, 0, 1, 1}, {1, 2, 3, 4}},
      {"more outputs than inputs along H", {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 3, 3, 4}},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    tgrs_kernel_status st;
    const std::vector<int8_t> y = Slice8(c.start, c.step, c.out, &st);
    EXPECT_EQ(st, TGRS_KERNEL_BAD_ARGUMENT);
    for (int8_t v : y) ASSERT_EQ(v, -1) << "the output was written";
  }
  const int32_t start[4] = {0, 0, 0, 0}, step[4] = {1, 1, 1, 1};
  const std::vector<int8_t> in = Iota8();
  std::vector<int8_t> y(24);
  EXPECT_EQ(tgrs_slice(0, start, step, &kIn, in.data(), &kIn, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_slice(1, nullptr, step, &kIn, in.data(), &kIn, y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_slice(1, start, step, &kIn, nullptr, &kIn, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
