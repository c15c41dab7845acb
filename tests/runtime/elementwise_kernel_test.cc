// Elementwise Add/Sub/Mul/Div kernels (runtime/kernels/elementwise.c): TFLite integer
// arithmetic re-derived in the test with the reference requantization, and float32 with
// ONNX broadcasting computed by explicit index arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

// Flat index of output coordinate (n, h, w, c) in an operand of dims d (size-1 dims
// broadcast).
size_t BroadcastIndex(const tgrs_dims& d, int n, int h, int w, int c) {
  const int bn = d.n == 1 ? 0 : n, bh = d.h == 1 ? 0 : h, bw = d.w == 1 ? 0 : w,
            bc = d.c == 1 ? 0 : c;
  return ((size_t(bn) * d.h + bh) * d.w + bw) * d.c + bc;
}

size_t Count(const tgrs_dims& d) { return size_t(d.n) * d.h * d.w * d.c; }

struct Shapes {
  tgrs_dims a, b, out;
};

const std::vector<Shapes>& BroadcastShapes() {
  static const std::vector<Shapes> s = {
      {{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},  // same shape
      {{1, 3, 4, 5}, {1, 1, 1, 1}, {1, 3, 4, 5}},  // scalar
      {{1, 3, 4, 5}, {1, 1, 1, 5}, {1, 3, 4, 5}},  // per-channel [C]
      {{1, 1, 1, 5}, {1, 3, 4, 5}, {1, 3, 4, 5}},  // per-channel on the left
      {{2, 1, 4, 1}, {1, 3, 1, 5}, {2, 3, 4, 5}},  // general two-sided
  };
  return s;
}

int8_t RefAdd(int x, int y, const tgrs_add_s8_params& p, int sign) {
  // TFLite: shift left 20, rescale each input, add/sub, requantize (reference MBQM).
  const int32_t s1 = MultiplyByQuantizedMultiplier((x - p.input1_zero_point) * (1 << 20),
                                                   p.input1.multiplier, p.input1.shift);
  const int32_t s2 = MultiplyByQuantizedMultiplier((y - p.input2_zero_point) * (1 << 20),
                                                   p.input2.multiplier, p.input2.shift);
  return Requantize(int64_t(s1) + sign * int64_t(s2), p.output.multiplier, p.output.shift,
                    p.output_zero_point, p.act_min, p.act_max);
}

TEST(ElementwiseS8, AddSubMulMatchReferenceForEveryBroadcast) {
  tgrs_add_s8_params ap;
  ASSERT_EQ(tgrs_add_s8_params_init(0.05, -128, 0.11, 127, 0.09, 3, &ap), 0);
  ap.act_min = -100;  // a fused clamp
  tgrs_mul_s8_params mp{};
  mp.input1_zero_point = 5;
  mp.input2_zero_point = -9;
  mp.output_zero_point = -2;
  mp.act_min = -128;
  mp.act_max = 127;
  int shift = 0;
  tgrs_quantize_multiplier(0.05 * 0.11 / 0.2, &mp.rq.multiplier, &shift);
  mp.rq.shift = shift;
  uint32_t seed = 200;
  for (const Shapes& s : BroadcastShapes()) {
    const std::vector<int8_t> a = RandomS8(Count(s.a), ++seed), b = RandomS8(Count(s.b), ++seed);
    std::vector<int8_t> add(Count(s.out)), sub(add.size()), mul(add.size());
    ASSERT_EQ(tgrs_add_s8(&ap, &s.a, a.data(), &s.b, b.data(), &s.out, add.data()), TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_sub_s8(&ap, &s.a, a.data(), &s.b, b.data(), &s.out, sub.data()), TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_mul_s8(&mp, &s.a, a.data(), &s.b, b.data(), &s.out, mul.data()), TGRS_KERNEL_OK);
    size_t i = 0;
    for (int n = 0; n < s.out.n; ++n)
      for (int h = 0; h < s.out.h; ++h)
        for (int w = 0; w < s.out.w; ++w)
          for (int c = 0; c < s.out.c; ++c, ++i) {
            const int x = a[BroadcastIndex(s.a, n, h, w, c)],
                      y = b[BroadcastIndex(s.b, n, h, w, c)];
            ASSERT_EQ(add[i], RefAdd(x, y, ap, 1)) << i;
            ASSERT_EQ(sub[i], RefAdd(x, y, ap, -1)) << i;
            ASSERT_EQ(mul[i], Requantize(int64_t(x - 5) * (y + 9), mp.rq.multiplier, mp.rq.shift,
                                         -2, -128, 127))
                << i;
          }
  }
}

TEST(ElementwiseS8, AddIsCloseToRealArithmetic) {
  // Independent of the TFLite recipe: dequantize, add, quantize; the integer path may differ
  // by at most one step.
  tgrs_add_s8_params p;
  ASSERT_EQ(tgrs_add_s8_params_init(0.05, 10, 0.02, -20, 0.06, 0, &p), 0);
  const tgrs_dims d{1, 1, 1, 256};
  std::vector<int8_t> a(256), b(256), out(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = int8_t(i - 128);
    b[i] = int8_t(127 - i);
  }
  ASSERT_EQ(tgrs_add_s8(&p, &d, a.data(), &d, b.data(), &d, out.data()), TGRS_KERNEL_OK);
  for (int i = 0; i < 256; ++i) {
    const double real = 0.05 * (a[i] - 10) + 0.02 * (b[i] + 20);
    const double q = std::clamp(std::round(real / 0.06), -128.0, 127.0);
    EXPECT_LE(std::fabs(out[i] - q), 1.0) << i;
  }
}

TEST(ElementwiseF32, AllOpsMatchForEveryBroadcast) {
  uint32_t seed = 300;
  for (const Shapes& s : BroadcastShapes()) {
    const std::vector<float> a = RandomF32(Count(s.a), ++seed),
                             b = RandomF32(Count(s.b), ++seed, 0.5f, 2.0f);
    std::vector<float> add(Count(s.out)), sub(add.size()), mul(add.size()), div(add.size());
    ASSERT_EQ(tgrs_add_f32(&s.a, a.data(), &s.b, b.data(), &s.out, add.data()), TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_sub_f32(&s.a, a.data(), &s.b, b.data(), &s.out, sub.data()), TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_mul_f32(&s.a, a.data(), &s.b, b.data(), &s.out, mul.data()), TGRS_KERNEL_OK);
    ASSERT_EQ(tgrs_div_f32(&s.a, a.data(), &s.b, b.data(), &s.out, div.data()), TGRS_KERNEL_OK);
    size_t i = 0;
    for (int n = 0; n < s.out.n; ++n)
      for (int h = 0; h < s.out.h; ++h)
        for (int w = 0; w < s.out.w; ++w)
          for (int c = 0; c < s.out.c; ++c, ++i) {
            const float x = a[BroadcastIndex(s.a, n, h, w, c)],
                        y = b[BroadcastIndex(s.b, n, h, w, c)];
            // One IEEE operation each: exact equality.
            ASSERT_EQ(add[i], x + y);
            ASSERT_EQ(sub[i], x - y);
            ASSERT_EQ(mul[i], x * y);
            ASSERT_EQ(div[i], x / y);
          }
  }
}

TEST(ElementwiseF32, RejectsIncompatibleShapes) {
  const tgrs_dims a{1, 2, 3, 4}, b{1, 2, 3, 2}, out{1, 2, 3, 4};
  std::vector<float> x(24), y(12), z(24);
  EXPECT_EQ(tgrs_add_f32(&a, x.data(), &b, y.data(), &out, z.data()), TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
