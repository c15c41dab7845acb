// Shared helpers of the kernel tests: deterministic random data, per-channel quantization
// parameters, and the row-tiling driver that cuts input strips exactly as
// libtigris/plan/tile_plan.h describes.
#ifndef TIGRIS_TESTS_RUNTIME_REFERENCE_KERNEL_TEST_SUPPORT_H_
#define TIGRIS_TESTS_RUNTIME_REFERENCE_KERNEL_TEST_SUPPORT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tgrs_kernels.h"

namespace tigris::ref {

inline std::vector<int8_t> RandomS8(size_t n, uint32_t seed, int lo = -128, int hi = 127) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

inline std::vector<float> RandomF32(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

inline std::vector<int32_t> RandomS32(size_t n, uint32_t seed, int32_t lo, int32_t hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

// Per-channel multipliers/shifts from real scales via tgrs_quantize_multiplier (tested on
// its own against double precision in quantize_multiplier_kernel_test.cc), stored as the
// plan stores them: int32 multipliers, int8 shifts.
struct ChannelQuant {
  std::vector<int32_t> multiplier;
  std::vector<int8_t> shift;
  tgrs_per_channel_quant view() const {
    return {multiplier.data(), shift.data(), static_cast<uint32_t>(multiplier.size()), nullptr, 0};
  }
};

inline ChannelQuant MakeChannelQuant(const std::vector<double>& reals) {
  ChannelQuant q;
  for (double r : reals) {
    int32_t m = 0;
    int s = 0;
    tgrs_quantize_multiplier(r, &m, &s);
    q.multiplier.push_back(m);
    q.shift.push_back(static_cast<int8_t>(s));  // in [-31, 30]: fits the plan's int8
  }
  return q;
}

// Output rows of tile t of `tiles` near-equal tiles over out_h.
struct Rows {
  int begin, end;
};
inline std::vector<Rows> SplitRows(int out_h, int tiles) {
  std::vector<Rows> r;
  const int h = (out_h + tiles - 1) / tiles;
  for (int b = 0; b < out_h; b += h) r.push_back({b, std::min(out_h, b + h)});
  return r;
}

// Runs `call(window, strip_in, strip_out)` once per tile and assembles the full output.
// rows_for(a, b) gives the input rows [lo, hi) the strip of output rows [a, b) holds.
// Tensors are [N, H, W, C] with row sizes in elements.
template <typename T, typename RowsFor, typename Call>
std::vector<T> RunTiledRows(const std::vector<T>& input, int n, int in_h, size_t in_row, int out_h,
                            size_t out_row, int tiles, RowsFor&& rows_for, Call&& call) {
  std::vector<T> out(static_cast<size_t>(n) * out_h * out_row);
  for (const Rows& t : SplitRows(out_h, tiles)) {
    Rows in = rows_for(t.begin, t.end);
    in.begin = std::max(in.begin, 0);
    in.end = std::min(in.end, in_h);
    if (in.end < in.begin) in.end = in.begin;
    const int rows = in.end - in.begin;
    std::vector<T> strip(static_cast<size_t>(n) * rows * in_row + 1);
    for (int b = 0; b < n; ++b) {
      std::copy_n(input.begin() + (static_cast<size_t>(b) * in_h + in.begin) * in_row,
                  rows * in_row, strip.begin() + static_cast<size_t>(b) * rows * in_row);
    }
    const int out_rows = t.end - t.begin;
    std::vector<T> out_strip(static_cast<size_t>(n) * out_rows * out_row);
    tgrs_row_window w{in.begin, rows, t.begin, t.end};
    if (call(w, strip.data(), out_strip.data()) != TGRS_KERNEL_OK) return {};
    for (int b = 0; b < n; ++b) {
      std::copy_n(out_strip.begin() + static_cast<size_t>(b) * out_rows * out_row,
                  out_rows * out_row,
                  out.begin() + (static_cast<size_t>(b) * out_h + t.begin) * out_row);
    }
  }
  return out;
}

// The strip of output rows [a, b) of a (kernel, stride, dilation, pad_top) window is
// [a * stride - pad_top, (b - 1) * stride - pad_top + (kernel - 1) * dilation + 1) clipped
// to [0, in_h), exactly as libtigris/plan/tile_plan.h describes.
template <typename T, typename Call>
std::vector<T> RunTiled(const std::vector<T>& input, int n, int in_h, size_t in_row, int out_h,
                        size_t out_row, int tiles, int kernel, int stride, int dilation,
                        int pad_top, Call&& call) {
  return RunTiledRows(
      input, n, in_h, in_row, out_h, out_row, tiles,
      [&](int a, int b) {
        return Rows{a * stride - pad_top, (b - 1) * stride - pad_top + (kernel - 1) * dilation + 1};
      },
      call);
}

// Channels [first, first + g) of every pixel of a channels-last tensor of `channels`
// channels: what a channel group's call reads or writes.
template <typename T>
std::vector<T> ChannelGroup(const std::vector<T>& x, int32_t channels, int32_t first, int32_t g) {
  std::vector<T> out;
  for (size_t p = 0; p < x.size() / static_cast<size_t>(channels); ++p) {
    const auto begin = x.begin() + static_cast<std::ptrdiff_t>(p * channels + first);
    out.insert(out.end(), begin, begin + g);
  }
  return out;
}

template <typename T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace tigris::ref

#endif  // TIGRIS_TESTS_RUNTIME_REFERENCE_KERNEL_TEST_SUPPORT_H_
