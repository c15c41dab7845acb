// constant-op-fold: Constant ops become constant tensors (reference pass 1).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;

// The loader's form (onnx_loader.h): value in the output tensor, is_constant still false.
ir::TensorId ConstantOp(GraphBuilder& b, const std::string& name, ir::Shape shape,
                        const std::vector<float>& values) {
  ir::TensorId out = b.Activation(name, std::move(shape));
  b.graph().tensor(out).SetData(values);
  b.OpWithOutputs(ir::OpType::kConstant, name + "_node", {}, {out});
  return out;
}

TEST(ConstantOpFold, ConstantOpBecomesConstantTensor) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {2});
  ir::TensorId w = ConstantOp(b, "w", {2}, {1.5f, -2.0f});
  b.Output(b.Op(ir::OpType::kMul, "mul", {x, w}, "y", {2}));
  ir::Graph g = b.Take();

  ConstantOpFold(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Mul"});
  const ir::Tensor& folded = g.tensor(g.ops[0].inputs[1]);
  EXPECT_EQ(folded.name, "w");
  EXPECT_TRUE(folded.is_constant);
  EXPECT_EQ(folded.DataAs<float>(), (std::vector<float>{1.5f, -2.0f}));  // bytes untouched
}

TEST(ConstantOpFold, ConstantFeedingGraphOutputStaysAnOutput) {
  GraphBuilder b;
  ir::TensorId c = ConstantOp(b, "c", {1}, {7.0f});
  b.Output(c);
  ir::Graph g = b.Take();

  ConstantOpFold(g);

  EXPECT_TRUE(g.ops.empty());
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_TRUE(g.tensor(g.outputs[0]).is_constant);
}

TEST(ConstantOpFold, ValueWhoseBytesDoNotMatchItsShapeIsRejected) {
  GraphBuilder b;
  ir::TensorId w = ConstantOp(b, "w", {3}, {1.0f});  // 4 bytes for 3 floats
  b.Output(w);
  ir::Graph g = b.Take();
  try {
    ConstantOpFold(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("w_node"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
