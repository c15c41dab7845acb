// Fully connected and MatMul kernels (runtime/kernels/fully_connected.c, matmul.c) against
// naive int64 / double references: int8 bit-exact, float32 tight.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

struct FcCase {
  int batch, k, n_out, in_zp, out_zp, act_min, act_max;
  double scale;
};

class FullyConnectedTest : public ::testing::TestWithParam<FcCase> {};

// A case's random int8 layer (input, weights, bias from `seed`, `seed` + 1, + 2) and its
// per-channel requantization of c.scale, 10% larger per output channel.
struct FcData {
  std::vector<int8_t> x, w;
  std::vector<int32_t> bias;
  ChannelQuant cq;
};
FcData MakeFcData(const FcCase& c, uint32_t seed) {
  FcData d;
  d.x = RandomS8(size_t(c.batch) * c.k, seed);
  d.w = RandomS8(size_t(c.n_out) * c.k, seed + 1, -127, 127);
  d.bias = RandomS32(c.n_out, seed + 2, -20000, 20000);
  std::vector<double> reals;
  for (int o = 0; o < c.n_out; ++o) reals.push_back(c.scale * (1.0 + 0.1 * o));
  d.cq = MakeChannelQuant(reals);
  return d;
}

TEST_P(FullyConnectedTest, S8MatchesReference) {
  const FcCase& c = GetParam();
  const FcData d = MakeFcData(c, 91);
  const auto& [x, w, bias, cq] = d;
  std::vector<int8_t> want(size_t(c.batch) * c.n_out);
  for (int b = 0; b < c.batch; ++b)
    for (int o = 0; o < c.n_out; ++o) {
      int64_t acc = bias[o];
      for (int i = 0; i < c.k; ++i) acc += int64_t(x[b * c.k + i] - c.in_zp) * w[o * c.k + i];
      want[b * c.n_out + o] =
          Requantize(acc, cq.multiplier[o], cq.shift[o], c.out_zp, c.act_min, c.act_max);
    }
  const tgrs_quant_s8 q{c.in_zp, c.out_zp, c.act_min, c.act_max, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq = cq.view();
  std::vector<int8_t> got(want.size());
  ASSERT_EQ(tgrs_fully_connected_s8(&q, &pcq, c.batch, c.k, c.n_out, x.data(), w.data(),
                                    bias.data(), got.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(got, want);
}

TEST_P(FullyConnectedTest, F32MatchesReference) {
  const FcCase& c = GetParam();
  const std::vector<float> x = RandomF32(size_t(c.batch) * c.k, 94);
  const std::vector<float> w = RandomF32(size_t(c.n_out) * c.k, 95);
  const std::vector<float> bias = RandomF32(c.n_out, 96);
  const tgrs_act_f32 act{0.0f, 6.0f};  // fused Relu6
  std::vector<float> got(size_t(c.batch) * c.n_out);
  ASSERT_EQ(tgrs_fully_connected_f32(&act, c.batch, c.k, c.n_out, x.data(), w.data(), bias.data(),
                                     got.data()),
            TGRS_KERNEL_OK);
  for (int b = 0; b < c.batch; ++b)
    for (int o = 0; o < c.n_out; ++o) {
      double acc = bias[o];
      for (int i = 0; i < c.k; ++i) acc += double(x[b * c.k + i]) * w[o * c.k + i];
      EXPECT_NEAR(got[b * c.n_out + o], std::clamp(acc, 0.0, 6.0), 1e-5);
    }
}

// A layer whose input dimension is split into parts (the planner's fdt-fan-out-fan-in on
// int8): each part's raw sums are the int64 reference's partial sums, and the parts in
// order, the last one requantizing, give the reference's bytes. With symmetric filters and
// with per-channel filter zero points (the kernels' two loops).
TEST_P(FullyConnectedTest, S8PartsGiveTheWholeLayersBytes) {
  const FcCase& c = GetParam();
  const FcData d = MakeFcData(c, 81);
  const auto& [x, w, bias, cq] = d;
  const tgrs_quant_s8 q{c.in_zp, c.out_zp, c.act_min, c.act_max, TGRS_ROUNDING_ONNX};
  const int cuts[] = {0, c.k / 4, c.k / 2 + 1, c.k};  // three uneven parts
  for (bool asymmetric : {false, true}) {
    std::vector<int32_t> w_zp(size_t(c.n_out), 0);
    if (asymmetric)
      for (int o = 0; o < c.n_out; ++o) w_zp[o] = o % 3 - 1;
    tgrs_per_channel_quant pcq = cq.view();
    if (asymmetric) {
      pcq.filter_zero_point = w_zp.data();
      pcq.filter_zero_point_count = uint32_t(c.n_out);
    }
    std::vector<int64_t> sums(size_t(c.batch) * c.n_out);
    for (int b = 0; b < c.batch; ++b)
      for (int o = 0; o < c.n_out; ++o) sums[b * c.n_out + o] = bias[o];
    std::vector<int32_t> running(sums.size());
    std::vector<int8_t> got(sums.size());
    for (int part = 0; part < 3; ++part) {
      const int begin = cuts[part], count = cuts[part + 1] - cuts[part];
      std::vector<int8_t> xp, wp;  // the part's columns of x and w, as the planner slices them
      for (int b = 0; b < c.batch; ++b)
        xp.insert(xp.end(), x.begin() + b * c.k + begin, x.begin() + b * c.k + begin + count);
      for (int o = 0; o < c.n_out; ++o)
        wp.insert(wp.end(), w.begin() + o * c.k + begin, w.begin() + o * c.k + begin + count);
      for (int b = 0; b < c.batch; ++b)
        for (int o = 0; o < c.n_out; ++o)
          for (int i = begin; i < begin + count; ++i)
            sums[b * c.n_out + o] += int64_t(x[b * c.k + i] - c.in_zp) * (w[o * c.k + i] - w_zp[o]);
      const bool last = part == 2;
      ASSERT_EQ(tgrs_fully_connected_part_s8(
                    &q, &pcq, c.batch, count, c.n_out, xp.data(), wp.data(),
                    part == 0 ? bias.data() : nullptr, part == 0 ? nullptr : running.data(),
                    last ? nullptr : running.data(), last ? got.data() : nullptr),
                TGRS_KERNEL_OK)
          << "part " << part;
      if (last) break;
      for (size_t i = 0; i < sums.size(); ++i)
        ASSERT_EQ(running[i], int32_t(sums[i])) << "part " << part << ", sum " << i;
    }
    std::vector<int8_t> want(sums.size());
    for (int b = 0; b < c.batch; ++b)
      for (int o = 0; o < c.n_out; ++o)
        want[b * c.n_out + o] = Requantize(sums[b * c.n_out + o], cq.multiplier[o], cq.shift[o],
                                           c.out_zp, c.act_min, c.act_max);
    EXPECT_EQ(got, want) << (asymmetric ? "asymmetric" : "symmetric") << " filter";
  }
}

TEST(FullyConnectedPart, TakesExactlyOneOfRawSumsAndAnOutput) {
  const std::vector<int8_t> x(4, 1), w(8, 1);
  const ChannelQuant cq = MakeChannelQuant({0.01, 0.01});
  const tgrs_per_channel_quant pcq = cq.view();
  const tgrs_quant_s8 q{0, 0, -128, 127, TGRS_ROUNDING_ONNX};
  std::vector<int32_t> sums(2);
  std::vector<int8_t> y(2);
  EXPECT_EQ(tgrs_fully_connected_part_s8(&q, &pcq, 1, 4, 2, x.data(), w.data(), nullptr, nullptr,
                                         sums.data(), y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(tgrs_fully_connected_part_s8(&q, &pcq, 1, 4, 2, x.data(), w.data(), nullptr, nullptr,
                                         nullptr, nullptr),
            TGRS_KERNEL_BAD_ARGUMENT);
  // Raw sums read no multipliers: an empty per-channel quantization is enough.
  const tgrs_per_channel_quant none{nullptr, nullptr, 0, nullptr, 0};
  ASSERT_EQ(tgrs_fully_connected_part_s8(&q, &none, 1, 4, 2, x.data(), w.data(), nullptr, nullptr,
                                         sums.data(), nullptr),
            TGRS_KERNEL_OK);
  EXPECT_EQ(sums, (std::vector<int32_t>{4, 4}));
  // ... but the requantizing part does.
  EXPECT_EQ(tgrs_fully_connected_part_s8(&q, &none, 1, 4, 2, x.data(), w.data(), nullptr,
                                         sums.data(), nullptr, y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

INSTANTIATE_TEST_SUITE_P(Cases, FullyConnectedTest,
                         ::testing::Values(FcCase{1, 10, 4, 0, 0, -128, 127, 0.002},
                                           FcCase{3, 64, 7, -128, 127, -128, 127, 0.0001},
                                           FcCase{2, 33, 5, 127, -50, -50, 127, 0.0005},
                                           FcCase{1, 256, 3, 5, 0, -128, 127, 0.3},  // saturates
                                           FcCase{2, 16, 6, -3, 4, -128, 127, 1e-10}));

TEST(MatMul, S8AndF32MatchReferenceWithBatchBroadcast) {
  const int batch = 3, m = 4, k = 5, n = 6;
  for (int b_batch : {1, 3}) {
    const std::vector<int8_t> a = RandomS8(size_t(batch) * m * k, 101);
    const std::vector<int8_t> b = RandomS8(size_t(b_batch) * k * n, 102);
    tgrs_matmul_quant_s8 q{};
    q.a_zero_point = -10;
    q.b_zero_point = 20;
    q.output_zero_point = 3;
    q.act_min = -128;
    q.act_max = 127;
    int shift = 0;
    tgrs_quantize_multiplier(0.0013, &q.rq.multiplier, &shift);
    q.rq.shift = shift;
    std::vector<int8_t> got(size_t(batch) * m * n);
    ASSERT_EQ(tgrs_matmul_s8(&q, batch, m, k, n, b_batch, a.data(), b.data(), got.data()),
              TGRS_KERNEL_OK);
    const std::vector<float> af = RandomF32(a.size(), 103), bf = RandomF32(b.size(), 104);
    std::vector<float> gotf(got.size());
    ASSERT_EQ(tgrs_matmul_f32(batch, m, k, n, b_batch, af.data(), bf.data(), gotf.data()),
              TGRS_KERNEL_OK);
    for (int i = 0; i < batch; ++i) {
      const int bi = b_batch == 1 ? 0 : i;
      for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) {
          int64_t acc = 0;
          double accf = 0;
          for (int t = 0; t < k; ++t) {
            acc += int64_t(a[(i * m + r) * k + t] + 10) * (b[(bi * k + t) * n + c] - 20);
            accf += double(af[(i * m + r) * k + t]) * bf[(bi * k + t) * n + c];
          }
          EXPECT_EQ(got[(i * m + r) * n + c],
                    Requantize(acc, q.rq.multiplier, q.rq.shift, 3, -128, 127));
          EXPECT_NEAR(gotf[(i * m + r) * n + c], accf, 1e-5);
        }
    }
  }
}

// tgrs_matmul_strided_*: A [2, 3, M, K] stored with its last two axes swapped (as a
// channels-last layout stores them), B [3, K, N] broadcast along batch 0, the output
// row-major. int8: per-column multipliers and B zero points, as a per-channel constant B.
TEST(MatMul, StridedS8AndF32MatchReferenceInAnyLayout) {
  const int b0 = 2, b1 = 3, m = 4, k = 5, n = 6;
  tgrs_matmul_geometry g{};
  g.batch[0] = b0;
  g.batch[1] = b1;
  g.m = m;
  g.k = k;
  g.n = n;
  const int32_t a_stride[4] = {b1 * k * m, k * m, 1, m};  // [b0][b1][k][m] in memory
  const int32_t b_stride[4] = {0, k * n, n, 1};
  const int32_t y_stride[4] = {b1 * m * n, m * n, n, 1};
  for (int d = 0; d < 4; ++d) {
    g.a_stride[d] = a_stride[d];
    g.b_stride[d] = b_stride[d];
    g.y_stride[d] = y_stride[d];
  }
  const size_t a_count = size_t(b0) * b1 * m * k, b_count = size_t(b1) * k * n;
  const size_t y_count = size_t(b0) * b1 * m * n;
  const std::vector<int8_t> a = RandomS8(a_count, 201), b = RandomS8(b_count, 202, -127, 127);
  std::vector<double> reals;
  for (int c = 0; c < n; ++c) reals.push_back(0.0011 * (1.0 + 0.2 * c));
  const ChannelQuant cq = MakeChannelQuant(reals);
  std::vector<int32_t> b_zp;
  for (int c = 0; c < n; ++c) b_zp.push_back(c * 9 - 20);
  tgrs_per_channel_quant pcq = cq.view();
  pcq.filter_zero_point = b_zp.data();
  pcq.filter_zero_point_count = static_cast<uint32_t>(n);
  const tgrs_quant_s8 q{-7, 5, -128, 127, TGRS_ROUNDING_ONNX};
  std::vector<int8_t> got(y_count);
  ASSERT_EQ(tgrs_matmul_strided_s8(&g, &q, &pcq, a.data(), a_count, b.data(), b_count, got.data(),
                                   y_count),
            TGRS_KERNEL_OK);
  const std::vector<float> af = RandomF32(a_count, 203), bf = RandomF32(b_count, 204);
  std::vector<float> gotf(y_count);
  ASSERT_EQ(
      tgrs_matmul_strided_f32(&g, af.data(), a_count, bf.data(), b_count, gotf.data(), y_count),
      TGRS_KERNEL_OK);
  for (int i0 = 0; i0 < b0; ++i0)
    for (int i1 = 0; i1 < b1; ++i1)
      for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) {
          int64_t acc = 0;
          double accf = 0;
          for (int t = 0; t < k; ++t) {
            const size_t ai = ((size_t(i0) * b1 + i1) * k + t) * m + r;
            const size_t bi = (size_t(i1) * k + t) * n + c;
            acc += int64_t(a[ai] + 7) * (b[bi] - b_zp[c]);
            accf += double(af[ai]) * bf[bi];
          }
          const size_t yi = ((size_t(i0) * b1 + i1) * m + r) * n + c;
          EXPECT_EQ(got[yi], Requantize(acc, cq.multiplier[c], cq.shift[c], 5, -128, 127));
          EXPECT_NEAR(gotf[yi], accf, 1e-5);
        }
  // A stride that reaches past an operand's end, or a multiplier count that is neither 1
  // nor N, is rejected before anything is read.
  EXPECT_EQ(tgrs_matmul_strided_s8(&g, &q, &pcq, a.data(), a_count - 1, b.data(), b_count,
                                   got.data(), y_count),
            TGRS_KERNEL_BAD_ARGUMENT);
  EXPECT_EQ(
      tgrs_matmul_strided_f32(&g, af.data(), a_count, bf.data(), b_count, gotf.data(), y_count - 1),
      TGRS_KERNEL_BAD_ARGUMENT);
  tgrs_per_channel_quant short_pcq = pcq;
  short_pcq.count = 2;
  EXPECT_EQ(tgrs_matmul_strided_s8(&g, &q, &short_pcq, a.data(), a_count, b.data(), b_count,
                                   got.data(), y_count),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
