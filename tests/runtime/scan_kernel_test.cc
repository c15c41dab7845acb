// Hardmax and CumSum (runtime/kernels/scan.c) against values written out by hand from ONNX's
// definitions, along every NHWC axis.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "tgrs_kernels.h"

namespace tigris {
namespace {

TEST(HardmaxKernel, FirstLargestOfEachLine) {
  // [1, 1, 2, 3]: along C (axis 3) the lines are rows of three; along W (axis 2) columns.
  const tgrs_dims d = {1, 1, 2, 3};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1.0f, 5.0f,  5.0f,  // a tie: the first wins
                                nan,  -2.0f, -1.0f};
  std::vector<float> y(6, -1.0f);
  ASSERT_EQ(tgrs_hardmax_f32(3, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{0, 1, 0, 1, 0, 0}));  // NaN first: nothing beats it
  ASSERT_EQ(tgrs_hardmax_f32(2, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(tgrs_hardmax_f32(4, &d, x.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(CumSumKernel, ForwardReverseInclusiveExclusive) {
  const tgrs_dims d = {1, 1, 1, 4};
  const std::vector<float> x = {1, 2, 3, 4};
  const struct {
    int exclusive, reverse;
    std::vector<float> want;
  } cases[] = {
      {0, 0, {1, 3, 6, 10}}, {1, 0, {0, 1, 3, 6}}, {0, 1, {10, 9, 7, 4}}, {1, 1, {9, 7, 4, 0}}};
  for (const auto& c : cases) {
    std::vector<float> y(4, -1.0f);
    ASSERT_EQ(tgrs_cumsum(TGRS_ELEM_F32, 3, c.exclusive, c.reverse, &d, x.data(), y.data()),
              TGRS_KERNEL_OK);
    EXPECT_EQ(y, c.want) << "exclusive " << c.exclusive << " reverse " << c.reverse;
  }
}

TEST(CumSumKernel, IntegersAlongAnOuterAxisWrap) {
  // [2, 1, 1, 2] along N: each of the two columns summed over N; int32 wraps.
  const tgrs_dims d = {2, 1, 1, 2};
  const std::vector<int32_t> x = {INT32_MAX, 5, 1, -7};
  std::vector<int32_t> y(4);
  ASSERT_EQ(tgrs_cumsum(TGRS_ELEM_I32, 0, 0, 0, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int32_t>{INT32_MAX, 5, INT32_MIN, -2}));
  const std::vector<int64_t> x64 = {3, 4, 5, 6};
  std::vector<int64_t> y64(4);
  ASSERT_EQ(tgrs_cumsum(TGRS_ELEM_I64, 0, 1, 1, &d, x64.data(), y64.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y64, (std::vector<int64_t>{5, 6, 0, 0}));
  EXPECT_EQ(tgrs_cumsum(TGRS_ELEM_BOOL, 0, 0, 0, &d, x64.data(), y64.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris
