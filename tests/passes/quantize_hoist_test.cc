// Added pass after reshape-canonicalize: a per-tensor Quantize moves in front of the float
// Reshape/Transpose it reads, then a graph input read only by a Quantize becomes int8
// (pipeline.cc, quantize_hoist.cc). Expected shapes below follow from the hoist rule: the
// new int8 tensor has the data movement's input shape, the Quantize's old output keeps its
// shape and parameters and is now written by the data movement.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using ir::TensorId;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

ir::QuantParams PerTensor(float scale, int32_t zero_point) {
  ir::QuantParams q;
  q.scales = {scale};
  q.zero_points = {zero_point};
  return q;
}

// Appends Quantize(in) -> name[shape] int8 with `quant`, as qdq-fold leaves it.
TensorId Quantize(GraphBuilder& b, TensorId in, const std::string& name, ir::Shape shape,
                  const ir::QuantParams& quant) {
  TensorId q =
      b.Op(OpType::kQuantize, name + "_op", {in}, name, std::move(shape), {}, DType::kInt8);
  b.graph().tensor(q).quant = quant;
  return q;
}

// An int8 reader of `in` (a Relu stands for the first Conv of the int8 region).
TensorId Int8Reader(GraphBuilder& b, TensorId in, ir::Shape shape, const ir::QuantParams& quant) {
  TensorId y = b.Op(OpType::kRelu, "relu", {in}, "y", std::move(shape), {}, DType::kInt8);
  b.graph().tensor(y).quant = quant;
  b.Output(y);
  return y;
}

void ExpectInt8(const ir::Tensor& t, const ir::Shape& shape, const ir::QuantParams& quant) {
  SCOPED_TRACE(t.name);
  EXPECT_EQ(t.dtype, DType::kInt8);
  EXPECT_EQ(t.shape, shape);
  ASSERT_TRUE(t.quant.has_value());
  EXPECT_EQ(*t.quant, quant);
  EXPECT_FALSE(t.is_constant);
}

TEST(QuantizeHoist, QuantizeMovesBeforeReshape) {
  // kws_small_cnn's head: x[1,49,10] -Reshape-> [1,1,49,10] -Quantize(0.05, -3)-> int8.
  // x is computed (Sigmoid) here so only the hoist applies, not the graph-input fold.
  const ir::QuantParams qp = PerTensor(0.05f, -3);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 49, 10});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 49, 10});
  TensorId m = b.Op(OpType::kReshape, "reshape", {x}, "m", {1, 1, 49, 10},
                    Attrs({{"shape", std::vector<int64_t>{1, 1, 49, 10}}}));
  TensorId q = Quantize(b, m, "q", {1, 1, 49, 10}, qp);
  TensorId y = Int8Reader(b, q, {1, 1, 49, 10}, qp);
  ir::Graph g = b.Take();

  passes::QuantizeHoist(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Sigmoid", "Quantize", "Reshape", "Relu"}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<TensorId>{x});
  ASSERT_EQ(g.ops[1].outputs.size(), 1u);
  TensorId t = g.ops[1].outputs[0];
  EXPECT_NE(t, m);  // a new tensor, not the float Reshape output relabeled
  EXPECT_EQ(g.tensor(t).name, "x_quantized");
  ExpectInt8(g.tensor(t), {1, 49, 10}, qp);  // x's shape, the Quantize's parameters
  EXPECT_EQ(g.ops[2].inputs, std::vector<TensorId>{t});
  EXPECT_EQ(g.ops[2].outputs, std::vector<TensorId>{q});
  EXPECT_EQ(g.ops[2].attrs.GetInts("shape"), (std::vector<int64_t>{1, 1, 49, 10}));
  ExpectInt8(g.tensor(q), {1, 1, 49, 10}, qp);  // unchanged: name, shape, parameters
  EXPECT_EQ(g.tensor(q).name, "q");
  EXPECT_EQ(g.ops[3].inputs, std::vector<TensorId>{q});
  EXPECT_EQ(g.outputs, std::vector<TensorId>{y});
  EXPECT_EQ(g.tensor(x).dtype, DType::kFloat32);
  for (const ir::Op& op : g.ops) {
    EXPECT_EQ(std::count(op.inputs.begin(), op.inputs.end(), m), 0) << op.name;
  }
}

TEST(QuantizeHoist, QuantizeMovesBeforeTranspose) {
  // conv1d_small's head: x[1,16,8] (N, L, C) -Transpose(0,2,1)-> [1,8,16] -Quantize->.
  const ir::QuantParams qp = PerTensor(0.02f, 5);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 16, 8});
  TensorId x = b.Op(OpType::kTanh, "tanh", {in}, "x", {1, 16, 8});
  TensorId m = b.Op(OpType::kTranspose, "transpose", {x}, "m", {1, 8, 16},
                    Attrs({{"perm", std::vector<int64_t>{0, 2, 1}}}));
  TensorId q = Quantize(b, m, "q", {1, 8, 16}, qp);
  Int8Reader(b, q, {1, 8, 16}, qp);
  ir::Graph g = b.Take();

  passes::QuantizeHoist(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Tanh", "Quantize", "Transpose", "Relu"}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<TensorId>{x});
  TensorId t = g.ops[1].outputs.at(0);
  ExpectInt8(g.tensor(t), {1, 16, 8}, qp);  // before the transpose: x's [1,16,8]
  EXPECT_EQ(g.ops[2].inputs, std::vector<TensorId>{t});
  EXPECT_EQ(g.ops[2].outputs, std::vector<TensorId>{q});
  EXPECT_EQ(g.ops[2].attrs.GetInts("perm"), (std::vector<int64_t>{0, 2, 1}));
  ExpectInt8(g.tensor(q), {1, 8, 16}, qp);
}

TEST(QuantizeHoist, QuantizeCrossesAReshapeTransposeChain) {
  // x[1,4,6] -Reshape-> m1[1,2,2,6] -Transpose(0,3,1,2)-> m2[1,6,2,2] -Quantize-> q.
  // First hoist: Quantize(m1) -> [1,2,2,6] int8 -> Transpose -> q; second: Quantize(x) ->
  // [1,4,6] int8 -> Reshape -> [1,2,2,6] int8 -> Transpose -> q.
  const ir::QuantParams qp = PerTensor(0.1f, 0);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 4, 6});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 4, 6});
  TensorId m1 = b.Op(OpType::kReshape, "reshape", {x}, "m1", {1, 2, 2, 6},
                     Attrs({{"shape", std::vector<int64_t>{1, 2, 2, 6}}}));
  TensorId m2 = b.Op(OpType::kTranspose, "transpose", {m1}, "m2", {1, 6, 2, 2},
                     Attrs({{"perm", std::vector<int64_t>{0, 3, 1, 2}}}));
  TensorId q = Quantize(b, m2, "q", {1, 6, 2, 2}, qp);
  Int8Reader(b, q, {1, 6, 2, 2}, qp);
  ir::Graph g = b.Take();

  passes::QuantizeHoist(g);

  ASSERT_EQ(OpTypes(g),
            (std::vector<std::string>{"Sigmoid", "Quantize", "Reshape", "Transpose", "Relu"}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<TensorId>{x});
  TensorId t0 = g.ops[1].outputs.at(0);
  ExpectInt8(g.tensor(t0), {1, 4, 6}, qp);
  EXPECT_EQ(g.ops[2].inputs, std::vector<TensorId>{t0});
  TensorId t1 = g.ops[2].outputs.at(0);
  EXPECT_NE(t1, m1);
  ExpectInt8(g.tensor(t1), {1, 2, 2, 6}, qp);
  EXPECT_EQ(g.ops[2].attrs.GetInts("shape"), (std::vector<int64_t>{1, 2, 2, 6}));
  EXPECT_EQ(g.ops[3].inputs, std::vector<TensorId>{t1});
  EXPECT_EQ(g.ops[3].outputs, std::vector<TensorId>{q});
  ExpectInt8(g.tensor(q), {1, 6, 2, 2}, qp);
}

TEST(QuantizeHoist, GraphInputBecomesInt8AndNoFloatOpRemains) {
  // The kws case proper: x is the graph input. After the hoist the Quantize reads x alone,
  // so qdq-fold's rule applies: the host quantizes, the int8 tensor takes the name "x".
  const ir::QuantParams qp = PerTensor(0.05f, -3);
  GraphBuilder b;
  TensorId x = b.Input("x", {1, 49, 10});
  TensorId m = b.Op(OpType::kReshape, "reshape", {x}, "m", {1, 1, 49, 10},
                    Attrs({{"shape", std::vector<int64_t>{1, 1, 49, 10}}}));
  TensorId q = Quantize(b, m, "q", {1, 1, 49, 10}, qp);
  Int8Reader(b, q, {1, 1, 49, 10}, qp);
  ir::Graph g = b.Take();

  passes::QuantizeHoist(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Reshape", "Relu"}));
  ASSERT_EQ(g.inputs.size(), 1u);
  TensorId xq = g.inputs[0];
  EXPECT_NE(xq, x);
  EXPECT_EQ(g.tensor(xq).name, "x");
  ExpectInt8(g.tensor(xq), {1, 49, 10}, qp);
  EXPECT_EQ(g.tensor(x).name, "x_float");
  EXPECT_EQ(g.ops[0].inputs, std::vector<TensorId>{xq});
  EXPECT_EQ(g.ops[0].outputs, std::vector<TensorId>{q});
  ExpectInt8(g.tensor(q), {1, 1, 49, 10}, qp);
}

TEST(QuantizeHoist, GraphInputWithAnotherReaderStaysFloat) {
  // The hoist applies (the Reshape's output has one reader) but x is also read by Tanh,
  // so the host cannot hand over int8 only: the graph keeps the runtime Quantize first.
  const ir::QuantParams qp = PerTensor(0.05f, 0);
  GraphBuilder b;
  TensorId x = b.Input("x", {1, 8});
  TensorId m = b.Op(OpType::kReshape, "reshape", {x}, "m", {1, 8, 1, 1},
                    Attrs({{"shape", std::vector<int64_t>{1, 8, 1, 1}}}));
  TensorId q = Quantize(b, m, "q", {1, 8, 1, 1}, qp);
  Int8Reader(b, q, {1, 8, 1, 1}, qp);
  b.Output(b.Op(OpType::kTanh, "tanh", {x}, "side", {1, 8}));
  ir::Graph g = b.Take();

  passes::QuantizeHoist(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Quantize", "Reshape", "Relu", "Tanh"}));
  EXPECT_EQ(g.inputs, std::vector<TensorId>{x});
  EXPECT_EQ(g.tensor(x).dtype, DType::kFloat32);
  EXPECT_EQ(g.tensor(x).name, "x");
  EXPECT_EQ(g.ops[0].inputs, std::vector<TensorId>{x});
  ExpectInt8(g.tensor(g.ops[0].outputs.at(0)), {1, 8}, qp);
}

// A graph the pass must leave exactly as it is: same op order and wiring.
void ExpectUnchanged(ir::Graph g) {
  const ir::Graph before = g;
  passes::QuantizeHoist(g);
  ASSERT_EQ(OpTypes(g), OpTypes(before));
  for (size_t i = 0; i < g.ops.size(); ++i) {
    EXPECT_EQ(g.ops[i].inputs, before.ops[i].inputs) << g.ops[i].name;
    EXPECT_EQ(g.ops[i].outputs, before.ops[i].outputs) << g.ops[i].name;
  }
  EXPECT_EQ(g.tensors.size(), before.tensors.size());
  EXPECT_EQ(g.inputs, before.inputs);
}

TEST(QuantizeHoist, PerAxisQuantizeIsLeftAlone) {
  // Scales along axis 1 of [1,2,3] would have to follow the transpose to axis 2.
  ir::QuantParams per_axis;
  per_axis.scales = {0.1f, 0.2f};
  per_axis.zero_points = {0, 0};
  per_axis.axis = 1;
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 3, 2});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 3, 2});
  TensorId m = b.Op(OpType::kTranspose, "transpose", {x}, "m", {1, 2, 3},
                    Attrs({{"perm", std::vector<int64_t>{0, 2, 1}}}));
  TensorId q = Quantize(b, m, "q", {1, 2, 3}, per_axis);
  Int8Reader(b, q, {1, 2, 3}, PerTensor(0.1f, 0));
  ExpectUnchanged(b.Take());

  // One scale but an axis: per axis along a size-1 dimension, equally tied to its axis.
  ir::QuantParams one_channel;
  one_channel.scales = {0.1f};
  one_channel.zero_points = {0};
  one_channel.axis = 1;
  GraphBuilder c;
  TensorId in2 = c.Input("in", {1, 3, 1});
  TensorId x2 = c.Op(OpType::kSigmoid, "sigmoid", {in2}, "x", {1, 3, 1});
  TensorId m2 = c.Op(OpType::kTranspose, "transpose", {x2}, "m", {1, 1, 3},
                     Attrs({{"perm", std::vector<int64_t>{0, 2, 1}}}));
  Int8Reader(c, Quantize(c, m2, "q", {1, 1, 3}, one_channel), {1, 1, 3}, PerTensor(0.1f, 0));
  ExpectUnchanged(c.Take());
}

TEST(QuantizeHoist, DataMovementWithTwoReadersIsLeftAlone) {
  // m is read by the Quantize and by a float Tanh: the float Reshape must still run.
  const ir::QuantParams qp = PerTensor(0.05f, 0);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 8});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 8});
  TensorId m = b.Op(OpType::kReshape, "reshape", {x}, "m", {1, 8, 1, 1},
                    Attrs({{"shape", std::vector<int64_t>{1, 8, 1, 1}}}));
  Int8Reader(b, Quantize(b, m, "q", {1, 8, 1, 1}, qp), {1, 8, 1, 1}, qp);
  b.Output(b.Op(OpType::kTanh, "tanh", {m}, "side", {1, 8, 1, 1}));
  ExpectUnchanged(b.Take());
}

TEST(QuantizeHoist, DataMovementWritingAGraphOutputIsLeftAlone) {
  const ir::QuantParams qp = PerTensor(0.05f, 0);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 8});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 8});
  TensorId m = b.Op(OpType::kReshape, "reshape", {x}, "m", {1, 8, 1, 1},
                    Attrs({{"shape", std::vector<int64_t>{1, 8, 1, 1}}}));
  b.Output(m);
  Int8Reader(b, Quantize(b, m, "q", {1, 8, 1, 1}, qp), {1, 8, 1, 1}, qp);
  ExpectUnchanged(b.Take());
}

TEST(QuantizeHoist, QuantizeAfterAComputingFloatOpIsLeftAlone) {
  // A float island (conv2d_small_maxpool's Selu) ends in Selu -> Quantize: Selu is no data
  // movement, so nothing moves.
  const ir::QuantParams qp = PerTensor(0.05f, 0);
  GraphBuilder b;
  TensorId in = b.Input("in", {1, 4, 2, 2});
  TensorId x = b.Op(OpType::kSigmoid, "sigmoid", {in}, "x", {1, 4, 2, 2});
  TensorId s = b.Op(OpType::kSelu, "selu", {x}, "s", {1, 4, 2, 2});
  Int8Reader(b, Quantize(b, s, "q", {1, 4, 2, 2}, qp), {1, 4, 2, 2}, qp);
  ExpectUnchanged(b.Take());
}

}  // namespace
}  // namespace tigris
