// The cross-checks around our shape rules (shape_resolve.h): libonnx's inference runs on
// the pinned model, a disagreement names the tensor and both shapes, and the documented
// exemptions hold.
#include <gtest/gtest.h>

#include "loader_test_util.h"
#include "onnx/graph_import.h"
#include "onnx/shape_resolve.h"
#include "onnx/topo_order.h"

namespace tigris::testing {
namespace {

using onnx_import::ShapeHints;

// x (batch x 3 x 32 x 32) -> Conv 3x3 stride 2 pad 1 (8 ch) -> y: 16x16 spatially.
OnnxModelBuilder ConvModel(int64_t opset) {
  OnnxModelBuilder b("conv", opset);
  b.Input("x", {"batch", 3, 32, 32});
  b.Initializer("w", {8, 3, 3, 3}, Floats(216, 0.0f));
  b.Node("Conv", {"x", "w"}, {"y"}, "conv")
      .Attr("strides", Ints{2, 2})
      .Attr("pads", Ints{1, 1, 1, 1});
  b.Node("Relu", {"y"}, {"z"}, "relu");
  b.Output("z");
  return b;
}

ir::Graph Unresolved(const OnnxModelBuilder& b) {
  onnx_import::ImportedGraph imported =
      onnx_import::ImportGraph(const_cast<OnnxModelBuilder&>(b).model(), "m", {}, {});
  onnx_import::SortOpsDfsReversedChildren(imported.graph);
  return std::move(imported.graph);
}

TEST(ShapeResolve, LibOnnxSeesPinnedInputs) {
  OnnxModelBuilder b = ConvModel(13);
  ir::Graph g = LoadBuilt(b);  // batch pinned to 1
  ShapeHints hints = onnx_import::InferWithLibOnnx(b.model(), g);
  ASSERT_TRUE(hints.shapes.count("y"));
  EXPECT_EQ(hints.shapes.at("y"), (std::vector<int64_t>{1, 8, 16, 16}));
  EXPECT_EQ(hints.shapes.at("z"), (std::vector<int64_t>{1, 8, 16, 16}));
}

TEST(ShapeResolve, LibOnnxSkippedForOpsetsItDoesNotKnow) {
  // libonnx 1.12 knows opsets up to 17; its older schemas would misread opset-18 forms.
  OnnxModelBuilder b = ConvModel(18);
  ir::Graph g = LoadBuilt(b);
  EXPECT_TRUE(onnx_import::InferWithLibOnnx(b.model(), g).shapes.empty());
  EXPECT_EQ(ShapeOf(g, "z"), (ir::Shape{1, 8, 16, 16}));
}

TEST(ShapeResolve, DisagreementNamesTensorAndBothShapes) {
  ir::Graph g = Unresolved(ConvModel(13));
  ShapeHints fake;
  fake.source = "ONNX shape inference";
  fake.shapes["y"] = {1, 8, 15, -1};  // -1: unknown, not compared
  ExpectLoadError([&] { onnx_import::ResolveShapes(g, {&fake}); }, Status::kShapeInference,
                  {"'y'", "'conv'", "1x8x16x16", "1x8x15x?", "ONNX shape inference"});
}

TEST(ShapeResolve, UnknownDimsAndAgreeingShapesPass) {
  ir::Graph g = Unresolved(ConvModel(13));
  ShapeHints partial;
  partial.source = "the model's declared shape";
  partial.shapes["y"] = {-1, 8, 16, 16};
  partial.shapes["z"] = {1, 8, 16, 16};
  onnx_import::ResolveShapes(g, {&partial});
  EXPECT_EQ(ShapeOf(g, "z"), (ir::Shape{1, 8, 16, 16}));
}

TEST(ShapeResolve, PoolWithCeilModeIsNotCheckedAgainstLibOnnx) {
  // ceil-mode pools follow the newer ONNX rule (shape_rules_conv.cc); a libonnx answer that
  // differs is expected there, while the model's own declarations still count.
  OnnxModelBuilder b("pool", 13);
  b.Input("x", {1, 1, 5, 5});
  b.Node("MaxPool", {"x"}, {"y"}, "pool")
      .Attr("kernel_shape", Ints{2, 2})
      .Attr("strides", Ints{2, 2})
      .Attr("pads", Ints{1, 1, 1, 1})
      .Attr("ceil_mode", 1);
  b.Output("y");
  ir::Graph g = Unresolved(b);
  ShapeHints libonnx;
  libonnx.source = "ONNX shape inference";
  libonnx.shapes["y"] = {1, 1, 4, 4};  // what the pre-1.16 formula gives
  onnx_import::ResolveShapes(g, {&libonnx});
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 1, 3, 3}));

  ir::Graph g2 = Unresolved(b);
  ShapeHints declared;
  declared.source = "the model's declared shape";
  declared.shapes["y"] = {1, 1, 4, 4};
  ExpectLoadError([&] { onnx_import::ResolveShapes(g2, {&declared}); }, Status::kShapeInference,
                  {"'y'", "1x1x3x3", "1x1x4x4"});
}

}  // namespace
}  // namespace tigris::testing
