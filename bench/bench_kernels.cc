// Reference kernel throughput (runtime/kernels), int8 and float32, in MACs per second:
//   build/bench/bench_kernels --benchmark_min_time=0.5s
// Shapes are MobileNet-like layers small enough for a microcontroller arena.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "tgrs_kernels.h"

namespace {

template <typename T>
std::vector<T> Filled(size_t n) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(static_cast<int>(i * 7 % 19) - 9);
  return v;
}

struct ConvShape {
  int h, w, c_in, c_out, k, stride;
};

void SetMacs(benchmark::State& state, double macs_per_iter) {
  state.counters["MACs/s"] = benchmark::Counter(
      macs_per_iter * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

template <typename T>
void BM_Conv(benchmark::State& state, ConvShape s) {
  const int pad = s.k / 2;
  const int oh = (s.h + 2 * pad - s.k) / s.stride + 1, ow = (s.w + 2 * pad - s.k) / s.stride + 1;
  const tgrs_conv_params cp{s.stride, s.stride, 1, 1, pad, pad, 0};
  const tgrs_dims in_d{1, s.h, s.w, s.c_in}, w_d{s.c_out, s.k, s.k, s.c_in},
      out_d{1, oh, ow, s.c_out};
  const tgrs_row_window win = tgrs_row_window_full(s.h, oh);
  const auto x = Filled<T>(size_t(s.h) * s.w * s.c_in);
  const auto w = Filled<T>(size_t(s.c_out) * s.k * s.k * s.c_in);
  std::vector<T> out(size_t(oh) * ow * s.c_out);
  const std::vector<int32_t> mult(s.c_out, 1 << 30), bias(s.c_out, 3);
  const std::vector<int8_t> shift(s.c_out, -8);
  const std::vector<float> fbias(s.c_out, 0.5f);
  const tgrs_quant_s8 q{-3, 2, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq{mult.data(), shift.data(), static_cast<uint32_t>(mult.size()),
                                   nullptr, 0};
  for (auto _ : state) {
    if constexpr (sizeof(T) == 1) {
      tgrs_conv2d_s8(&cp, &win, &q, &pcq, &in_d, x.data(), &w_d, w.data(), bias.data(), &out_d,
                     out.data());
    } else {
      tgrs_conv2d_f32(&cp, &win, nullptr, &in_d, x.data(), &w_d, w.data(), fbias.data(), &out_d,
                      out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  SetMacs(state, double(oh) * ow * s.c_out * s.k * s.k * s.c_in);
}

template <typename T>
void BM_Depthwise(benchmark::State& state, ConvShape s) {
  const int pad = s.k / 2;
  const int oh = (s.h + 2 * pad - s.k) / s.stride + 1, ow = (s.w + 2 * pad - s.k) / s.stride + 1;
  const tgrs_conv_params cp{s.stride, s.stride, 1, 1, pad, pad, 0};
  const tgrs_dims in_d{1, s.h, s.w, s.c_in}, w_d{1, s.k, s.k, s.c_in}, out_d{1, oh, ow, s.c_in};
  const tgrs_row_window win = tgrs_row_window_full(s.h, oh);
  const auto x = Filled<T>(size_t(s.h) * s.w * s.c_in);
  const auto w = Filled<T>(size_t(s.k) * s.k * s.c_in);
  std::vector<T> out(size_t(oh) * ow * s.c_in);
  const std::vector<int32_t> mult(s.c_in, 1 << 30), bias(s.c_in, 3);
  const std::vector<int8_t> shift(s.c_in, -6);
  const std::vector<float> fbias(s.c_in, 0.5f);
  const tgrs_quant_s8 q{-3, 2, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq{mult.data(), shift.data(), static_cast<uint32_t>(mult.size()),
                                   nullptr, 0};
  for (auto _ : state) {
    if constexpr (sizeof(T) == 1) {
      tgrs_depthwise_conv2d_s8(&cp, &win, &q, &pcq, &in_d, x.data(), &w_d, w.data(), bias.data(),
                               &out_d, out.data());
    } else {
      tgrs_depthwise_conv2d_f32(&cp, &win, nullptr, &in_d, x.data(), &w_d, w.data(), fbias.data(),
                                &out_d, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  SetMacs(state, double(oh) * ow * s.c_in * s.k * s.k);
}

template <typename T>
void BM_FullyConnected(benchmark::State& state, int k, int n_out) {
  const auto x = Filled<T>(size_t(k));
  const auto w = Filled<T>(size_t(n_out) * k);
  std::vector<T> out(n_out);
  const std::vector<int32_t> mult(n_out, 1 << 30), bias(n_out, 3);
  const std::vector<int8_t> shift(n_out, -8);
  const std::vector<float> fbias(n_out, 0.5f);
  const tgrs_quant_s8 q{-3, 2, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_per_channel_quant pcq{mult.data(), shift.data(), static_cast<uint32_t>(mult.size()),
                                   nullptr, 0};
  for (auto _ : state) {
    if constexpr (sizeof(T) == 1) {
      tgrs_fully_connected_s8(&q, &pcq, 1, k, n_out, x.data(), w.data(), bias.data(), out.data());
    } else {
      tgrs_fully_connected_f32(nullptr, 1, k, n_out, x.data(), w.data(), fbias.data(), out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  SetMacs(state, double(k) * n_out);
}

// Average pool 3x3 stride 2: "MACs" counts one add per tap (the planner counts pools as 0
// MACs; this is only a throughput figure).
template <typename T>
void BM_AvgPool(benchmark::State& state, int h, int w, int c) {
  const int oh = (h + 2 - 3) / 2 + 1, ow = (w + 2 - 3) / 2 + 1;
  const tgrs_pool_params p{3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
  const tgrs_dims in_d{1, h, w, c}, out_d{1, oh, ow, c};
  const tgrs_row_window win = tgrs_row_window_full(h, oh);
  const auto x = Filled<T>(size_t(h) * w * c);
  std::vector<T> out(size_t(oh) * ow * c);
  const tgrs_quant_s8 q{-3, -3, -128, 127, TGRS_ROUNDING_ONNX};
  const tgrs_requant id{1 << 30, 1};
  for (auto _ : state) {
    if constexpr (sizeof(T) == 1) {
      tgrs_avg_pool_s8(&p, &win, &q, &id, &in_d, x.data(), &out_d, out.data());
    } else {
      tgrs_avg_pool_f32(&p, &win, &in_d, x.data(), &out_d, out.data());
    }
    benchmark::DoNotOptimize(out.data());
  }
  SetMacs(state, double(oh) * ow * c * 9);
}

const ConvShape kConv3x3{48, 48, 16, 32, 3, 1};
const ConvShape kConv1x1{24, 24, 64, 64, 1, 1};
const ConvShape kDw3x3{48, 48, 64, 64, 3, 1};

// Google Benchmark 1.7 has no templated BENCHMARK_CAPTURE: one named wrapper per dtype.
void BM_Conv_s8(benchmark::State& st, ConvShape s) { BM_Conv<int8_t>(st, s); }
void BM_Conv_f32(benchmark::State& st, ConvShape s) { BM_Conv<float>(st, s); }
void BM_Depthwise_s8(benchmark::State& st, ConvShape s) { BM_Depthwise<int8_t>(st, s); }
void BM_Depthwise_f32(benchmark::State& st, ConvShape s) { BM_Depthwise<float>(st, s); }
void BM_FullyConnected_s8(benchmark::State& st, int k, int n) {
  BM_FullyConnected<int8_t>(st, k, n);
}
void BM_FullyConnected_f32(benchmark::State& st, int k, int n) {
  BM_FullyConnected<float>(st, k, n);
}
void BM_AvgPool_s8(benchmark::State& st, int h, int w, int c) { BM_AvgPool<int8_t>(st, h, w, c); }
void BM_AvgPool_f32(benchmark::State& st, int h, int w, int c) { BM_AvgPool<float>(st, h, w, c); }

BENCHMARK_CAPTURE(BM_Conv_s8, 3x3_48x48x16to32, kConv3x3);
BENCHMARK_CAPTURE(BM_Conv_f32, 3x3_48x48x16to32, kConv3x3);
BENCHMARK_CAPTURE(BM_Conv_s8, 1x1_24x24x64to64, kConv1x1);
BENCHMARK_CAPTURE(BM_Conv_f32, 1x1_24x24x64to64, kConv1x1);
BENCHMARK_CAPTURE(BM_Depthwise_s8, 3x3_48x48x64, kDw3x3);
BENCHMARK_CAPTURE(BM_Depthwise_f32, 3x3_48x48x64, kDw3x3);
BENCHMARK_CAPTURE(BM_FullyConnected_s8, 1024to256, 1024, 256);
BENCHMARK_CAPTURE(BM_FullyConnected_f32, 1024to256, 1024, 256);
BENCHMARK_CAPTURE(BM_AvgPool_s8, 3x3s2_48x48x64, 48, 48, 64);
BENCHMARK_CAPTURE(BM_AvgPool_f32, 3x3s2_48x48x64, 48, 48, 64);

}  // namespace

BENCHMARK_MAIN();
