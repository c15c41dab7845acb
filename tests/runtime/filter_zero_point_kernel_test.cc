// Asymmetric int8 weights (a non-zero zero point per tensor or per output channel, as
// onnxruntime's uint8 per-tensor quantization writes them once shifted to int8): the conv,
// depthwise and fully connected kernels accumulate (x - x_zp) * (w - w_zp[co]). Checked
// bit-exactly against the NCHW reference of conv_ref.h fed the already subtracted weights
// (w - w_zp, which spans [-255, 255] and does not fit int8), and the rejections.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/reference/conv_ref.h"
#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

struct Problem {
  Shape4 in, wshape, out;
  ConvGeom g;
  std::vector<int8_t> x, w;  // NCHW, OIHW
  std::vector<int32_t> bias, filter_zp;
  ChannelQuant cq;
  tgrs_quant_s8 quant{-5, 7, -128, 127, TGRS_ROUNDING_ONNX};
  std::vector<int8_t> expected;  // NHWC
};

// A conv problem with group `group` (c_in for depthwise) and zero points `zps` (1 or c_out
// entries), its expected output from the reference with w - zp substituted.
Problem MakeProblem(int c_in, int c_out, int group, std::vector<int32_t> zps, uint32_t seed) {
  Problem p;
  p.in = {1, c_in, 6, 5};
  p.g.stride_h = p.g.stride_w = 1;
  p.g.dil_h = p.g.dil_w = 1;
  p.g.pad_top = p.g.pad_left = p.g.pad_bottom = p.g.pad_right = 1;
  p.g.group = group;
  p.wshape = {c_out, c_in / group, 3, 3};
  p.out = {1, c_out, 6, 5};
  p.x = RandomS8(p.in.size(), seed);
  p.w = RandomS8(p.wshape.size(), seed + 1);  // the full int8 range: w - zp spans 255
  p.bias = RandomS32(c_out, seed + 2, -3000, 3000);
  p.filter_zp = zps;
  std::vector<double> reals;
  for (int c = 0; c < c_out; ++c) reals.push_back(0.0004 * (1 + c % 3));
  p.cq = MakeChannelQuant(reals);
  std::vector<int32_t> x32(p.x.begin(), p.x.end()), w32(p.w.size());
  const int per_co = static_cast<int>(p.w.size()) / c_out;
  for (size_t i = 0; i < p.w.size(); ++i) {
    const int co = static_cast<int>(i) / per_co;
    w32[i] = p.w[i] - zps[zps.size() == 1 ? 0 : size_t(co)];
  }
  const std::vector<int64_t> bias64(p.bias.begin(), p.bias.end());
  const std::vector<int64_t> acc = ConvAccumulate<int32_t, int64_t>(
      p.in, x32, p.quant.input_zero_point, p.wshape, w32, bias64, p.g, p.out);
  std::vector<int8_t> out_nchw(acc.size());
  for (int co = 0; co < c_out; ++co)
    for (int y = 0; y < p.out.h; ++y)
      for (int x = 0; x < p.out.w; ++x) {
        const int64_t i = p.out.at(0, co, y, x);
        out_nchw[i] = Requantize(acc[i], p.cq.multiplier[co], p.cq.shift[co],
                                 p.quant.output_zero_point, -128, 127);
      }
  p.expected = NchwToNhwc(p.out, out_nchw);
  return p;
}

tgrs_per_channel_quant Pcq(const Problem& p) {
  tgrs_per_channel_quant pcq = p.cq.view();
  pcq.filter_zero_point = p.filter_zp.data();
  pcq.filter_zero_point_count = static_cast<uint32_t>(p.filter_zp.size());
  return pcq;
}

tgrs_kernel_status RunConv(const Problem& p, const tgrs_per_channel_quant& pcq,
                           std::vector<int8_t>* out) {
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims in_d{1, p.in.h, p.in.w, p.in.c}, out_d{1, p.out.h, p.out.w, p.out.c};
  const tgrs_dims w_d{p.wshape.n, 3, 3, p.wshape.c};
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x), w = NchwToNhwc(p.wshape, p.w);
  const tgrs_row_window win = tgrs_row_window_full(p.in.h, p.out.h);
  out->assign(p.expected.size(), 0);
  return tgrs_conv2d_s8(&cp, &win, &p.quant, &pcq, &in_d, x.data(), &w_d, w.data(), p.bias.data(),
                        &out_d, out->data());
}

tgrs_kernel_status RunDepthwise(const Problem& p, const tgrs_per_channel_quant& pcq,
                                std::vector<int8_t>* out) {
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims in_d{1, p.in.h, p.in.w, p.in.c}, out_d{1, p.out.h, p.out.w, p.out.c};
  const tgrs_dims w_d{1, 3, 3, p.wshape.n};
  std::vector<int8_t> w(p.w.size());  // [C_out, 1, KH, KW] -> [KH, KW, C_out]
  for (int co = 0; co < p.wshape.n; ++co)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x) w[(y * 3 + x) * p.wshape.n + co] = p.w[p.wshape.at(co, 0, y, x)];
  const std::vector<int8_t> x = NchwToNhwc(p.in, p.x);
  const tgrs_row_window win = tgrs_row_window_full(p.in.h, p.out.h);
  out->assign(p.expected.size(), 0);
  return tgrs_depthwise_conv2d_s8(&cp, &win, &p.quant, &pcq, &in_d, x.data(), &w_d, w.data(),
                                  p.bias.data(), &out_d, out->data());
}

TEST(FilterZeroPoint, ConvPerTensorAndPerChannel) {
  for (const std::vector<int32_t>& zps :
       {std::vector<int32_t>{-93}, std::vector<int32_t>{127, -128, 0, 55, -7, 100}}) {
    const Problem p = MakeProblem(4, 6, 1, zps, 31);
    std::vector<int8_t> out;
    ASSERT_EQ(RunConv(p, Pcq(p), &out), TGRS_KERNEL_OK);
    EXPECT_EQ(out, p.expected) << zps.size() << " zero points";
  }
}

TEST(FilterZeroPoint, GroupedConv) {
  const Problem p = MakeProblem(6, 4, 2, {12, -128, 127, -3}, 41);
  std::vector<int8_t> out;
  ASSERT_EQ(RunConv(p, Pcq(p), &out), TGRS_KERNEL_OK);
  EXPECT_EQ(out, p.expected);
}

TEST(FilterZeroPoint, DepthwiseWithMultipliersOneAndTwo) {
  for (int mult : {1, 2}) {
    std::vector<int32_t> zps;
    for (int c = 0; c < 5 * mult; ++c) zps.push_back(-120 + 53 * c % 240);
    const Problem p = MakeProblem(5, 5 * mult, 5, zps, 51 + mult);
    std::vector<int8_t> out;
    ASSERT_EQ(RunDepthwise(p, Pcq(p), &out), TGRS_KERNEL_OK);
    EXPECT_EQ(out, p.expected) << "multiplier " << mult;
  }
}

TEST(FilterZeroPoint, FullyConnected) {
  const int batch = 2, k = 19, n_out = 5;
  const std::vector<int8_t> x = RandomS8(size_t(batch) * k, 61),
                            w = RandomS8(size_t(n_out) * k, 62);
  const std::vector<int32_t> bias = RandomS32(n_out, 63, -9000, 9000);
  const std::vector<int32_t> zps = {-128, 127, 64, 0, -1};
  const ChannelQuant cq = MakeChannelQuant({0.001, 0.002, 0.0015, 0.0007, 0.003});
  const tgrs_quant_s8 q{9, -4, -128, 127, TGRS_ROUNDING_ONNX};
  std::vector<int8_t> want(size_t(batch) * n_out), got(want.size());
  for (int b = 0; b < batch; ++b)
    for (int o = 0; o < n_out; ++o) {
      int64_t acc = bias[o];
      for (int i = 0; i < k; ++i)
        acc += int64_t(x[b * k + i] - q.input_zero_point) * (w[o * k + i] - zps[o]);
      want[b * n_out + o] = Requantize(acc, cq.multiplier[o], cq.shift[o], -4, -128, 127);
    }
  tgrs_per_channel_quant pcq = cq.view();
  pcq.filter_zero_point = zps.data();
  pcq.filter_zero_point_count = n_out;
  ASSERT_EQ(tgrs_fully_connected_s8(&q, &pcq, batch, k, n_out, x.data(), w.data(), bias.data(),
                                    got.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(got, want);
}

TEST(FilterZeroPoint, BadZeroPointsAreRejected) {
  const Problem p = MakeProblem(4, 6, 1, {3}, 71);
  std::vector<int8_t> out;
  tgrs_per_channel_quant pcq = Pcq(p);
  const std::vector<int32_t> out_of_range = {200}, wrong_count = {1, 2};
  pcq.filter_zero_point = out_of_range.data();
  EXPECT_EQ(RunConv(p, pcq, &out), TGRS_KERNEL_BAD_ARGUMENT);
  const Problem depthwise = MakeProblem(4, 4, 4, {200}, 72);
  EXPECT_EQ(RunDepthwise(depthwise, Pcq(depthwise), &out), TGRS_KERNEL_BAD_ARGUMENT);
  pcq.filter_zero_point = wrong_count.data();
  pcq.filter_zero_point_count = 2;  // neither 1 nor 6
  EXPECT_EQ(RunConv(p, pcq, &out), TGRS_KERNEL_BAD_ARGUMENT);
  pcq.filter_zero_point = nullptr;  // a count without an array
  pcq.filter_zero_point_count = 1;
  EXPECT_EQ(RunConv(p, pcq, &out), TGRS_KERNEL_BAD_ARGUMENT);
}

TEST(FilterZeroPoint, TransposedConvolutionTakesSymmetricWeightsOnly) {
  const tgrs_conv_params cp{1, 1, 1, 1, 0, 0, 0};
  const tgrs_dims in_d{1, 2, 2, 1}, w_d{1, 1, 1, 1}, out_d{1, 2, 2, 1};
  const std::vector<int8_t> x(4, 1), w(1, 1);
  std::vector<int8_t> y(4);
  const ChannelQuant cq = MakeChannelQuant({0.5});
  tgrs_per_channel_quant pcq = cq.view();
  const tgrs_quant_s8 q{0, 0, -128, 127, TGRS_ROUNDING_ONNX};
  ASSERT_EQ(tgrs_conv_transpose2d_s8(&cp, &q, &pcq, &in_d, x.data(), &w_d, w.data(), nullptr,
                                     &out_d, y.data()),
            TGRS_KERNEL_OK);
  const int32_t zp = 1;
  pcq.filter_zero_point = &zp;
  pcq.filter_zero_point_count = 1;
  EXPECT_EQ(tgrs_conv_transpose2d_s8(&cp, &q, &pcq, &in_d, x.data(), &w_d, w.data(), nullptr,
                                     &out_d, y.data()),
            TGRS_KERNEL_BAD_ARGUMENT);
}

}  // namespace
}  // namespace tigris::ref
