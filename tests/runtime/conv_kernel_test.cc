// Conv2D / Conv1D / DepthwiseConv / ConvTranspose kernels (runtime/kernels/conv2d.c,
// depthwise_conv2d.c, conv_transpose.c) against the independent NCHW reference
// (reference/conv_ref.h): bit-exact for int8, 1e-5-tight for float32, and row-tiled ==
// untiled byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "runtime/reference/conv_ref.h"
#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

enum class Scales { kNormal, kNearOne, kTiny, kLarge };

struct ConvCase {
  std::string name;
  int n, c_in, h, w, c_out, kh, kw;
  ConvGeom g;
  int in_zp, out_zp;
  tgrs_fused_activation act;
  Scales scales;
};

void PrintTo(const ConvCase& c, std::ostream* os) { *os << c.name; }

ConvGeom Geom(int s, int d, int pt, int pl, int pb, int pr, int group = 1) {
  ConvGeom g;
  g.stride_h = g.stride_w = s;
  g.dil_h = g.dil_w = d;
  g.pad_top = pt;
  g.pad_left = pl;
  g.pad_bottom = pb;
  g.pad_right = pr;
  g.group = group;
  return g;
}

// Real multipliers in_scale * w_scale[c] / out_scale per regime. kNearOne straddles 1 (shift
// 0/+1), kTiny is below 2^-31 for some channels (multiplier 0), kLarge saturates.
std::vector<double> Reals(Scales s, int c_out) {
  std::vector<double> r;
  for (int c = 0; c < c_out; ++c) {
    switch (s) {
      case Scales::kNormal:
        r.push_back(0.0007 * (1 + c % 5) + 1e-5 * c);
        break;
      case Scales::kNearOne:
        r.push_back(c % 2 ? 0.99999999 : 1.0000001);
        break;
      case Scales::kTiny:
        r.push_back(c % 2 ? 1e-10 : 3e-9);
        break;
      case Scales::kLarge:
        r.push_back(0.05 * (1 + c));
        break;
    }
  }
  return r;
}

tgrs_conv_params ConvParams(const ConvGeom& g) {
  return {g.stride_h, g.stride_w, g.dil_h, g.dil_w, g.pad_top, g.pad_left, 0};
}

struct S8Problem {
  Shape4 in, wshape, out;
  std::vector<int8_t> x, w;  // NCHW, OIHW (depthwise: [C_out, 1, KH, KW])
  std::vector<int64_t> bias;
  ChannelQuant cq;
  tgrs_quant_s8 quant{};
  std::vector<int8_t> expected;  // NHWC
};

S8Problem MakeS8(const ConvCase& c, bool depthwise, uint32_t seed) {
  S8Problem p;
  p.in = {c.n, c.c_in, c.h, c.w};
  const int cin_per_group = depthwise ? 1 : c.c_in / c.g.group;
  p.wshape = {c.c_out, cin_per_group, c.kh, c.kw};
  p.out = {c.n, c.c_out, ConvOut(c.h, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, c.g.pad_bottom),
           ConvOut(c.w, c.kw, c.g.stride_w, c.g.dil_w, c.g.pad_left, c.g.pad_right)};
  if (c.scales == Scales::kLarge) {  // extreme values: |acc| ~ 255 * 127 * taps
    p.x = RandomS8(p.in.size(), seed, c.in_zp > 0 ? -128 : 126, c.in_zp > 0 ? -127 : 127);
    p.w = RandomS8(p.wshape.size(), seed + 1, 126, 127);
  } else {
    p.x = RandomS8(p.in.size(), seed);
    p.w = RandomS8(p.wshape.size(), seed + 1, -127, 127);
  }
  for (int32_t b : RandomS32(c.c_out, seed + 2, -5000, 5000)) p.bias.push_back(b);
  p.cq = MakeChannelQuant(Reals(c.scales, c.c_out));
  p.quant.input_zero_point = c.in_zp;
  p.quant.output_zero_point = c.out_zp;
  // Fused activation bounds: relu -> [max(zp, -128), 127]; relu6 with out scale 0.05 ->
  // upper bound zp + round(6 / 0.05) = zp + 120 (clamped to 127).
  int32_t lo = -128, hi = 127;
  if (c.act != TGRS_ACT_NONE) lo = std::max(c.out_zp, -128);
  if (c.act == TGRS_ACT_RELU6) hi = std::min(c.out_zp + 120, 127);
  p.quant.act_min = lo;
  p.quant.act_max = hi;
  ConvGeom g = c.g;
  g.group = depthwise ? c.c_in : c.g.group;
  const std::vector<int64_t> acc =
      ConvAccumulate<int8_t, int64_t>(p.in, p.x, c.in_zp, p.wshape, p.w, p.bias, g, p.out);
  std::vector<int8_t> out_nchw(acc.size());
  for (int n = 0; n < p.out.n; ++n)
    for (int co = 0; co < p.out.c; ++co)
      for (int y = 0; y < p.out.h; ++y)
        for (int x = 0; x < p.out.w; ++x) {
          const int64_t i = p.out.at(n, co, y, x);
          out_nchw[i] = Requantize(acc[i], p.cq.multiplier[co], p.cq.shift[co], c.out_zp, lo, hi);
        }
  p.expected = NchwToNhwc(p.out, out_nchw);
  return p;
}

std::vector<int32_t> Bias32(const std::vector<int64_t>& b) {
  return std::vector<int32_t>(b.begin(), b.end());
}

// [C_out, 1, KH, KW] (ONNX depthwise) -> [KH, KW, C_out].
template <typename T>
std::vector<T> DepthwiseWeights(const Shape4& ws, const std::vector<T>& w) {
  std::vector<T> r(w.size());
  for (int co = 0; co < ws.n; ++co)
    for (int y = 0; y < ws.h; ++y)
      for (int x = 0; x < ws.w; ++x) r[(y * ws.w + x) * ws.n + co] = w[ws.at(co, 0, y, x)];
  return r;
}

const std::vector<ConvCase>& ConvCases() {
  static const std::vector<ConvCase> cases = {
      {"k3_pad_all_sides", 1, 3, 7, 6, 4, 3, 3, Geom(1, 1, 1, 1, 1, 1), -3, 5, TGRS_ACT_NONE,
       Scales::kNormal},
      {"k3_stride2_odd", 2, 5, 9, 7, 3, 3, 3, Geom(2, 1, 1, 1, 1, 1), 10, -7, TGRS_ACT_RELU,
       Scales::kNormal},
      {"k3_dilation2", 1, 4, 11, 9, 5, 3, 3, Geom(1, 2, 2, 2, 2, 2), 0, 0, TGRS_ACT_RELU6,
       Scales::kNormal},
      {"k5_asym_pads", 1, 2, 8, 8, 3, 5, 3, Geom(2, 1, 2, 0, 1, 2), -128, 127, TGRS_ACT_NONE,
       Scales::kNormal},
      {"zp_127_relu6", 1, 3, 6, 5, 2, 3, 3, Geom(1, 1, 1, 1, 1, 1), 127, -128, TGRS_ACT_RELU6,
       Scales::kNormal},
      {"k1x1", 2, 16, 5, 5, 8, 1, 1, Geom(1, 1, 0, 0, 0, 0), 4, -2, TGRS_ACT_NONE, Scales::kNormal},
      {"near_one_multiplier", 1, 1, 5, 5, 4, 1, 1, Geom(1, 1, 0, 0, 0, 0), 0, 0, TGRS_ACT_NONE,
       Scales::kNearOne},
      {"tiny_multiplier", 1, 3, 5, 5, 4, 3, 3, Geom(1, 1, 1, 1, 1, 1), 0, 17, TGRS_ACT_NONE,
       Scales::kTiny},
      {"saturating_accumulators", 1, 8, 6, 6, 3, 3, 3, Geom(1, 1, 1, 1, 1, 1), 127, 0,
       TGRS_ACT_NONE, Scales::kLarge},
      {"stride2_dil2_pad2", 1, 3, 13, 10, 4, 3, 3, Geom(2, 2, 2, 1, 2, 1), -60, 30, TGRS_ACT_RELU,
       Scales::kNormal},
      // Grouped (ONNX group, as AlexNet uses): each output channel reads its group only.
      {"groups2", 1, 6, 7, 6, 4, 3, 3, Geom(1, 1, 1, 1, 1, 1, 2), 5, -3, TGRS_ACT_NONE,
       Scales::kNormal},
      {"groups3_stride2_two_out_per_group", 2, 9, 9, 7, 6, 3, 3, Geom(2, 1, 1, 1, 1, 1, 3), -20, 11,
       TGRS_ACT_RELU, Scales::kNormal},
      // A keyword-spotting first layer (10 x 4 taps of one channel, 32 outputs, stride 2,
      // padding on every side): with the DSP extension it takes the gathered-patch path
      // (kernels/conv_box_s8.c), borders included.
      {"patch_10x4_one_channel", 1, 1, 15, 10, 32, 10, 4, Geom(2, 1, 4, 1, 5, 1), -128, 3,
       TGRS_ACT_RELU, Scales::kNormal},
      {"patch_near_one_multiplier", 2, 2, 9, 8, 36, 2, 2, Geom(1, 1, 1, 0, 0, 1), 7, -9,
       TGRS_ACT_NONE, Scales::kNearOne},
  };
  return cases;
}

class ConvS8Test : public ::testing::TestWithParam<ConvCase> {};

tgrs_kernel_status RunConvS8(const ConvCase& c, const S8Problem& p, const tgrs_row_window& win,
                             const int8_t* in, int8_t* out) {
  const tgrs_conv_params cp = ConvParams(c.g);
  const tgrs_per_channel_quant pcq = p.cq.view();
  const tgrs_dims in_d{p.in.n, p.in.h, p.in.w, p.in.c};
  const tgrs_dims w_d{c.c_out, c.kh, c.kw, c.c_in / c.g.group};
  const tgrs_dims out_d{p.out.n, p.out.h, p.out.w, p.out.c};
  static thread_local std::vector<int8_t> w;
  w = NchwToNhwc(p.wshape, p.w);  // OIHW -> OHWI
  const std::vector<int32_t> bias = Bias32(p.bias);
  return tgrs_conv2d_s8(&cp, &win, &p.quant, &pcq, &in_d, in, &w_d, w.data(), bias.data(), &out_d,
                        out);
}

TEST_P(ConvS8Test, MatchesReferenceBitExact) {
  const ConvCase& c = GetParam();
  const S8Problem p = MakeS8(c, false, 11);
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  std::vector<int8_t> out(p.expected.size());
  const tgrs_row_window win = tgrs_row_window_full(p.in.h, p.out.h);
  ASSERT_EQ(RunConvS8(c, p, win, x.data(), out.data()), TGRS_KERNEL_OK);
  EXPECT_EQ(out, p.expected);
}

TEST_P(ConvS8Test, RowTilesAreByteIdentical) {
  const ConvCase& c = GetParam();
  const S8Problem p = MakeS8(c, false, 12);
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  for (int tiles = 2; tiles <= 4; ++tiles) {
    const std::vector<int8_t> tiled =
        RunTiled(x, p.in.n, p.in.h, size_t(p.in.w) * p.in.c, p.out.h, size_t(p.out.w) * p.out.c,
                 tiles, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top,
                 [&](const tgrs_row_window& w, const int8_t* in, int8_t* out) {
                   return RunConvS8(c, p, w, in, out);
                 });
    EXPECT_TRUE(SameBytes(tiled, p.expected)) << tiles << " tiles";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvS8Test, ::testing::ValuesIn(ConvCases()),
                         [](const auto& param_info) { return param_info.param.name; });

// ---- depthwise int8 ---------------------------------------------------------------------

class DepthwiseS8Test : public ::testing::TestWithParam<std::tuple<ConvCase, int>> {};

ConvCase DepthwiseCase(ConvCase c, int multiplier) {
  c.c_out = c.c_in * multiplier;
  return c;
}

tgrs_kernel_status RunDepthwiseS8(const ConvCase& c, const S8Problem& p, const tgrs_row_window& win,
                                  const int8_t* in, int8_t* out) {
  const tgrs_conv_params cp = ConvParams(c.g);
  const tgrs_per_channel_quant pcq = p.cq.view();
  const tgrs_dims in_d{p.in.n, p.in.h, p.in.w, p.in.c};
  const tgrs_dims w_d{1, c.kh, c.kw, c.c_out};
  const tgrs_dims out_d{p.out.n, p.out.h, p.out.w, p.out.c};
  const std::vector<int8_t> w = DepthwiseWeights(p.wshape, p.w);
  const std::vector<int32_t> bias = Bias32(p.bias);
  return tgrs_depthwise_conv2d_s8(&cp, &win, &p.quant, &pcq, &in_d, in, &w_d, w.data(), bias.data(),
                                  &out_d, out);
}

TEST_P(DepthwiseS8Test, MatchesReferenceAndTiles) {
  const ConvCase c = DepthwiseCase(std::get<0>(GetParam()), std::get<1>(GetParam()));
  const S8Problem p = MakeS8(c, true, 21);
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  std::vector<int8_t> out(p.expected.size());
  ASSERT_EQ(RunDepthwiseS8(c, p, tgrs_row_window_full(p.in.h, p.out.h), x.data(), out.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(out, p.expected);
  for (int tiles = 2; tiles <= 4; ++tiles) {
    const std::vector<int8_t> tiled =
        RunTiled(x, p.in.n, p.in.h, size_t(p.in.w) * p.in.c, p.out.h, size_t(p.out.w) * p.out.c,
                 tiles, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top,
                 [&](const tgrs_row_window& w, const int8_t* in, int8_t* o) {
                   return RunDepthwiseS8(c, p, w, in, o);
                 });
    EXPECT_TRUE(SameBytes(tiled, p.expected)) << tiles << " tiles";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, DepthwiseS8Test,
                         ::testing::Combine(::testing::ValuesIn(ConvCases()),
                                            ::testing::Values(1, 2)),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param).name + "_m" +
                                  std::to_string(std::get<1>(param_info.param));
                         });

// A channel count above the kernel's 32-channel accumulator block exercises the block loop.
TEST(DepthwiseS8, ManyChannelsCrossTheAccumulatorBlock) {
  ConvCase c{"wide",         1, 40, 5, 4, 40, 3, 3, Geom(1, 1, 1, 1, 1, 1), 3, -3, TGRS_ACT_NONE,
             Scales::kNormal};
  const S8Problem p = MakeS8(c, true, 23);
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  std::vector<int8_t> out(p.expected.size());
  ASSERT_EQ(RunDepthwiseS8(c, p, tgrs_row_window_full(p.in.h, p.out.h), x.data(), out.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(out, p.expected);
}

// ---- float32 conv and depthwise ----------------------------------------------------------

struct F32Problem {
  Shape4 in, wshape, out;
  std::vector<float> x, w, bias;
  std::vector<float> expected;  // NHWC
};

F32Problem MakeF32(const ConvCase& c, bool depthwise, uint32_t seed, tgrs_act_f32 act) {
  F32Problem p;
  p.in = {c.n, c.c_in, c.h, c.w};
  p.wshape = {c.c_out, depthwise ? 1 : c.c_in / c.g.group, c.kh, c.kw};
  p.out = {c.n, c.c_out, ConvOut(c.h, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, c.g.pad_bottom),
           ConvOut(c.w, c.kw, c.g.stride_w, c.g.dil_w, c.g.pad_left, c.g.pad_right)};
  p.x = RandomF32(p.in.size(), seed);
  p.w = RandomF32(p.wshape.size(), seed + 1);
  p.bias = RandomF32(c.c_out, seed + 2);
  ConvGeom g = c.g;
  g.group = depthwise ? c.c_in : c.g.group;
  const std::vector<double> xd(p.x.begin(), p.x.end()), wd(p.w.begin(), p.w.end()),
      bd(p.bias.begin(), p.bias.end());
  const std::vector<double> acc =
      ConvAccumulate<double, double>(p.in, xd, 0.0, p.wshape, wd, bd, g, p.out);
  std::vector<float> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    out[i] = static_cast<float>(std::min<double>(std::max<double>(acc[i], act.min), act.max));
  }
  p.expected = NchwToNhwc(p.out, out);
  return p;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], tol) << "at " << i;
}

class ConvF32Test : public ::testing::TestWithParam<ConvCase> {};

TEST_P(ConvF32Test, ConvMatchesReferenceAndTiles) {
  const ConvCase& c = GetParam();
  const tgrs_act_f32 act = c.act == TGRS_ACT_RELU6  ? tgrs_act_f32{0.0f, 6.0f}
                           : c.act == TGRS_ACT_RELU ? tgrs_act_f32{0.0f, INFINITY}
                                                    : tgrs_act_f32{-INFINITY, INFINITY};
  const F32Problem p = MakeF32(c, false, 31, act);
  const std::vector<float> x = NchwToNhwc(p.in, p.x);
  const std::vector<float> w = NchwToNhwc(p.wshape, p.w);
  const tgrs_conv_params cp = ConvParams(c.g);
  const tgrs_dims in_d{p.in.n, p.in.h, p.in.w, p.in.c},
      w_d{c.c_out, c.kh, c.kw, c.c_in / c.g.group}, out_d{p.out.n, p.out.h, p.out.w, p.out.c};
  auto run = [&](const tgrs_row_window& win, const float* in, float* out) {
    return tgrs_conv2d_f32(&cp, &win, &act, &in_d, in, &w_d, w.data(), p.bias.data(), &out_d, out);
  };
  std::vector<float> out(p.expected.size());
  ASSERT_EQ(run(tgrs_row_window_full(p.in.h, p.out.h), x.data(), out.data()), TGRS_KERNEL_OK);
  ExpectNear(out, p.expected, 1e-5f);
  for (int tiles = 2; tiles <= 4; ++tiles) {
    const std::vector<float> tiled =
        RunTiled(x, p.in.n, p.in.h, size_t(p.in.w) * p.in.c, p.out.h, size_t(p.out.w) * p.out.c,
                 tiles, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, run);
    EXPECT_TRUE(SameBytes(tiled, out)) << tiles << " tiles";
  }
}

TEST_P(ConvF32Test, DepthwiseMatchesReferenceAndTiles) {
  const ConvCase c = DepthwiseCase(GetParam(), 2);
  const tgrs_act_f32 act{-INFINITY, INFINITY};
  const F32Problem p = MakeF32(c, true, 41, act);
  const std::vector<float> x = NchwToNhwc(p.in, p.x);
  const std::vector<float> w = DepthwiseWeights(p.wshape, p.w);
  const tgrs_conv_params cp = ConvParams(c.g);
  const tgrs_dims in_d{p.in.n, p.in.h, p.in.w, p.in.c}, w_d{1, c.kh, c.kw, c.c_out},
      out_d{p.out.n, p.out.h, p.out.w, p.out.c};
  auto run = [&](const tgrs_row_window& win, const float* in, float* out) {
    return tgrs_depthwise_conv2d_f32(&cp, &win, nullptr, &in_d, in, &w_d, w.data(), p.bias.data(),
                                     &out_d, out);
  };
  std::vector<float> out(p.expected.size());
  ASSERT_EQ(run(tgrs_row_window_full(p.in.h, p.out.h), x.data(), out.data()), TGRS_KERNEL_OK);
  ExpectNear(out, p.expected, 1e-5f);
  for (int tiles = 2; tiles <= 4; ++tiles) {
    const std::vector<float> tiled =
        RunTiled(x, p.in.n, p.in.h, size_t(p.in.w) * p.in.c, p.out.h, size_t(p.out.w) * p.out.c,
                 tiles, c.kh, c.g.stride_h, c.g.dil_h, c.g.pad_top, run);
    EXPECT_TRUE(SameBytes(tiled, out)) << tiles << " tiles";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvF32Test, ::testing::ValuesIn(ConvCases()),
                         [](const auto& param_info) { return param_info.param.name; });

// ---- windows that do not cover the reads are rejected ------------------------------------

TEST(ConvWindow, RejectsAStripMissingARowItNeeds) {
  // 3x3 stride 1 pad 1 over H = 6: output rows [2, 4) read input rows [1, 5).
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims in_d{1, 6, 4, 2}, w_d{1, 3, 3, 2}, out_d{1, 6, 4, 1};
  std::vector<float> in(6 * 4 * 2, 1.0f), w(18, 1.0f), out(6 * 4);
  const tgrs_row_window short_strip{1, 3, 2, 4};  // rows [1, 4): row 4 missing
  EXPECT_EQ(tgrs_conv2d_f32(&cp, &short_strip, nullptr, &in_d, in.data(), &w_d, w.data(), nullptr,
                            &out_d, out.data()),
            TGRS_KERNEL_BAD_WINDOW);
  const tgrs_row_window exact{1, 4, 2, 4};
  EXPECT_EQ(tgrs_conv2d_f32(&cp, &exact, nullptr, &in_d, in.data(), &w_d, w.data(), nullptr, &out_d,
                            out.data()),
            TGRS_KERNEL_OK);
  // Interior output of an all-ones 3x3x2 window: 18.
  EXPECT_EQ(out[0 * 4 + 1], 18.0f);
  const tgrs_row_window past_end{1, 4, 5, 7};  // out_row_end > H_out
  EXPECT_EQ(tgrs_conv2d_f32(&cp, &past_end, nullptr, &in_d, in.data(), &w_d, w.data(), nullptr,
                            &out_d, out.data()),
            TGRS_KERNEL_BAD_WINDOW);
}

TEST(ConvArguments, RejectsMismatchedChannels) {
  const tgrs_conv_params cp{1, 1, 1, 1, 0, 0, 0};
  const tgrs_dims in_d{1, 2, 2, 3}, w_d{1, 1, 1, 2}, out_d{1, 2, 2, 1};
  std::vector<float> in(12), w(2), out(4);
  const tgrs_row_window win = tgrs_row_window_full(2, 2);
  EXPECT_EQ(tgrs_conv2d_f32(&cp, &win, nullptr, &in_d, in.data(), &w_d, w.data(), nullptr, &out_d,
                            out.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

// ---- Conv1D = Conv2D with H = 1 -----------------------------------------------------------

TEST(Conv1D, MatchesReferenceS8AndF32) {
  // [N=2, C=3, L=9] kernel 3, stride 2, dilation 2, pads 2/1.
  ConvCase c{"c1d",          2, 3, 1, 9, 4, 1, 3, Geom(1, 1, 0, 2, 0, 1), -5, 9, TGRS_ACT_NONE,
             Scales::kNormal};
  c.g.stride_w = 2;
  c.g.dil_w = 2;
  const S8Problem p = MakeS8(c, false, 51);
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  const std::vector<int8_t> w = NchwToNhwc(p.wshape, p.w);
  const std::vector<int32_t> bias = Bias32(p.bias);
  const tgrs_conv_params cp = ConvParams(c.g);
  const tgrs_per_channel_quant pcq = p.cq.view();
  const tgrs_dims in_d{p.in.n, 1, p.in.w, p.in.c}, w_d{c.c_out, 1, c.kw, c.c_in},
      out_d{p.out.n, 1, p.out.w, p.out.c};
  std::vector<int8_t> out(p.expected.size());
  ASSERT_EQ(tgrs_conv1d_s8(&cp, &p.quant, &pcq, &in_d, x.data(), &w_d, w.data(), bias.data(),
                           &out_d, out.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(out, p.expected);

  const F32Problem f = MakeF32(c, false, 52, {-INFINITY, INFINITY});
  const std::vector<float> xf = NchwToNhwc(f.in, f.x), wf = NchwToNhwc(f.wshape, f.w);
  std::vector<float> outf(f.expected.size());
  ASSERT_EQ(tgrs_conv1d_f32(&cp, nullptr, &in_d, xf.data(), &w_d, wf.data(), f.bias.data(), &out_d,
                            outf.data()),
            TGRS_KERNEL_OK);
  ExpectNear(outf, f.expected, 1e-5f);
}

// ---- ConvTranspose -----------------------------------------------------------------------

struct TransposeCase {
  int c_in, h, w, c_out, k, stride, dil, pad, out_pad;
};

class ConvTransposeTest : public ::testing::TestWithParam<TransposeCase> {};

TEST_P(ConvTransposeTest, MatchesScatterReference) {
  const TransposeCase& t = GetParam();
  ConvGeom g = Geom(t.stride, t.dil, t.pad, t.pad, t.pad, t.pad);
  const Shape4 in{1, t.c_in, t.h, t.w};
  const Shape4 ws{t.c_in, t.c_out, t.k, t.k};  // ONNX ConvTranspose weight layout
  // ONNX: out = stride * (in - 1) + output_padding + (k - 1) * dil + 1 - 2 * pad.
  const int oh = t.stride * (t.h - 1) + t.out_pad + (t.k - 1) * t.dil + 1 - 2 * t.pad;
  const int ow = t.stride * (t.w - 1) + t.out_pad + (t.k - 1) * t.dil + 1 - 2 * t.pad;
  const Shape4 out{1, t.c_out, oh, ow};
  // [C_in, C_out, KH, KW] -> [C_out, KH, KW, C_in]
  auto to_ohwi = [&](const auto& w) {
    std::remove_const_t<std::remove_reference_t<decltype(w)>> r(w.size());
    for (int ci = 0; ci < t.c_in; ++ci)
      for (int co = 0; co < t.c_out; ++co)
        for (int y = 0; y < t.k; ++y)
          for (int x = 0; x < t.k; ++x)
            r[((co * t.k + y) * t.k + x) * t.c_in + ci] = w[ws.at(ci, co, y, x)];
    return r;
  };
  const tgrs_conv_params cp = ConvParams(g);
  const tgrs_dims in_d{1, t.h, t.w, t.c_in}, w_d{t.c_out, t.k, t.k, t.c_in},
      out_d{1, oh, ow, t.c_out};

  // int8
  const std::vector<int8_t> x = RandomS8(in.size(), 61), w = RandomS8(ws.size(), 62, -127, 127);
  const std::vector<int32_t> b32 = RandomS32(t.c_out, 63, -3000, 3000);
  const std::vector<int64_t> b64(b32.begin(), b32.end());
  const int in_zp = -20, out_zp = 6;
  const std::vector<int64_t> acc =
      ConvTransposeAccumulate<int8_t, int64_t>(in, x, in_zp, ws, w, b64, g, out);
  const ChannelQuant cq = MakeChannelQuant(Reals(Scales::kNormal, t.c_out));
  std::vector<int8_t> want(acc.size());
  for (int co = 0; co < t.c_out; ++co)
    for (int y = 0; y < oh; ++y)
      for (int xx = 0; xx < ow; ++xx) {
        const int64_t i = out.at(0, co, y, xx);
        want[i] = Requantize(acc[i], cq.multiplier[co], cq.shift[co], out_zp, -128, 127);
      }
  const tgrs_quant_s8 q{in_zp, out_zp, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq = cq.view();
  const std::vector<int8_t> xn = NchwToNhwc(in, x), wn = to_ohwi(w);
  std::vector<int8_t> got(want.size());
  ASSERT_EQ(tgrs_conv_transpose2d_s8(&cp, &q, &pcq, &in_d, xn.data(), &w_d, wn.data(), b32.data(),
                                     &out_d, got.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(got, NchwToNhwc(out, want));

  // float32
  const std::vector<float> xf = RandomF32(in.size(), 64), wf = RandomF32(ws.size(), 65),
                           bf = RandomF32(t.c_out, 66);
  const std::vector<double> xd(xf.begin(), xf.end()), wd(wf.begin(), wf.end()),
      bd(bf.begin(), bf.end());
  const std::vector<double> accf =
      ConvTransposeAccumulate<double, double>(in, xd, 0.0, ws, wd, bd, g, out);
  std::vector<float> wantf(accf.begin(), accf.end());
  const std::vector<float> xfn = NchwToNhwc(in, xf), wfn = to_ohwi(wf);
  std::vector<float> gotf(wantf.size());
  ASSERT_EQ(tgrs_conv_transpose2d_f32(&cp, nullptr, &in_d, xfn.data(), &w_d, wfn.data(), bf.data(),
                                      &out_d, gotf.data()),
            TGRS_KERNEL_OK);
  ExpectNear(gotf, NchwToNhwc(out, wantf), 1e-5f);
}

INSTANTIATE_TEST_SUITE_P(Cases, ConvTransposeTest,
                         ::testing::Values(TransposeCase{3, 4, 5, 2, 3, 2, 1, 1, 1},
                                           TransposeCase{2, 3, 3, 3, 2, 2, 1, 0, 0},
                                           TransposeCase{4, 5, 4, 2, 3, 1, 2, 2, 0},
                                           TransposeCase{1, 2, 2, 1, 4, 3, 1, 0, 2}));

}  // namespace
}  // namespace tigris::ref
