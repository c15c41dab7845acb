// qdq-canonicalize: the QDQ forms tf2onnx writes for int8 TFLite models become
// quantize_static's, so qdq-fold turns them into int8 ops. Each test builds the exporter's
// form, runs qdq-canonicalize then qdq-fold, and checks the ops that remain are int8 with
// the model's own parameters; the forms the rewrite must not touch are left as they are.
// The equivalence with onnxruntime on the converted models themselves is in tests/e2e
// (variant "tflite").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;

using Strings = std::vector<std::string>;

ir::TensorId Qdq(GraphBuilder& b, ir::OpType type, const std::string& name, ir::TensorId x,
                 ir::TensorId scale, ir::TensorId zp, ir::DType out_dtype) {
  return b.Op(type, name, {x, scale, zp}, name + "_out", b.graph().tensor(x).shape, {}, out_dtype);
}
ir::TensorId Q(GraphBuilder& b, const std::string& name, ir::TensorId x, ir::TensorId s,
               ir::TensorId zp) {
  return Qdq(b, ir::OpType::kQuantizeLinear, name, x, s, zp, ir::DType::kInt8);
}
ir::TensorId DQ(GraphBuilder& b, const std::string& name, ir::TensorId x, ir::TensorId s,
                ir::TensorId zp) {
  return Qdq(b, ir::OpType::kDequantizeLinear, name, x, s, zp, ir::DType::kFloat32);
}

// Every op reads only graph inputs, constants and tensors an earlier op wrote.
void ExpectExecutionOrder(const ir::Graph& g) {
  std::vector<bool> ready(g.tensors.size(), false);
  for (ir::TensorId in : g.inputs) ready[static_cast<size_t>(in)] = true;
  for (size_t t = 0; t < g.tensors.size(); ++t) ready[t] = ready[t] || g.tensors[t].is_constant;
  for (const ir::Op& op : g.ops) {
    for (ir::TensorId in : op.inputs) {
      if (in != ir::kNoTensor) {
        EXPECT_TRUE(ready[static_cast<size_t>(in)])
            << op.name << " reads '" << g.tensor(in).name << "' before it is written";
      }
    }
    for (ir::TensorId out : op.outputs) {
      if (out != ir::kNoTensor) ready[static_cast<size_t>(out)] = true;
    }
  }
}

void Canonicalize(ir::Graph& g) {
  QdqCanonicalize(g);
  ExpectExecutionOrder(g);
  QdqFold(g);
  g.Compact();
}

void ExpectInt8(const ir::Graph& g, ir::TensorId t, float scale, int32_t zp) {
  const ir::Tensor& x = g.tensor(t);
  EXPECT_EQ(x.dtype, ir::DType::kInt8) << x.name;
  ASSERT_TRUE(x.quant.has_value()) << x.name;
  EXPECT_EQ(x.quant->scales, std::vector<float>{scale}) << x.name;
  EXPECT_EQ(x.quant->zero_points, std::vector<int32_t>{zp}) << x.name;
}

// x -> Q(0.5, -3) -> xq -> Reshape -> yq -> DQ -> out: the Reshape reads and writes int8.
TEST(QdqCanonicalize, ReshapeOfAQuantizedActivationBecomesInt8) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 2, 2});
  ir::TensorId s = b.Floats("s", {}, {0.5f});
  ir::TensorId zp = b.Const<int8_t>("zp", {}, ir::DType::kInt8, {-3});
  ir::TensorId xq = Q(b, "x_q", x, s, zp);
  ir::TensorId shape = b.Int64s("shape", {2}, {1, 8});
  ir::TensorId yq =
      b.Op(ir::OpType::kReshape, "flatten", {xq, shape}, "yq", {1, 8}, {}, ir::DType::kInt8);
  b.Output(DQ(b, "y_dq", yq, s, zp));
  ir::Graph g = b.Take();

  QdqCanonicalize(g);
  ExpectExecutionOrder(g);
  EXPECT_EQ(OpTypes(g), (Strings{"QuantizeLinear", "DequantizeLinear", "Reshape", "QuantizeLinear",
                                 "DequantizeLinear"}));
  QdqFold(g);
  g.Compact();
  ASSERT_EQ(OpTypes(g), Strings{"Reshape"});
  EXPECT_EQ(g.ops[0].inputs[0], g.inputs[0]);  // the host quantizes x
  ExpectInt8(g, g.ops[0].inputs[0], 0.5f, -3);
  ExpectInt8(g, g.ops[0].outputs[0], 0.5f, -3);
  EXPECT_EQ(g.outputs[0], g.ops[0].outputs[0]);
}

// A chain of layout ops unrolls one op per round: Q -> Flatten -> Unsqueeze -> DQ.
TEST(QdqCanonicalize, ChainOfLayoutOpsBecomesInt8) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  ir::TensorId s = b.Floats("s", {}, {0.25f});
  ir::TensorId zp = b.Const<int8_t>("zp", {}, ir::DType::kInt8, {1});
  ir::TensorId xq = Q(b, "x_q", x, s, zp);
  ir::TensorId f = b.Op(ir::OpType::kFlatten, "flatten", {xq}, "f", {1, 6}, {}, ir::DType::kInt8);
  ir::TensorId axes = b.Int64s("axes", {1}, {0});
  ir::TensorId u =
      b.Op(ir::OpType::kUnsqueeze, "unsqueeze", {f, axes}, "u", {1, 1, 6}, {}, ir::DType::kInt8);
  ir::TensorId y = b.Op(ir::OpType::kRelu, "relu", {DQ(b, "u_dq", u, s, zp)}, "y", {1, 1, 6});
  b.Output(DQ(b, "y_dq", Q(b, "y_q", y, s, zp), s, zp));
  ir::Graph g = b.Take();

  Canonicalize(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Flatten", "Unsqueeze", "Relu"}));
  for (const ir::Op& op : g.ops) ExpectInt8(g, op.outputs[0], 0.25f, 1);
}

// tf2onnx's NHWC input: an int8 graph input -> Transpose -> DQ. The Transpose runs on
// int8 with the DQ's parameters, and the graph input keeps its dtype and name.
TEST(QdqCanonicalize, TransposeOfAnInt8GraphInputBecomesInt8) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 4, 2}, ir::DType::kInt8);
  ir::Attributes perm;
  perm.Set("perm", std::vector<int64_t>{0, 3, 1, 2});
  ir::TensorId t =
      b.Op(ir::OpType::kTranspose, "nchw", {x}, "t", {1, 2, 4, 4}, perm, ir::DType::kInt8);
  ir::TensorId s = b.Floats("s", {}, {0.125f});
  ir::TensorId zp = b.Const<int8_t>("zp", {}, ir::DType::kInt8, {-128});
  ir::TensorId y = b.Op(ir::OpType::kRelu, "relu", {DQ(b, "t_dq", t, s, zp)}, "y", {1, 2, 4, 4});
  b.Output(DQ(b, "y_dq", Q(b, "y_q", y, s, zp), s, zp));
  ir::Graph g = b.Take();

  Canonicalize(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Transpose", "Relu"}));
  EXPECT_EQ(g.tensor(g.inputs[0]).name, "x");
  ExpectInt8(g, g.inputs[0], 0.125f, -128);
  ExpectInt8(g, g.ops[0].outputs[0], 0.125f, -128);
}

// Conv -> Relu -> Q: a Q/DQ pair goes between them, so both fold to int8 with the Q's
// parameters.
ir::Graph ConvClampGraph(ir::OpType clamp, float lo, float hi, float out_scale) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1, 2, 2});
  ir::TensorId sx = b.Floats("sx", {}, {0.5f});
  ir::TensorId zx = b.Const<int8_t>("zx", {}, ir::DType::kInt8, {0});
  ir::TensorId xd = DQ(b, "x_dq", Q(b, "x_q", x, sx, zx), sx, zx);
  ir::TensorId w = b.Const<int8_t>("w", {1, 1, 1, 1}, ir::DType::kInt8, {3});
  ir::TensorId sw = b.Floats("sw", {}, {0.1f});
  ir::TensorId wd = DQ(b, "w_dq", w, sw, zx);
  ir::TensorId y = b.Op(ir::OpType::kConv, "conv", {xd, wd}, "y", {1, 1, 2, 2});
  std::vector<ir::TensorId> clamp_inputs = {y};
  if (clamp == ir::OpType::kClip) {
    clamp_inputs.push_back(b.Floats("lo", {}, {lo}));
    clamp_inputs.push_back(b.Floats("hi", {}, {hi}));
  }
  ir::TensorId z = b.Op(clamp, "act", clamp_inputs, "z", {1, 1, 2, 2});
  ir::TensorId sz = b.Floats("sz", {}, {out_scale});
  ir::TensorId zz = b.Const<int8_t>("zz", {}, ir::DType::kInt8, {-10});
  b.Output(DQ(b, "z_dq", Q(b, "z_q", z, sz, zz), sz, zz));
  return b.Take();
}

TEST(QdqCanonicalize, ReluBetweenConvAndQuantizeSplitsIntoInt8Ops) {
  ir::Graph g = ConvClampGraph(ir::OpType::kRelu, 0, 0, 0.25f);
  Canonicalize(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Conv", "Relu"}));
  ExpectInt8(g, g.ops[0].outputs[0], 0.25f, -10);
  ExpectInt8(g, g.ops[1].outputs[0], 0.25f, -10);
}

TEST(QdqCanonicalize, ClipSplitsWhereverItsRangeLies) {
  // [0, 6] / 0.25 - 10 = [-10, 14], inside [-128, 127]; [100, 200] maps to [390, 790],
  // entirely above it: both forms saturate to 127 (see the brute force below).
  for (float lo : {0.0f, 100.0f}) {
    ir::Graph g = ConvClampGraph(ir::OpType::kClip, lo, lo + (lo == 0 ? 6.0f : 100.0f), 0.25f);
    Canonicalize(g);
    EXPECT_EQ(OpTypes(g), (Strings{"Conv", "Clip"})) << lo;
  }
}

TEST(QdqCanonicalize, ClipWithARunTimeBoundIsLeftAsWritten) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId hi = b.Input("hi", {});
  ir::TensorId y = b.Op(ir::OpType::kRelu, "relu", {x}, "y", {1, 4});
  ir::TensorId lo = b.Floats("lo", {}, {0.0f});
  ir::TensorId z = b.Op(ir::OpType::kClip, "clip", {y, lo, hi}, "z", {1, 4});
  ir::TensorId s = b.Floats("s", {}, {0.5f});
  ir::TensorId zp = b.Const<int8_t>("zp", {}, ir::DType::kInt8, {0});
  b.Output(DQ(b, "z_dq", Q(b, "z_q", z, s, zp), s, zp));
  ir::Graph g = b.Take();
  const Strings before = OpTypes(g);
  QdqCanonicalize(g);
  EXPECT_EQ(OpTypes(g), before);
}

// The claim the clamp rewrite rests on, checked by brute force with ONNX's own
// definitions (float32 scale, round half to even, int8 saturation):
// q(clamp(y)) == q(clamp(dq(q(y)))) for every y, scale, zero point and bounds, including
// bounds that lie outside what the int8 range can represent.
int32_t QuantizeRef(float v, float s, int32_t zp) {
  return static_cast<int32_t>(std::clamp(std::nearbyint(v / s) + zp, -128.0f, 127.0f));
}
TEST(QdqCanonicalize, ClampCommutesWithQuantization) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-300.0f, 300.0f), bound(-200.0f, 200.0f),
      scale(0.01f, 2.0f);
  std::uniform_int_distribution<int32_t> zero_point(-128, 127);
  int outside = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    const float s = scale(rng);
    const int32_t zp = zero_point(rng);
    float lo = bound(rng), hi = bound(rng);
    if (lo > hi) std::swap(lo, hi);
    // Some trials put y on a bound or on a rounding tie.
    float y = value(rng);
    if (trial % 7 == 0) y = lo;
    if (trial % 11 == 0) y = (std::nearbyint(y / s) + 0.5f) * s;
    const int32_t direct = QuantizeRef(std::clamp(y, lo, hi), s, zp);
    const float dq = static_cast<float>(QuantizeRef(y, s, zp) - zp) * s;
    const int32_t split = QuantizeRef(std::clamp(dq, lo, hi), s, zp);
    ASSERT_EQ(direct, split) << "y " << y << " s " << s << " zp " << zp << " [" << lo << ", " << hi
                             << "]";
    outside += lo / s + zp > 127 || hi / s + zp < -128;
  }
  EXPECT_GT(outside, 1000);  // clamp ranges beyond the int8 range were exercised
}

// A per-axis quantized activation through a Transpose would move its axis: not rewritten,
// and qdq-fold rejects the form by name.
TEST(QdqCanonicalize, PerAxisQuantizedLayoutOpIsLeftForQdqFold) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 2, 2});
  ir::TensorId s = b.Floats("s", {2}, {0.5f, 0.25f});
  ir::TensorId zp = b.Const<int8_t>("zp", {2}, ir::DType::kInt8, {0, 0});
  ir::TensorId xq = Q(b, "x_q", x, s, zp);
  ir::Attributes perm;
  perm.Set("perm", std::vector<int64_t>{0, 2, 3, 1});
  ir::TensorId t =
      b.Op(ir::OpType::kTranspose, "t", {xq}, "t_out", {1, 2, 2, 2}, perm, ir::DType::kInt8);
  b.Output(DQ(b, "t_dq", t, s, zp));
  ir::Graph g = b.Take();
  const Strings before = OpTypes(g);
  QdqCanonicalize(g);
  EXPECT_EQ(OpTypes(g), before);
  try {
    QdqFold(g);
    FAIL() << "qdq-fold accepted a Transpose reading a QuantizeLinear output";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("Transpose node 't'"), std::string::npos) << e.what();
  }
}

// TFLite FullyConnected as tf2onnx writes it: MatMul(DQ a, DQ W[K, N]) + DQ(int32 bias) ->
// Q. With the bias scale = s_a * s_w it becomes one int8 Gemm; with another scale it stays.
// The bias's DequantizeLinear comes after the MatMul here, as exporters may order it: the
// Gemm must not read it before it is written.
ir::Graph FullyConnectedGraph(float bias_scale) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId sx = b.Floats("sx", {}, {0.5f});
  ir::TensorId z8 = b.Const<int8_t>("z8", {}, ir::DType::kInt8, {0});
  ir::TensorId xd = DQ(b, "x_dq", Q(b, "x_q", x, sx, z8), sx, z8);
  ir::TensorId w = b.Const<int8_t>("w", {3, 2}, ir::DType::kInt8, {1, -2, 3, -4, 5, -6});
  ir::TensorId sw = b.Floats("sw", {}, {0.25f});
  ir::TensorId t = b.Op(ir::OpType::kMatMul, "fc", {xd, DQ(b, "w_dq", w, sw, z8)}, "t", {1, 2});
  ir::TensorId bias = b.Const<int32_t>("bias", {2}, ir::DType::kInt32, {7, -9});
  ir::TensorId sb = b.Floats("sb", {}, {bias_scale});
  ir::TensorId z32 = b.Const<int32_t>("z32", {}, ir::DType::kInt32, {0});
  ir::TensorId y =
      b.Op(ir::OpType::kAdd, "bias_add", {t, DQ(b, "b_dq", bias, sb, z32)}, "y", {1, 2});
  ir::TensorId sy = b.Floats("sy", {}, {0.1f});
  b.Output(DQ(b, "y_dq", Q(b, "y_q", y, sy, z8), sy, z8));
  return b.Take();
}

TEST(QdqCanonicalize, MatMulWithInt32BiasAddBecomesAnInt8Gemm) {
  ir::Graph g = FullyConnectedGraph(0.5f * 0.25f);
  Canonicalize(g);
  ASSERT_EQ(OpTypes(g), Strings{"Gemm"});
  const ir::Op& gemm = g.ops[0];
  ExpectInt8(g, gemm.inputs[0], 0.5f, 0);
  EXPECT_EQ(g.tensor(gemm.inputs[1]).dtype, ir::DType::kInt8);
  const ir::Tensor& bias = g.tensor(gemm.inputs[2]);
  EXPECT_EQ(bias.dtype, ir::DType::kInt32);
  EXPECT_EQ(bias.DataAs<int32_t>(), (std::vector<int32_t>{7, -9}));
  ExpectInt8(g, gemm.outputs[0], 0.1f, 0);
}

TEST(QdqCanonicalize, MatMulWithABiasOfAnotherScaleIsLeftAsWritten) {
  ir::Graph g = FullyConnectedGraph(0.3f);
  const Strings before = OpTypes(g);
  QdqCanonicalize(g);
  EXPECT_EQ(OpTypes(g), before);
}

}  // namespace
}  // namespace tigris::passes
