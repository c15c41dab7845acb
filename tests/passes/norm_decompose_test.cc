// norm-decompose: Layer/Instance/LpNormalization become the runtime's reductions and binary
// ops (values are checked end to end by tests/e2e/test_normalizations.py and ONNX's cases).
#include <gtest/gtest.h>

#include <algorithm>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;

TEST(NormDecompose, LayerNormIsMeanVarianceScaleAndBias) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 8});
  ir::TensorId g = b.Floats("g", {8}, std::vector<float>(8, 2.0f));
  ir::TensorId bias = b.Floats("b", {8}, std::vector<float>(8, 0.5f));
  ir::Attributes attrs;
  attrs.Set("axis", int64_t{-1});
  ir::TensorId y = b.Op(ir::OpType::kLayerNormalization, "ln", {x, g, bias}, "y", {1, 4, 8}, attrs);
  b.Output(y);
  ir::Graph g2 = b.Take();

  NormDecompose(g2);

  EXPECT_EQ(OpTypes(g2), (std::vector<std::string>{"ReduceMean", "Sub", "Mul", "ReduceMean", "Add",
                                                   "Sqrt", "Div", "Mul", "Add"}));
  EXPECT_EQ(g2.ops.back().outputs, std::vector<ir::TensorId>{y});  // the output keeps its name
  // The mean keeps the normalized axis as 1: [1, 4, 1], over axes [2].
  EXPECT_EQ(g2.tensor(g2.ops[0].outputs[0]).shape, (ir::Shape{1, 4, 1}));
  EXPECT_EQ(ir::ConstantAsInt64s(g2.tensor(g2.ops[0].inputs[1])), std::vector<int64_t>{2});
}

TEST(NormDecompose, InstanceNormReshapesScaleAndBiasToBroadcastAlongChannels) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3, 4, 4});
  ir::TensorId g = b.Floats("g", {3}, {1, 2, 3});
  ir::TensorId bias = b.Floats("b", {3}, {0, 0, 1});
  b.Output(b.Op(ir::OpType::kInstanceNormalization, "in", {x, g, bias}, "y", {1, 3, 4, 4}));
  ir::Graph graph = b.Take();

  NormDecompose(graph);

  const std::vector<std::string> types = OpTypes(graph);
  EXPECT_EQ(std::count(types.begin(), types.end(), "Reshape"), 2);
  for (const ir::Op& op : graph.ops) {
    if (op.type == ir::OpType::kReshape) {
      EXPECT_EQ(graph.tensor(op.outputs[0]).shape, (ir::Shape{3, 1, 1}));
    }
    if (op.type == ir::OpType::kReduceMean) {
      EXPECT_EQ(ir::ConstantAsInt64s(graph.tensor(op.inputs[1])), (std::vector<int64_t>{2, 3}));
    }
  }
}

TEST(NormDecompose, LpNormDividesByTheNormKeptAboveZero) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {2, 5});
  ir::Attributes attrs;
  attrs.Set("axis", int64_t{0});
  attrs.Set("p", int64_t{1});
  b.Output(b.Op(ir::OpType::kLpNormalization, "lp", {x}, "y", {2, 5}, attrs));
  ir::Graph graph = b.Take();

  NormDecompose(graph);

  EXPECT_EQ(OpTypes(graph), (std::vector<std::string>{"ReduceL1", "Max", "Div"}));
  EXPECT_EQ(graph.tensor(graph.ops[1].inputs[1]).DataAs<float>(), std::vector<float>{0x1p-149f});
}

TEST(NormDecompose, ReadingATrainingStatisticIsRefusedNamingIt) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8});
  ir::TensorId g = b.Floats("g", {8}, std::vector<float>(8, 1.0f));
  ir::TensorId y = b.Activation("y", {1, 8});
  ir::TensorId mean = b.Activation("saved_mean", {1, 1});
  b.OpWithOutputs(ir::OpType::kLayerNormalization, "ln", {x, g}, {y, mean});
  b.Output(y);
  b.Output(mean);
  ir::Graph graph = b.Take();

  try {
    NormDecompose(graph);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp);
    EXPECT_NE(std::string(e.what()).find("'saved_mean'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
