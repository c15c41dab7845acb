// Quantization annotation of a tensor (the result of folding ONNX QDQ pairs).
// real = (q - zero_point) * scale, per tensor (one entry) or per channel along `axis`.
// Activations are always int8 after normalization: uint8 activations are shifted to int8
// by subtracting 128 from both the data and the zero point (the real values are equal).
#ifndef TIGRIS_IR_QUANT_H_
#define TIGRIS_IR_QUANT_H_

#include <cstdint>
#include <vector>

namespace tigris::ir {

struct QuantParams {
  std::vector<float> scales;         // 1 entry (per tensor) or one per channel
  std::vector<int32_t> zero_points;  // same length as scales
  int32_t axis = -1;                 // channel axis when per channel, -1 otherwise

  bool per_channel() const { return scales.size() > 1; }
  bool operator==(const QuantParams& o) const {
    return scales == o.scales && zero_points == o.zero_points && axis == o.axis;
  }
};

}  // namespace tigris::ir

#endif  // TIGRIS_IR_QUANT_H_
