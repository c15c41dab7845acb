// A tensor of the IR: an activation (produced by an op or fed as a graph input) or a
// constant (weights, biases, shape vectors) whose bytes the IR owns.
#ifndef TIGRIS_IR_TENSOR_H_
#define TIGRIS_IR_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ir/dtype.h"
#include "ir/quant.h"
#include "ir/shape.h"

namespace tigris::ir {

// Index into Graph::tensors. Optional ONNX inputs that are absent are kNoTensor.
using TensorId = int32_t;
inline constexpr TensorId kNoTensor = -1;

// The little-endian element bytes of `values` (the layout of Tensor::data).
template <typename T>
std::vector<uint8_t> ElementBytes(const std::vector<T>& values) {
  // assign() over the object bytes, not memcpy into a resized vector: GCC 12 reports a
  // false -Warray-bounds for the latter.
  const auto* bytes = reinterpret_cast<const uint8_t*>(values.data());
  return std::vector<uint8_t>(bytes, bytes + values.size() * sizeof(T));
}

struct Tensor {
  std::string name;
  DType dtype = DType::kUnknown;
  Shape shape;
  std::optional<QuantParams> quant;

  // Constants only: the raw little-endian element bytes, NumElements(shape) * DTypeSize.
  bool is_constant = false;
  std::vector<uint8_t> data;

  // Graph outputs: the permutation the host applies to the runtime's output to get the
  // ONNX model's output (set when "output transpose trim" removes a trailing Transpose).
  // Graph inputs: this tensor = transpose(the ONNX model's input, host_permutation) (set
  // when "input transpose trim" removes a leading Transpose). Empty: ONNX layout.
  std::vector<int64_t> host_permutation;
  // Graph inputs and outputs: the shape the caller passes or receives when it differs from
  // `shape` by more than a permutation, the bytes being the same: the planner's
  // classifier-as-pointwise rewrite (plan/rewrites.h) made a classifier's [N, M] output a
  // [N, M, 1, 1] map, embedding-as-rows token ids [N, T] a [N, 1, T, 1] map. Empty: `shape`
  // (permuted as above). Never set together with host_permutation.
  std::vector<int64_t> host_shape;
  // Graph inputs and outputs: the dtype the caller passes or receives when the model
  // declares another than `dtype`: kUInt8 for a uint8 tensor qdq-fold made int8 (zero point
  // lowered by 128; the runtime flips the top bit of each byte as it copies). kUnknown:
  // `dtype`.
  DType host_dtype = DType::kUnknown;

  int64_t num_elements() const { return NumElements(shape); }
  // Bytes of the tensor's elements (what an activation occupies in an arena).
  int64_t byte_size() const { return num_elements() * static_cast<int64_t>(DTypeSize(dtype)); }

  // Typed copy of a constant's elements. T must match the dtype's element size.
  template <typename T>
  std::vector<T> DataAs() const {
    std::vector<T> out(data.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), data.data(), out.size() * sizeof(T));
    return out;
  }
  template <typename T>
  void SetData(const std::vector<T>& values) {
    data = ElementBytes(values);
  }
};

}  // namespace tigris::ir

#endif  // TIGRIS_IR_TENSOR_H_

namespace tigris::ir {

// Element values of a constant converted to double / int64, whatever its integer or
// floating dtype (shape vectors arrive as int64 or int32, clip bounds as float or double).
// Throws tigris::Error(kInvalidModel) for a non-constant tensor or an unsupported dtype.
std::vector<double> ConstantAsDoubles(const Tensor& tensor);
std::vector<int64_t> ConstantAsInt64s(const Tensor& tensor);

}  // namespace tigris::ir
