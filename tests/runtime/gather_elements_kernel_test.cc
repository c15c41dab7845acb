// tgrs_gather_elements (runtime/kernels/gather_elements.c) on an input whose elements hold
// their own flat index, so each expected output lists the source elements, worked out by
// hand from ONNX GatherElements: out[p] = in[p with its coordinate along axis := idx[p]].
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "tgrs_kernels.h"

namespace {

// [1, 1, 3, 4] holding 0..11: element (w, c) is 4 w + c.
std::vector<float> Input() {
  std::vector<float> x(12);
  std::iota(x.begin(), x.end(), 0.0f);
  return x;
}

TEST(GatherElementsKernel, AlongTheLastAndAnInnerAxis) {
  const tgrs_dims in = {1, 1, 3, 4};
  const std::vector<float> x = Input();
  // Along C (axis 3), output [1, 1, 2, 2]: rows w = 0, 1; out[w][c] = x[w][idx[w][c]].
  const tgrs_dims out = {1, 1, 2, 2};
  const std::vector<int64_t> along_c = {3, -4, 1, -1};
  std::vector<float> y(4, -1.0f);
  ASSERT_EQ(tgrs_gather_elements(4, 3, 8, &in, x.data(), &out, along_c.data(), y.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{3, 0, 5, 7}));
  // Along W (axis 2), int32 indices: out[w][c] = x[idx[w][c]][c].
  const std::vector<int32_t> along_w = {2, 0, -1, 1};
  ASSERT_EQ(tgrs_gather_elements(4, 2, 4, &in, x.data(), &out, along_w.data(), y.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{8, 1, 8, 5}));
}

TEST(GatherElementsKernel, AnIndexOutsideTheAxisStopsBeforeReadingIt) {
  const tgrs_dims in = {1, 1, 3, 4}, out = {1, 1, 1, 2};
  const std::vector<float> x = Input();
  const std::vector<int64_t> idx = {1, 4};
  std::vector<float> y(2, -1.0f);
  EXPECT_EQ(tgrs_gather_elements(4, 3, 8, &in, x.data(), &out, idx.data(), y.data()),
            TGRS_KERNEL_INDEX_OUT_OF_RANGE);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], -1.0f);
}

TEST(GatherElementsKernel, BadArgumentsAreRejected) {
  const tgrs_dims in = {1, 1, 3, 4}, wide = {1, 1, 1, 5}, tall = {1, 1, 4, 1};
  const std::vector<float> x = Input();
  const std::vector<int64_t> idx(5, 0);
  std::vector<float> y(5);
  // Wider than the input along an axis it does not gather on; any extent along its own.
  EXPECT_EQ(tgrs_gather_elements(4, 2, 8, &in, x.data(), &wide, idx.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather_elements(4, 2, 8, &in, x.data(), &tall, idx.data(), y.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(tgrs_gather_elements(4, 4, 8, &in, x.data(), &tall, idx.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather_elements(4, 2, 2, &in, x.data(), &tall, idx.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather_elements(4, 2, 8, &in, nullptr, &tall, idx.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
