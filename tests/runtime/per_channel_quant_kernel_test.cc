// tgrs_per_channel_quant as the int8 kernels take it (runtime/kernels/tgrs_kernels.h): the
// plan's own arrays (int32 multipliers, int8 shifts) with a count that is C_OUT, or 1 to
// broadcast one pair to every output channel; any other count, or a shift outside
// [-31, 30], is TGRS_KERNEL_BAD_ARGUMENT. Broadcast results are held both to the explicit
// per-channel run with the pair repeated and to the independent long-double reference
// (reference/requant_ref.h) over the naive NCHW convolution (reference/conv_ref.h).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "runtime/reference/conv_ref.h"
#include "runtime/reference/kernel_test_support.h"
#include "runtime/reference/requant_ref.h"
#include "tgrs_kernels.h"

namespace tigris::ref {
namespace {

// One (multiplier, shift) pair and, for comparison, the same pair repeated per channel.
struct OnePair {
  int32_t multiplier = 0;
  int8_t shift = 0;
  std::vector<int32_t> multipliers;
  std::vector<int8_t> shifts;

  OnePair(double real, int channels) {
    int s = 0;
    tgrs_quantize_multiplier(real, &multiplier, &s);
    shift = static_cast<int8_t>(s);
    multipliers.assign(channels, multiplier);
    shifts.assign(channels, shift);
  }
  tgrs_per_channel_quant broadcast() const { return {&multiplier, &shift, 1, nullptr, 0}; }
  tgrs_per_channel_quant repeated() const {
    return {multipliers.data(), shifts.data(), static_cast<uint32_t>(multipliers.size()), nullptr,
            0};
  }
};

// ---- Conv2D: 3x3, pad 1, C_IN 3 -> C_OUT 4 ------------------------------------------------

struct ConvProblem {
  static constexpr int kCin = 3, kCout = 4, kH = 6, kW = 5, kK = 3;
  Shape4 in{1, kCin, kH, kW}, ws{kCout, kCin, kK, kK}, out{1, kCout, kH, kW};
  ConvGeom g;
  std::vector<int8_t> x = RandomS8(in.size(), 701);
  std::vector<int8_t> w = RandomS8(ws.size(), 702, -127, 127);
  std::vector<int32_t> bias = RandomS32(kCout, 703, -4000, 4000);
  tgrs_quant_s8 quant{-7, 3, -128, 127, TGRS_ROUNDING_ONNX};

  ConvProblem() { g.pad_top = g.pad_left = g.pad_bottom = g.pad_right = 1; }

  tgrs_kernel_status Run(const tgrs_per_channel_quant& pcq, std::vector<int8_t>* y) const {
    const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
    const tgrs_row_window win = tgrs_row_window_full(kH, kH);
    const tgrs_dims in_d{1, kH, kW, kCin}, w_d{kCout, kK, kK, kCin}, out_d{1, kH, kW, kCout};
    const std::vector<int8_t> xn = NchwToNhwc(in, x), wn = NchwToNhwc(ws, w);  // OIHW -> OHWI
    y->assign(static_cast<size_t>(out.size()), 0);
    return tgrs_conv2d_s8(&cp, &win, &quant, &pcq, &in_d, xn.data(), &w_d, wn.data(), bias.data(),
                          &out_d, y->data());
  }

  // Every channel requantized by the one pair, in the independent reference.
  std::vector<int8_t> Expected(const OnePair& p) const {
    const std::vector<int64_t> b64(bias.begin(), bias.end());
    const std::vector<int64_t> acc =
        ConvAccumulate<int8_t, int64_t>(in, x, int64_t{quant.input_zero_point}, ws, w, b64, g, out);
    std::vector<int8_t> y(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      y[i] = Requantize(acc[i], p.multiplier, p.shift, quant.output_zero_point, -128, 127);
    }
    return NchwToNhwc(out, y);
  }
};

TEST(PerChannelQuantBroadcast, Conv2dOnePairEqualsRepeatedPair) {
  const ConvProblem c;
  const OnePair p(0.0031, ConvProblem::kCout);
  std::vector<int8_t> broadcast, repeated;
  ASSERT_EQ(c.Run(p.broadcast(), &broadcast), TGRS_KERNEL_OK);
  ASSERT_EQ(c.Run(p.repeated(), &repeated), TGRS_KERNEL_OK);
  EXPECT_EQ(broadcast, repeated);
  EXPECT_EQ(broadcast, c.Expected(p));
}

// TFLite's arithmetic (tgrs_rounding) through the convolution's paths (the box interior,
// the padded border; the DSP dot products in the emulated build), against the long-double
// reference of TFLite's two roundings.
TEST(TfliteRounding, Conv2dRequantizesInTheOpsArithmetic) {
  ConvProblem c;
  c.quant.rounding = TGRS_ROUNDING_TFLITE;
  const OnePair p(0.0031, ConvProblem::kCout);
  std::vector<int8_t> tflite;
  ASSERT_EQ(c.Run(p.repeated(), &tflite), TGRS_KERNEL_OK);
  const std::vector<int64_t> b64(c.bias.begin(), c.bias.end());
  const std::vector<int64_t> acc = ConvAccumulate<int8_t, int64_t>(
      c.in, c.x, int64_t{c.quant.input_zero_point}, c.ws, c.w, b64, c.g, c.out);
  std::vector<int8_t> want(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    want[i] = RequantizeTflite(acc[i], p.multiplier, p.shift, c.quant.output_zero_point, -128, 127);
  }
  EXPECT_EQ(tflite, NchwToNhwc(c.out, want));
}

// Where the two arithmetics part, on every int8 input: a 1x1 convolution by 1 scaled by
// 1/4 (multiplier 2^30, shift -1) puts x / 4 on a tie for every x = 2 mod 4; ONNX rounds
// those half to even, TFLite half up then half away from zero (x = 2: 0 against 1).
TEST(TfliteRounding, TiesPartTheTwoArithmeticsInAConvolution) {
  constexpr int kH = 16, kW = 16;
  std::vector<int8_t> x(kH * kW);
  for (int i = 0; i < kH * kW; ++i) x[static_cast<size_t>(i)] = static_cast<int8_t>(i - 128);
  const int8_t w = 1;
  const int32_t bias = 0, multiplier = 1 << 30;
  const int8_t shift = -1;
  const tgrs_per_channel_quant pcq{&multiplier, &shift, 1, nullptr, 0};
  const tgrs_conv_params cp{1, 1, 1, 1, 0, 0, 0};
  const tgrs_row_window win = tgrs_row_window_full(kH, kH);
  const tgrs_dims d{1, kH, kW, 1}, w_d{1, 1, 1, 1};
  for (int32_t rounding : {TGRS_ROUNDING_ONNX, TGRS_ROUNDING_TFLITE}) {
    const tgrs_quant_s8 q{0, 0, -128, 127, rounding};
    std::vector<int8_t> y(x.size());
    ASSERT_EQ(tgrs_conv2d_s8(&cp, &win, &q, &pcq, &d, x.data(), &w_d, &w, &bias, &d, y.data()),
              TGRS_KERNEL_OK);
    for (size_t i = 0; i < x.size(); ++i) {
      const int8_t want = rounding == TGRS_ROUNDING_TFLITE
                              ? RequantizeTflite(x[i], multiplier, shift, 0, -128, 127)
                              : Requantize(x[i], multiplier, shift, 0, -128, 127);
      ASSERT_EQ(y[i], want) << "x " << int{x[i]} << " rounding " << rounding;
    }
    EXPECT_EQ(y[130], rounding == TGRS_ROUNDING_TFLITE ? 1 : 0);  // x = 2
  }
}

// ---- Depthwise: 40 channels cross the kernel's 32-channel accumulator block ---------------

TEST(PerChannelQuantBroadcast, DepthwiseOnePairAcrossChannelBlocks) {
  constexpr int kC = 40, kH = 4, kW = 4, kK = 3;
  const Shape4 in{1, kC, kH, kW}, ws{kC, 1, kK, kK}, out{1, kC, kH, kW};
  ConvGeom g;
  g.pad_top = g.pad_left = g.pad_bottom = g.pad_right = 1;
  g.group = kC;
  const std::vector<int8_t> x = RandomS8(in.size(), 711), w = RandomS8(ws.size(), 712, -127, 127);
  const std::vector<int32_t> bias = RandomS32(kC, 713, -2000, 2000);
  const OnePair p(0.0047, kC);
  const tgrs_quant_s8 q{5, -9, -128, 127, TGRS_ROUNDING_ONNX};
  // [C, 1, KH, KW] -> [KH, KW, C] (the emitter's depthwise layout)
  std::vector<int8_t> wn(w.size());
  for (int c = 0; c < kC; ++c)
    for (int y = 0; y < kK; ++y)
      for (int xx = 0; xx < kK; ++xx) wn[(y * kK + xx) * kC + c] = w[ws.at(c, 0, y, xx)];
  const std::vector<int8_t> xn = NchwToNhwc(in, x);
  const tgrs_conv_params cp{1, 1, 1, 1, 1, 1, 0};
  const tgrs_row_window win = tgrs_row_window_full(kH, kH);
  const tgrs_dims in_d{1, kH, kW, kC}, w_d{1, kK, kK, kC}, out_d{1, kH, kW, kC};
  auto run = [&](const tgrs_per_channel_quant& pcq, std::vector<int8_t>* y) {
    y->assign(static_cast<size_t>(out.size()), 0);
    return tgrs_depthwise_conv2d_s8(&cp, &win, &q, &pcq, &in_d, xn.data(), &w_d, wn.data(),
                                    bias.data(), &out_d, y->data());
  };
  std::vector<int8_t> broadcast, repeated;
  ASSERT_EQ(run(p.broadcast(), &broadcast), TGRS_KERNEL_OK);
  ASSERT_EQ(run(p.repeated(), &repeated), TGRS_KERNEL_OK);
  EXPECT_EQ(broadcast, repeated);

  const std::vector<int64_t> b64(bias.begin(), bias.end());
  const std::vector<int64_t> acc =
      ConvAccumulate<int8_t, int64_t>(in, x, int64_t{5}, ws, w, b64, g, out);
  std::vector<int8_t> want(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    want[i] = Requantize(acc[i], p.multiplier, p.shift, -9, -128, 127);
  }
  EXPECT_EQ(broadcast, NchwToNhwc(out, want));
}

// ---- Fully connected: batch 2, K 9, N_OUT 5 -----------------------------------------------

struct FcProblem {
  static constexpr int kBatch = 2, kK = 9, kOut = 5;
  std::vector<int8_t> x = RandomS8(kBatch * kK, 721);
  std::vector<int8_t> w = RandomS8(kOut * kK, 722, -127, 127);
  std::vector<int32_t> bias = RandomS32(kOut, 723, -9000, 9000);
  tgrs_quant_s8 quant{11, -4, -100, 120, TGRS_ROUNDING_ONNX};

  tgrs_kernel_status Run(const tgrs_per_channel_quant& pcq, std::vector<int8_t>* y) const {
    y->assign(kBatch * kOut, 0);
    return tgrs_fully_connected_s8(&quant, &pcq, kBatch, kK, kOut, x.data(), w.data(), bias.data(),
                                   y->data());
  }
};

TEST(PerChannelQuantBroadcast, FullyConnectedOnePairEqualsRepeatedPair) {
  const FcProblem f;
  const OnePair p(0.0009, FcProblem::kOut);
  std::vector<int8_t> broadcast, repeated;
  ASSERT_EQ(f.Run(p.broadcast(), &broadcast), TGRS_KERNEL_OK);
  ASSERT_EQ(f.Run(p.repeated(), &repeated), TGRS_KERNEL_OK);
  EXPECT_EQ(broadcast, repeated);
  for (int b = 0; b < FcProblem::kBatch; ++b)
    for (int o = 0; o < FcProblem::kOut; ++o) {
      int64_t acc = f.bias[o];
      for (int i = 0; i < FcProblem::kK; ++i) {
        acc += int64_t(f.x[b * FcProblem::kK + i] - 11) * f.w[o * FcProblem::kK + i];
      }
      EXPECT_EQ(broadcast[b * FcProblem::kOut + o],
                Requantize(acc, p.multiplier, p.shift, -4, -100, 120))
          << "batch " << b << " out " << o;
    }
}

// ---- BatchNorm: one scale for every channel, per-channel offsets --------------------------

TEST(PerChannelQuantBroadcast, BatchNormOnePairEqualsRepeatedPair) {
  const tgrs_dims d{1, 2, 3, 4};
  const std::vector<int8_t> x = RandomS8(24, 731);
  const OnePair p(0.8, 4);
  // Offsets of 2.5, -7.25, 0 and 13.75 output steps in the multiplier's fixed point.
  std::vector<int32_t> offset;
  for (double o : {2.5, -7.25, 0.0, 13.75}) {
    offset.push_back(static_cast<int32_t>(std::ldexp(o, 31 - p.shift)));
  }
  const tgrs_quant_s8 q{2, -1, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant one = p.broadcast(), rep = p.repeated();
  std::vector<int8_t> broadcast(24), repeated(24);
  ASSERT_EQ(tgrs_batch_norm_s8(&q, &one, offset.data(), &d, x.data(), broadcast.data()),
            TGRS_KERNEL_OK);
  ASSERT_EQ(tgrs_batch_norm_s8(&q, &rep, offset.data(), &d, x.data(), repeated.data()),
            TGRS_KERNEL_OK);
  EXPECT_EQ(broadcast, repeated);
  for (int i = 0; i < 24; ++i) {
    // One rounding (ties to even) of the exact fixed-point value, in long double.
    const long double exact =
        std::ldexp(static_cast<long double>(x[i] - 2) * p.multiplier + offset[i % 4], p.shift - 31);
    EXPECT_EQ(broadcast[i], std::clamp<int64_t>(int64_t(std::nearbyintl(exact)) - 1, -128, 127))
        << i;
  }
}

// ---- Counts other than 1 and C_OUT, and out-of-range shifts, are rejected -----------------

// Every int8 kernel that takes a tgrs_per_channel_quant, over 4 output channels.
struct Kernel {
  std::string name;
  std::function<tgrs_kernel_status(const tgrs_per_channel_quant&)> run;
};

std::vector<Kernel> FourChannelKernels() {
  static const tgrs_quant_s8 q{0, 0, -128, 127, TGRS_ROUNDING_ONNX};
  static const std::vector<int8_t> x(64, 1), w(64, 1);
  static std::vector<int8_t> y(256);
  static const std::vector<int32_t> offset(4, 0);
  static const tgrs_conv_params cp{1, 1, 1, 1, 0, 0, 0};
  return {
      {"conv2d",
       [](const tgrs_per_channel_quant& pcq) {
         const tgrs_dims in{1, 3, 3, 2}, f{4, 1, 1, 2}, out{1, 3, 3, 4};
         const tgrs_row_window win = tgrs_row_window_full(3, 3);
         return tgrs_conv2d_s8(&cp, &win, &q, &pcq, &in, x.data(), &f, w.data(), nullptr, &out,
                               y.data());
       }},
      {"conv1d",
       [](const tgrs_per_channel_quant& pcq) {
         const tgrs_dims in{1, 1, 5, 2}, f{4, 1, 1, 2}, out{1, 1, 5, 4};
         return tgrs_conv1d_s8(&cp, &q, &pcq, &in, x.data(), &f, w.data(), nullptr, &out, y.data());
       }},
      {"depthwise_conv2d",
       [](const tgrs_per_channel_quant& pcq) {
         const tgrs_dims in{1, 3, 3, 2}, f{1, 1, 1, 4}, out{1, 3, 3, 4};  // multiplier 2
         const tgrs_row_window win = tgrs_row_window_full(3, 3);
         return tgrs_depthwise_conv2d_s8(&cp, &win, &q, &pcq, &in, x.data(), &f, w.data(), nullptr,
                                         &out, y.data());
       }},
      {"conv_transpose2d",
       [](const tgrs_per_channel_quant& pcq) {
         const tgrs_dims in{1, 3, 3, 2}, f{4, 2, 2, 2}, out{1, 4, 4, 4};  // (3 - 1) + 2 = 4
         return tgrs_conv_transpose2d_s8(&cp, &q, &pcq, &in, x.data(), &f, w.data(), nullptr, &out,
                                         y.data());
       }},
      {"fully_connected",
       [](const tgrs_per_channel_quant& pcq) {
         return tgrs_fully_connected_s8(&q, &pcq, 2, 3, 4, x.data(), w.data(), nullptr, y.data());
       }},
      {"batch_norm",
       [](const tgrs_per_channel_quant& pcq) {
         const tgrs_dims d{1, 2, 2, 4};
         return tgrs_batch_norm_s8(&q, &pcq, offset.data(), &d, x.data(), y.data());
       }},
  };
}

TEST(PerChannelQuantArguments, CountMustBeOneOrTheChannelCount) {
  const std::vector<int32_t> m(8, 1 << 30);
  const std::vector<int8_t> s(8, 0);
  for (const Kernel& k : FourChannelKernels()) {
    // The same call is accepted with 4 entries and with 1 (so a rejection below is the count).
    EXPECT_EQ(k.run({m.data(), s.data(), 4, nullptr, 0}), TGRS_KERNEL_OK) << k.name;
    EXPECT_EQ(k.run({m.data(), s.data(), 1, nullptr, 0}), TGRS_KERNEL_OK) << k.name;
    for (uint32_t count : {0u, 2u, 3u, 5u, 8u}) {
      EXPECT_EQ(k.run({m.data(), s.data(), count, nullptr, 0}), TGRS_KERNEL_BAD_ARGUMENT)
          << k.name << " count " << count;
    }
    EXPECT_EQ(k.run({m.data(), nullptr, 4, nullptr, 0}), TGRS_KERNEL_BAD_ARGUMENT) << k.name;
    EXPECT_EQ(k.run({nullptr, s.data(), 4, nullptr, 0}), TGRS_KERNEL_BAD_ARGUMENT) << k.name;
  }
}

// requantize.h shifts by 31 - shift, defined for 1..62 only: shifts 31 and -32 (which
// tgrs_quantize_multiplier never produces) must be refused, not shifted.
TEST(PerChannelQuantArguments, ShiftOutsideMinus31To30IsRejected) {
  const std::vector<int32_t> m(4, 1 << 30);
  for (const Kernel& k : FourChannelKernels()) {
    for (int8_t bad : {int8_t{31}, int8_t{-32}, int8_t{127}, int8_t{-128}}) {
      std::vector<int8_t> s{30, -31, 0, 0};
      EXPECT_EQ(k.run({m.data(), s.data(), 4, nullptr, 0}), TGRS_KERNEL_OK)
          << k.name;  // both ends legal
      s[3] = bad;
      EXPECT_EQ(k.run({m.data(), s.data(), 4, nullptr, 0}), TGRS_KERNEL_BAD_ARGUMENT)
          << k.name << " shift " << int(bad);
      EXPECT_EQ(k.run({m.data(), &s[3], 1, nullptr, 0}), TGRS_KERNEL_BAD_ARGUMENT)
          << k.name << " broadcast shift " << int(bad);
    }
  }
}

}  // namespace
}  // namespace tigris::ref
