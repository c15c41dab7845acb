// Depthwise convolution on a channel group (tgrs_conv_params.filter_channels, the channel
// groups of a tile loop, docs/runtime-executor.md): a call on channels [first, first + g),
// with the filter, bias and requantization pointing at channel `first` and the filter's
// tap stride kept at the whole tensor's channels, must give exactly those channels of the
// whole-tensor call, for every group split, float32 and int8.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

constexpr int32_t kC = 37;  // not a multiple of the kernels' 32-channel block
constexpr tgrs_dims kIn = {1, 5, 6, kC};
constexpr tgrs_dims kFilter = {1, 3, 3, kC};
constexpr tgrs_dims kOut = {1, 5, 6, kC};  // 3x3, stride 1, pad 1

const std::vector<std::vector<int32_t>> kSplits = {
    {0, 37}, {0, 1, 37}, {0, 16, 32, 37}, {0, 5, 36, 37}};

TEST(DepthwiseGroupTest, Float32GroupsAreTheWholeTensorsChannels) {
  const std::vector<float> x = RandomF32(static_cast<size_t>(kIn.h * kIn.w * kC), 51);
  const std::vector<float> w = RandomF32(static_cast<size_t>(9 * kC), 52);
  const std::vector<float> bias = RandomF32(kC, 53);
  const tgrs_row_window win = tgrs_row_window_full(kIn.h, kOut.h);
  const tgrs_conv_params whole{1, 1, 1, 1, 1, 1, 0};
  std::vector<float> y(static_cast<size_t>(kOut.h * kOut.w * kC));
  ASSERT_EQ(tgrs_depthwise_conv2d_f32(&whole, &win, nullptr, &kIn, x.data(), &kFilter, w.data(),
                                      bias.data(), &kOut, y.data()),
            TGRS_KERNEL_OK);
  for (const std::vector<int32_t>& split : kSplits) {
    for (size_t s = 0; s + 1 < split.size(); ++s) {
      const int32_t first = split[s], g = split[s + 1] - split[s];
      const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, kC};
      const tgrs_dims in{1, 5, 6, g}, filter{1, 3, 3, g}, out{1, 5, 6, g};
      const std::vector<float> xg = ChannelGroup(x, kC, first, g);
      std::vector<float> yg(static_cast<size_t>(5 * 6 * g));
      ASSERT_EQ(tgrs_depthwise_conv2d_f32(&cp, &win, nullptr, &in, xg.data(), &filter,
                                          w.data() + first, bias.data() + first, &out, yg.data()),
                TGRS_KERNEL_OK);
      EXPECT_EQ(yg, ChannelGroup(y, kC, first, g))
          << "channels [" << first << ", " << first + g << ")";
    }
  }
}

TEST(DepthwiseGroupTest, Int8GroupsAreTheWholeTensorsChannels) {
  const std::vector<int8_t> x = RandomS8(static_cast<size_t>(kIn.h * kIn.w * kC), 54);
  const std::vector<int8_t> w = RandomS8(static_cast<size_t>(9 * kC), 55);
  const std::vector<int32_t> bias = RandomS32(kC, 56, -5000, 5000);
  std::vector<double> scales;
  for (int32_t c = 0; c < kC; ++c) scales.push_back(0.001 + 0.0003 * c);
  const ChannelQuant cq = MakeChannelQuant(scales);
  const std::vector<int32_t> w_zp = RandomS32(kC, 57, -10, 10);  // asymmetric filters too
  const tgrs_quant_s8 q{-3, 4, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_row_window win = tgrs_row_window_full(kIn.h, kOut.h);
  for (int asymmetric = 0; asymmetric <= 1; ++asymmetric) {
    tgrs_per_channel_quant pcq = cq.view();
    if (asymmetric) {
      pcq.filter_zero_point = w_zp.data();
      pcq.filter_zero_point_count = kC;
    }
    const tgrs_conv_params whole{1, 1, 1, 1, 1, 1, 0};
    std::vector<int8_t> y(static_cast<size_t>(kOut.h * kOut.w * kC));
    ASSERT_EQ(tgrs_depthwise_conv2d_s8(&whole, &win, &q, &pcq, &kIn, x.data(), &kFilter, w.data(),
                                       bias.data(), &kOut, y.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& split : kSplits) {
      for (size_t s = 0; s + 1 < split.size(); ++s) {
        const int32_t first = split[s], g = split[s + 1] - split[s];
        const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, kC};
        const tgrs_dims in{1, 5, 6, g}, filter{1, 3, 3, g}, out{1, 5, 6, g};
        tgrs_per_channel_quant group = pcq;
        group.multiplier += first;
        group.shift += first;
        group.count = static_cast<uint32_t>(g);
        if (asymmetric) {
          group.filter_zero_point += first;
          group.filter_zero_point_count = static_cast<uint32_t>(g);
        }
        const std::vector<int8_t> xg = ChannelGroup(x, kC, first, g);
        std::vector<int8_t> yg(static_cast<size_t>(5 * 6 * g));
        ASSERT_EQ(tgrs_depthwise_conv2d_s8(&cp, &win, &q, &group, &in, xg.data(), &filter,
                                           w.data() + first, bias.data() + first, &out, yg.data()),
                  TGRS_KERNEL_OK);
        EXPECT_EQ(yg, ChannelGroup(y, kC, first, g))
            << "channels [" << first << ", " << first + g << "), asymmetric " << asymmetric;
      }
    }
  }
}

TEST(DepthwiseGroupTest, AFilterStrideSmallerThanTheGroupIsRejected) {
  const std::vector<float> x(5 * 6 * 8), w(9 * 8), y_storage(5 * 6 * 8);
  std::vector<float> y(y_storage);
  const tgrs_row_window win = tgrs_row_window_full(5, 5);
  const tgrs_dims d{1, 5, 6, 8}, f{1, 3, 3, 8};
  for (int32_t stride : {-1, 7}) {
    const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, stride};
    EXPECT_EQ(tgrs_depthwise_conv2d_f32(&cp, &win, nullptr, &d, x.data(), &f, w.data(), nullptr, &d,
                                        y.data()),
              TGRS_KERNEL_BAD_ARGUMENT)
        << "filter_channels " << stride;
  }
}

}  // namespace
}  // namespace tigris::ref
