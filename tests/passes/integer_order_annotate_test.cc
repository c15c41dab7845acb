// integer-order-annotate: plain int8/uint8 integers that only ops comparing, selecting or
// moving values touch become scale-1 int8 (uint8 shifted, zero point -128); a comparison
// reads them dequantized; arithmetic keeps a group plain (the verifier then refuses it).
// Values end to end: ONNX's test_max_int8, test_greater_uint8, test_clip_default_int8_*,
// test_maxpool_2d_uint8 conformance cases.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

ir::Graph Binary(OpType type, DType dtype, DType out_dtype) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {2, 3}, dtype);
  const ir::TensorId y = b.Input("y", {2, 3}, dtype);
  b.Output(b.Op(type, "op", {x, y}, "z", {2, 3}, {}, out_dtype));
  return b.Take();
}

TEST(IntegerOrderAnnotate, MaxOfInt8IsScaleOneInt8) {
  ir::Graph g = Binary(OpType::kMax, DType::kInt8, DType::kInt8);
  IntegerOrderAnnotate(g);
  for (const ir::Tensor& t : g.tensors) {
    ASSERT_TRUE(t.quant.has_value()) << t.name;
    EXPECT_EQ(t.quant->scales, std::vector<float>{1.0f});
    EXPECT_EQ(t.quant->zero_points, std::vector<int32_t>{0});
  }
}

TEST(IntegerOrderAnnotate, Uint8IsShiftedAndTheCallerKeepsUint8) {
  ir::Graph g = Binary(OpType::kMin, DType::kUInt8, DType::kUInt8);
  IntegerOrderAnnotate(g);
  for (const ir::Tensor& t : g.tensors) {
    EXPECT_EQ(t.dtype, DType::kInt8) << t.name;
    EXPECT_EQ(t.host_dtype, DType::kUInt8) << t.name;  // graph inputs and the output
    ASSERT_TRUE(t.quant.has_value());
    EXPECT_EQ(t.quant->zero_points, std::vector<int32_t>{-128});
  }
}

TEST(IntegerOrderAnnotate, AComparisonReadsItsIntegersDequantized) {
  ir::Graph g = Binary(OpType::kGreater, DType::kInt8, DType::kBool);
  IntegerOrderAnnotate(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Dequantize", "Dequantize", "Greater"}));
  for (ir::TensorId in : g.ops[2].inputs) EXPECT_EQ(g.tensor(in).dtype, DType::kFloat32);
}

TEST(IntegerOrderAnnotate, ArithmeticKeepsTheWholeGroupPlain) {
  // x feeds a Max (fine) and an Add (wraps around in ONNX): neither is annotated.
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {4}, DType::kInt8);
  const ir::TensorId m = b.Op(OpType::kMax, "max", {x, x}, "m", {4}, {}, DType::kInt8);
  b.Output(b.Op(OpType::kAdd, "add", {m, x}, "s", {4}, {}, DType::kInt8));
  ir::Graph g = b.Take();
  IntegerOrderAnnotate(g);
  for (const ir::Tensor& t : g.tensors) EXPECT_FALSE(t.quant.has_value()) << t.name;
}

}  // namespace
}  // namespace tigris::passes
