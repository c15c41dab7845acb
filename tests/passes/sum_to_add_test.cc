// sum-to-add: variadic ONNX Sum becomes the runtime's binary Add.
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

TEST(SumToAdd, TwoInputSumBecomesAdd) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId y = b.Input("y", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {x, y}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::SumToAdd(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Add"});
  EXPECT_EQ(g.ops[0].name, "sum");
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{x, y}));
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{s});
}

TEST(SumToAdd, OneInputSumIsRemovedAndReadersRewired) {
  // x -> Relu -> r -> Sum -> s -> Relu -> z: the second Relu now reads r.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu1", {x}, "r", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {r}, "s", {1, 4});
  b.Output(b.Op(OpType::kRelu, "relu2", {s}, "z", {1, 4}));
  ir::Graph g = b.Take();

  passes::SumToAdd(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Relu"}));
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{r});
}

TEST(SumToAdd, OneInputSumAsGraphOutputKeepsOutputName) {
  // The producer of the Sum's input writes the graph output instead.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {x}, "r", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {r}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::SumToAdd(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{s});
  EXPECT_EQ(g.outputs, std::vector<ir::TensorId>{s});
}

TEST(SumToAdd, ThreeInputsBecomeAChainOfAdds) {
  // Sum(a [1,4], b [4], c [1,4]) = Add(Add(a, b), c); the partial sum has the broadcast
  // shape of a and b, [1, 4].
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4});
  ir::TensorId bb = b.Floats("b", {4}, {1, 2, 3, 4});
  ir::TensorId c = b.Input("c", {1, 4});
  ir::TensorId s = b.Op(OpType::kSum, "sum", {a, bb, c}, "s", {1, 4});
  b.Output(s);
  ir::Graph g = b.Take();

  passes::SumToAdd(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Add", "Add"}));
  const ir::TensorId partial = g.ops[0].outputs[0];
  EXPECT_EQ(g.ops[0].inputs, (std::vector<ir::TensorId>{a, bb}));
  EXPECT_EQ(g.tensor(partial).shape, (ir::Shape{1, 4}));
  EXPECT_EQ(g.tensor(partial).dtype, DType::kFloat32);
  EXPECT_EQ(g.ops[1].inputs, (std::vector<ir::TensorId>{partial, c}));
  EXPECT_EQ(g.ops[1].outputs, std::vector<ir::TensorId>{s});
  EXPECT_NE(g.ops[0].name, g.ops[1].name);
}

TEST(SumToAdd, QuantizedSumOfThreeIsRejected) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 4}, DType::kInt8);
  ir::TensorId c = b.Input("c", {1, 4}, DType::kInt8);
  ir::TensorId d = b.Input("d", {1, 4}, DType::kInt8);
  ir::TensorId s = b.Op(OpType::kSum, "qsum", {a, c, d}, "s", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(s).quant = ir::QuantParams{{0.5f}, {0}, -1};
  b.Output(s);
  ir::Graph g = b.Take();

  try {
    passes::SumToAdd(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("'qsum'"), std::string::npos) << e.what();
  }
}

TEST(SumToAdd, EmptySumIsInvalidModel) {
  GraphBuilder b;
  b.Output(b.Op(OpType::kSum, "empty", {}, "s", {1, 4}));
  ir::Graph g = b.Take();

  EXPECT_THROW(passes::SumToAdd(g), Error);
}

}  // namespace
}  // namespace tigris
