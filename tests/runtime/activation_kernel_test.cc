// Activation, LUT, Softmax and (de)quantization kernels (runtime/kernels/activation.c,
// lut.c, softmax.c, quantize.c) against the ONNX formulas evaluated in double.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

std::vector<float> Ramp() {  // -8 .. 8 including 0, +-6 and the hard-sigmoid knees
  std::vector<float> v;
  for (int i = -64; i <= 64; ++i) v.push_back(i * 0.125f);
  return v;
}

TEST(ActivationF32, MatchesOnnxFormulas) {
  const std::vector<float> x = Ramp();
  const size_t n = x.size();
  std::vector<float> relu(n), relu6(n), clip(n), leaky(n), selu(n), sig(n), hsig(n), hswish(n),
      tanh_out(n);
  tgrs_relu_f32(n, x.data(), relu.data());
  tgrs_relu6_f32(n, x.data(), relu6.data());
  tgrs_clip_f32(-1.5f, 2.25f, n, x.data(), clip.data());
  tgrs_leaky_relu_f32(0.1f, n, x.data(), leaky.data());
  tgrs_selu_f32(1.67326f, 1.0507f, n, x.data(), selu.data());
  tgrs_sigmoid_f32(n, x.data(), sig.data());
  tgrs_hard_sigmoid_f32(0.2f, 0.5f, n, x.data(), hsig.data());
  tgrs_hard_swish_f32(n, x.data(), hswish.data());
  tgrs_tanh_f32(n, x.data(), tanh_out.data());
  for (size_t i = 0; i < n; ++i) {
    const double v = x[i];
    EXPECT_EQ(relu[i], std::max(v, 0.0));
    EXPECT_EQ(relu6[i], std::clamp(v, 0.0, 6.0));
    EXPECT_EQ(clip[i], std::clamp(v, -1.5, 2.25));
    EXPECT_NEAR(leaky[i], v >= 0 ? v : 0.1 * v, 1e-7);
    EXPECT_NEAR(selu[i], 1.0507 * (v > 0 ? v : 1.67326 * (std::exp(v) - 1)), 2e-6);
    EXPECT_NEAR(sig[i], 1.0 / (1.0 + std::exp(-v)), 1e-6);
    EXPECT_NEAR(hsig[i], std::clamp(0.2 * v + 0.5, 0.0, 1.0), 1e-6);
    EXPECT_NEAR(hswish[i], v * std::clamp(v / 6.0 + 0.5, 0.0, 1.0), 1e-6);
    EXPECT_NEAR(tanh_out[i], std::tanh(v), 1e-6);
  }
}

TEST(ActivationF32, SigmoidSaturatesWithoutOverflow) {
  const std::vector<float> x{-1000.0f, 1000.0f};
  std::vector<float> y(2);
  tgrs_sigmoid_f32(2, x.data(), y.data());
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_EQ(y[1], 1.0f);
}

TEST(ActivationS8, ClipAndLookupTable) {
  std::vector<int8_t> x(256), y(256), table(256);
  for (int i = 0; i < 256; ++i) x[i] = int8_t(i - 128);
  // Relu with zp -20 (same quant in/out): clamp to [-20, 127].
  tgrs_clip_s8(-20, 127, 256, x.data(), y.data());
  for (int i = 0; i < 256; ++i) EXPECT_EQ(y[i], std::max(i - 128, -20));
  // Sigmoid LUT: in scale 0.05 zp 3, out scale 1/256 zp -128 (TFLite's sigmoid output).
  for (int q = -128; q <= 127; ++q) {
    const float real = 1.0f / (1.0f + std::exp(-0.05f * (q - 3)));
    table[q + 128] = QuantizeLinear(real, 1.0f / 256.0f, -128);
  }
  const std::vector<int8_t> in = RandomS8(1000, 401);
  std::vector<int8_t> out(in.size());
  tgrs_lut_s8(table.data(), in.size(), in.data(), out.data());
  for (size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], table[in[i] + 128]);
  // Table ends: the index is q + 128, so -128 reads entry 0 and 127 entry 255.
  EXPECT_EQ(out.size(), in.size());
  std::vector<int8_t> ends{-128, 127}, ends_out(2);
  tgrs_lut_s8(table.data(), 2, ends.data(), ends_out.data());
  EXPECT_EQ(ends_out[0], table[0]);
  EXPECT_EQ(ends_out[1], table[255]);
}

TEST(Quantize, RoundHalfToEvenAndSaturation) {
  // x / 0.5: 0.25 -> 0.5 -> 0; 0.75 -> 1.5 -> 2; -0.25 -> -0.5 -> -0; 1.25 -> 2.5 -> 2;
  // 100 -> 200 + 1 -> 127; -100 -> -199 -> -128.
  const std::vector<float> x{0.25f, 0.75f, -0.25f, 1.25f, 100.0f, -100.0f, -0.75f, NAN};
  std::vector<int8_t> q(x.size());
  tgrs_quantize_f32_s8(0.5f, 1, x.size(), x.data(), q.data());
  const std::vector<int8_t> want{1, 3, 1, 3, 127, -128, -1, 1};
  EXPECT_EQ(q, want);
  const std::vector<float> r = RandomF32(2000, 402, -40.0f, 40.0f);
  std::vector<int8_t> got(r.size());
  tgrs_quantize_f32_s8(0.3f, -7, r.size(), r.data(), got.data());
  for (size_t i = 0; i < r.size(); ++i) ASSERT_EQ(got[i], QuantizeLinear(r[i], 0.3f, -7)) << r[i];
}

TEST(Quantize, EveryTieRoundsToTheEvenNeighbour) {
  // k + 0.5 for k in [-140, 139]: the kernel's parity test on floor(v) (no fmodf) against
  // std::nearbyint, which rounds half to even in the default rounding mode; both sides
  // saturate to int8. Odd and even floors, negative and positive, and the clamp.
  std::vector<float> x;
  for (int k = -140; k < 140; ++k) x.push_back(static_cast<float>(k) + 0.5f);
  std::vector<int8_t> q(x.size());
  tgrs_quantize_f32_s8(1.0f, 0, x.size(), x.data(), q.data());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::min(127.0, std::max(-128.0, std::nearbyint(double{x[i]})));
    ASSERT_EQ(q[i], static_cast<int8_t>(want)) << x[i];
  }
}

TEST(Dequantize, IsZeroPointShiftTimesScale) {
  std::vector<int8_t> q{-128, -1, 0, 5, 127};
  std::vector<float> x(q.size());
  tgrs_dequantize_s8_f32(0.25f, 5, q.size(), q.data(), x.data());
  const std::vector<float> want{-33.25f, -1.5f, -1.25f, 0.0f, 30.5f};
  EXPECT_EQ(x, want);
}

// ---- Softmax / LogSoftmax ------------------------------------------------------------------

TEST(Softmax, ScratchIsFourBytesPerAxisElement) {
  // The planner reserves 4 * extent(axis) (libtigris/analysis/kernel_scratch.cc).
  EXPECT_EQ(tgrs_softmax_scratch_bytes(10), 40u);
  EXPECT_EQ(tgrs_softmax_scratch_bytes(1), 4u);
}

void RefSoftmax(const std::vector<double>& x, int outer, int len, int inner, bool log_mode,
                std::vector<double>& y) {
  y.assign(x.size(), 0.0);
  for (int o = 0; o < outer; ++o)
    for (int j = 0; j < inner; ++j) {
      auto at = [&](int i) { return (size_t(o) * len + i) * inner + j; };
      double m = -INFINITY, s = 0;
      for (int i = 0; i < len; ++i) m = std::max(m, x[at(i)]);
      for (int i = 0; i < len; ++i) s += std::exp(x[at(i)] - m);
      for (int i = 0; i < len; ++i) {
        y[at(i)] = log_mode ? x[at(i)] - m - std::log(s) : std::exp(x[at(i)] - m) / s;
      }
    }
}

TEST(Softmax, F32LastAndMiddleAxis) {
  for (int inner : {1, 3}) {
    const int outer = 4, len = 10;
    const std::vector<float> x = RandomF32(size_t(outer) * len * inner, 410, -5.0f, 5.0f);
    std::vector<float> scratch(len), y(x.size()), ly(x.size());
    ASSERT_EQ(tgrs_softmax_f32(scratch.data(), outer, len, inner, x.data(), y.data()),
              TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_log_softmax_f32(scratch.data(), outer, len, inner, x.data(), ly.data()),
              TGRS_KERNEL_OK);
    std::vector<double> want, lwant;
    const std::vector<double> xd(x.begin(), x.end());
    RefSoftmax(xd, outer, len, inner, false, want);
    RefSoftmax(xd, outer, len, inner, true, lwant);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(y[i], want[i], 1e-6);
      EXPECT_NEAR(ly[i], lwant[i], 1e-5);
    }
  }
}

TEST(Softmax, S8IsDequantizeFloatSoftmaxQuantize) {
  const int outer = 3, len = 12;
  const std::vector<int8_t> x = RandomS8(size_t(outer) * len, 420);
  const tgrs_softmax_quant_s8 q{0.08f, -4, 1.0f / 256.0f, -128};
  const tgrs_softmax_quant_s8 lq{0.08f, -4, 0.1f, 127};
  std::vector<float> scratch(len);
  std::vector<int8_t> y(x.size()), ly(x.size());
  ASSERT_EQ(tgrs_softmax_s8(scratch.data(), &q, outer, len, 1, x.data(), y.data()), TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_log_softmax_s8(scratch.data(), &lq, outer, len, 1, x.data(), ly.data()),
            TGRS_KERNEL_OK);
  std::vector<double> xd, want, lwant;
  for (int8_t v : x) xd.push_back(double(float(v + 4) * 0.08f));
  RefSoftmax(xd, outer, len, 1, false, want);
  RefSoftmax(xd, outer, len, 1, true, lwant);
  for (size_t i = 0; i < x.size(); ++i) {
    // Float rounding may move a value sitting on a .5 boundary by one step.
    EXPECT_LE(std::abs(y[i] - QuantizeLinear(float(want[i]), 1.0f / 256.0f, -128)), 1) << i;
    EXPECT_LE(std::abs(ly[i] - QuantizeLinear(float(lwant[i]), 0.1f, 127)), 1) << i;
  }
  // Sanity: the output probabilities of each row sum to ~1 (256 steps).
  for (int o = 0; o < outer; ++o) {
    int sum = 0;
    for (int i = 0; i < len; ++i) sum += y[o * len + i] + 128;
    EXPECT_NEAR(sum, 256, len);
  }
}

}  // namespace
}  // namespace tigris::ref
