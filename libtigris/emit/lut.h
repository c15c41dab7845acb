// 256-entry lookup tables for int8 ops whose function has no cheap integer form: every
// unary op of the op table (Sigmoid, Tanh, HardSigmoid, HardSwish, Selu, LeakyRelu, the
// elementwise math ops Abs ... Mish; and Relu/Relu6/Clip when input and output
// quantization differ). The runtime's tgrs_lut_s8 reads output = lut[input + 128].
//
//   lut[i] = quantize(f(dequantize(i - 128)))
//   dequantize(q) = (q - zp_in) * s_in
//   quantize(y)   = saturate_int8(round_half_to_even(y / s_out) + zp_out)   (ONNX QuantizeLinear)
//
// computed in double, so the table is the exact QDQ reference the float model defines.
#ifndef TIGRIS_EMIT_LUT_H_
#define TIGRIS_EMIT_LUT_H_

#include <array>
#include <cstdint>
#include <functional>

#include "ir/graph.h"

namespace tigris::emit {

using Lut = std::array<int8_t, 256>;

struct AffineQuant {
  double scale = 1.0;
  int32_t zero_point = 0;
};

Lut BuildLut(const std::function<double(double)>& f, AffineQuant in, AffineQuant out);

// ONNX QuantizeLinear of one real value to int8 (round half to even, saturate).
int8_t QuantizeToInt8(double real, AffineQuant q);

// lut[i] = QuantizeLinear(DequantizeLinear(i - 128)) from grid `in` to grid `out`, in
// float32 as ONNX defines the pair (DequantizeLinear's output is a float32 tensor), so a
// value moved between grids unchanged (an int8 Where's X or Y) gets onnxruntime's bytes.
Lut BuildRequantizeLut(AffineQuant in, AffineQuant out);

// ONNX's default alpha of Elu and Celu (operators.md), read by op_attrs.cc for float32.
inline constexpr float kEluAlpha = 1.0f;

// The real function an int8 table op computes, with the op's ONNX attributes and their
// ONNX defaults (LeakyRelu alpha 0.01; Selu alpha 1.67326..., gamma 1.05070...; HardSigmoid
// alpha 0.2, beta 0.5; Clip "min"/"max"). Throws kUnsupportedOp naming the op when it has
// no table form.
std::function<double(double)> LutFunction(const ir::Op& op);

// True for the ops that are always computed through a table in int8.
bool IsLutOp(ir::OpType type);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_LUT_H_
