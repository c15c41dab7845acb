// softmax-flatten: opset < 13 Softmax/LogSoftmax over a non-last axis runs on the 2-D
// coercion ONNX-11 defines. The numbers are checked against onnxruntime in
// tests/e2e/test_opset_forms.py; here, the rewrite itself.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

ir::Graph SoftmaxGraph(int64_t opset, std::optional<int64_t> axis,
                       ir::OpType type = ir::OpType::kSoftmax) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {2, 3, 4, 5});
  ir::Attributes attrs;
  if (axis) attrs.Set("axis", *axis);
  b.Output(b.Op(type, "sm", {x}, "y", {2, 3, 4, 5}, attrs));
  ir::Graph g = b.Take();
  g.opset = opset;
  return g;
}

TEST(SoftmaxFlatten, DefaultAxisOfOpset11CoercesToRowsOfCHW) {
  ir::Graph g = SoftmaxGraph(11, std::nullopt);  // default axis 1
  SoftmaxFlatten(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "Softmax", "Reshape"}));
  EXPECT_EQ(g.ops[0].inputs[0], g.inputs[0]);
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{2, 60}));
  EXPECT_EQ(g.tensor(g.ops[1].inputs[0]).shape, (ir::Shape{2, 60}));
  EXPECT_EQ(g.ops[1].attrs.GetInt("axis", -99), 1);
  EXPECT_EQ(g.ops[2].attrs.GetInts("shape"), (std::vector<int64_t>{2, 3, 4, 5}));
  EXPECT_EQ(g.ops[2].outputs[0], g.outputs[0]);  // y keeps its tensor (name, readers)
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "y");
}

TEST(SoftmaxFlatten, NegativeAndMiddleAxes) {
  ir::Graph g = SoftmaxGraph(9, -2, ir::OpType::kLogSoftmax);  // axis 2: rows of W... 4*5
  SoftmaxFlatten(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "LogSoftmax", "Reshape"}));
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (std::vector<int64_t>{6, 20}));
}

TEST(SoftmaxFlatten, LastAxisAndOpset13AreLeftAsTheyAre) {
  ir::Graph last = SoftmaxGraph(11, 3);
  SoftmaxFlatten(last);
  ASSERT_EQ(OpTypes(last), Strings{"Softmax"});
  EXPECT_EQ(last.ops[0].attrs.GetInt("axis", -99), 3);
  // Opset 13 normalizes along the axis itself: the runtime kernel's meaning.
  ir::Graph new_form = SoftmaxGraph(13, 1);
  SoftmaxFlatten(new_form);
  EXPECT_EQ(OpTypes(new_form), Strings{"Softmax"});
}

TEST(SoftmaxFlatten, QuantizationFollowsIntoTheIntermediates) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3}, ir::DType::kInt8);
  b.graph().tensor(x).quant = ir::QuantParams{{0.1f}, {3}, -1};
  ir::TensorId y = b.Op(ir::OpType::kSoftmax, "sm", {x}, "y", {1, 2, 3}, {}, ir::DType::kInt8);
  b.graph().tensor(y).quant = ir::QuantParams{{1.0f / 256}, {-128}, -1};
  b.Output(y);
  ir::Graph g = b.Take();
  g.opset = 11;
  SoftmaxFlatten(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "Softmax", "Reshape"}));
  EXPECT_EQ(g.tensor(g.ops[1].inputs[0]).quant, g.tensor(x).quant);
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).quant, g.tensor(y).quant);
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).dtype, ir::DType::kInt8);
}

TEST(SoftmaxFlatten, AxisOutOfRangeNamesTheNode) {
  ir::Graph g = SoftmaxGraph(11, 4);
  try {
    SoftmaxFlatten(g);
    FAIL() << "axis 4 of a rank-4 input was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("'sm'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("axis 4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
