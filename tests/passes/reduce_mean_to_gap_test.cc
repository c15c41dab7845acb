// Reference pass 8: ReduceMean over H and W becomes GlobalAveragePool
// (tigris-compilation-pipeline.txt, stage 2).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// x[1,8,7,7] -> ReduceMean(axes input, keepdims) -> y, as the loader hands it over (axes as
// constant input 1, the opset-18 form, whatever the model's opset).
ir::Graph MeanGraph(const std::vector<int64_t>& axes, int64_t keepdims, ir::Shape out_shape) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 7, 7});
  ir::TensorId a = b.Int64s("axes", {static_cast<int64_t>(axes.size())}, axes);
  b.Output(b.Op(OpType::kReduceMean, "mean", {x, a}, "y", std::move(out_shape),
                Attrs({{"keepdims", keepdims}})));
  return b.Take();
}

TEST(ReduceMeanToGap, HwMeanWithKeepdimsBecomesGlobalAveragePool) {
  ir::Graph g = MeanGraph({2, 3}, 1, {1, 8, 1, 1});
  passes::ReduceMeanToGap(g);
  // Same input and output tensors; the axes operand is gone and GAP has no attributes.
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"GlobalAveragePool"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{*g.FindTensor("x")});
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{*g.FindTensor("y")});
  EXPECT_TRUE(g.ops[0].attrs.values().empty());
}

TEST(ReduceMeanToGap, NegativeHwAxesOnRank4AreTheSameReduction) {
  // -1 and -2 on rank 4 are W and H: axes {-1,-2} == {3,2}, listed in any order.
  ir::Graph g = MeanGraph({-1, -2}, 1, {1, 8, 1, 1});
  passes::ReduceMeanToGap(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"GlobalAveragePool"});
}

TEST(ReduceMeanToGap, KeepdimsZeroAddsReshapeToReducedShape) {
  // keepdims=0 yields [1,8]; GAP yields [1,8,1,1], so a Reshape to [1,8] follows it.
  ir::Graph g = MeanGraph({2, 3}, 0, {1, 8});
  passes::ReduceMeanToGap(g);
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"GlobalAveragePool", "Reshape"}));
  const ir::Op& gap = g.ops[0];
  const ir::Op& reshape = g.ops[1];
  EXPECT_EQ(gap.inputs, std::vector<ir::TensorId>{*g.FindTensor("x")});
  ASSERT_EQ(gap.outputs.size(), 1u);
  EXPECT_EQ(g.tensor(gap.outputs[0]).shape, (ir::Shape{1, 8, 1, 1}));
  EXPECT_EQ(g.tensor(gap.outputs[0]).dtype, DType::kFloat32);
  EXPECT_EQ(reshape.inputs, gap.outputs);
  EXPECT_EQ(reshape.outputs, std::vector<ir::TensorId>{*g.FindTensor("y")});
  EXPECT_EQ(reshape.attrs.GetInts("shape"), (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(g.outputs, std::vector<ir::TensorId>{*g.FindTensor("y")});
}

TEST(ReduceMeanToGap, OtherReductionStaysWithAxesAttribute) {
  // A mean over channels is no GAP: it stays, axes move to the attribute (-3 on rank 4 is
  // axis 1) and keepdims is explicit.
  ir::Graph g = MeanGraph({-3}, 1, {1, 1, 7, 7});
  passes::ReduceMeanToGap(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"ReduceMean"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{*g.FindTensor("x")});
  EXPECT_EQ(g.ops[0].attrs.GetInts("axes"), std::vector<int64_t>{1});
  EXPECT_EQ(g.ops[0].attrs.GetInt("keepdims", -1), 1);
}

TEST(ReduceMeanToGap, HwMeanOnRank3IsNotGlobalPooling) {
  // Rank 3 [N,C,W]: axes {1,2} reduce C and W, not a spatial GAP. Stays, axes to attribute.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 7});
  ir::TensorId a = b.Int64s("axes", {2}, {1, 2});
  b.Output(b.Op(OpType::kReduceMean, "mean", {x, a}, "y", {1}, Attrs({{"keepdims", int64_t{0}}})));
  ir::Graph g = b.Take();
  passes::ReduceMeanToGap(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"ReduceMean"});
  EXPECT_EQ(g.ops[0].inputs.size(), 1u);
  EXPECT_EQ(g.ops[0].attrs.GetInts("axes"), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(g.ops[0].attrs.GetInt("keepdims", -1), 0);
}

TEST(ReduceMeanToGap, ComputedAxesAreUnsupportedAndNameTheNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 8, 7, 7});
  ir::TensorId a = b.Input("axes_at_runtime", {2}, DType::kInt64);
  b.Output(b.Op(OpType::kReduceMean, "mean_node", {x, a}, "y", {1, 8, 1, 1}));
  ir::Graph g = b.Take();
  try {
    passes::ReduceMeanToGap(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp);
    EXPECT_NE(std::string(e.what()).find("mean_node"), std::string::npos) << e.what();
  }
}

TEST(ReduceMeanToGap, AxisOutOfRangeIsInvalidModel) {
  ir::Graph g = MeanGraph({2, 4}, 1, {1, 8, 1, 1});  // rank 4 has no axis 4
  try {
    passes::ReduceMeanToGap(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("mean"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
