// binary-canonicalize: ONNX's variadic Sum, Max, Min and Mean become chains of the
// runtime's binary ops; Pow's integer exponent becomes float32.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

TEST(BinaryCanonicalize, TwoInputSumBecomesAdd) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId y = b.Input("y", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {x, y}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Add"});
  EXPECT_EQ(g.ops[0].name, "sum");
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{x, y}));
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{s});
}

TEST(BinaryCanonicalize, OneInputSumIsRemovedAndReadersRewired) {
  // x -> Relu -> r -> Sum -> s -> Relu -> z: the second Relu now reads r.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu1", {x}, "r", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {r}, "s", {1, 4});
  b.Output(b.Op(OpType::kRelu, "relu2", {s}, "z", {1, 4}));
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Relu"}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{r});
}

TEST(BinaryCanonicalize, OneInputSumAsGraphOutputKeepsOutputName) {
  // The producer of the Sum's input writes the graph output instead.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {r}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{s});
  EXPECT_EQ(g.outputs, std::vector<ir::TensorId>{s});
}

TEST(BinaryCanonicalize, ThreeInputsBecomeAChainOfAdds) {
  // Sum(a [1,4], b [4], c [1,4]) = Add(Add(a, b), c); the partial sum has the broadcast
  // shape of a and b, [1, 4].
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4});
  ir::TensorId bb = b.Floats("b", {4}, {1, 2, 3, 4});
  ir::TensorId c = b.Input("c", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {a, bb, c}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Add", "Add"}));
  const ir::TensorId partial = g.ops[0].outputs[0];
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{a, bb}));
  EXPECT_EQ(g.tensor(partial).shape, (ir::Shape{1, 4}));
  EXPECT_EQ(g.tensor(partial).dtype, DType::kFloat32);
  EXPECT_EQ(g.ops[1].inputs, (std::vector<ir::TensorId>{partial, c}));
  EXPECT_EQ(g.ops[1].outputs, std::vector<ir::TensorId>{s});
  EXPECT_NE(g.ops[0].name, g.ops[1].name);
}

TEST(BinaryCanonicalize, QuantizedSumOfThreeIsRejected) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4}, DType::kInt8);
  ir::TensorId c = b.Input("c", {1, 4}, DType::kInt8);
  ir::TensorId d = b.Input("d", {1, 4}, DType::kInt8);
  ir::TensorId s = b.Op(OpType::kSum, "qsum", {a, c, d}, "s", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(s).quant = ir::QuantParams{{0.5f}, {0}, -1};
  b.Output(s);
  ir::Graph g = b.Take();

  try {
    passes::BinaryCanonicalize(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("'qsum'"), std::string::npos) << e.what();
  }
}

TEST(BinaryCanonicalize, EmptySumIsInvalidModel) {
  GraphBuilder b;
  b.Output(b.Op(OpType::kSum, "empty", {}, "s", {1, 4}));
  ir::Graph g = b.Take();

  EXPECT_THROW(passes::BinaryCanonicalize(g), Error);
}

TEST(BinaryCanonicalize, TwoInputMaxIsAlreadyTheRuntimeOp) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId y = b.Input("y", {1, 4});
  b.Output(b.Op(OpType::kMax, "max", {x, y}, "m", {1, 4}));
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Max"});
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{x, y}));
}

TEST(BinaryCanonicalize, QuantizedMinOfThreeKeepsPartialsOnTheOutputGrid) {
  // Quantization is monotone, so min(q(min(a, b)), q(c)) = q(min(a, b, c)): the partial
  // result takes the output's scale and zero point.
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4}, DType::kInt8);
  ir::TensorId c = b.Input("c", {1, 4}, DType::kInt8);
  ir::TensorId d = b.Input("d", {1, 4}, DType::kInt8);
  ir::TensorId m = b.Op(OpType::kMin, "qmin", {a, c, d}, "m", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(m).quant = ir::QuantParams{{0.25f}, {3}, -1};
  b.Output(m);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Min", "Min"}));
  const ir::TensorId partial = g.ops[0].outputs[0];
  EXPECT_EQ(g.tensor(partial).dtype, DType::kInt8);
  EXPECT_TRUE(g.tensor(partial).quant == g.tensor(m).quant);
  EXPECT_EQ(g.ops[1].inputs, (std::vector<ir::TensorId>{partial, d}));
  EXPECT_EQ(g.ops[1].outputs, std::vector<ir::TensorId>{m});
}

TEST(BinaryCanonicalize, MeanIsTheSumDividedOnceByTheCount) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId y = b.Input("y", {1, 4});
  ir::TensorId z = b.Input("z", {1, 4});
  ir::TensorId m = b.Op(OpType::kMean, "mean", {x, y, z}, "m", {1, 4});
  b.Output(m);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Add", "Add", "Div"}));
  EXPECT_EQ(g.ops[2].outputs, std::vector<ir::TensorId>{m});
  EXPECT_EQ(g.ops[2].inputs[0], g.ops[1].outputs[0]);
  const ir::Tensor& count = g.tensor(g.ops[2].inputs[1]);
  ASSERT_TRUE(count.is_constant);
  EXPECT_EQ(count.DataAs<float>(), std::vector<float>{3.0f});
}

TEST(BinaryCanonicalize, QuantizedMeanIsRefusedNamingTheNode) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4}, DType::kInt8);
  ir::TensorId c = b.Input("c", {1, 4}, DType::kInt8);
  ir::TensorId m = b.Op(OpType::kMean, "qmean", {a, c}, "m", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(m).quant = ir::QuantParams{{0.5f}, {0}, -1};
  b.Output(m);
  ir::Graph g = b.Take();

  try {
    passes::BinaryCanonicalize(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("'qmean'"), std::string::npos) << e.what();
  }
}

TEST(BinaryCanonicalize, OneInputMaxOfAGraphInputBecomesACopy) {
  // Rewiring would make the graph input the graph output: the copy keeps both names.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId m = b.Op(OpType::kMax, "max", {x}, "m", {1, 4});
  b.Output(m);
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Reshape"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.outputs, std::vector<ir::TensorId>{m});
}

// int64 Max and Min select by a comparison the runtime has for int64 (ONNX's
// test_max_int64); float32 ones stay the runtime's Max.
TEST(BinaryCanonicalize, IntegerMaxAndMinBecomeSelections) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {3}, DType::kInt64);
  const ir::TensorId y = b.Input("y", {3}, DType::kInt64);
  const ir::TensorId m = b.Op(OpType::kMax, "max", {x, y}, "m", {3}, {}, DType::kInt64);
  b.Output(b.Op(OpType::kMin, "min", {m, y}, "n", {3}, {}, DType::kInt64));
  const ir::TensorId f = b.Input("f", {3});
  b.Output(b.Op(OpType::kMax, "fmax", {f, f}, "g", {3}));
  ir::Graph g = b.Take();
  passes::BinaryCanonicalize(g);
  ASSERT_EQ(OpTypes(g),
            (std::vector<std::string>{"GreaterOrEqual", "Where", "LessOrEqual", "Where", "Max"}));
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{x, y}));
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).dtype, DType::kBool);
  EXPECT_EQ(g.ops[1].inputs, (std::vector<ir::TensorId>{g.ops[0].outputs[0], x, y}));
  EXPECT_EQ(g.ops[1].outputs[0], m);
  EXPECT_EQ(g.ops[3].outputs[0], g.outputs[0]);
}

TEST(BinaryCanonicalize, IntegerExponentOfPowBecomesFloat) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3});
  ir::TensorId y = b.Int64s("y", {3}, {2, -1, 0});
  b.Output(b.Op(OpType::kPow, "pow", {x, y}, "z", {1, 3}));
  ir::Graph g = b.Take();

  passes::BinaryCanonicalize(g);

  const ir::Tensor& e = g.tensor(g.ops[0].inputs[1]);
  EXPECT_EQ(e.dtype, DType::kFloat32);
  EXPECT_EQ(e.shape, (ir::Shape{3}));
  EXPECT_EQ(e.DataAs<float>(), (std::vector<float>{2.0f, -1.0f, 0.0f}));
}

TEST(BinaryCanonicalize, ExponentBeyondFloatPrecisionIsRefused) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 1});
  ir::TensorId y = b.Int64s("y", {1}, {(int64_t{1} << 24) + 1});
  b.Output(b.Op(OpType::kPow, "pow", {x, y}, "z", {1, 1}));
  ir::Graph g = b.Take();

  try {
    passes::BinaryCanonicalize(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedDType);
    EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
