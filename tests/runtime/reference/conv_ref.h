// Independent reference convolutions and pools for the kernel tests: naive loops over ONNX
// layouts (NCHW activations, OIHW weights), int64 accumulators, the requantization of
// requant_ref.h. Nothing here calls or mirrors the kernels' NHWC code.
#ifndef TIGRIS_TESTS_RUNTIME_REFERENCE_CONV_REF_H_
#define TIGRIS_TESTS_RUNTIME_REFERENCE_CONV_REF_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/reference/requant_ref.h"

namespace tigris::ref {

struct Shape4 {  // NCHW
  int n = 1, c = 1, h = 1, w = 1;
  int64_t size() const { return int64_t{n} * c * h * w; }
  int64_t at(int in, int ic, int iy, int ix) const {
    return ((int64_t{in} * c + ic) * h + iy) * w + ix;
  }
};

struct ConvGeom {
  int stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1, pad_top = 0, pad_left = 0;
  int pad_bottom = 0, pad_right = 0;
  int group = 1;  // 1 = ordinary conv, C_in = depthwise
};

// Output size per ONNX (floor mode).
inline int ConvOut(int in, int k, int stride, int dil, int pad_a, int pad_b) {
  return (in + pad_a + pad_b - ((k - 1) * dil + 1)) / stride + 1;
}

// Grouped conv, ONNX Conv semantics: weight [C_out, C_in / group, KH, KW].
// Returns the int64 accumulators (bias included) in NCHW order.
template <typename T, typename Acc>
std::vector<Acc> ConvAccumulate(const Shape4& in, const std::vector<T>& x, Acc x_zero,
                                const Shape4& wshape, const std::vector<T>& w,
                                const std::vector<Acc>& bias, const ConvGeom& g,
                                const Shape4& out) {
  std::vector<Acc> acc(static_cast<size_t>(out.size()));
  const int cin_per_group = in.c / g.group;
  const int cout_per_group = out.c / g.group;
  for (int n = 0; n < out.n; ++n)
    for (int co = 0; co < out.c; ++co)
      for (int oy = 0; oy < out.h; ++oy)
        for (int ox = 0; ox < out.w; ++ox) {
          Acc s = bias.empty() ? Acc(0) : bias[co];
          const int grp = co / cout_per_group;
          for (int ky = 0; ky < wshape.h; ++ky)
            for (int kx = 0; kx < wshape.w; ++kx)
              for (int cig = 0; cig < cin_per_group; ++cig) {
                const int iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
                const int ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
                if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;  // zero (real) pad
                const int ci = grp * cin_per_group + cig;
                s += (Acc(x[in.at(n, ci, iy, ix)]) - x_zero) * Acc(w[wshape.at(co, cig, ky, kx)]);
              }
          acc[out.at(n, co, oy, ox)] = s;
        }
  return acc;
}

// ONNX ConvTranspose (group 1): weight [C_in, C_out, KH, KW], scatter formulation.
template <typename T, typename Acc>
std::vector<Acc> ConvTransposeAccumulate(const Shape4& in, const std::vector<T>& x, Acc x_zero,
                                         const Shape4& wshape, const std::vector<T>& w,
                                         const std::vector<Acc>& bias, const ConvGeom& g,
                                         const Shape4& out) {
  std::vector<Acc> acc(static_cast<size_t>(out.size()), Acc(0));
  for (int n = 0; n < out.n; ++n)
    for (int co = 0; co < out.c; ++co)
      for (int oy = 0; oy < out.h; ++oy)
        for (int ox = 0; ox < out.w; ++ox) acc[out.at(n, co, oy, ox)] = bias.empty() ? 0 : bias[co];
  for (int n = 0; n < in.n; ++n)
    for (int ci = 0; ci < in.c; ++ci)
      for (int iy = 0; iy < in.h; ++iy)
        for (int ix = 0; ix < in.w; ++ix)
          for (int co = 0; co < out.c; ++co)
            for (int ky = 0; ky < wshape.h; ++ky)
              for (int kx = 0; kx < wshape.w; ++kx) {
                const int oy = iy * g.stride_h - g.pad_top + ky * g.dil_h;
                const int ox = ix * g.stride_w - g.pad_left + kx * g.dil_w;
                if (oy < 0 || oy >= out.h || ox < 0 || ox >= out.w) continue;
                acc[out.at(n, co, oy, ox)] +=
                    (Acc(x[in.at(n, ci, iy, ix)]) - x_zero) * Acc(w[wshape.at(ci, co, ky, kx)]);
              }
  return acc;
}

struct PoolGeom {
  int kh = 1, kw = 1, stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  bool count_include_pad = false;
};

// Pool over NCHW. For each output: the real taps' values (in tap order) and the ONNX
// average divisor.
template <typename T, typename F>
void ForEachPoolWindow(const Shape4& in, const std::vector<T>& x, const PoolGeom& p,
                       const Shape4& out, F&& f) {
  for (int n = 0; n < out.n; ++n)
    for (int c = 0; c < out.c; ++c)
      for (int oy = 0; oy < out.h; ++oy)
        for (int ox = 0; ox < out.w; ++ox) {
          std::vector<T> taps;
          int padded_count = 0;
          for (int ky = 0; ky < p.kh; ++ky)
            for (int kx = 0; kx < p.kw; ++kx) {
              const int iy = oy * p.stride_h - p.pad_top + ky * p.dil_h;
              const int ix = ox * p.stride_w - p.pad_left + kx * p.dil_w;
              const bool in_padded = iy >= -p.pad_top && iy < in.h + p.pad_bottom &&
                                     ix >= -p.pad_left && ix < in.w + p.pad_right;
              if (in_padded) ++padded_count;
              if (iy < 0 || iy >= in.h || ix < 0 || ix >= in.w) continue;
              taps.push_back(x[in.at(n, c, iy, ix)]);
            }
          const int count = p.count_include_pad ? padded_count : static_cast<int>(taps.size());
          f(out.at(n, c, oy, ox), taps, count);
        }
}

// Layout conversions (the emitter's job, done here by the tests).
template <typename T>
std::vector<T> NchwToNhwc(const Shape4& s, const std::vector<T>& v) {
  std::vector<T> r(v.size());
  size_t i = 0;
  for (int n = 0; n < s.n; ++n)
    for (int y = 0; y < s.h; ++y)
      for (int x = 0; x < s.w; ++x)
        for (int c = 0; c < s.c; ++c) r[i++] = v[s.at(n, c, y, x)];
  return r;
}

template <typename T>
std::vector<T> NhwcToNchw(const Shape4& s, const std::vector<T>& v) {
  std::vector<T> r(v.size());
  size_t i = 0;
  for (int n = 0; n < s.n; ++n)
    for (int y = 0; y < s.h; ++y)
      for (int x = 0; x < s.w; ++x)
        for (int c = 0; c < s.c; ++c) r[s.at(n, c, y, x)] = v[i++];
  return r;
}

}  // namespace tigris::ref

#endif  // TIGRIS_TESTS_RUNTIME_REFERENCE_CONV_REF_H_
