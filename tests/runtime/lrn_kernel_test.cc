// LRN kernels (runtime/kernels/lrn.c) against the ONNX definition evaluated directly in
// double precision on NCHW data (ONNX Operators.md, LRN):
//   square_sum[n, c, h, w] = sum of X[n, i, h, w]^2 over
//                            i in [max(0, c - floor((size-1)/2)), min(C-1, c + ceil((size-1)/2))]
//   Y = X / (bias + alpha / size * square_sum)^beta
// float32 within 2e-6 relative (the kernel's exp/log are within 1 ulp), int8 as QDQ: the
// reference dequantizes, evaluates in double and rounds half to even once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

struct LrnCase {
  const char* name;
  int n, c, h, w;
  int size;
  float alpha, beta, bias;
};

void PrintTo(const LrnCase& c, std::ostream* os) { *os << c.name; }

// The ONNX formula over an NCHW array, in double.
std::vector<double> LrnReference(const LrnCase& k, const std::vector<double>& x) {
  std::vector<double> y(x.size());
  const int before = static_cast<int>(std::floor((k.size - 1) / 2.0));
  const int after = static_cast<int>(std::ceil((k.size - 1) / 2.0));
  const size_t plane = size_t(k.h) * k.w;
  for (int n = 0; n < k.n; ++n)
    for (int c = 0; c < k.c; ++c)
      for (size_t p = 0; p < plane; ++p) {
        double sum = 0;
        for (int i = std::max(0, c - before); i <= std::min(k.c - 1, c + after); ++i) {
          const double v = x[(size_t(n) * k.c + i) * plane + p];
          sum += v * v;
        }
        const size_t at = (size_t(n) * k.c + c) * plane + p;
        y[at] = x[at] / std::pow(double(k.bias) + double(k.alpha) / k.size * sum, double(k.beta));
      }
  return y;
}

// NCHW index -> NHWC index.
size_t Nhwc(const LrnCase& k, size_t nchw) {
  const size_t plane = size_t(k.h) * k.w;
  const size_t n = nchw / (plane * k.c), c = nchw / plane % k.c, p = nchw % plane;
  return (n * plane + p) * k.c + c;
}

const std::vector<LrnCase>& Cases() {
  static const std::vector<LrnCase> cases = {
      // AlexNet / GoogLeNet / ZFNet settings.
      {"alexnet_size5", 1, 16, 3, 4, 5, 1e-4f, 0.75f, 1.0f},
      {"googlenet_size5_two_batches", 2, 9, 2, 3, 5, 1e-4f, 0.75f, 1.0f},
      // An even size makes the window asymmetric: one channel before, two after.
      {"even_size4", 1, 7, 2, 2, 4, 0.5f, 0.6f, 2.0f},
      // A window wider than the channels is clipped on both sides.
      {"window_wider_than_channels", 1, 3, 2, 2, 9, 2.0f, 1.5f, 0.5f},
      {"single_channel", 1, 1, 3, 3, 3, 3.0f, 0.75f, 1.0f},
      {"beta_zero_is_identity", 1, 5, 2, 2, 3, 1.0f, 0.0f, 1.0f},
      {"negative_beta", 1, 6, 2, 3, 3, 0.3f, -0.5f, 1.5f},
  };
  return cases;
}

class LrnF32Test : public ::testing::TestWithParam<LrnCase> {};

TEST_P(LrnF32Test, MatchesTheOnnxFormula) {
  const LrnCase& k = GetParam();
  const size_t count = size_t(k.n) * k.c * k.h * k.w;
  const std::vector<float> x_nchw = RandomF32(count, 7, -3.0f, 3.0f);
  const std::vector<double> expected =
      LrnReference(k, std::vector<double>(x_nchw.begin(), x_nchw.end()));
  std::vector<float> x(count), y(count, -1.0f);
  for (size_t i = 0; i < count; ++i) x[Nhwc(k, i)] = x_nchw[i];
  const tgrs_lrn_params p{k.size, k.alpha, k.beta, k.bias};
  const tgrs_dims d{k.n, k.h, k.w, k.c};
  ASSERT_EQ(tgrs_lrn_f32(&p, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  for (size_t i = 0; i < count; ++i) {
    const double e = expected[i];
    EXPECT_NEAR(y[Nhwc(k, i)], e, 2e-6 * std::max(1.0, std::fabs(e))) << "element " << i;
  }
}

TEST_P(LrnF32Test, RowStripsEqualTheWholeTensor) {
  // LRN mixes channels of one pixel only; a strip of rows computed alone gives the same bits.
  const LrnCase& k = GetParam();
  const size_t count = size_t(k.n) * k.c * k.h * k.w;
  const std::vector<float> x = RandomF32(count, 8, -2.0f, 2.0f);
  std::vector<float> whole(count), strips(count);
  const tgrs_lrn_params p{k.size, k.alpha, k.beta, k.bias};
  const tgrs_dims d{k.n, k.h, k.w, k.c};
  ASSERT_EQ(tgrs_lrn_f32(&p, &d, x.data(), whole.data()), TGRS_KERNEL_OK);
  const size_t row = size_t(k.w) * k.c;
  for (int n = 0; n < k.n; ++n)
    for (int r = 0; r < k.h; ++r) {
      const tgrs_dims one_row{1, 1, k.w, k.c};
      const size_t at = (size_t(n) * k.h + r) * row;
      ASSERT_EQ(tgrs_lrn_f32(&p, &one_row, x.data() + at, strips.data() + at), TGRS_KERNEL_OK);
    }
  EXPECT_TRUE(SameBytes(strips, whole));
}

INSTANTIATE_TEST_SUITE_P(Cases, LrnF32Test, ::testing::ValuesIn(Cases()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

class LrnS8Test : public ::testing::TestWithParam<LrnCase> {};

int RoundHalfEvenClamp(double v, int zero_point) {
  const double r = std::nearbyint(v);  // default rounding mode: half to even
  return static_cast<int>(std::clamp(r + zero_point, -128.0, 127.0));
}

TEST_P(LrnS8Test, MatchesQdqSemantics) {
  const LrnCase& k = GetParam();
  const size_t count = size_t(k.n) * k.c * k.h * k.w;
  const tgrs_lrn_quant_s8 q{0.031f, -7, 0.0123f, 3};
  const std::vector<int8_t> x_nchw = RandomS8(count, 9);
  std::vector<double> real(count);
  for (size_t i = 0; i < count; ++i) {
    real[i] = (double(x_nchw[i]) - q.input_zero_point) * double(q.input_scale);
  }
  const std::vector<double> y_real = LrnReference(k, real);
  std::vector<int8_t> x(count), y(count);
  for (size_t i = 0; i < count; ++i) x[Nhwc(k, i)] = x_nchw[i];
  const tgrs_lrn_params p{k.size, k.alpha, k.beta, k.bias};
  const tgrs_dims d{k.n, k.h, k.w, k.c};
  ASSERT_EQ(tgrs_lrn_s8(&p, &q, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  // The kernel computes in float: a value within float rounding of a .5 tie may round the
  // other way, so "exact" is asserted on all but those and 1 LSB on every element.
  size_t exact = 0;
  for (size_t i = 0; i < count; ++i) {
    const double scaled = y_real[i] / double(q.output_scale);
    const int expected = RoundHalfEvenClamp(scaled, q.output_zero_point);
    const int got = y[Nhwc(k, i)];
    EXPECT_LE(std::abs(got - expected), 1) << "element " << i << " real " << y_real[i];
    const bool near_tie = std::fabs(std::fabs(scaled - std::floor(scaled)) - 0.5) < 1e-4;
    if (got == expected) {
      ++exact;
    } else {
      EXPECT_TRUE(near_tie) << "element " << i << ": " << got << " vs " << expected;
    }
  }
  EXPECT_GE(exact, count * 99 / 100);
}

INSTANTIATE_TEST_SUITE_P(Cases, LrnS8Test, ::testing::ValuesIn(Cases()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(LrnKernel, RejectsParametersThatLeaveTheDenominatorUndefined) {
  const tgrs_dims d{1, 1, 1, 4};
  std::vector<float> x(4, 1.0f), y(4);
  const tgrs_lrn_params good{3, 1e-4f, 0.75f, 1.0f};
  EXPECT_EQ(tgrs_lrn_f32(&good, &d, x.data(), y.data()), TGRS_KERNEL_OK);
  const tgrs_lrn_params bad[] = {
      {0, 1e-4f, 0.75f, 1.0f},       // size < 1
      {3, 1e-4f, 0.75f, 0.0f},       // bias 0: d = 0 for a zero pixel
      {3, -1.0f, 0.75f, 1.0f},       // alpha < 0: d can reach 0 or below
      {3, 1e-4f, NAN, 1.0f},         // NaN beta
      {3, NAN, 0.75f, 1.0f},         // NaN alpha
      {3, 1e-4f, 0.75f, -INFINITY},  // negative bias
  };
  for (const tgrs_lrn_params& p : bad) {
    EXPECT_EQ(tgrs_lrn_f32(&p, &d, x.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT) << p.size;
  }
  const tgrs_dims empty{1, 1, 1, 0};
  EXPECT_EQ(tgrs_lrn_f32(&good, &empty, x.data(), y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_lrn_f32(&good, &d, nullptr, y.data()), TGRS_KERNEL_BAD_ARGUMENT);
  std::vector<int8_t> xq(4), yq(4);
  const tgrs_lrn_quant_s8 bad_zp{0.1f, 200, 0.1f, 0};
  EXPECT_EQ(tgrs_lrn_s8(&good, &bad_zp, &d, xq.data(), yq.data()), TGRS_KERNEL_BAD_ARGUMENT);
  const tgrs_lrn_quant_s8 zero_scale{0.1f, 0, 0.0f, 0};
  EXPECT_EQ(tgrs_lrn_s8(&good, &zero_scale, &d, xq.data(), yq.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
