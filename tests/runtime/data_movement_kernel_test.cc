// Concat, Reshape, Transpose, Pad and Resize kernels (runtime/kernels/concat.c,
// transpose.c, pad.c, resize.c) against index arithmetic written out in the tests and
// hand-computed ONNX examples; Pad and Resize also tiled == untiled.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

int At(const tgrs_dims& d, int n, int h, int w, int c) {
  return ((n * d.h + h) * d.w + w) * d.c + c;
}

// Two int8 inputs concatenated on `axis` of [N, H, W, C], the second shorter on the axis,
// and the index arithmetic that says which input element lands at each output position.
struct TwoInputConcat {
  TwoInputConcat(int axis_in, unsigned seed) : axis(axis_in), a{2, 3, 4, 5}, b(a), out(a) {
    Extent(b) = 2;
    a_len = Extent(out);
    Extent(out) += 2;
    x = RandomS8(size_t(a.n) * a.h * a.w * a.c, seed);
    y = RandomS8(size_t(b.n) * b.h * b.w * b.c, seed + 10);
  }
  int& Extent(tgrs_dims& d) const {
    return axis == 0 ? d.n : axis == 1 ? d.h : axis == 2 ? d.w : d.c;
  }
  size_t OutputSize() const { return size_t(out.n) * out.h * out.w * out.c; }
  // Calls check(output index, input element, whether it comes from the first input).
  template <typename Check>
  void ForEachOutput(Check check) const {
    for (int n = 0; n < out.n; ++n)
      for (int h = 0; h < out.h; ++h)
        for (int w = 0; w < out.w; ++w)
          for (int c = 0; c < out.c; ++c) {
            int idx[4] = {n, h, w, c};
            const bool first = idx[axis] < a_len;
            if (!first) idx[axis] -= a_len;
            const int8_t v = first ? x[At(a, idx[0], idx[1], idx[2], idx[3])]
                                   : y[At(b, idx[0], idx[1], idx[2], idx[3])];
            check(At(out, n, h, w, c), v, first);
          }
  }

  int axis;
  tgrs_dims a, b, out;
  int a_len = 0;
  std::vector<int8_t> x, y;
};

TEST(Concat, EveryAxisMatchesIndexArithmetic) {
  for (int axis = 0; axis < 4; ++axis) {
    const TwoInputConcat t(axis, 500 + axis);
    std::vector<int8_t> got(t.OutputSize());
    const tgrs_dims* dims[2] = {&t.a, &t.b};
    const void* data[2] = {t.x.data(), t.y.data()};
    ASSERT_EQ(tgrs_concat(1, axis, 2, dims, data, got.data()), TGRS_KERNEL_OK);
    t.ForEachOutput([&](int i, int8_t want, bool) { ASSERT_EQ(got[i], want) << axis; });
  }
}

TEST(Concat, RejectsMismatchedOtherDims) {
  const tgrs_dims a{1, 2, 2, 3}, b{1, 3, 2, 3};
  const tgrs_dims* dims[2] = {&a, &b};
  std::vector<float> x(12), y(18), out(30);
  const void* data[2] = {x.data(), y.data()};
  EXPECT_EQ(tgrs_concat(4, 3, 2, dims, data, out.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

// ONNX DequantizeLinear then QuantizeLinear of one int8 value, in float32 as the operators
// are defined (and onnxruntime computes them): the reference of the requantizing concat.
int8_t DequantizeQuantize(int8_t v, const tgrs_concat_quant_s8& in,
                          const tgrs_concat_quant_s8& out) {
  const float real = static_cast<float>(v - in.zero_point) * in.scale;
  const float q = std::nearbyint(real / out.scale) + static_cast<float>(out.zero_point);
  return static_cast<int8_t>(std::fmin(127.0f, std::fmax(-128.0f, q)));
}

// int8 Concat with per-input requantization, on every axis, against the index arithmetic
// above and ONNX's float definition. Scales 0.05 -> 0.04 put many values exactly on a
// rounding tie in real arithmetic, where only the float32 computation decides.
TEST(ConcatS8, RequantizesEachInputOnEveryAxis) {
  const tgrs_concat_quant_s8 quant[2] = {{0.05f, -3}, {0.013f, 10}};
  const tgrs_concat_quant_s8 out_quant{0.04f, 5};
  for (int axis = 0; axis < 4; ++axis) {
    const TwoInputConcat t(axis, 600 + axis);
    std::vector<int8_t> got(t.OutputSize());
    const tgrs_dims* dims[2] = {&t.a, &t.b};
    const int8_t* data[2] = {t.x.data(), t.y.data()};
    ASSERT_EQ(tgrs_concat_s8(axis, 2, dims, data, quant, out_quant, got.data()), TGRS_KERNEL_OK);
    t.ForEachOutput([&](int i, int8_t v, bool first) {
      ASSERT_EQ(got[i], DequantizeQuantize(v, quant[first ? 0 : 1], out_quant)) << axis;
    });
  }
}

TEST(ConcatS8, EqualQuantizationIsTheByteConcat) {
  const tgrs_dims a{1, 2, 2, 3}, b{1, 2, 2, 4};
  const std::vector<int8_t> x = RandomS8(12, 620), y = RandomS8(16, 621);
  const tgrs_dims* dims[2] = {&a, &b};
  const int8_t* bytes[2] = {x.data(), y.data()};
  const void* data[2] = {x.data(), y.data()};
  const tgrs_concat_quant_s8 same[2] = {{0.37f, 7}, {0.37f, 7}};
  std::vector<int8_t> got(28), want(28);
  ASSERT_EQ(tgrs_concat_s8(3, 2, dims, bytes, same, same[0], got.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_concat(1, 3, 2, dims, data, want.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(got, want);
}

TEST(ConcatS8, RejectsZeroPointsOutsideInt8AndBadScales) {
  const tgrs_dims a{1, 1, 1, 2};
  const tgrs_dims* dims[1] = {&a};
  const int8_t x[2] = {1, 2};
  const int8_t* data[1] = {x};
  int8_t out[2];
  const tgrs_concat_quant_s8 ok{0.5f, 0};
  const tgrs_concat_quant_s8 bad[] = {{0.5f, 128}, {0.5f, -129},       {0.0f, 0},
                                      {-1.0f, 0},  {std::nanf(""), 0}, {INFINITY, 0}};
  for (const tgrs_concat_quant_s8& q : bad) {
    EXPECT_EQ(tgrs_concat_s8(3, 1, dims, data, &q, ok, out), TGRS_KERNEL_BAD_ARGUMENT);
    EXPECT_EQ(tgrs_concat_s8(3, 1, dims, data, &ok, q, out), TGRS_KERNEL_BAD_ARGUMENT);
  }
  EXPECT_EQ(tgrs_concat_s8(3, 1, dims, data, nullptr, ok, out), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(Reshape, CopiesOrLeavesInPlace) {
  std::vector<float> x{1, 2, 3}, y(3);
  tgrs_reshape(sizeof(float) * 3, x.data(), y.data());
  EXPECT_EQ(y, x);
  tgrs_reshape(sizeof(float) * 3, x.data(), x.data());
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3}));
}

TEST(Transpose, AllPermutationsOfRank4) {
  const tgrs_dims d{2, 3, 4, 5};
  const int dim[4] = {2, 3, 4, 5};
  std::vector<float> x(120);
  std::iota(x.begin(), x.end(), 0.0f);
  int32_t perm[4] = {0, 1, 2, 3};
  int count = 0;
  do {
    std::vector<float> got(120);
    ASSERT_EQ(tgrs_transpose(sizeof(float), perm, &d, x.data(), got.data()), TGRS_KERNEL_OK);
    const int od[4] = {dim[perm[0]], dim[perm[1]], dim[perm[2]], dim[perm[3]]};
    int o = 0;
    for (int i0 = 0; i0 < od[0]; ++i0)
      for (int i1 = 0; i1 < od[1]; ++i1)
        for (int i2 = 0; i2 < od[2]; ++i2)
          for (int i3 = 0; i3 < od[3]; ++i3, ++o) {
            int in_idx[4];
            in_idx[perm[0]] = i0;
            in_idx[perm[1]] = i1;
            in_idx[perm[2]] = i2;
            in_idx[perm[3]] = i3;
            ASSERT_EQ(got[o], x[At(d, in_idx[0], in_idx[1], in_idx[2], in_idx[3])]);
          }
    ++count;
  } while (std::next_permutation(perm, perm + 4));
  EXPECT_EQ(count, 24);
  // int8 (elem_size 1) NHWC -> NCHW.
  const tgrs_dims d8{1, 2, 3, 2};
  const std::vector<int8_t> x8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const int32_t to_nchw[4] = {0, 3, 1, 2};
  std::vector<int8_t> y8(12);
  ASSERT_EQ(tgrs_transpose(1, to_nchw, &d8, x8.data(), y8.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y8, (std::vector<int8_t>{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
  const int32_t bad[4] = {0, 0, 1, 2};
  EXPECT_EQ(tgrs_transpose(1, bad, &d8, x8.data(), y8.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

// ---- Pad ---------------------------------------------------------------------------------

TEST(Pad, ConstantReflectEdgeHandComputed) {
  // One row [1, 2, 3] padded left 2, right 2 (W only): ONNX examples.
  const tgrs_dims in{1, 1, 3, 1}, out{1, 1, 7, 1};
  const std::vector<float> x{1, 2, 3};
  std::vector<float> y(7);
  const tgrs_row_window w = tgrs_row_window_full(1, 1);
  tgrs_pad_params p{0, 0, 2, 2, 0, 0, TGRS_PAD_CONSTANT};
  ASSERT_EQ(tgrs_pad_f32(&p, &w, 9.0f, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{9, 9, 1, 2, 3, 9, 9}));
  p.mode = TGRS_PAD_REFLECT;
  ASSERT_EQ(tgrs_pad_f32(&p, &w, 0.0f, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  p.mode = TGRS_PAD_EDGE;
  ASSERT_EQ(tgrs_pad_f32(&p, &w, 0.0f, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{1, 1, 1, 2, 3, 3, 3}));
}

TEST(Pad, S8AllSidesAndChannelsMatchesIndexArithmeticAndTiles) {
  const tgrs_dims in{2, 5, 4, 3};
  const tgrs_pad_params p{2, 1, 1, 3, 1, 2, TGRS_PAD_CONSTANT};
  const tgrs_dims out{2, 8, 8, 6};
  const std::vector<int8_t> x = RandomS8(size_t(2) * 5 * 4 * 3, 520);
  std::vector<int8_t> got(size_t(2) * 8 * 8 * 6);
  const int8_t zp = -128;
  ASSERT_EQ(tgrs_pad_s8(&p, nullptr, zp, &in, x.data(), &out, got.data()),
            TGRS_KERNEL_BAD_ARGUMENT);  // a window is required
  const tgrs_row_window full = tgrs_row_window_full(5, 8);
  ASSERT_EQ(tgrs_pad_s8(&p, &full, zp, &in, x.data(), &out, got.data()), TGRS_KERNEL_OK);
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 8; ++h)
      for (int w = 0; w < 8; ++w)
        for (int c = 0; c < 6; ++c) {
          const int ih = h - 2, iw = w - 1, ic = c - 1;
          const bool inside = ih >= 0 && ih < 5 && iw >= 0 && iw < 4 && ic >= 0 && ic < 3;
          ASSERT_EQ(got[At(out, n, h, w, c)], inside ? x[At(in, n, ih, iw, ic)] : zp);
        }
  for (int tiles = 2; tiles <= 4; ++tiles) {
    // Output rows [a, b) read input rows [a - pad_top, b - pad_top): a 1-row window.
    const std::vector<int8_t> tiled =
        RunTiled(x, 2, 5, 12, 8, 48, tiles, 1, 1, 1, 2,
                 [&](const tgrs_row_window& w, const int8_t* i, int8_t* o) {
                   return tgrs_pad_s8(&p, &w, zp, &in, i, &out, o);
                 });
    EXPECT_TRUE(SameBytes(tiled, got)) << tiles;
  }
}

// Reflect and edge move int8 elements as they move float32 ones: the same picks of x.
TEST(Pad, S8ReflectAndEdgePickWhatF32Picks) {
  const tgrs_dims in{1, 4, 5, 2}, out{1, 8, 9, 2};
  const tgrs_pad_params pads{2, 2, 2, 2, 0, 0, TGRS_PAD_CONSTANT};
  const std::vector<int8_t> x = RandomS8(40, 525);
  const std::vector<float> xf(x.begin(), x.end());
  const tgrs_row_window w = tgrs_row_window_full(4, 8);
  for (tgrs_pad_mode mode : {TGRS_PAD_REFLECT, TGRS_PAD_EDGE}) {
    tgrs_pad_params p = pads;
    p.mode = mode;
    std::vector<int8_t> got(144);
    std::vector<float> want(144);
    ASSERT_EQ(tgrs_pad_s8(&p, &w, 0, &in, x.data(), &out, got.data()), TGRS_KERNEL_OK) << mode;
    ASSERT_EQ(tgrs_pad_f32(&p, &w, 0.0f, &in, xf.data(), &out, want.data()), TGRS_KERNEL_OK);
    EXPECT_EQ(std::vector<float>(got.begin(), got.end()), want) << mode;
  }
  // Reflect: output column 0 is input column 2 (ONNX: [1, 2, 3] -> [3, 2, 1, 2, 3, ...]).
  tgrs_pad_params reflect = pads;
  reflect.mode = TGRS_PAD_REFLECT;
  std::vector<int8_t> y(144);
  ASSERT_EQ(tgrs_pad_s8(&reflect, &w, 0, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y[At(out, 0, 2, 0, 1)], x[At(in, 0, 0, 2, 1)]);
}

TEST(Pad, F32EdgeTilesAreByteIdentical) {
  const tgrs_dims in{1, 6, 3, 2};
  const tgrs_pad_params p{2, 2, 1, 1, 0, 0, TGRS_PAD_EDGE};
  const tgrs_dims out{1, 10, 5, 2};
  const std::vector<float> x = RandomF32(36, 530);
  std::vector<float> full(100);
  const tgrs_row_window fw = tgrs_row_window_full(6, 10);
  ASSERT_EQ(tgrs_pad_f32(&p, &fw, 0.0f, &in, x.data(), &out, full.data()), TGRS_KERNEL_OK);
  // Row 0 of the output is input row 0 (edge), column 0 is input column 0.
  EXPECT_EQ(full[At(out, 0, 0, 0, 1)], x[At(in, 0, 0, 0, 1)]);
  EXPECT_EQ(full[At(out, 0, 9, 4, 0)], x[At(in, 0, 5, 2, 0)]);
  for (int tiles = 2; tiles <= 4; ++tiles) {
    // Edge rows clamp to input row 0 or 5, so a strip also holds the edge row it repeats.
    const std::vector<float> tiled_edge = RunTiledRows(
        x, 1, 6, 6, 10, 10, tiles,
        [](int a, int b) {
          return Rows{std::clamp(a - 2, 0, 5), std::clamp(b - 2, 1, 6)};
        },
        [&](const tgrs_row_window& w, const float* i, float* o) {
          return tgrs_pad_f32(&p, &w, 0.0f, &in, i, &out, o);
        });
    EXPECT_TRUE(SameBytes(tiled_edge, full)) << tiles;
  }
}

// ---- Resize --------------------------------------------------------------------------------

std::vector<float> Resize1D(const std::vector<float>& x, int out_w, tgrs_resize_params p) {
  const tgrs_dims in{1, 1, int(x.size()), 1}, out{1, 1, out_w, 1};
  std::vector<float> y(out_w);
  const tgrs_row_window w = tgrs_row_window_full(1, 1);
  p.scale_h = 1.0f;
  EXPECT_EQ(tgrs_resize_f32(&p, &w, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  return y;
}

TEST(Resize, NearestModesHandComputed) {
  const std::vector<float> x{0, 1, 2};
  tgrs_resize_params p{
      TGRS_RESIZE_NEAREST, TGRS_COORD_ASYMMETRIC, TGRS_NEAREST_FLOOR, 1, 2, 1, 1, 0, 0};
  // asymmetric x / 2 floored: 0 0 1 1 2 2.
  EXPECT_EQ(Resize1D(x, 6, p), (std::vector<float>{0, 0, 1, 1, 2, 2}));
  // half_pixel (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, 1.75, 2.25;
  // round_prefer_floor -> 0, 0, 1, 1, 2, 2 (clamped).
  p.coord = TGRS_COORD_HALF_PIXEL;
  p.nearest = TGRS_NEAREST_ROUND_PREFER_FLOOR;
  EXPECT_EQ(Resize1D(x, 6, p), (std::vector<float>{0, 0, 1, 1, 2, 2}));
  // scale 4 asymmetric: x / 4 = 0, .25, .5, .75, 1, ... ; prefer_floor keeps .5 at 0,
  // prefer_ceil moves it to 1, ceil moves every fraction up.
  p.coord = TGRS_COORD_ASYMMETRIC;
  p.scale_w = 4;
  EXPECT_EQ(Resize1D(x, 6, p), (std::vector<float>{0, 0, 0, 1, 1, 1}));
  p.nearest = TGRS_NEAREST_ROUND_PREFER_CEIL;
  EXPECT_EQ(Resize1D(x, 6, p), (std::vector<float>{0, 0, 1, 1, 1, 1}));
  p.nearest = TGRS_NEAREST_CEIL;
  EXPECT_EQ(Resize1D(x, 6, p), (std::vector<float>{0, 1, 1, 1, 1, 2}));
  // align_corners 3 -> 5: x * 2 / 4 = 0, .5, 1, 1.5, 2; round_prefer_floor: 0 0 1 1 2.
  p.coord = TGRS_COORD_ALIGN_CORNERS;
  p.nearest = TGRS_NEAREST_ROUND_PREFER_FLOOR;
  p.scale_w = 5.0f / 3.0f;
  EXPECT_EQ(Resize1D(x, 5, p), (std::vector<float>{0, 0, 1, 1, 2}));
}

TEST(Resize, LinearHandComputed) {
  tgrs_resize_params p{
      TGRS_RESIZE_LINEAR, TGRS_COORD_ALIGN_CORNERS, TGRS_NEAREST_FLOOR, 1, 5.0f / 3.0f, 1, 1, 0, 0};
  // align_corners 3 -> 5 over [0, 10, 20]: coordinates 0, .5, 1, 1.5, 2.
  EXPECT_EQ(Resize1D({0, 10, 20}, 5, p), (std::vector<float>{0, 5, 10, 15, 20}));
  // half_pixel 2 -> 4 over [0, 4]: coordinates -0.25 (clamped 0), 0.25, 0.75, 1.25 (1).
  p.coord = TGRS_COORD_HALF_PIXEL;
  p.scale_w = 2;
  EXPECT_EQ(Resize1D({0, 4}, 4, p), (std::vector<float>{0, 1, 3, 4}));
}

TEST(Resize, TilesAreByteIdenticalS8NearestAndF32Linear) {
  const tgrs_dims in{2, 5, 4, 3}, out{2, 10, 8, 3};
  const std::vector<int8_t> x8 = RandomS8(size_t(2) * 5 * 4 * 3, 540);
  const std::vector<float> xf = RandomF32(x8.size(), 541);
  const tgrs_resize_params pn{TGRS_RESIZE_NEAREST,
                              TGRS_COORD_HALF_PIXEL,
                              TGRS_NEAREST_ROUND_PREFER_FLOOR,
                              2,
                              2,
                              1,
                              1,
                              0,
                              0};
  const tgrs_resize_params pl{
      TGRS_RESIZE_LINEAR, TGRS_COORD_HALF_PIXEL, TGRS_NEAREST_ROUND_PREFER_FLOOR, 2, 2, 1, 1, 0, 0};
  const tgrs_row_window full = tgrs_row_window_full(5, 10);
  std::vector<int8_t> y8(size_t(2) * 10 * 8 * 3);
  std::vector<float> yf(y8.size());
  ASSERT_EQ(tgrs_resize_s8(&pn, &full, &in, x8.data(), &out, y8.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_resize_f32(&pl, &full, &in, xf.data(), &out, yf.data()), TGRS_KERNEL_OK);
  // Nearest 2x half_pixel: output (h, w) = input (h / 2, w / 2).
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 10; ++h)
      for (int w = 0; w < 8; ++w)
        for (int c = 0; c < 3; ++c)
          ASSERT_EQ(y8[At(out, n, h, w, c)], x8[At(in, n, h / 2, w / 2, c)]);
  // Output rows [a, b) of a 2x half_pixel upsample read input rows
  // [floor((a + .5) / 2 - .5), floor((b - .5) / 2 - .5) + 2) clipped (linear neighbours).
  auto rows = [](int a, int b) {
    return Rows{int(std::floor((a + 0.5) / 2 - 0.5)), int(std::floor((b - 0.5) / 2 - 0.5)) + 2};
  };
  for (int tiles = 2; tiles <= 4; ++tiles) {
    EXPECT_TRUE(SameBytes(RunTiledRows(x8, 2, 5, 12, 10, 24, tiles, rows,
                                       [&](const tgrs_row_window& w, const int8_t* i, int8_t* o) {
                                         return tgrs_resize_s8(&pn, &w, &in, i, &out, o);
                                       }),
                          y8));
    EXPECT_TRUE(SameBytes(RunTiledRows(xf, 2, 5, 12, 10, 24, tiles, rows,
                                       [&](const tgrs_row_window& w, const float* i, float* o) {
                                         return tgrs_resize_f32(&pl, &w, &in, i, &out, o);
                                       }),
                          yf));
  }
  // A strip missing a needed row is rejected.
  const tgrs_row_window short_strip{0, 1, 0, 4};
  EXPECT_EQ(tgrs_resize_f32(&pl, &short_strip, &in, xf.data(), &out, yf.data()),
            TGRS_KERNEL_BAD_WINDOW);
}

}  // namespace
TEST(Resize, NearestS8RequantizesWhenTheQuantizationChanges) {
  // [-100, 0, 100] at scale 0.1, zero point 0, to scale 0.25, zero point 5 (x2 upsample):
  // -10, 0, 10 -> round(-40) + 5 = -35, 5, 45, each twice. Same quantization: the bytes.
  const tgrs_dims in{1, 1, 3, 1}, out{1, 1, 6, 1};
  const std::vector<int8_t> x{-100, 0, 100};
  std::vector<int8_t> y(6);
  const tgrs_row_window w = tgrs_row_window_full(1, 1);
  tgrs_resize_params p{
      TGRS_RESIZE_NEAREST, TGRS_COORD_ASYMMETRIC, TGRS_NEAREST_FLOOR, 1, 2, 0.1f, 0.25f, 0, 5};
  ASSERT_EQ(tgrs_resize_s8(&p, &w, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{-35, -35, 5, 5, 45, 45}));
  p.output_scale = 0.1f;
  p.output_zero_point = 0;
  ASSERT_EQ(tgrs_resize_s8(&p, &w, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<int8_t>{-100, -100, 0, 0, 100, 100}));
  p.output_scale = 0.0f;  // a scale the plan cannot have
  EXPECT_EQ(tgrs_resize_s8(&p, &w, &in, x.data(), &out, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(Resize, LinearS8IsQdqAroundTheFloatKernel) {
  // Hand-computed: [0, 4] at scale 0.5 is [0, 2]; half_pixel 2 -> 4 blends it to
  // [0, 0.5, 1.5, 2], which at scale 0.25 and zero point -10 is [-10, -8, -4, -2].
  {
    const tgrs_dims in{1, 1, 2, 1}, out{1, 1, 4, 1};
    const tgrs_resize_params p{
        TGRS_RESIZE_LINEAR, TGRS_COORD_HALF_PIXEL, TGRS_NEAREST_FLOOR, 1, 2, 0.5f, 0.25f, 0, -10};
    const std::vector<int8_t> x{0, 4};
    std::vector<int8_t> y(4);
    const tgrs_row_window w = tgrs_row_window_full(1, 1);
    ASSERT_EQ(tgrs_resize_s8(&p, &w, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
    EXPECT_EQ(y, (std::vector<int8_t>{-10, -8, -4, -2}));
  }
  // Random data, a fractional scale (5 -> 12 rows, 4 -> 9 columns): the int8 kernel equals
  // tgrs_dequantize -> tgrs_resize_f32 -> tgrs_quantize, value for value, and its row
  // tiles the whole.
  const tgrs_dims in{2, 5, 4, 3}, out{2, 12, 9, 3};
  const std::vector<int8_t> x = RandomS8(size_t(2) * 5 * 4 * 3, 542);
  const tgrs_resize_params p{TGRS_RESIZE_LINEAR,
                             TGRS_COORD_PYTORCH_HALF_PIXEL,
                             TGRS_NEAREST_ROUND_PREFER_FLOOR,
                             2.4f,
                             2.25f,
                             0.031f,
                             0.027f,
                             7,
                             -3};
  const tgrs_row_window full = tgrs_row_window_full(5, 12);
  std::vector<float> xf(x.size()), yf(size_t(2) * 12 * 9 * 3);
  tgrs_dequantize_s8_f32(p.input_scale, p.input_zero_point, x.size(), x.data(), xf.data());
  ASSERT_EQ(tgrs_resize_f32(&p, &full, &in, xf.data(), &out, yf.data()), TGRS_KERNEL_OK);
  std::vector<int8_t> expected(yf.size()), y(yf.size());
  tgrs_quantize_f32_s8(p.output_scale, p.output_zero_point, yf.size(), yf.data(), expected.data());
  ASSERT_EQ(tgrs_resize_s8(&p, &full, &in, x.data(), &out, y.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(y, expected);
  auto rows = [](int a, int b) {
    const auto source = [](int r) { return std::max(0.0, (r + 0.5) / 2.4 - 0.5); };
    return Rows{int(std::floor(source(a))) - 1, int(std::floor(source(b - 1))) + 2};
  };
  for (int tiles = 2; tiles <= 4; ++tiles) {
    EXPECT_TRUE(SameBytes(RunTiledRows(x, 2, 5, 12, 12, 27, tiles, rows,
                                       [&](const tgrs_row_window& w, const int8_t* i, int8_t* o) {
                                         return tgrs_resize_s8(&p, &w, &in, i, &out, o);
                                       }),
                          y));
  }
}

}  // namespace tigris::ref
