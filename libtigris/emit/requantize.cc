#include "emit/requantize.h"

#include <cmath>
#include <sstream>

#include "util/error.h"

namespace tigris::emit {

std::optional<QuantizedMultiplier> QuantizeMultiplier(double real) {
  if (!std::isfinite(real)) return std::nullopt;
  if (real == 0.0) return QuantizedMultiplier{};
  const bool negative = real < 0.0;
  int exponent = 0;
  // real = q * 2^exponent with q in [0.5, 1) (TFLite QuantizeMultiplier).
  const double q = std::frexp(negative ? -real : real, &exponent);
  // TfLiteRound is std::round: half away from zero.
  int64_t q_fixed = static_cast<int64_t>(std::round(q * static_cast<double>(int64_t{1} << 31)));
  if (q_fixed == (int64_t{1} << 31)) {  // q rounded up to 1.0: carry into the exponent
    q_fixed /= 2;
    ++exponent;
  }
  if (exponent > 30) return std::nullopt;
  if (exponent < -31) {  // every bit would be shifted out (TFLite flushes to zero)
    exponent = 0;
    q_fixed = 0;
  }
  QuantizedMultiplier out;
  out.multiplier = static_cast<int32_t>(negative ? -q_fixed : q_fixed);
  out.shift = exponent;
  return out;
}

QuantizedMultiplier QuantizeMultiplierOrThrow(double real, const std::string& what) {
  std::optional<QuantizedMultiplier> m = QuantizeMultiplier(real);
  if (!m) {
    std::ostringstream msg;
    msg.precision(17);
    msg << what << ": requantization multiplier " << real
        << " cannot be represented (must be finite and below 2^30)";
    throw Error(Status::kUnsupportedQuantization, msg.str());
  }
  return *m;
}

}  // namespace tigris::emit
