// qdq-fold: QuantizeLinear/DequantizeLinear pairs become int8 tensor annotations
// (reference pass 2). Graphs are written in the form onnxruntime's quantize_static emits.
#include <gtest/gtest.h>

#include <optional>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

ir::TensorId Quantize(GraphBuilder& b, const std::string& name, ir::TensorId x, ir::TensorId scale,
                      ir::TensorId zp, ir::DType dtype) {
  ir::Shape shape = b.graph().tensor(x).shape;
  return b.Op(ir::OpType::kQuantizeLinear, name, {x, scale, zp}, name + "_out", shape, {}, dtype);
}

ir::TensorId Dequantize(GraphBuilder& b, const std::string& name, ir::TensorId xq,
                        ir::TensorId scale, ir::TensorId zp, std::optional<int64_t> axis = {},
                        const std::string& output = "") {
  ir::Shape shape = b.graph().tensor(xq).shape;
  ir::Attributes attrs;
  if (axis) attrs.Set("axis", *axis);
  return b.Op(ir::OpType::kDequantizeLinear, name, {xq, scale, zp},
              output.empty() ? name + "_out" : output, shape, attrs);
}

ir::TensorId U8(GraphBuilder& b, const std::string& name, uint8_t v) {
  return b.Const<uint8_t>(name, {}, ir::DType::kUInt8, {v});
}
ir::TensorId I8(GraphBuilder& b, const std::string& name, int8_t v) {
  return b.Const<int8_t>(name, {}, ir::DType::kInt8, {v});
}

const ir::Op& FindOp(const ir::Graph& g, ir::OpType type) {
  for (const ir::Op& op : g.ops) {
    if (op.type == type) return op;
  }
  ADD_FAILURE() << "no " << ir::OpTypeName(type);
  return g.ops.at(0);
}

// x -> Q(0.5, 128 u8) -> DQ -> Conv(W i8 per channel, b i32) -> Q(0.25, 128 u8) -> DQ -> out
ir::Graph Uint8ConvGraph() {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId sx = b.Floats("sx", {}, {0.5f});
  ir::TensorId zx = U8(b, "zx", 128);
  ir::TensorId xd = Dequantize(b, "x_dq", Quantize(b, "x_q", x, sx, zx, ir::DType::kUInt8), sx, zx);
  ir::TensorId w = b.Const<int8_t>("w", {2, 1, 1, 1}, ir::DType::kInt8, {3, -4});
  ir::TensorId sw = b.Floats("sw", {2}, {0.1f, 0.2f});
  ir::TensorId zw = b.Const<int8_t>("zw", {2}, ir::DType::kInt8, {0, 0});
  ir::TensorId wd = Dequantize(b, "w_dq", w, sw, zw, 0);
  // Bias scale = input scale * weight scale per channel = 0.5 * {0.1, 0.2} = {0.05, 0.1}.
  ir::TensorId bias = b.Const<int32_t>("b", {2}, ir::DType::kInt32, {10, -20});
  ir::TensorId sb = b.Floats("sb", {2}, {0.05f, 0.1f});
  ir::TensorId zb = b.Const<int32_t>("zb", {2}, ir::DType::kInt32, {0, 0});
  ir::TensorId bd = Dequantize(b, "b_dq", bias, sb, zb, 0);
  ir::TensorId y = b.Op(ir::OpType::kConv, "conv", {xd, wd, bd}, "y", {1, 2, 2, 2});
  ir::TensorId sy = b.Floats("sy", {}, {0.25f});
  ir::TensorId zy = U8(b, "zy", 128);
  b.Output(
      Dequantize(b, "y_dq", Quantize(b, "y_q", y, sy, zy, ir::DType::kUInt8), sy, zy, {}, "out"));
  return b.Take();
}

TEST(QdqFold, Uint8ConvFoldsToInt8TensorsWithPublicNamesKept) {
  ir::Graph g = Uint8ConvGraph();
  QdqFold(g);
  g.Compact();

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  const ir::Op& conv = g.ops[0];

  // Graph input: the host quantizes; uint8 zp 128 -> int8 zp 0, scale unchanged.
  const ir::Tensor& x = g.tensor(g.inputs.at(0));
  EXPECT_EQ(conv.inputs[0], g.inputs[0]);
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.dtype, ir::DType::kInt8);
  ASSERT_TRUE(x.quant.has_value());
  EXPECT_EQ(x.quant->scales, std::vector<float>{0.5f});
  EXPECT_EQ(x.quant->zero_points, std::vector<int32_t>{0});

  // Weights: the int8 constant itself, per-channel scales and axis 0 preserved.
  const ir::Tensor& w = g.tensor(conv.inputs[1]);
  EXPECT_TRUE(w.is_constant);
  EXPECT_EQ(w.dtype, ir::DType::kInt8);
  EXPECT_EQ(w.DataAs<int8_t>(), (std::vector<int8_t>{3, -4}));
  ASSERT_TRUE(w.quant.has_value());
  EXPECT_EQ(w.quant->scales, (std::vector<float>{0.1f, 0.2f}));
  EXPECT_EQ(w.quant->axis, 0);

  // Bias: int32 constant annotated with 0.5 * {0.1, 0.2}.
  const ir::Tensor& bias = g.tensor(conv.inputs[2]);
  EXPECT_EQ(bias.dtype, ir::DType::kInt32);
  EXPECT_EQ(bias.DataAs<int32_t>(), (std::vector<int32_t>{10, -20}));
  ASSERT_TRUE(bias.quant.has_value());
  EXPECT_EQ(bias.quant->scales, (std::vector<float>{0.05f, 0.1f}));

  // Output: the Conv writes the int8 tensor under the public name "out", zp 128 -> 0.
  const ir::Tensor& out = g.tensor(conv.outputs[0]);
  EXPECT_EQ(g.outputs.at(0), conv.outputs[0]);
  EXPECT_EQ(out.name, "out");
  EXPECT_EQ(out.dtype, ir::DType::kInt8);
  ASSERT_TRUE(out.quant.has_value());
  EXPECT_EQ(out.quant->scales, std::vector<float>{0.25f});
  EXPECT_EQ(out.quant->zero_points, std::vector<int32_t>{0});
}

TEST(QdqFold, Uint8WeightBytesShiftBy128) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId sx = b.Floats("sx", {}, {1.0f});
  ir::TensorId zx = I8(b, "zx", -5);
  ir::TensorId xd = Dequantize(b, "x_dq", Quantize(b, "x_q", x, sx, zx, ir::DType::kInt8), sx, zx);
  // uint8 weights {0, 128, 255} with zp 130: real = (q - 130) * 0.5 = {-65, -1, 62.5}.
  ir::TensorId w = b.Const<uint8_t>("w", {3, 1}, ir::DType::kUInt8, {0, 128, 255});
  ir::TensorId sw = b.Floats("sw", {}, {0.5f});
  ir::TensorId zw = U8(b, "zw", 130);
  ir::TensorId y =
      b.Op(ir::OpType::kMatMul, "mm", {xd, Dequantize(b, "w_dq", w, sw, zw)}, "y", {1, 1});
  ir::TensorId sy = b.Floats("sy", {}, {2.0f});
  ir::TensorId zy = I8(b, "zy", 3);
  b.Output(Dequantize(b, "y_dq", Quantize(b, "y_q", y, sy, zy, ir::DType::kInt8), sy, zy));
  ir::Graph g = b.Take();

  QdqFold(g);

  const ir::Op& mm = FindOp(g, ir::OpType::kMatMul);
  const ir::Tensor& wt = g.tensor(mm.inputs[1]);
  // int8 = uint8 - 128 = {-128, 0, 127}, zp 130 - 128 = 2: (-128-2)*0.5 = -65, (0-2)*0.5 = -1,
  // (127-2)*0.5 = 62.5, the same real values.
  EXPECT_EQ(wt.dtype, ir::DType::kInt8);
  EXPECT_EQ(wt.DataAs<int8_t>(), (std::vector<int8_t>{-128, 0, 127}));
  ASSERT_TRUE(wt.quant.has_value());
  EXPECT_EQ(wt.quant->zero_points, std::vector<int32_t>{2});
  EXPECT_EQ(wt.quant->axis, -1);  // one scale: per tensor
  // int8 activations keep their zero points (-5, 3).
  EXPECT_EQ(g.tensor(mm.inputs[0]).quant->zero_points, std::vector<int32_t>{-5});
  EXPECT_EQ(g.tensor(mm.outputs[0]).quant->zero_points, std::vector<int32_t>{3});
}

// Conv -> Q -> DQ -> Selu -> MaxPool -> Q -> DQ -> out, as onnxruntime leaves
// conv2d_small_maxpool: no Q/DQ between Selu and MaxPool, so both compute in float.
TEST(QdqFold, FloatIslandGetsRuntimeDequantizeAndQuantize) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId s = b.Floats("s", {}, {0.1f});
  ir::TensorId z = I8(b, "z", 0);
  ir::TensorId xd = Dequantize(b, "x_dq", Quantize(b, "x_q", x, s, z, ir::DType::kInt8), s, z);
  ir::TensorId w = b.Const<int8_t>("w", {1, 1, 1, 1}, ir::DType::kInt8, {1});
  ir::TensorId c =
      b.Op(ir::OpType::kConv, "conv", {xd, Dequantize(b, "w_dq", w, s, z)}, "c", {1, 1, 2, 2});
  ir::TensorId cd = Dequantize(b, "c_dq", Quantize(b, "c_q", c, s, z, ir::DType::kInt8), s, z);
  ir::TensorId e = b.Op(ir::OpType::kSelu, "selu", {cd}, "e", {1, 1, 2, 2});
  ir::TensorId p = b.Op(ir::OpType::kMaxPool, "pool", {e}, "p", {1, 1, 1, 1},
                        Attrs({{"kernel_shape", std::vector<int64_t>{2, 2}}}));
  b.Output(Dequantize(b, "p_dq", Quantize(b, "p_q", p, s, z, ir::DType::kInt8), s, z, {}, "out"));
  ir::Graph g = b.Take();

  QdqFold(g);
  g.Compact();

  // The island is bracketed by runtime ops where c_dq and p_q were; Conv stays int8.
  ASSERT_EQ(OpTypes(g),
            (std::vector<std::string>{"Conv", "Dequantize", "Selu", "MaxPool", "Quantize"}));
  EXPECT_EQ(g.ops[1].inputs[0], g.ops[0].outputs[0]);
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).dtype, ir::DType::kInt8);
  EXPECT_EQ(g.tensor(g.ops[2].inputs[0]).dtype, ir::DType::kFloat32);
  EXPECT_EQ(g.tensor(g.ops[3].inputs[0]).dtype, ir::DType::kFloat32);
  EXPECT_EQ(g.ops[4].inputs[0], g.ops[3].outputs[0]);
  // The Quantize writes the public output, int8 with the p_q parameters.
  const ir::Tensor& out = g.tensor(g.ops[4].outputs[0]);
  EXPECT_EQ(g.outputs.at(0), g.ops[4].outputs[0]);
  EXPECT_EQ(out.name, "out");
  EXPECT_EQ(out.dtype, ir::DType::kInt8);
  ASSERT_TRUE(out.quant.has_value());
  EXPECT_EQ(out.quant->scales, std::vector<float>{0.1f});
  // Runtime ops carry only the data operand; the parameters live on the int8 tensor.
  EXPECT_EQ(g.ops[1].inputs.size(), 1u);
  EXPECT_EQ(g.ops[4].inputs.size(), 1u);
}

TEST(QdqFold, ArgMaxReadsTheInt8CodesAndNoDequantizeIsMade) {
  // x -> Q(0.5, 3) -> DQ -> {ArgMax, Relu}: the ArgMax reads the int8 tensor (one positive
  // scale: monotone); the Relu, a float reader, keeps a runtime Dequantize.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 2, 2});
  ir::TensorId sx = b.Floats("sx", {}, {0.5f});
  ir::TensorId zx = I8(b, "zx", 3);
  ir::TensorId xq = Quantize(b, "x_q", x, sx, zx, ir::DType::kInt8);
  ir::TensorId xd = Dequantize(b, "x_dq", xq, sx, zx);
  ir::TensorId axes = b.Int64s("axes", {1}, {1});
  b.Output(
      b.Op(ir::OpType::kArgMax, "argmax", {xd, axes}, "i", {1, 1, 2, 2}, {}, ir::DType::kInt64));
  b.Output(b.Op(ir::OpType::kRelu, "relu", {xd}, "r", {1, 4, 2, 2}));
  ir::Graph g = b.Take();

  QdqFold(g);
  g.Compact();

  const ir::Op& argmax = FindOp(g, ir::OpType::kArgMax);
  EXPECT_EQ(g.tensor(argmax.inputs[0]).dtype, ir::DType::kInt8);
  const ir::Op& dequantize = FindOp(g, ir::OpType::kDequantize);
  EXPECT_EQ(FindOp(g, ir::OpType::kRelu).inputs[0], dequantize.outputs[0]);

  // Read by the ArgMax alone, the float tensor is not made at all.
  GraphBuilder b2;
  ir::TensorId x2 = b2.Input("x", {1, 4, 2, 2});
  ir::TensorId s2 = b2.Floats("sx", {}, {0.5f});
  ir::TensorId z2 = I8(b2, "zx", 3);
  ir::TensorId d2 =
      Dequantize(b2, "x_dq", Quantize(b2, "x_q", x2, s2, z2, ir::DType::kInt8), s2, z2);
  b2.Output(b2.Op(ir::OpType::kArgMax, "argmax", {d2, b2.Int64s("axes", {1}, {1})}, "i",
                  {1, 1, 2, 2}, {}, ir::DType::kInt64));
  ir::Graph g2 = b2.Take();
  QdqFold(g2);
  g2.Compact();
  EXPECT_EQ(OpTypes(g2), std::vector<std::string>{"ArgMax"});
}

TEST(QdqFold, WeightDequantizeIntoAFloatOpIsEvaluatedNow) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 1, 1});  // float, never quantized
  ir::TensorId w = b.Const<int8_t>("w", {2, 1, 1, 1}, ir::DType::kInt8, {10, -10});
  ir::TensorId sw = b.Floats("sw", {2}, {0.5f, 0.25f});
  ir::TensorId zw = b.Const<int8_t>("zw", {2}, ir::DType::kInt8, {2, -2});
  ir::TensorId wd = Dequantize(b, "w_dq", w, sw, zw, 0);
  b.Output(
      b.Op(ir::OpType::kConv, "conv", {x, wd}, "y", {1, 2, 1, 1}, Attrs({{"group", int64_t{2}}})));
  ir::Graph g = b.Take();

  QdqFold(g);
  g.Compact();

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  const ir::Tensor& wt = g.tensor(g.ops[0].inputs[1]);
  EXPECT_TRUE(wt.is_constant);
  EXPECT_EQ(wt.dtype, ir::DType::kFloat32);
  // (10 - 2) * 0.5 = 4, (-10 - -2) * 0.25 = -2.
  EXPECT_EQ(wt.DataAs<float>(), (std::vector<float>{4.0f, -2.0f}));
}

TEST(QdqFold, ParameterInputsOfAnInt8OpBecomeFloatConstants) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1});
  ir::TensorId s = b.Floats("s", {}, {0.5f});
  ir::TensorId z = I8(b, "z", 0);
  ir::TensorId xd = Dequantize(b, "x_dq", Quantize(b, "x_q", x, s, z, ir::DType::kInt8), s, z);
  ir::TensorId gamma = b.Const<int8_t>("gamma", {1}, ir::DType::kInt8, {4});
  ir::TensorId gd = Dequantize(b, "gamma_dq", gamma, s, z);
  ir::TensorId beta = b.Floats("beta", {1}, {0.0f});
  ir::TensorId mean = b.Floats("mean", {1}, {0.0f});
  ir::TensorId var = b.Floats("var", {1}, {1.0f});
  ir::TensorId y =
      b.Op(ir::OpType::kBatchNormalization, "bn", {xd, gd, beta, mean, var}, "y", {1, 1});
  b.Output(Dequantize(b, "y_dq", Quantize(b, "y_q", y, s, z, ir::DType::kInt8), s, z));
  ir::Graph g = b.Take();

  QdqFold(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"BatchNormalization"});
  const ir::Op& bn = g.ops[0];
  EXPECT_EQ(g.tensor(bn.inputs[0]).dtype, ir::DType::kInt8);
  EXPECT_EQ(g.tensor(bn.outputs[0]).dtype, ir::DType::kInt8);
  // gamma: 4 * 0.5 = 2.0 as a float parameter.
  EXPECT_EQ(g.tensor(bn.inputs[1]).dtype, ir::DType::kFloat32);
  EXPECT_EQ(g.tensor(bn.inputs[1]).DataAs<float>(), std::vector<float>{2.0f});
}

TEST(QdqFold, MismatchedPairIsRejectedNamingTheNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId z = I8(b, "z", 0);
  ir::TensorId xq = Quantize(b, "x_q", x, b.Floats("s1", {}, {0.5f}), z, ir::DType::kInt8);
  b.Output(Dequantize(b, "x_dq", xq, b.Floats("s2", {}, {0.25f}), z));
  ir::Graph g = b.Take();
  try {
    QdqFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("x_dq"), std::string::npos) << e.what();
  }
}

TEST(QdqFold, QuantizedTensorReadByAnOrdinaryOpIsRejected) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId xq =
      Quantize(b, "x_q", x, b.Floats("s", {}, {0.5f}), I8(b, "z", 0), ir::DType::kInt8);
  b.Output(b.Op(ir::OpType::kRelu, "relu", {xq}, "y", {4}, {}, ir::DType::kInt8));
  ir::Graph g = b.Take();
  try {
    QdqFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("relu"), std::string::npos) << e.what();
  }
}

TEST(QdqFold, DequantizeOfAComputedIntegerTensorIsRejected) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId c = b.Op(ir::OpType::kCast, "cast", {x}, "c", {4}, {}, ir::DType::kInt8);
  b.Output(Dequantize(b, "c_dq", c, b.Floats("s", {}, {0.5f}), I8(b, "z", 0)));
  ir::Graph g = b.Take();
  try {
    QdqFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("c_dq"), std::string::npos) << e.what();
  }
}

TEST(QdqFold, PerChannelScaleCountMustMatchTheAxis) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId w = b.Const<int8_t>("w", {4, 3}, ir::DType::kInt8, std::vector<int8_t>(12, 1));
  // 4 scales along the default axis 1, which has 3 entries.
  ir::TensorId wd = Dequantize(b, "w_dq", w, b.Floats("sw", {4}, {1, 1, 1, 1}),
                               b.Const<int8_t>("zw", {4}, ir::DType::kInt8, {0, 0, 0, 0}));
  b.Output(b.Op(ir::OpType::kMatMul, "mm", {x, wd}, "y", {1, 3}));
  ir::Graph g = b.Take();
  EXPECT_THROW(QdqFold(g), Error);
}

TEST(QdqFold, NoQdqNodeSurvives) {
  ir::Graph g = Uint8ConvGraph();
  QdqFold(g);
  for (const ir::Op& op : g.ops) {
    EXPECT_NE(op.type, ir::OpType::kQuantizeLinear) << op.name;
    EXPECT_NE(op.type, ir::OpType::kDequantizeLinear) << op.name;
  }
}

}  // namespace
}  // namespace tigris::passes
