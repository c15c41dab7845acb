// tgrs_gather (runtime/kernels/gather.c): rows of a table whose elements hold their own
// flat index, so each expected output is the list of source elements, worked out by hand
// from ONNX Gather (axis 0): out[i..., j] = table[idx[i...], j], negative indices counting
// from the end, written through the output strides the executor derives from its layout.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "tgrs_kernels.h"

namespace {

// table [4, 3] holding 0..11.
std::vector<float> Table() {
  std::vector<float> t(12);
  std::iota(t.begin(), t.end(), 0.0f);
  return t;
}

tgrs_gather_params Params(int32_t index_size, int32_t outer, int32_t inner) {
  tgrs_gather_params p{};
  p.elem_size = sizeof(float);
  p.rows = 4;
  p.row_len = 3;
  p.index_size = index_size;
  p.outer = outer;
  p.inner = inner;
  p.stride_outer = inner * 3;  // ONNX order [outer, inner, 3]
  p.stride_inner = 3;
  p.stride_elem = 1;
  return p;
}

TEST(GatherKernelTest, RowsInIndexOrderWithNegativeIndicesFromTheEnd) {
  const std::vector<float> table = Table();
  const std::vector<int64_t> ids = {2, 0, -1, -4};  // rows 2, 0, 3, 0
  std::vector<float> y(12, -1.0f);
  const tgrs_gather_params p = Params(8, 1, 4);
  ASSERT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{6, 7, 8, 0, 1, 2, 9, 10, 11, 0, 1, 2}));
}

TEST(GatherKernelTest, Int32IndicesAndAnInt8Table) {
  std::vector<int8_t> table(12);
  std::iota(table.begin(), table.end(), int8_t{-6});  // -6..5
  const std::vector<int32_t> ids = {3, 1};
  std::vector<int8_t> y(6, 99);
  tgrs_gather_params p = Params(4, 1, 2);
  p.elem_size = 1;
  ASSERT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{3, 4, 5, -3, -2, -1}));
}

TEST(GatherKernelTest, WritesThroughTheOutputLayoutsStrides) {
  // ids [2, 2] -> ONNX out [2, 2, 3], stored NWC as [2, 3, 2]: element (o, i, j) at
  // o * 6 + j * 2 + i.
  const std::vector<float> table = Table();
  const std::vector<int64_t> ids = {1, 3, 0, 2};
  std::vector<float> y(12, -1.0f);
  tgrs_gather_params p = Params(8, 2, 2);
  p.stride_outer = 6;
  p.stride_inner = 1;
  p.stride_elem = 2;
  ASSERT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_OK);
  // o = 0: rows 1 (3,4,5) and 3 (9,10,11) interleaved; o = 1: rows 0 and 2.
  EXPECT_EQ(y, (std::vector<float>{3, 9, 4, 10, 5, 11, 0, 6, 1, 7, 2, 8}));
}

TEST(GatherKernelTest, AnIndexOutsideTheTableStopsBeforeReadingIt) {
  const std::vector<float> table = Table();
  for (int64_t bad : {int64_t{4}, int64_t{-5}, int64_t{1} << 40, INT64_MIN}) {
    SCOPED_TRACE(bad);
    const std::vector<int64_t> ids = {1, bad, 2};
    std::vector<float> y(9, -1.0f);
    const tgrs_gather_params p = Params(8, 1, 3);
    EXPECT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_INDEX_OUT_OF_RANGE);
    // The row before it is written, nothing from the bad index or after it.
    EXPECT_EQ(y, (std::vector<float>{3, 4, 5, -1, -1, -1, -1, -1, -1}));
  }
  // int32 extremes too.
  const std::vector<int32_t> ids32 = {INT32_MIN};
  std::vector<float> y(3, -1.0f);
  const tgrs_gather_params p = Params(4, 1, 1);
  EXPECT_EQ(tgrs_gather(&p, table.data(), ids32.data(), y.data()), TGRS_KERNEL_INDEX_OUT_OF_RANGE);
}

TEST(GatherKernelTest, BadArgumentsAreRejected) {
  const std::vector<float> table = Table();
  const std::vector<int64_t> ids = {0};
  std::vector<float> y(3);
  const tgrs_gather_params good = Params(8, 1, 1);
  ASSERT_EQ(tgrs_gather(&good, table.data(), ids.data(), y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(tgrs_gather(nullptr, table.data(), ids.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather(&good, nullptr, ids.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather(&good, table.data(), nullptr, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_gather(&good, table.data(), ids.data(), nullptr), TGRS_KERNEL_BAD_ARGUMENT);
  tgrs_gather_params p = good;
  p.index_size = 2;
  EXPECT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  p = good;
  p.rows = 0;
  EXPECT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  p = good;
  p.row_len = 0;
  EXPECT_EQ(tgrs_gather(&p, table.data(), ids.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
