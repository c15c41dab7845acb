// Reading the quantization parameters of ONNX QuantizeLinear / DequantizeLinear nodes, and
// the constant arithmetic of qdq_fold.cc (dequantizing constants, the uint8 -> int8 shift).
#ifndef TIGRIS_PASSES_QDQ_PARAMS_H_
#define TIGRIS_PASSES_QDQ_PARAMS_H_

#include <vector>

#include "ir/graph.h"

namespace tigris::passes {

// The parameters of one Q or DQ node, as ONNX states them (before any uint8 shift).
struct QdqParams {
  std::vector<float> scales;
  std::vector<int32_t> zero_points;              // same length as scales
  int32_t axis = -1;                             // normalized to [0, rank); -1 when per tensor
  ir::DType quantized_dtype = ir::DType::kInt8;  // kInt8, kUInt8 or kInt32 (DQ of bias)

  bool operator==(const QdqParams& o) const {
    return scales == o.scales && zero_points == o.zero_points && axis == o.axis &&
           quantized_dtype == o.quantized_dtype;
  }
  bool operator!=(const QdqParams& o) const { return !(*this == o); }
};

// Reads the scale (input 1) and zero point (input 2, optional) constants of a
// QuantizeLinear or DequantizeLinear op. `quantized` is the integer side's tensor (the DQ
// input or the Q output). ONNX rules: a one-element scale is per tensor whatever its rank;
// a longer 1-D scale is per axis along attribute "axis" (default 1, negative counts from
// the back) and must have shape[axis] entries; an absent zero point is 0 of the integer
// side's dtype (uint8 when that is unknown, ONNX's default). Throws
// kUnsupportedQuantization naming the node for computed or mis-shaped parameters, blocked
// quantization (block_size) and integer types other than int8/uint8/int32.
QdqParams ReadQdqParams(const ir::Graph& graph, const ir::Op& op, const ir::Tensor& quantized);

// The IR annotation for a tensor quantized with `params`: uint8 zero points move down by
// 128 (the runtime only has int8 kernels; see qdq_fold.cc).
ir::QuantParams ToIrQuant(const QdqParams& params);

// The runtime dtype of the integer side: kInt8 for int8 and uint8, kInt32 for int32.
ir::DType RuntimeDType(const QdqParams& params);

// Element bytes of a uint8 constant shifted to int8 (q - 128: same real value with the
// zero point also moved down by 128). Other dtypes are returned unchanged.
std::vector<uint8_t> ShiftedToRuntime(const ir::Tensor& constant, const QdqParams& params);

// ONNX DequantizeLinear on a constant: (q - zero_point[c]) * scale[c] with c the index
// along params.axis (or the single pair). Throws kInvalidModel naming the tensor when its
// bytes do not match its shape.
std::vector<float> DequantizeConstant(const ir::Tensor& constant, const QdqParams& params);

// ONNX QuantizeLinear on a float32 constant: saturate(round_half_even(x / scale[c]) +
// zero_point[c]) with x / scale computed in float32, as onnxruntime computes it; NaN maps
// to the zero point. Returns bytes of params.quantized_dtype (int8 or uint8, not shifted).
// Throws kInvalidModel naming the tensor when its bytes do not match its shape.
std::vector<uint8_t> QuantizeConstant(const ir::Tensor& constant, const QdqParams& params);

}  // namespace tigris::passes

#endif  // TIGRIS_PASSES_QDQ_PARAMS_H_
