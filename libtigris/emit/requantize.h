// Requantization constants of int8 ops (tigris-compilation-pipeline.txt, stage 7 step 2):
// a real multiplier such as effective_scale = input_scale * weight_scale / output_scale
// becomes a Q0.31 integer multiplier and a power-of-two shift, so the runtime rescales an
// int32 accumulator with integer arithmetic only (TFLite's MultiplyByQuantizedMultiplier).
//
//   real = multiplier * 2^(shift - 31),  multiplier in [2^30, 2^31) for real > 0,
//   shift > 0 is a left shift, shift <= 0 a right shift.
//
// Semantics are TFLite's QuantizeMultiplier (frexp, round half away from zero, a mantissa
// that rounds up to 2^31 carries into the shift, shift < -31 flushes to {0, 0}), extended
// like the runtime's tgrs_quantize_multiplier (runtime/kernels/tgrs_kernels.h): a negative
// real gives the negated multiplier of |real| (int8 BatchNormalization has negative
// per-channel scales). The two implementations must agree bit for bit
// (tests/emit/requantize_test.cc).
#ifndef TIGRIS_EMIT_REQUANTIZE_H_
#define TIGRIS_EMIT_REQUANTIZE_H_

#include <cstdint>
#include <optional>
#include <string>

namespace tigris::emit {

struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int32_t shift = 0;
  bool operator==(const QuantizedMultiplier& o) const {
    return multiplier == o.multiplier && shift == o.shift;
  }
};

// nullopt when `real` is not finite or |real| >= 2^30 (a left shift above 30 would
// overflow the runtime's int32 arithmetic); {0, 0} for 0 and for |real| < 2^-32.
std::optional<QuantizedMultiplier> QuantizeMultiplier(double real);

// As above, but throws tigris::Error(kUnsupportedQuantization) naming `what` (e.g. the op)
// when the multiplier is out of range.
QuantizedMultiplier QuantizeMultiplierOrThrow(double real, const std::string& what);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_REQUANTIZE_H_
