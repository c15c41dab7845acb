// Max/Average/Global pooling kernels (runtime/kernels/pooling.c) against the NCHW reference
// windows of reference/conv_ref.h: int8 bit-exact, float32 tight, row tiles byte-identical.
#include <gtest/gtest.h>

#include <cfloat>
#include <string>
#include <vector>

#include "runtime/reference/conv_ref.h"
#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

struct PoolCase {
  std::string name;
  int n, c, h, w;
  PoolGeom g;
  int in_zp, out_zp;
  double rescale;  // in_scale / out_scale
};

PoolGeom PGeom(int k, int s, int d, int pt, int pl, int pb, int pr, bool include_pad) {
  PoolGeom g;
  g.kh = g.kw = k;
  g.stride_h = g.stride_w = s;
  g.dil_h = g.dil_w = d;
  g.pad_top = pt;
  g.pad_left = pl;
  g.pad_bottom = pb;
  g.pad_right = pr;
  g.count_include_pad = include_pad;
  return g;
}

const std::vector<PoolCase>& PoolCases() {
  static const std::vector<PoolCase> cases = {
      {"k3s1_pad1_excl", 1, 5, 7, 6, PGeom(3, 1, 1, 1, 1, 1, 1, false), 3, 3, 1.0},
      {"k3s1_pad1_incl", 1, 5, 7, 6, PGeom(3, 1, 1, 1, 1, 1, 1, true), -128, -128, 1.0},
      {"k2s2_odd", 2, 3, 9, 7, PGeom(2, 2, 1, 0, 0, 1, 1, false), 127, 127, 1.0},
      {"k3s2_dil2_incl", 1, 4, 11, 10, PGeom(3, 2, 2, 2, 1, 2, 1, true), 10, 10, 1.0},
      {"k3s2_rescaled", 1, 40, 8, 8, PGeom(3, 2, 1, 1, 1, 1, 1, false), -5, 20, 0.37},
      {"k5s3_asym", 1, 2, 13, 12, PGeom(5, 3, 1, 2, 0, 1, 2, true), 0, -1, 2.5},
  };
  return cases;
}

class PoolTest : public ::testing::TestWithParam<PoolCase> {};

struct PoolSetup {
  Shape4 in, out;
  tgrs_pool_params params{};
  tgrs_dims in_d{}, out_d{};
};

PoolSetup MakeSetup(const PoolCase& c) {
  PoolSetup s;
  s.in = {c.n, c.c, c.h, c.w};
  s.out = {c.n, c.c, ConvOut(c.h, c.g.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, c.g.pad_bottom),
           ConvOut(c.w, c.g.kw, c.g.stride_w, c.g.dil_w, c.g.pad_left, c.g.pad_right)};
  s.params = {c.g.kh,
              c.g.kw,
              c.g.stride_h,
              c.g.stride_w,
              c.g.dil_h,
              c.g.dil_w,
              c.g.pad_top,
              c.g.pad_left,
              c.g.pad_bottom,
              c.g.pad_right,
              c.g.count_include_pad ? 1 : 0};
  s.in_d = {c.n, c.h, c.w, c.c};
  s.out_d = {c.n, s.out.h, s.out.w, c.c};
  return s;
}

tgrs_requant Rescale(double r) {
  tgrs_requant q{};
  int shift = 0;
  tgrs_quantize_multiplier(r, &q.multiplier, &shift);
  q.shift = shift;
  return q;
}

// round_half_even(acc * rq.multiplier * 2^(rq.shift - 31) / count) as an exact fraction
// num / den in __int128 (|acc * m| < 2^62, den <= count * 2^62).
__extension__ typedef __int128 Int128;  // GCC and Clang on 64-bit hosts (the tests' hosts)
int64_t AverageHalfEven(int64_t acc, const tgrs_requant& rq, int64_t count) {
  Int128 num = static_cast<Int128>(acc) * rq.multiplier;
  Int128 den = count;
  if (rq.shift >= 31) {
    num *= static_cast<Int128>(1) << (rq.shift - 31);
  } else {
    den *= static_cast<Int128>(1) << (31 - rq.shift);
  }
  Int128 q = num / den, r = num % den;  // truncation toward zero
  if (r < 0) {
    r += den;
    q -= 1;
  }
  if (2 * r > den || (2 * r == den && (q & 1) != 0)) q += 1;
  return static_cast<int64_t>(q);
}

TEST(AvgPool, SingleRoundingHalfEvenHandComputed) {
  // count 4, identity scale: 6 / 4 = 1.5 -> 2 (even), 10 / 4 = 2.5 -> 2, -6 / 4 = -1.5 -> -2,
  // 7 / 4 = 1.75 -> 2. Scale 1/2 ({2^30, 0}): 6 * 0.5 / 4 = 0.75 -> 1, 5 * 0.5 / 4 = 0.625 -> 1,
  // 4 * 0.5 / 4 = 0.5 -> 0 (a tie in the exact value, which a requantize-first rounding
  // would have resolved as round(2) / 4 = 0.5 -> 1 half away).
  tgrs_pool_params p{};
  p.kernel_h = 2;
  p.kernel_w = 2;
  p.stride_h = p.stride_w = 2;
  p.dilation_h = p.dilation_w = 1;
  const tgrs_dims in{1, 2, 2, 1}, out{1, 1, 1, 1};
  const tgrs_row_window w = tgrs_row_window_full(2, 1);
  const tgrs_quant_s8 q{0, 0, -128, 127, TGRS_ROUNDING_ONNX};
  struct Case {
    std::vector<int8_t> taps;
    tgrs_requant rq;
    int want;
  };
  const tgrs_requant identity{1 << 30, 1}, half{1 << 30, 0};
  for (const Case& c :
       {Case{{1, 2, 1, 2}, identity, 2}, Case{{2, 3, 2, 3}, identity, 2},
        Case{{-1, -2, -1, -2}, identity, -2}, Case{{1, 2, 2, 2}, identity, 2},
        Case{{1, 2, 1, 2}, half, 1}, Case{{1, 1, 1, 2}, half, 1}, Case{{1, 1, 1, 1}, half, 0}}) {
    int8_t y = 99;
    ASSERT_EQ(tgrs_avg_pool_s8(&p, &w, &q, &c.rq, &in, c.taps.data(), &out, &y), TGRS_KERNEL_OK);
    EXPECT_EQ(y, c.want) << int(c.taps[0]) << int(c.taps[1]) << int(c.taps[2]) << int(c.taps[3])
                         << " shift " << c.rq.shift;
    int64_t acc = 0;
    for (int8_t t : c.taps) acc += t;
    EXPECT_EQ(AverageHalfEven(acc, c.rq, 4), c.want);  // the reference agrees by hand
  }
}

TEST_P(PoolTest, AvgS8MatchesReferenceAndTiles) {
  const PoolCase& c = GetParam();
  const PoolSetup s = MakeSetup(c);
  const std::vector<int8_t> x = RandomS8(s.in.size(), 71);
  const tgrs_requant rq = Rescale(c.rescale);
  const tgrs_quant_s8 q{c.in_zp, c.out_zp, -128, 127, TGRS_ROUNDING_ONNX};
  // Reference: acc = sum (x - zp); out = zp_out + round_half_even(acc * m * 2^(shift - 31) /
  // count), one rounding, in exact 128-bit rational arithmetic.
  std::vector<int8_t> want(s.out.size());
  ForEachPoolWindow(s.in, x, c.g, s.out, [&](int64_t i, const std::vector<int8_t>& taps, int n) {
    int64_t acc = 0;
    for (int8_t t : taps) acc += t - c.in_zp;
    const int64_t avg = AverageHalfEven(acc, rq, n);
    want[i] = static_cast<int8_t>(std::clamp<int64_t>(avg + c.out_zp, -128, 127));
  });
  const std::vector<int8_t> xn = NchwToNhwc(s.in, x);
  auto run = [&](const tgrs_row_window& w, const int8_t* in, int8_t* out) {
    return tgrs_avg_pool_s8(&s.params, &w, &q, &rq, &s.in_d, in, &s.out_d, out);
  };
  std::vector<int8_t> got(want.size());
  ASSERT_EQ(run(tgrs_row_window_full(c.h, s.out.h), xn.data(), got.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(got, NchwToNhwc(s.out, want));
  for (int tiles = 2; tiles <= 4; ++tiles) {
    EXPECT_TRUE(SameBytes(RunTiled(xn, c.n, c.h, size_t(c.w) * c.c, s.out.h, size_t(s.out.w) * c.c,
                                   tiles, c.g.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, run),
                          got))
        << tiles;
  }
}

TEST_P(PoolTest, MaxS8MatchesReferenceAndTiles) {
  const PoolCase& c = GetParam();
  const PoolSetup s = MakeSetup(c);
  const std::vector<int8_t> x = RandomS8(s.in.size(), 72);
  const tgrs_requant rq = Rescale(c.rescale);
  const tgrs_quant_s8 q{c.in_zp, c.out_zp, -100, 100, TGRS_ROUNDING_ONNX};
  std::vector<int8_t> want(s.out.size());
  ForEachPoolWindow(s.in, x, c.g, s.out, [&](int64_t i, const std::vector<int8_t>& taps, int) {
    const int8_t m = *std::max_element(taps.begin(), taps.end());
    want[i] = Requantize(m - c.in_zp, rq.multiplier, rq.shift, c.out_zp, -100, 100);
  });
  const std::vector<int8_t> xn = NchwToNhwc(s.in, x);
  auto run = [&](const tgrs_row_window& w, const int8_t* in, int8_t* out) {
    return tgrs_max_pool_s8(&s.params, &w, &q, &rq, &s.in_d, in, &s.out_d, out);
  };
  std::vector<int8_t> got(want.size());
  ASSERT_EQ(run(tgrs_row_window_full(c.h, s.out.h), xn.data(), got.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(got, NchwToNhwc(s.out, want));
  for (int tiles = 2; tiles <= 4; ++tiles) {
    EXPECT_TRUE(SameBytes(RunTiled(xn, c.n, c.h, size_t(c.w) * c.c, s.out.h, size_t(s.out.w) * c.c,
                                   tiles, c.g.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, run),
                          got))
        << tiles;
  }
}

TEST_P(PoolTest, F32MatchesReferenceAndTiles) {
  const PoolCase& c = GetParam();
  const PoolSetup s = MakeSetup(c);
  const std::vector<float> x = RandomF32(s.in.size(), 73, -3.0f, 3.0f);
  std::vector<float> want_avg(s.out.size()), want_max(s.out.size());
  ForEachPoolWindow(s.in, x, c.g, s.out, [&](int64_t i, const std::vector<float>& taps, int n) {
    double sum = 0;
    for (float t : taps) sum += t;
    want_avg[i] = static_cast<float>(sum / n);
    want_max[i] = *std::max_element(taps.begin(), taps.end());
  });
  const std::vector<float> xn = NchwToNhwc(s.in, x);
  auto avg = [&](const tgrs_row_window& w, const float* in, float* out) {
    return tgrs_avg_pool_f32(&s.params, &w, &s.in_d, in, &s.out_d, out);
  };
  auto max = [&](const tgrs_row_window& w, const float* in, float* out) {
    return tgrs_max_pool_f32(&s.params, &w, &s.in_d, in, &s.out_d, out);
  };
  std::vector<float> got_avg(want_avg.size()), got_max(want_max.size());
  const tgrs_row_window full = tgrs_row_window_full(c.h, s.out.h);
  ASSERT_EQ(avg(full, xn.data(), got_avg.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(max(full, xn.data(), got_max.data()), TGRS_KERNEL_OK);
  const std::vector<float> wa = NchwToNhwc(s.out, want_avg), wm = NchwToNhwc(s.out, want_max);
  for (size_t i = 0; i < wa.size(); ++i) {
    ASSERT_NEAR(got_avg[i], wa[i], 1e-6f) << i;
    ASSERT_EQ(got_max[i], wm[i]) << i;  // max is exact
  }
  for (int tiles = 2; tiles <= 4; ++tiles) {
    EXPECT_TRUE(SameBytes(RunTiled(xn, c.n, c.h, size_t(c.w) * c.c, s.out.h, size_t(s.out.w) * c.c,
                                   tiles, c.g.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, avg),
                          got_avg));
    EXPECT_TRUE(SameBytes(RunTiled(xn, c.n, c.h, size_t(c.w) * c.c, s.out.h, size_t(s.out.w) * c.c,
                                   tiles, c.g.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, max),
                          got_max));
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, PoolTest, ::testing::ValuesIn(PoolCases()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(AvgPool, CountIncludePadHandComputed) {
  // 2x2 input [[1, 2], [3, 4]], 3x3 window, pad 1, stride 1, output 2x2.
  // Top-left output sees 1, 2, 3, 4: exclude-pad -> 10 / 4 = 2.5; include-pad -> 10 / 9.
  const std::vector<float> x{1, 2, 3, 4};
  const tgrs_dims in_d{1, 2, 2, 1}, out_d{1, 2, 2, 1};
  tgrs_pool_params p{3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0};
  std::vector<float> out(4);
  const tgrs_row_window w = tgrs_row_window_full(2, 2);
  ASSERT_EQ(tgrs_avg_pool_f32(&p, &w, &in_d, x.data(), &out_d, out.data()), TGRS_KERNEL_OK);
  EXPECT_FLOAT_EQ(out[0], 2.5f);
  p.count_include_pad = 1;
  ASSERT_EQ(tgrs_avg_pool_f32(&p, &w, &in_d, x.data(), &out_d, out.data()), TGRS_KERNEL_OK);
  EXPECT_FLOAT_EQ(out[0], 10.0f / 9.0f);
}

TEST(MaxPool, CeilModeOverhangOnANarrowColumnView) {
  // googlenet's 3x3 / 2 ceil_mode pool over 30 columns: its last output column reads
  // columns 28, 29 and 30, one past the input. A 2-D tile's last column view then holds
  // two columns under a 3-wide window; the kernel takes the overhang (less than a stride)
  // as padding, as it does on the whole tensor. 3 rows x 2 columns, one channel.
  const std::vector<float> x{1, 6, 3, 2, 5, 4};
  const tgrs_dims in_d{1, 3, 2, 1}, out_d{1, 1, 1, 1};
  const tgrs_pool_params p{3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0};
  const tgrs_row_window w = tgrs_row_window_full(3, 1);
  float out = 0.0f;
  ASSERT_EQ(tgrs_max_pool_f32(&p, &w, &in_d, x.data(), &out_d, &out), TGRS_KERNEL_OK);
  EXPECT_EQ(out, 6.0f);
  // Two columns short is more than ceil_mode allows (stride - 1 = 1): refused.
  const tgrs_dims one_column{1, 3, 1, 1};
  EXPECT_EQ(tgrs_max_pool_f32(&p, &w, &one_column, x.data(), &out_d, &out),
            TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(GlobalPool, AvgAndMaxS8AndF32) {
  const int n = 2, h = 5, w = 3, c = 4;
  const Shape4 in{n, c, h, w};
  const std::vector<int8_t> x = RandomS8(in.size(), 81);
  const std::vector<float> xf = RandomF32(in.size(), 82);
  const std::vector<int8_t> xn = NchwToNhwc(in, x);
  const std::vector<float> xfn = NchwToNhwc(in, xf);
  const tgrs_dims d{n, h, w, c};
  const tgrs_quant_s8 q{-7, 9, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_requant id{1 << 30, 1};  // exact identity
  std::vector<int8_t> avg(n * c), mx(n * c);
  std::vector<float> avgf(n * c), mxf(n * c);
  ASSERT_EQ(tgrs_global_avg_pool_s8(&q, &id, &d, xn.data(), avg.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_global_max_pool_s8(&q, &id, &d, xn.data(), mx.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_global_avg_pool_f32(&d, xfn.data(), avgf.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_global_max_pool_f32(&d, xfn.data(), mxf.data()), TGRS_KERNEL_OK);
  for (int b = 0; b < n; ++b)
    for (int ch = 0; ch < c; ++ch) {
      int64_t sum = 0;
      int m = -128;
      double sf = 0;
      float mf = -FLT_MAX;
      for (int y = 0; y < h; ++y)
        for (int xx = 0; xx < w; ++xx) {
          sum += x[in.at(b, ch, y, xx)] + 7;
          m = std::max<int>(m, x[in.at(b, ch, y, xx)]);
          sf += xf[in.at(b, ch, y, xx)];
          mf = std::max(mf, xf[in.at(b, ch, y, xx)]);
        }
      // Same scale in and out: out = zp_out + round_half_even(sum / 15) (15 is odd: no
      // ties); max shifts zp.
      const int want_avg = std::clamp<int>(int(std::nearbyint(double(sum) / 15.0)) + 9, -128, 127);
      EXPECT_EQ(avg[b * c + ch], want_avg);
      EXPECT_EQ(mx[b * c + ch], std::clamp(m + 7 + 9, -128, 127));
      EXPECT_NEAR(avgf[b * c + ch], sf / 15.0, 1e-6);
      EXPECT_EQ(mxf[b * c + ch], mf);
    }
}

}  // namespace
}  // namespace tigris::ref
