// The graph: tensors, ops in execution order, graph inputs and outputs.
//
// Ownership is by value and identity is by index: ops refer to tensors by TensorId, an
// index into `tensors`. Passes edit `ops` freely; Compact() then drops tensors nothing
// refers to any more and renumbers, so ids are only stable between Compact() calls.
// Once loaded, `ops` is always a valid topological order.
#ifndef TIGRIS_IR_GRAPH_H_
#define TIGRIS_IR_GRAPH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/op.h"
#include "ir/tensor.h"

namespace tigris::ir {

class Graph {
 public:
  std::string name;   // model name used in messages (graph name, else file stem)
  int64_t opset = 0;  // default-domain opset the model was exported with
  // The integer arithmetic of the model's int8 ops: ONNX's (one rounding, half to even;
  // ONNX models) or TFLite's (MultiplyByQuantizedMultiplier, integer average pools; set by
  // the .tflite front end). The emitter writes it on every op (Op.rounding,
  // docs/tflite.md).
  enum class Arithmetic : uint8_t { kOnnx, kTflite };
  Arithmetic arithmetic = Arithmetic::kOnnx;
  std::vector<Tensor> tensors;
  std::vector<Op> ops;           // execution order
  std::vector<TensorId> inputs;  // activation inputs fed by the caller (no initializers)
  std::vector<TensorId> outputs;

  Tensor& tensor(TensorId id) { return tensors.at(static_cast<size_t>(id)); }
  const Tensor& tensor(TensorId id) const { return tensors.at(static_cast<size_t>(id)); }

  TensorId AddTensor(Tensor tensor);
  // Adds a constant; `name` is made unique if taken.
  TensorId AddConstant(std::string tensor_name, DType dtype, Shape shape,
                       std::vector<uint8_t> data);
  std::optional<TensorId> FindTensor(std::string_view name) const;
  // `base` if no tensor has that name, else base + "_1", "_2", ...
  std::string UniqueTensorName(const std::string& base) const;

  bool IsConstant(TensorId id) const { return id != kNoTensor && tensor(id).is_constant; }
  bool IsGraphOutput(TensorId id) const;

  // Op index producing each tensor (-1 for graph inputs, constants, and unused ids).
  std::vector<int> ProducerIndex() const;
  // Op indices consuming each tensor, in execution order.
  std::vector<std::vector<int>> ConsumerIndex() const;

  // Rewrites every use of `from` (op inputs and graph outputs) to `to`.
  void ReplaceUses(TensorId from, TensorId to);
  // Removes the ops whose flag is set; `dead.size()` must equal `ops.size()`.
  void EraseOps(const std::vector<bool>& dead);
  // Drops tensors that no op, graph input or graph output refers to and renumbers the
  // rest, keeping their relative order.
  void Compact();

  // "int8" when any activation carries quantization parameters, else "float32".
  std::string_view ComputeDTypeName() const;
};

}  // namespace tigris::ir

#endif  // TIGRIS_IR_GRAPH_H_
