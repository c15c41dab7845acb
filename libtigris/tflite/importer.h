// The state of one .tflite import: TFLite tensors -> IR tensors, and the few ways the op
// importers (op_import*.cc) add to the graph.
//
// The graph this writes is the QDQ form onnxruntime's quantize_static writes, in the IR's
// channels-first layout: every quantized TFLite tensor is an int8 (or uint8, int32 for
// biases) IR tensor; an op reads each quantized input through a DequantizeLinear and its
// float result is stored through a QuantizeLinear with the output tensor's scale and zero
// point; a fused activation sits between the op and that QuantizeLinear (the form
// qdq-canonicalize takes from tf2onnx). Normalization then folds the pairs into int8 ops
// exactly as it does for an ONNX model (docs/normalization.md), so a .tflite and its ONNX
// conversion compile through the same passes. Float tensors stay float: a float32 .tflite
// imports without any QDQ node.
#ifndef TIGRIS_TFLITE_IMPORTER_H_
#define TIGRIS_TFLITE_IMPORTER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "format/tflite_generated.h"
#include "ir/graph.h"
#include "util/error.h"

namespace tigris::tflite_import {

namespace fb = ::tigris_tflite;

// One TFLite operator being imported, for names and messages.
struct OpSite {
  int index = 0;  // position in the subgraph's operator list
  fb::BuiltinOperator code = fb::BuiltinOperator::ADD;
  const fb::Operator* op = nullptr;
  std::string name;  // "CONV_2D_3": the IR name of the op it becomes
};

// The builtin op's name as the format spells it ("CONV_2D"), or "builtin 205".
std::string BuiltinName(fb::BuiltinOperator code);

class ModelImporter {
 public:
  // `bytes` is the whole file (buffers may point past the FlatBuffer, Buffer.offset).
  ModelImporter(const fb::Model& model, const uint8_t* bytes, size_t size, std::string name);

  // Imports subgraph 0: graph inputs, operators, graph outputs, then shapes.
  ir::Graph Run();

  // ---- What the op importers use ----------------------------------------------------

  // Op input i / output i as a tensor index of the subgraph; -1 for an optional input the
  // file leaves out (optional = true), otherwise kInvalidModel naming the op.
  int Input(const OpSite& site, size_t i, bool optional = false) const;
  int Output(const OpSite& site, size_t i) const;
  size_t NumInputs(const OpSite& site) const;
  size_t NumOutputs(const OpSite& site) const;

  const fb::Tensor& Tensor(int index) const;
  std::vector<int64_t> TflShape(int index) const;  // as the file stores it
  size_t Rank(int index) const { return TflShape(index).size(); }
  bool IsQuantized(int index) const;
  // Both unquantized, or quantized with the same scales, zero points and axis.
  bool SameQuantization(int a, int b) const;
  bool IsConstant(int index) const;
  // The values of a constant int32 / int64 tensor (axes, shapes, paddings), from the file
  // or folded at import (DefineFolded); kUnsupportedOp naming the op and the tensor when it
  // is not a constant of those types.
  std::vector<int64_t> ConstantInts(const OpSite& site, int index) const;
  // The real value of a one-element constant: float32, or int8 / uint8 dequantized by its
  // own scale and zero point (PADV2's constant_values); kInvalidModel naming the op and the
  // tensor otherwise.
  float ConstantScalar(const OpSite& site, int index) const;

  // The value of tensor `index` as float32 in the IR's layout: the tensor itself, or a
  // DequantizeLinear of it when it is quantized (made once per tensor).
  ir::TensorId Real(int index);
  // A constant weight tensor, its TFLite axes reordered by `perm` (IR axis i is TFLite
  // axis perm[i]) together with its quantization axis, then dequantized.
  ir::TensorId Weights(const OpSite& site, int index, const std::vector<int64_t>& perm);

  // Adds `type` reading `inputs`; returns its (float) output. `suffix` names the op and
  // tensor apart when an operator becomes several IR ops.
  ir::TensorId AddOp(const OpSite& site, ir::OpType type, std::vector<ir::TensorId> inputs,
                     ir::Attributes attrs = {}, const std::string& suffix = "");
  // As AddOp for `count` outputs.
  std::vector<ir::TensorId> AddOpN(const OpSite& site, ir::OpType type,
                                   std::vector<ir::TensorId> inputs, ir::Attributes attrs,
                                   size_t count);
  // `real` (a float tensor in the IR layout) is the value of output tensor `out`: applies
  // the fused activation, then stores it as the file's tensor (a QuantizeLinear with its
  // scale and zero point when it is quantized).
  void Define(const OpSite& site, int out, ir::TensorId real,
              fb::ActivationFunctionType activation = fb::ActivationFunctionType::NONE);

  // An IR value's dtype, for the ops whose output is not a real number (ARG_MAX's indices):
  // Define then stores it as the file's integer tensor.
  void SetDType(ir::TensorId real, ir::DType dtype) { graph_.tensor(real).dtype = dtype; }

  // `real` computed from tensor `index` by pure data movement, stored with that tensor's
  // quantization and read back (a QuantizeLinear, DequantizeLinear pair; `real` itself
  // when the tensor is float). Keeps each data-movement op between a DequantizeLinear and a
  // QuantizeLinear of equal parameters, the form qdq-fold turns into an int8 op.
  ir::TensorId Restore(int index, ir::TensorId real, const std::string& suffix);
  // Tensor `index` as a float value of rank `rank` >= its own, broadcast as TFLite aligns
  // shapes (leading 1s), in the IR layout of that rank: the operand of a broadcasting op.
  ir::TensorId RealOfRank(const OpSite& site, int index, size_t rank);

  // Output `out` is the integer constant `values`, computed here from constants and static
  // shapes (constant_fold.cc: the SHAPE -> STRIDED_SLICE -> PACK chains converters write
  // for a Flatten).
  void DefineFolded(const OpSite& site, int out, std::vector<int64_t> values);

  // Transposes a float IR tensor (used for the data movement between layouts).
  ir::TensorId Transpose(const OpSite& site, ir::TensorId x, const std::vector<int64_t>& perm,
                         const std::string& suffix);
  ir::TensorId Int64Constant(const std::string& base, const std::vector<int64_t>& values);
  ir::TensorId FloatScalar(const std::string& base, float value);

  // "operator 3 (CONV_2D) of model 'kws'"
  std::string Where(const OpSite& site) const;
  // "tensor 7 'conv1/weights'"
  std::string TensorLabel(int index) const;
  [[noreturn]] void Refuse(const OpSite& site, Status status, const std::string& why) const;

 private:
  ir::DType DTypeOf(int index, const std::string& context) const;
  ir::QuantParams QuantOf(int index) const;
  std::vector<uint8_t> ConstantBytes(int index) const;
  // The constant tensor `index` with its axes reordered by `perm` (IR axis i is file axis
  // perm[i]).
  ir::TensorId MakeConstant(int index, const std::vector<int64_t>& perm,
                            const std::string& context);
  // QuantOf with a per-channel axis moved as `perm` moves the axes of the tensor taken with
  // `lead` leading 1s (a lower-rank operand broadcast to rank perm.size()).
  ir::QuantParams QuantInLayout(int index, const std::vector<int64_t>& perm, size_t lead = 0) const;
  ir::TensorId Dequantize(ir::TensorId stored, const ir::QuantParams& q, ir::DType dtype,
                          std::string name);
  ir::TensorId Quantize(ir::TensorId real, const ir::QuantParams& q, ir::DType dtype,
                        std::string name);
  ir::TensorId NewTensor(const std::string& base);
  void ImportInputs();
  void ImportOperators();
  void ImportOutputs();
  void CheckShapes();

  const fb::Model& model_;
  const fb::SubGraph& subgraph_;
  const uint8_t* bytes_;
  size_t size_;
  ir::Graph graph_;
  std::vector<ir::TensorId> stored_;  // per TFLite tensor: as the file stores it (IR layout)
  std::vector<ir::TensorId> real_;    // per TFLite tensor: its float32 value
  std::map<int, std::vector<int64_t>> folded_;  // integer tensors computed at import
};

}  // namespace tigris::tflite_import

#endif  // TIGRIS_TFLITE_IMPORTER_H_
