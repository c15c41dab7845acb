// Convolution on a group of output channels (the output-channel groups of a tile loop,
// ops_conv.c, docs/runtime-executor.md "Channel groups"): a call writing channels
// [first, first + g) from every input channel, with the filter (OHWI, output channel
// outermost), bias and requantization pointing at channel `first`, must give exactly those
// channels of the whole-tensor call, for every split, float32 and int8. Splits that are
// not multiples of four run the kernels' one-channel remainder loop on channels the whole
// call runs four at a time: the bits must not change.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/reference/kernel_test_support.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

constexpr int32_t kCin = 12;
constexpr int32_t kCout = 37;
constexpr int32_t kTaps = 3 * 3 * kCin;  // one output channel's filter elements
constexpr tgrs_dims kIn = {1, 5, 6, kCin};
constexpr tgrs_dims kOut = {1, 5, 6, kCout};  // 3x3, stride 1, pad 1

const std::vector<std::vector<int32_t>> kSplits = {
    {0, 37}, {0, 1, 37}, {0, 16, 32, 37}, {0, 5, 36, 37}, {0, 3, 6, 9, 37}};

TEST(ConvOutputGroupTest, Float32GroupsAreTheWholeTensorsChannels) {
  const std::vector<float> x = RandomF32(static_cast<size_t>(kIn.h * kIn.w * kCin), 61);
  const std::vector<float> w = RandomF32(static_cast<size_t>(kCout * kTaps), 62);
  const std::vector<float> bias = RandomF32(kCout, 63);
  const tgrs_row_window win = tgrs_row_window_full(kIn.h, kOut.h);
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims filter{kCout, 3, 3, kCin};
  std::vector<float> y(static_cast<size_t>(kOut.h * kOut.w * kCout));
  ASSERT_EQ(tgrs_conv2d_f32(&cp, &win, nullptr, &kIn, x.data(), &filter, w.data(), bias.data(),
                            &kOut, y.data()),
            TGRS_KERNEL_OK);
  for (const std::vector<int32_t>& split : kSplits) {
    for (size_t s = 0; s + 1 < split.size(); ++s) {
      const int32_t first = split[s], g = split[s + 1] - split[s];
      const tgrs_dims filter_g{g, 3, 3, kCin}, out{1, 5, 6, g};
      std::vector<float> yg(static_cast<size_t>(5 * 6 * g));
      ASSERT_EQ(tgrs_conv2d_f32(&cp, &win, nullptr, &kIn, x.data(), &filter_g,
                                w.data() + first * kTaps, bias.data() + first, &out, yg.data()),
                TGRS_KERNEL_OK);
      EXPECT_EQ(yg, ChannelGroup(y, kCout, first, g))
          << "channels [" << first << ", " << first + g << ")";
    }
  }
}

TEST(ConvOutputGroupTest, Int8GroupsAreTheWholeTensorsChannels) {
  const std::vector<int8_t> x = RandomS8(static_cast<size_t>(kIn.h * kIn.w * kCin), 64);
  const std::vector<int8_t> w = RandomS8(static_cast<size_t>(kCout * kTaps), 65);
  const std::vector<int32_t> bias = RandomS32(kCout, 66, -5000, 5000);
  std::vector<double> scales;
  for (int32_t c = 0; c < kCout; ++c) scales.push_back(0.0005 + 0.0001 * c);
  const ChannelQuant cq = MakeChannelQuant(scales);
  const std::vector<int32_t> w_zp = RandomS32(kCout, 67, -10, 10);  // asymmetric filters too
  const tgrs_quant_s8 q{-3, 4, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_row_window win = tgrs_row_window_full(kIn.h, kOut.h);
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims filter{kCout, 3, 3, kCin};
  for (int asymmetric = 0; asymmetric <= 1; ++asymmetric) {
    tgrs_per_channel_quant pcq = cq.view();
    if (asymmetric) {
      pcq.filter_zero_point = w_zp.data();
      pcq.filter_zero_point_count = kCout;
    }
    std::vector<int8_t> y(static_cast<size_t>(kOut.h * kOut.w * kCout));
    ASSERT_EQ(tgrs_conv2d_s8(&cp, &win, &q, &pcq, &kIn, x.data(), &filter, w.data(), bias.data(),
                             &kOut, y.data()),
              TGRS_KERNEL_OK);
    for (const std::vector<int32_t>& split : kSplits) {
      for (size_t s = 0; s + 1 < split.size(); ++s) {
        const int32_t first = split[s], g = split[s + 1] - split[s];
        const tgrs_dims filter_g{g, 3, 3, kCin}, out{1, 5, 6, g};
        tgrs_per_channel_quant group = pcq;
        group.multiplier += first;
        group.shift += first;
        group.count = static_cast<uint32_t>(g);
        if (asymmetric) {
          group.filter_zero_point += first;
          group.filter_zero_point_count = static_cast<uint32_t>(g);
        }
        std::vector<int8_t> yg(static_cast<size_t>(5 * 6 * g));
        ASSERT_EQ(tgrs_conv2d_s8(&cp, &win, &q, &group, &kIn, x.data(), &filter_g,
                                 w.data() + first * kTaps, bias.data() + first, &out, yg.data()),
                  TGRS_KERNEL_OK);
        EXPECT_EQ(yg, ChannelGroup(y, kCout, first, g))
            << "channels [" << first << ", " << first + g << "), asymmetric " << asymmetric;
      }
    }
  }
}

}  // namespace
}  // namespace tigris::ref
