// Our own shape rules: for every op of ir/op_type.h, the dtype and concrete shape of each
// output from those of its inputs (and, for shape arithmetic, their static values). They
// are authoritative (libonnx's inference is only a cross-check, shape_resolve.h) and they
// follow the newest ONNX operator specs, which also covers opsets newer than the libonnx
// we link. The loader has already canonicalized older forms (opset_canonicalize.h), so
// each rule handles one form.
//
// One file per op family: shape_rules_elementwise.cc, shape_rules_conv.cc,
// shape_rules_linear.cc, shape_rules_shape_ops.cc, shape_rules_resize.cc,
// shape_rules_reduce.cc, shape_rules_rearrange.cc, shape_rules_recurrent.cc; shape_rules.cc
// maps each OpType to its rule.
//
// Static values: int64 shape computations (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape, as exporters write Flatten) are evaluated as the rules run, for integer
// tensors of at most kMaxStaticElements elements.
#ifndef TIGRIS_ONNX_SHAPE_RULES_H_
#define TIGRIS_ONNX_SHAPE_RULES_H_

#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace tigris::onnx_import {

inline constexpr int64_t kMaxStaticElements = 4096;

// Per-tensor static integer values (indexed by TensorId); nullopt = unknown.
using StaticValues = std::vector<std::optional<std::vector<int64_t>>>;

// What a rule sees of one op. Every accessor that can fail throws
// Error(kShapeInference) naming the node.
class ShapeContext {
 public:
  ShapeContext(ir::Graph& graph, size_t op_index, StaticValues& values)
      : graph_(graph), op_(graph.ops[op_index]), values_(values) {}

  const ir::Op& op() const { return op_; }
  const ir::Attributes& attrs() const { return op_.attrs; }
  int64_t opset() const { return graph_.opset; }

  bool HasInput(size_t i) const { return op_.input(i) != ir::kNoTensor; }
  // Input i; fails naming the node when it is absent.
  const ir::Tensor& Input(size_t i) const;
  const ir::Shape& InputShape(size_t i) const { return Input(i).shape; }
  int64_t InputRank(size_t i) const { return static_cast<int64_t>(Input(i).shape.size()); }
  ir::DType InputDType(size_t i) const { return Input(i).dtype; }
  // The dtype output `i` already has (its importer's; float32 unless it set one).
  ir::DType OutputDType(size_t i) const { return graph_.tensor(op_.outputs.at(i)).dtype; }

  // Statically known integer elements of input i (constants, Constant values, computed
  // shape arithmetic); nullptr when unknown or the input is absent.
  const std::vector<int64_t>* InputInts(size_t i) const;
  // As InputInts, but fails ("<what> must be known statically") when unknown.
  const std::vector<int64_t>& RequireInts(size_t i, const std::string& what) const;
  // Elements of a constant floating-point (or integer) input i, nullopt when the input is
  // absent or not constant. Used for Resize/Upsample scales.
  std::optional<std::vector<double>> InputConstantDoubles(size_t i) const;

  void SetOutput(size_t i, ir::DType dtype, ir::Shape shape);
  // Records the static value of output i (ignored when larger than kMaxStaticElements).
  void SetOutputInts(size_t i, std::vector<int64_t> values);
  size_t num_outputs() const { return op_.outputs.size(); }

  // Axis in [-rank, rank) -> [0, rank); fails naming `what` otherwise.
  int64_t NormalizeAxis(int64_t axis, int64_t rank, const std::string& what) const;

  [[noreturn]] void Fail(const std::string& why) const;

 private:
  ir::Graph& graph_;
  const ir::Op& op_;
  StaticValues& values_;
};

using ShapeRule = void (*)(ShapeContext& ctx);
ShapeRule ShapeRuleFor(ir::OpType type);

// Numpy/ONNX multidirectional broadcasting of two shapes; nullopt when incompatible.
std::optional<ir::Shape> BroadcastShapes(const ir::Shape& a, const ir::Shape& b);

// Rules, by family (each defined in the file named above it).
// shape_rules_elementwise.cc
void SameShapeRule(ShapeContext& ctx);  // unary activations, Clip, Softmax, Identity...
void BroadcastRule(ShapeContext& ctx);  // Add, Sub, Mul, Div, Sum
void CompareRule(ShapeContext& ctx);    // Equal, Greater, ..., And, Or, Xor: bool out
void NotRule(ShapeContext& ctx);
void WhereRule(ShapeContext& ctx);
void DropoutRule(ShapeContext& ctx);
void BatchNormRule(ShapeContext& ctx);
void LrnRule(ShapeContext& ctx);
void ChannelShuffleRule(ShapeContext& ctx);  // IR-only (channel-shuffle-fuse)
void NormalizationRule(ShapeContext& ctx);   // Layer/Instance/LpNormalization
void CastRule(ShapeContext& ctx);
void CastLikeRule(ShapeContext& ctx);  // Cast to input 1's dtype
void QuantizeLinearRule(ShapeContext& ctx);
void DequantizeLinearRule(ShapeContext& ctx);
void QuantizeRule(ShapeContext& ctx);  // IR-only int8 edges
void DequantizeRule(ShapeContext& ctx);
// shape_rules_conv.cc
void ConvRule(ShapeContext& ctx);  // Conv, DepthwiseConv, Conv1D
void ConvTransposeRule(ShapeContext& ctx);
void PoolRule(ShapeContext& ctx);  // MaxPool, AveragePool
void GlobalPoolRule(ShapeContext& ctx);
// shape_rules_linear.cc
void GemmRule(ShapeContext& ctx);
void MatMulRule(ShapeContext& ctx);
// shape_rules_shape_ops.cc
void ConstantRule(ShapeContext& ctx);
void ConstantOfShapeRule(ShapeContext& ctx);
void ShapeOpRule(ShapeContext& ctx);  // the Shape op
void GatherRule(ShapeContext& ctx);
void GatherElementsRule(ShapeContext& ctx);
void SqueezeRule(ShapeContext& ctx);
void UnsqueezeRule(ShapeContext& ctx);
void ConcatRule(ShapeContext& ctx);
void SplitRule(ShapeContext& ctx);
void SliceRule(ShapeContext& ctx);
void ReshapeRule(ShapeContext& ctx);
void FlattenRule(ShapeContext& ctx);
void TransposeRule(ShapeContext& ctx);
// shape_rules_resize.cc
void ResizeRule(ShapeContext& ctx);
void UpsampleRule(ShapeContext& ctx);
void PadRule(ShapeContext& ctx);
// shape_rules_reduce.cc
void ReduceRule(ShapeContext& ctx);
void AxisScanRule(ShapeContext& ctx);  // Hardmax, CumSum

// shape_rules_rearrange.cc
void TileRule(ShapeContext& ctx);
void ExpandRule(ShapeContext& ctx);
void DepthToSpaceRule(ShapeContext& ctx);
void SpaceToDepthRule(ShapeContext& ctx);
// shape_rules_recurrent.cc
void RecurrentRule(ShapeContext& ctx);  // RNN, GRU, LSTM

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_SHAPE_RULES_H_
