// Opset-dependent operator forms load into the newest ONNX form (opset_canonicalize.h),
// Constant nodes keep their documented representation (onnx_loader.h), and the graph's
// name, opset, inputs and node names follow the loader's contract.
#include <gtest/gtest.h>

#include "loader_test_util.h"

namespace tigris::testing {
namespace {

std::vector<double> ConstValues(const ir::Graph& g, ir::TensorId id) {
  EXPECT_NE(id, ir::kNoTensor);
  if (id == ir::kNoTensor) return {};
  EXPECT_TRUE(g.tensor(id).is_constant) << g.tensor(id).name;
  return ir::ConstantAsDoubles(g.tensor(id));
}

ir::Graph ClipModel(int64_t opset) {
  OnnxModelBuilder b("clip", opset);
  b.Input("x", {1, 4});
  if (opset < 11) {
    b.Node("Clip", {"x"}, {"y"}, "clip").Attr("min", 0.0f).Attr("max", 6.0f);
  } else {
    b.Initializer("lo", {}, Floats{0.0f});
    b.Initializer("hi", {}, Floats{6.0f});
    b.Node("Clip", {"x", "lo", "hi"}, {"y"}, "clip");
  }
  b.Output("y");
  return LoadBuilt(b);
}

TEST(OpsetForms, ClipAttributesBecomeInputs) {
  for (int64_t opset : {6, 13}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    ir::Graph g = ClipModel(opset);
    const ir::Op& clip = OpNamed(g, "clip");
    ASSERT_EQ(clip.inputs.size(), 3u);
    EXPECT_EQ(ConstValues(g, clip.inputs[1]), (std::vector<double>{0.0}));
    EXPECT_EQ(ConstValues(g, clip.inputs[2]), (std::vector<double>{6.0}));
    EXPECT_EQ(g.tensor(clip.inputs[1]).shape, ir::Shape{});  // scalar, as Clip-11 wants
    EXPECT_FALSE(clip.attrs.Has("min"));
    EXPECT_FALSE(clip.attrs.Has("max"));
    EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 4}));
  }
}

TEST(OpsetForms, ClipWithOnlyMaxLeavesMinAbsent) {
  OnnxModelBuilder b("clip", 6);
  b.Input("x", {1, 4});
  b.Node("Clip", {"x"}, {"y"}, "clip").Attr("max", 6.0f);
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  const ir::Op& clip = OpNamed(g, "clip");
  ASSERT_EQ(clip.inputs.size(), 3u);
  EXPECT_EQ(clip.inputs[1], ir::kNoTensor);
  EXPECT_EQ(ConstValues(g, clip.inputs[2]), (std::vector<double>{6.0}));
}

TEST(OpsetForms, PadAttributesBecomeInputs) {
  // 1x3x4x4 padded by begin (H, W) = (1, 1) and end = (2, 2): 1x3x7x7.
  const Ints pads = {0, 0, 1, 1, 0, 0, 2, 2};
  for (int64_t opset : {2, 13}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    OnnxModelBuilder b("pad", opset);
    b.Input("x", {1, 3, 4, 4});
    if (opset < 11) {
      b.Node("Pad", {"x"}, {"y"}, "pad").Attr("pads", pads).Attr("value", 0.5f);
    } else {
      b.Initializer("p", {8}, pads);
      b.Initializer("v", {}, Floats{0.5f});
      b.Node("Pad", {"x", "p", "v"}, {"y"}, "pad");
    }
    b.Output("y");
    ir::Graph g = LoadBuilt(b);
    const ir::Op& pad = OpNamed(g, "pad");
    ASSERT_EQ(pad.inputs.size(), 3u);
    EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(pad.inputs[1])), pads);
    EXPECT_EQ(ConstValues(g, pad.inputs[2]), (std::vector<double>{0.5}));
    EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 3, 7, 7}));
  }
}

TEST(OpsetForms, SqueezeAndUnsqueezeAxesBecomeInput) {
  // Squeeze axes (2, 3) of 1x8x1x1 -> 1x8; Unsqueeze axes (0, -1) of that -> 1x1x8x1
  // (axes count in the output rank 4: -1 is axis 3).
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    OnnxModelBuilder b("sq", opset);
    b.Input("x", {1, 8, 1, 1});
    if (opset < 13) {
      b.Node("Squeeze", {"x"}, {"s"}, "squeeze").Attr("axes", Ints{2, 3});
      b.Node("Unsqueeze", {"s"}, {"u"}, "unsqueeze").Attr("axes", Ints{0, -1});
    } else {
      b.Initializer("sq_axes", {2}, Ints{2, 3});
      b.Initializer("unsq_axes", {2}, Ints{0, -1});
      b.Node("Squeeze", {"x", "sq_axes"}, {"s"}, "squeeze");
      b.Node("Unsqueeze", {"s", "unsq_axes"}, {"u"}, "unsqueeze");
    }
    b.Output("u");
    ir::Graph g = LoadBuilt(b);
    EXPECT_EQ(ShapeOf(g, "s"), (ir::Shape{1, 8}));
    EXPECT_EQ(ShapeOf(g, "u"), (ir::Shape{1, 1, 8, 1}));
    const ir::Op& sq = OpNamed(g, "squeeze");
    ASSERT_EQ(sq.inputs.size(), 2u);
    EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(sq.inputs[1])), (std::vector<int64_t>{2, 3}));
    EXPECT_FALSE(sq.attrs.Has("axes"));
    const ir::Op& unsq = OpNamed(g, "unsqueeze");
    ASSERT_EQ(unsq.inputs.size(), 2u);
    EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(unsq.inputs[1])), (std::vector<int64_t>{0, -1}));
  }
}

TEST(OpsetForms, ReduceMeanAxesAttributeAt13InputAt18) {
  // Mean over H, W of 1x8x4x4: keepdims=1 -> 1x8x1x1, keepdims=0 -> 1x8. Opset 18 is newer
  // than the linked libonnx, so this also shows such models load through our own rules.
  for (int64_t opset : {13, 18}) {
    for (int64_t keepdims : {0, 1}) {
      SCOPED_TRACE("opset " + std::to_string(opset) + " keepdims " + std::to_string(keepdims));
      OnnxModelBuilder b("rm", opset);
      b.Input("x", {1, 8, 4, 4});
      if (opset < 18) {
        b.Node("ReduceMean", {"x"}, {"y"}, "mean")
            .Attr("axes", Ints{2, 3})
            .Attr("keepdims", keepdims);
      } else {
        b.Initializer("axes", {2}, Ints{2, 3});
        b.Node("ReduceMean", {"x", "axes"}, {"y"}, "mean").Attr("keepdims", keepdims);
      }
      b.Output("y");
      ir::Graph g = LoadBuilt(b);
      EXPECT_EQ(ShapeOf(g, "y"), keepdims ? (ir::Shape{1, 8, 1, 1}) : (ir::Shape{1, 8}));
      const ir::Op& mean = OpNamed(g, "mean");
      ASSERT_EQ(mean.inputs.size(), 2u);
      EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(mean.inputs[1])), (std::vector<int64_t>{2, 3}));
      EXPECT_EQ(g.opset, opset);
    }
  }
}

TEST(OpsetForms, ArgMaxAxisBecomesTheReduceAxesInputAndItsOutputIsInt64) {
  // ArgMax over C of 1x8x4x4 (axis 1): keepdims=1 -> 1x1x4x4, keepdims=0 -> 1x4x4; ArgMin's
  // default axis is 0.
  for (int64_t keepdims : {0, 1}) {
    SCOPED_TRACE("keepdims " + std::to_string(keepdims));
    OnnxModelBuilder b("arg", 13);
    b.Input("x", {1, 8, 4, 4});
    b.Node("ArgMax", {"x"}, {"y"}, "argmax").Attr("axis", int64_t{1}).Attr("keepdims", keepdims);
    b.Node("ArgMin", {"x"}, {"z"}, "argmin");
    b.Output("y");
    b.Output("z");
    ir::Graph g = LoadBuilt(b);
    EXPECT_EQ(ShapeOf(g, "y"), keepdims ? (ir::Shape{1, 1, 4, 4}) : (ir::Shape{1, 4, 4}));
    EXPECT_EQ(ShapeOf(g, "z"), (ir::Shape{1, 8, 4, 4}));
    const ir::Op& argmax = OpNamed(g, "argmax");
    ASSERT_EQ(argmax.inputs.size(), 2u);
    EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(argmax.inputs[1])), (std::vector<int64_t>{1}));
    EXPECT_FALSE(argmax.attrs.Has("axis"));
    EXPECT_EQ(g.tensor(argmax.outputs[0]).dtype, ir::DType::kInt64);
    const ir::Op& argmin = OpNamed(g, "argmin");
    EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(argmin.inputs[1])), (std::vector<int64_t>{0}));
  }
}

TEST(OpsetForms, ResizeWithScalesAndWithSizes) {
  OnnxModelBuilder b("resize", 13);
  b.Input("x", {1, 3, 5, 5});
  b.Initializer("roi", {0}, Floats{});
  b.Initializer("scales2", {4}, Floats{1.0f, 1.0f, 2.0f, 2.0f});
  b.Initializer("scales15", {4}, Floats{1.0f, 1.0f, 1.5f, 1.5f});
  b.Initializer("sizes", {4}, Ints{1, 3, 7, 9});
  b.Node("Resize", {"x", "roi", "scales2"}, {"by2"}, "r2").Attr("mode", "nearest");
  b.Node("Resize", {"x", "roi", "scales15"}, {"by15"}, "r15");
  b.Node("Resize", {"x", "roi", "", "sizes"}, {"sized"}, "rs");
  b.Output("by2");
  b.Output("by15");
  b.Output("sized");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "by2"), (ir::Shape{1, 3, 10, 10}));
  EXPECT_EQ(ShapeOf(g, "by15"), (ir::Shape{1, 3, 7, 7}));  // floor(5 * 1.5) = 7
  EXPECT_EQ(ShapeOf(g, "sized"), (ir::Shape{1, 3, 7, 9}));
}

TEST(OpsetForms, Resize10ScalesMoveToInput2) {
  OnnxModelBuilder b("resize10", 10);
  b.Input("x", {1, 3, 5, 5});
  b.Initializer("scales", {4}, Floats{1.0f, 1.0f, 2.0f, 2.0f});
  b.Node("Resize", {"x", "scales"}, {"y"}, "resize");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  const ir::Op& r = OpNamed(g, "resize");
  ASSERT_EQ(r.inputs.size(), 3u);
  EXPECT_EQ(r.inputs[1], ir::kNoTensor);  // roi
  EXPECT_EQ(g.tensor(r.inputs[2]).name, "scales");
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 3, 10, 10}));
}

TEST(OpsetForms, UpsampleKeepsItsType) {
  OnnxModelBuilder b("up", 9);
  b.Input("x", {1, 2, 3, 3});
  b.Initializer("scales", {4}, Floats{1.0f, 1.0f, 2.0f, 3.0f});
  b.Node("Upsample", {"x", "scales"}, {"y"}, "up");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(OpNamed(g, "up").type, ir::OpType::kUpsample);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 2, 6, 9}));
}

TEST(OpsetForms, SliceAttributesBecomeInputs) {
  // Rows [1, 3) of a 6x4: 2x4.
  for (int64_t opset : {9, 13}) {
    SCOPED_TRACE("opset " + std::to_string(opset));
    OnnxModelBuilder b("slice", opset);
    b.Input("x", {6, 4});
    if (opset < 10) {
      b.Node("Slice", {"x"}, {"y"}, "slice")
          .Attr("starts", Ints{1})
          .Attr("ends", Ints{3})
          .Attr("axes", Ints{0});
    } else {
      b.Initializer("starts", {1}, Ints{1});
      b.Initializer("ends", {1}, Ints{3});
      b.Initializer("axes", {1}, Ints{0});
      b.Node("Slice", {"x", "starts", "ends", "axes"}, {"y"}, "slice");
    }
    b.Output("y");
    ir::Graph g = LoadBuilt(b);
    EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{2, 4}));
    EXPECT_EQ(OpNamed(g, "slice").inputs.size(), 4u);
  }
}

TEST(OpsetForms, ReshapeShapeAttributeBecomesInput) {
  OnnxModelBuilder b("reshape4", 4);
  b.Input("x", {2, 6});
  b.Node("Reshape", {"x"}, {"y"}, "reshape").Attr("shape", Ints{3, -1});
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{3, 4}));
  EXPECT_EQ(OpNamed(g, "reshape").inputs.size(), 2u);
}

TEST(OpsetForms, SplitAttributeAt11InputAt13) {
  // x[1,6] split along axis 1 into 2 + 4 columns, written both ways.
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE(opset);
    OnnxModelBuilder b("split", opset);
    b.Input("x", {1, 6});
    if (opset < 13) {
      b.Node("Split", {"x"}, {"a", "c"}, "split").Attr("axis", 1).Attr("split", Ints{2, 4});
    } else {
      b.Initializer("sizes", Ints{2}, Ints{2, 4});
      b.Node("Split", {"x", "sizes"}, {"a", "c"}, "split").Attr("axis", 1);
    }
    b.Output("a");
    b.Output("c");
    ir::Graph g = LoadBuilt(b);
    EXPECT_EQ(ShapeOf(g, "a"), (ir::Shape{1, 2}));
    EXPECT_EQ(ShapeOf(g, "c"), (ir::Shape{1, 4}));
    // Both forms end as (x, sizes) with the sizes a constant input.
    const ir::Op& split = OpNamed(g, "split");
    ASSERT_EQ(split.inputs.size(), 2u);
    EXPECT_TRUE(g.tensor(split.inputs[1]).is_constant);
  }
}

TEST(OpsetForms, SplitWithoutSizesMakesEqualParts) {
  // 7 rows into 3 outputs (opset 18 num_outputs rule): ceil(7/3) = 3, so 3 + 3 + 1.
  OnnxModelBuilder b("split_equal", 18);
  b.Input("x", {7, 2});
  b.Node("Split", {"x"}, {"p", "q", "r"}, "split").Attr("axis", 0).Attr("num_outputs", 3);
  b.Output("p");
  b.Output("q");
  b.Output("r");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "p"), (ir::Shape{3, 2}));
  EXPECT_EQ(ShapeOf(g, "q"), (ir::Shape{3, 2}));
  EXPECT_EQ(ShapeOf(g, "r"), (ir::Shape{1, 2}));
}

TEST(OpsetForms, SplitSizesThatDoNotAddUpAreAShapeError) {
  OnnxModelBuilder b("split_bad", 11);
  b.Input("x", {1, 6});
  b.Node("Split", {"x"}, {"a", "c"}, "split").Attr("axis", 1).Attr("split", Ints{2, 3});
  b.Output("a");
  b.Output("c");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kShapeInference, {"'split'", "5", "6"});
}

TEST(ConstantNodes, ValueIsMaterializedInTheOutputTensor) {
  OnnxModelBuilder b("consts", 13);
  b.Input("x", {2, 3});
  b.Node("Constant", {}, {"c_tensor"}, "c1")
      .Attr("value", FloatTensor("", {3}, Floats{1.0f, 2.0f, 3.0f}));
  b.Node("Constant", {}, {"c_float"}, "c2").Attr("value_float", 2.5f);
  b.Node("Constant", {}, {"c_ints"}, "c3").Attr("value_ints", Ints{3, 2});
  b.Node("Add", {"x", "c_tensor"}, {"s"}, "add");
  b.Node("Mul", {"s", "c_float"}, {"m"}, "mul");
  b.Node("Reshape", {"m", "c_ints"}, {"y"}, "reshape");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);

  const ir::Op& c1 = OpNamed(g, "c1");
  EXPECT_EQ(c1.type, ir::OpType::kConstant);
  EXPECT_TRUE(c1.inputs.empty());
  ASSERT_EQ(c1.outputs.size(), 1u);
  const ir::Tensor& t = g.tensor(c1.outputs[0]);
  EXPECT_FALSE(t.is_constant);  // constant-op-fold flips it
  EXPECT_EQ(t.dtype, ir::DType::kFloat32);
  EXPECT_EQ(t.shape, (ir::Shape{3}));
  EXPECT_EQ(t.DataAs<float>(), (std::vector<float>{1.0f, 2.0f, 3.0f}));

  const ir::Tensor& f = TensorNamed(g, "c_float");
  EXPECT_EQ(f.shape, ir::Shape{});
  EXPECT_EQ(f.DataAs<float>(), (std::vector<float>{2.5f}));
  const ir::Tensor& ints = TensorNamed(g, "c_ints");
  EXPECT_EQ(ints.dtype, ir::DType::kInt64);
  EXPECT_EQ(ints.DataAs<int64_t>(), (std::vector<int64_t>{3, 2}));
  // The Constant's value also drives shape resolution: 2x3 reshaped to 3x2.
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{3, 2}));
}

TEST(ConstantNodes, ConstantOfShapeFillValueBecomesInput1) {
  OnnxModelBuilder b("cos", 13);
  b.Input("x", {2, 3}, onnx::TensorProto::INT64);
  b.Initializer("dims", {2}, Ints{2, 3});
  b.Node("ConstantOfShape", {"dims"}, {"filled"}, "cos")
      .Attr("value", Int64Tensor("", {1}, Ints{7}));
  b.Node("Add", {"x", "filled"}, {"y"}, "add");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  const ir::Op& op = OpNamed(g, "cos");
  ASSERT_EQ(op.inputs.size(), 2u);
  EXPECT_EQ(g.tensor(op.inputs[1]).dtype, ir::DType::kInt64);
  EXPECT_EQ(ir::ConstantAsInt64s(g.tensor(op.inputs[1])), (std::vector<int64_t>{7}));
  EXPECT_EQ(TensorNamed(g, "filled").dtype, ir::DType::kInt64);
  EXPECT_EQ(ShapeOf(g, "filled"), (ir::Shape{2, 3}));
}

TEST(GraphFields, NamesOpsetInputsAndNodeNames) {
  // Graph name empty -> the hint; initializer listed among inputs (IR v3 style) is not an
  // input; empty and repeated node names become "<OpType>_<index>".
  OnnxModelBuilder b("", 9);
  b.Input("x", {1, 4});
  b.Input("w", {1, 4});
  b.Initializer("w", {1, 4}, Floats{1, 2, 3, 4});
  b.Node("Add", {"x", "w"}, {"a"}, "n");
  b.Node("Relu", {"a"}, {"b"}, "");
  b.Node("Relu", {"b"}, {"c"}, "n");
  b.Output("c");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(g.name, "hint");
  EXPECT_EQ(g.opset, 9);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.inputs[0]).name, "x");
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "c");
  std::vector<std::string> names;
  for (const ir::Op& op : g.ops) names.push_back(op.name);
  EXPECT_EQ(names, (std::vector<std::string>{"n", "Relu_1", "Relu_2"}));
}

TEST(GraphFields, InputShapeOverrideAndDimPinning) {
  OnnxModelBuilder b("pin", 13);
  b.Input("x", {"batch", 3, "h", "w"});
  b.Node("Relu", {"x"}, {"y"}, "relu");
  b.Output("y");
  onnx_import::LoadOptions options;
  options.dims = {{"batch", 2}, {"h", 5}};
  options.default_dim = 7;  // used for "w"
  EXPECT_EQ(ShapeOf(LoadBuilt(b, options), "y"), (ir::Shape{2, 3, 5, 7}));
  // The override replaces the whole shape, even with another rank.
  options.input_shapes["x"] = {4, 4};
  EXPECT_EQ(ShapeOf(LoadBuilt(b, options), "y"), (ir::Shape{4, 4}));
}

// An empty axes constant is an absent one (ONNX's default-axes cases): "all axes", or
// "none" with noop_with_empty_axes. No zero-extent tensor reaches the IR.
TEST(OpsetForms, EmptyReduceAxesAreAbsent) {
  for (int64_t noop : {0, 1}) {
    SCOPED_TRACE("noop_with_empty_axes " + std::to_string(noop));
    OnnxModelBuilder b("reduce", 18);
    b.Input("x", {1, 3, 4});
    b.Initializer("axes", {0}, Ints{});
    b.Node("ReduceSum", {"x", "axes"}, {"y"}, "sum").Attr("noop_with_empty_axes", noop);
    b.Output("y");
    ir::Graph g = LoadBuilt(b);
    const ir::Op& sum = OpNamed(g, "sum");
    ASSERT_EQ(sum.inputs.size(), 2u);
    EXPECT_EQ(sum.inputs[1], ir::kNoTensor);
    EXPECT_EQ(ShapeOf(g, "y"), noop ? (ir::Shape{1, 3, 4}) : (ir::Shape{1, 1, 1}));
  }
}

}  // namespace
}  // namespace tigris::testing
