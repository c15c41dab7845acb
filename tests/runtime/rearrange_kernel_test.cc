// Tile / Expand, DepthToSpace and SpaceToDepth (runtime/kernels/rearrange.c) against their ONNX
// definitions written as index arithmetic in the test (DepthToSpace's reshape-transpose-
// reshape, operators.md), in the runtime's [N, H, W, C] layout.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "tgrs_kernels.h"

namespace tigris {
namespace {

std::vector<int32_t> Iota(size_t n) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

size_t Count(const tgrs_dims& d) { return size_t(d.n) * d.h * d.w * d.c; }

size_t At(const tgrs_dims& d, int n, int h, int w, int c) {
  return ((size_t(n) * d.h + h) * d.w + w) * d.c + c;
}

TEST(TileKernel, RepeatsEveryAxisAndExpandsOnes) {
  const tgrs_dims in = {1, 2, 1, 3};
  const std::vector<int32_t> x = Iota(Count(in));
  for (const tgrs_dims out : {tgrs_dims{2, 4, 3, 6}, tgrs_dims{1, 2, 5, 3}}) {
    std::vector<int32_t> y(Count(out), -1);
    ASSERT_EQ(tgrs_tile(sizeof(int32_t), &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
    for (int n = 0; n < out.n; ++n)
      for (int h = 0; h < out.h; ++h)
        for (int w = 0; w < out.w; ++w)
          for (int c = 0; c < out.c; ++c) {
            ASSERT_EQ(y[At(out, n, h, w, c)], x[At(in, n % in.n, h % in.h, w % in.w, c % in.c)]);
          }
  }
  const tgrs_dims bad = {1, 3, 1, 3};  // 3 rows are no multiple of 2
  std::vector<int32_t> y(Count(bad));
  EXPECT_EQ(tgrs_tile(sizeof(int32_t), &in, x.data(), &bad, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(TileKernel, BroadcastsOneChannelAcrossAll) {
  const tgrs_dims in = {1, 1, 2, 1};
  const std::vector<int8_t> x = {7, -3};
  const tgrs_dims out = {1, 1, 2, 4};
  std::vector<int8_t> y(8);
  ASSERT_EQ(tgrs_tile(1, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{7, 7, 7, 7, -3, -3, -3, -3}));
}

// ONNX DepthToSpace on NCHW indices, mapped to NHWC: out[n, c', h b + i, w b + j] =
// in[n, depth, h, w], depth = (i b + j) C' + c' (DCR) or c' b b + i b + j (CRD).
void CheckDepthToSpace(int b, bool crd) {
  const tgrs_dims in = {2, 2, 3, 2 * b * b};
  const tgrs_dims out = {2, 2 * b, 3 * b, 2};
  const std::vector<int32_t> x = Iota(Count(in));
  std::vector<int32_t> y(Count(out), -1);
  ASSERT_EQ(tgrs_depth_to_space(sizeof(int32_t), b, crd, &in, x.data(), y.data()), TGRS_KERNEL_OK);
  for (int n = 0; n < in.n; ++n)
    for (int h = 0; h < in.h; ++h)
      for (int w = 0; w < in.w; ++w)
        for (int i = 0; i < b; ++i)
          for (int j = 0; j < b; ++j)
            for (int c = 0; c < out.c; ++c) {
              const int depth = crd ? c * b * b + i * b + j : (i * b + j) * out.c + c;
              ASSERT_EQ(y[At(out, n, h * b + i, w * b + j, c)], x[At(in, n, h, w, depth)])
                  << "b " << b << (crd ? " CRD" : " DCR");
            }
  // SpaceToDepth in the same order is the inverse: it gives the input back.
  std::vector<int32_t> back(Count(in), -1);
  ASSERT_EQ(tgrs_space_to_depth(sizeof(int32_t), b, crd, &out, y.data(), back.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(back, x);
}

TEST(DepthToSpaceKernel, DcrAndCrdOrdersMatchOnnx) {
  for (int b : {1, 2, 3}) {
    CheckDepthToSpace(b, false);
    CheckDepthToSpace(b, true);
  }
}

TEST(DepthToSpaceKernel, BlocksThatDoNotDivideAreRefused) {
  const tgrs_dims in = {1, 2, 2, 6};  // 6 channels, b = 2 needs a multiple of 4
  std::vector<float> x(Count(in)), y(Count(in));
  EXPECT_EQ(tgrs_depth_to_space(4, 2, 0, &in, x.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  const tgrs_dims odd = {1, 3, 4, 1};  // 3 rows, b = 2
  EXPECT_EQ(tgrs_space_to_depth(4, 2, 0, &odd, x.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris
