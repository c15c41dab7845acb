// Independent reference of the kernels' integer requantization (one rounding, half to even,
// of x * m * 2^(shift - 31)), written in long double rather than by calling the kernel
// code.
#ifndef TIGRIS_TESTS_RUNTIME_REFERENCE_REQUANT_REF_H_
#define TIGRIS_TESTS_RUNTIME_REFERENCE_REQUANT_REF_H_

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace tigris::ref {

// x * m * 2^(shift - 31) rounded once, half to even, saturated to int32: the kernels'
// requantization (runtime/kernels/requantize.h explains why it is not TFLite's double
// rounding). Computed here in long double, whose 64-bit mantissa holds |x * m| < 2^62
// exactly, so the scaling by a power of two and the rounding (nearbyintl: ties to even in
// the default mode) are exact: an implementation sharing nothing with the kernel's
// integer remainder test.
static_assert(std::numeric_limits<long double>::digits >= 63,
              "the reference needs an exact 63-bit mantissa");
inline int32_t MultiplyByQuantizedMultiplier(int32_t x, int32_t m, int shift) {
  const long double product = static_cast<long double>(x) * static_cast<long double>(m);
  const long double scaled = std::ldexp(product, shift - 31);
  const long double rounded = std::nearbyintl(scaled);
  if (rounded > static_cast<long double>(std::numeric_limits<int32_t>::max())) {
    return std::numeric_limits<int32_t>::max();
  }
  if (rounded < static_cast<long double>(std::numeric_limits<int32_t>::min())) {
    return std::numeric_limits<int32_t>::min();
  }
  return static_cast<int32_t>(rounded);
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

// TFLite's requantization (tgrs_rounding TGRS_ROUNDING_TFLITE), in long double from its
// definition: x * 2^max(shift, 0), then the high product floor(a m / 2^31 + 1/2), then a
// division by 2^max(-shift, 0) rounded half away from zero. For the accumulators and
// multipliers of a kernel test (|x| < 2^31, shift <= 0 here), every step is exact.
inline int8_t RequantizeTflite(int64_t acc, int32_t m, int shift, int32_t zp, int32_t lo,
                               int32_t hi) {
  if (acc > std::numeric_limits<int32_t>::max() || acc < std::numeric_limits<int32_t>::min() ||
      shift > 0) {
    std::abort();
  }
  const long double high = std::floor(
      std::ldexp(static_cast<long double>(acc) * static_cast<long double>(m), -31) + 0.5L);
  const long double q = std::ldexp(high, shift);
  const long double rounded = q < 0 ? -std::floor(-q + 0.5L) : std::floor(q + 0.5L);
  int64_t v = static_cast<int64_t>(rounded) + zp;
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
