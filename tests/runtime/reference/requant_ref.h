// Independent reference of TFLite's integer requantization, written from its definition
// (gemmlowp SaturatingRoundingDoublingHighMul + RoundingDivideByPOT) as exact rational
// rounding in 64-bit math (|x * m| <= 2^62), not by calling the kernel code.
#ifndef TIGRIS_TESTS_RUNTIME_REFERENCE_REQUANT_REF_H_
#define TIGRIS_TESTS_RUNTIME_REFERENCE_REQUANT_REF_H_

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace tigris::ref {

// floor(num / 2^bits + 1/2): round half toward +infinity. This is what gemmlowp's nudge
// ((ab >= 0 ? 2^30 : 1 - 2^30), then division truncating toward zero) computes:
// +0.5 -> 1, -0.5 -> 0, -0.5000001 -> -1.
inline int64_t RoundHalfUpPow2(int64_t num, int bits) {
  const int64_t den = int64_t{1} << bits;
  const int64_t t = num + den / 2;
  const int64_t q = t / den;
  return (t % den != 0 && t < 0) ? q - 1 : q;  // floor division
}

// round(num / 2^bits) with ties away from zero, for any num (RoundingDivideByPOT).
inline int64_t RoundHalfAwayPow2(int64_t num, int bits) {
  if (bits == 0) return static_cast<int64_t>(num);
  const int64_t den = int64_t{1} << bits;
  const int64_t mag = num < 0 ? -num : num;
  const int64_t q = (mag + den / 2) / den;  // half rounds up in magnitude
  return static_cast<int64_t>(num < 0 ? -q : q);
}

// MultiplyByQuantizedMultiplier(x, m, shift) =
//   round_away(round_up(x * 2^left * m / 2^31) / 2^right); x * 2^left saturates to int32
//   (documented in
// runtime/kernels/requantize.h); m == x == INT32_MIN saturates (gemmlowp).
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t m, int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  int64_t shifted = static_cast<int64_t>(x) * (int64_t{1} << left);
  if (shifted > std::numeric_limits<int32_t>::max()) shifted = std::numeric_limits<int32_t>::max();
  if (shifted < std::numeric_limits<int32_t>::min()) shifted = std::numeric_limits<int32_t>::min();
  int64_t high;
  if (shifted == std::numeric_limits<int32_t>::min() && m == std::numeric_limits<int32_t>::min()) {
    high = std::numeric_limits<int32_t>::max();
  } else {
    high = RoundHalfUpPow2(shifted * m, 31);
  }
  return static_cast<int32_t>(RoundHalfAwayPow2(high, right));
}

inline int8_t Requantize(int64_t acc, int32_t m, int shift, int32_t zp, int32_t lo, int32_t hi) {
  // The kernels accumulate in int32: a test whose accumulator leaves int32 is invalid.
  if (acc > std::numeric_limits<int32_t>::max() || acc < std::numeric_limits<int32_t>::min()) {
    std::abort();
  }
  int64_t v =
      static_cast<int64_t>(MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), m, shift)) + zp;
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return static_cast<int8_t>(v);
}

// ONNX QuantizeLinear: saturate(round_half_even(x / scale) + zp), computed in double.
inline int8_t QuantizeLinear(float x, float scale, int32_t zp) {
  const double v = static_cast<double>(x / scale);  // float division, as ONNX (float math)
  double r = std::nearbyint(v);                     // default mode: ties to even
  r += zp;
  if (r < -128) r = -128;
  if (r > 127) r = 127;
  return static_cast<int8_t>(r);
}

}  // namespace tigris::ref

#endif  // TIGRIS_TESTS_RUNTIME_REFERENCE_REQUANT_REF_H_
