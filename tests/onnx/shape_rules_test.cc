// Spot checks of the shape rules with hand-computed expectations (ONNX operator specs).
#include <gtest/gtest.h>

#include <functional>

#include "loader_test_util.h"

namespace tigris::testing {
namespace {

// x (input_shape) -> Conv with a weight of `weight` and the given attributes -> y.
ir::Shape ConvOut(const Ints& input_shape, const Ints& weight,
                  const std::function<void(NodeRef&)>& attrs) {
  OnnxModelBuilder b("conv", 13);
  std::vector<Dim> dims(input_shape.begin(), input_shape.end());
  b.Input("x", dims);
  b.Initializer("w", weight, Floats(static_cast<size_t>(ir::NumElements(weight)), 0.1f));
  NodeRef node = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  attrs(node);
  b.Output("y");
  return ShapeOf(LoadBuilt(b), "y");
}

ir::Shape PoolOut(const char* op, const Ints& input_shape,
                  const std::function<void(NodeRef&)>& attrs) {
  OnnxModelBuilder b("pool", 13);
  b.Input("x", std::vector<Dim>(input_shape.begin(), input_shape.end()));
  NodeRef node = b.Node(op, {"x"}, {"y"}, "pool");
  attrs(node);
  b.Output("y");
  return ShapeOf(LoadBuilt(b), "y");
}

TEST(ShapeRules, ConvStridePadDilation) {
  // floor((32 + 1 + 1 - 3) / 2) + 1 = 16
  EXPECT_EQ(ConvOut({1, 3, 32, 32}, {8, 3, 3, 3},
                    [](NodeRef& n) {
                      n.Attr("strides", Ints{2, 2}).Attr("pads", Ints{1, 1, 1, 1});
                    }),
            (ir::Shape{1, 8, 16, 16}));
  // dilation 2: effective kernel (3 - 1) * 2 + 1 = 5; 32 - 5 + 1 = 28
  EXPECT_EQ(ConvOut({1, 3, 32, 32}, {8, 3, 3, 3},
                    [](NodeRef& n) {
                      n.Attr("dilations", Ints{2, 2});
                    }),
            (ir::Shape{1, 8, 28, 28}));
  // asymmetric pads (top 0, left 1, bottom 2, right 0): H 10 + 0 + 2 - 3 + 1 = 10,
  // W 10 + 1 + 0 - 3 + 1 = 9
  EXPECT_EQ(ConvOut({1, 3, 10, 10}, {4, 3, 3, 3},
                    [](NodeRef& n) {
                      n.Attr("pads", Ints{0, 1, 2, 0});
                    }),
            (ir::Shape{1, 4, 10, 9}));
  // depthwise: group 3, weight 3x1x3x3
  EXPECT_EQ(ConvOut({1, 3, 8, 8}, {3, 1, 3, 3}, [](NodeRef& n) { n.Attr("group", 3); }),
            (ir::Shape{1, 3, 6, 6}));
  // 1-D conv: 1x4x10, kernel 3, stride 3: floor(7 / 3) + 1 = 3
  EXPECT_EQ(ConvOut({1, 4, 10}, {6, 4, 3}, [](NodeRef& n) { n.Attr("strides", Ints{3}); }),
            (ir::Shape{1, 6, 3}));
}

TEST(ShapeRules, ConvAutoPad) {
  // SAME_UPPER / SAME_LOWER: ceil(33 / 2) = 17 whatever the kernel.
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    EXPECT_EQ(ConvOut({1, 3, 33, 33}, {8, 3, 3, 3},
                      [mode](NodeRef& n) {
                        n.Attr("auto_pad", mode).Attr("strides", Ints{2, 2});
                      }),
              (ir::Shape{1, 8, 17, 17}));
  }
  // VALID: floor((33 - 3) / 2) + 1 = 16
  EXPECT_EQ(ConvOut({1, 3, 33, 33}, {8, 3, 3, 3},
                    [](NodeRef& n) {
                      n.Attr("auto_pad", "VALID").Attr("strides", Ints{2, 2});
                    }),
            (ir::Shape{1, 8, 16, 16}));
}

TEST(ShapeRules, PoolCeilMode) {
  auto k3s2 = [](int64_t ceil_mode) {
    return [ceil_mode](NodeRef& n) {
      n.Attr("kernel_shape", Ints{3, 3}).Attr("strides", Ints{2, 2}).Attr("ceil_mode", ceil_mode);
    };
  };
  // (32 - 3) / 2 = 14.5: floor -> 15 windows, ceil -> 16 (last starts at 30 < 32, kept)
  EXPECT_EQ(PoolOut("MaxPool", {1, 4, 32, 32}, k3s2(0)), (ir::Shape{1, 4, 15, 15}));
  EXPECT_EQ(PoolOut("MaxPool", {1, 4, 32, 32}, k3s2(1)), (ir::Shape{1, 4, 16, 16}));
  EXPECT_EQ(PoolOut("AveragePool", {1, 4, 32, 32}, k3s2(1)), (ir::Shape{1, 4, 16, 16}));
  // in 5, kernel 2, stride 2, pads 1/1, ceil: ceil((7 - 2) / 2) + 1 = 4, but the 4th
  // window would start at 6 >= 5 + 1 (inside the end padding) and is dropped -> 3
  // (PyTorch MaxPool2d(2, 2, padding=1, ceil_mode=True) on 5x5 also gives 3x3).
  EXPECT_EQ(PoolOut("MaxPool", {1, 1, 5, 5},
                    [](NodeRef& n) {
                      n.Attr("kernel_shape", Ints{2, 2})
                          .Attr("strides", Ints{2, 2})
                          .Attr("pads", Ints{1, 1, 1, 1})
                          .Attr("ceil_mode", 1);
                    }),
            (ir::Shape{1, 1, 3, 3}));
  EXPECT_EQ(PoolOut("GlobalAveragePool", {1, 4, 7, 5}, [](NodeRef&) {}), (ir::Shape{1, 4, 1, 1}));
}

TEST(ShapeRules, GemmTransposes) {
  OnnxModelBuilder b("gemm", 13);
  b.Input("a", {2, 4});
  b.Input("at", {4, 2});
  b.Initializer("bt", {3, 4}, Floats(12, 0.0f));  // N x K, for transB
  b.Initializer("c", {3}, Floats(3, 0.0f));
  b.Node("Gemm", {"a", "bt", "c"}, {"y1"}, "g1").Attr("transB", 1);
  b.Node("Gemm", {"at", "bt", "c"}, {"y2"}, "g2").Attr("transA", 1).Attr("transB", 1);
  b.Output("y1");
  b.Output("y2");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "y1"), (ir::Shape{2, 3}));  // (2x4) x (4x3)
  EXPECT_EQ(ShapeOf(g, "y2"), (ir::Shape{2, 3}));  // (4x2)^T x (3x4)^T
}

TEST(ShapeRules, GemmInnerMismatchNamesNode) {
  OnnxModelBuilder b("gemm", 13);
  b.Input("a", {2, 4});
  b.Initializer("b", {3, 4}, Floats(12, 0.0f));  // K = 3 without transB: 4 != 3
  b.Node("Gemm", {"a", "b"}, {"y"}, "gemm");
  b.Output("y");
  ExpectLoadError([&] { LoadBuilt(b); }, Status::kShapeInference, {"'gemm'", "inner"});
}

TEST(ShapeRules, MatMulBroadcasting) {
  OnnxModelBuilder b("mm", 13);
  b.Input("a", {2, 1, 3, 4});
  b.Input("v", {4});
  b.Initializer("b", {5, 4, 6}, Floats(120, 0.0f));
  b.Node("MatMul", {"a", "b"}, {"y"}, "mm");  // batch (2,1) x (5) -> (2,5); 3x4 * 4x6
  b.Node("MatMul", {"v", "b"}, {"z"}, "mv");  // [4] promoted to 1x4, then the 1 is dropped
  b.Output("y");
  b.Output("z");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{2, 5, 3, 6}));
  EXPECT_EQ(ShapeOf(g, "z"), (ir::Shape{5, 6}));
}

TEST(ShapeRules, ElementwiseBroadcasting) {
  OnnxModelBuilder b("bc", 13);
  b.Input("x", {1, 8, 4, 4});
  b.Initializer("bias", {8, 1, 1}, Floats(8, 0.0f));
  b.Initializer("row", {4}, Floats(4, 0.0f));
  b.Node("Add", {"x", "bias"}, {"y"}, "add");
  b.Node("Mul", {"row", "y"}, {"z"}, "mul");
  b.Output("z");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 8, 4, 4}));
  EXPECT_EQ(ShapeOf(g, "z"), (ir::Shape{1, 8, 4, 4}));

  OnnxModelBuilder bad("bc", 13);
  bad.Input("x", {1, 8, 4, 4});
  bad.Initializer("odd", {3}, Floats(3, 0.0f));
  bad.Node("Add", {"x", "odd"}, {"y"}, "add");
  bad.Output("y");
  ExpectLoadError([&] { LoadBuilt(bad); }, Status::kShapeInference, {"'add'", "broadcast"});
}

TEST(ShapeRules, ReshapeZeroAndMinusOne) {
  OnnxModelBuilder b("rs", 14);
  b.Input("x", {2, 3, 4, 5});
  b.Initializer("t1", {2}, Ints{0, -1});     // 2 x (120 / 2)
  b.Initializer("t2", {3}, Ints{0, 0, -1});  // 2 x 3 x 20
  b.Initializer("t3", {3}, Ints{-1, 5, 4});  // 6 x 5 x 4
  b.Node("Reshape", {"x", "t1"}, {"y1"}, "r1");
  b.Node("Reshape", {"x", "t2"}, {"y2"}, "r2");
  b.Node("Reshape", {"x", "t3"}, {"y3"}, "r3");
  b.Output("y1");
  b.Output("y2");
  b.Output("y3");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "y1"), (ir::Shape{2, 60}));
  EXPECT_EQ(ShapeOf(g, "y2"), (ir::Shape{2, 3, 20}));
  EXPECT_EQ(ShapeOf(g, "y3"), (ir::Shape{6, 5, 4}));

  OnnxModelBuilder bad("rs", 14);
  bad.Input("x", {2, 3});
  bad.Initializer("t", {2}, Ints{4, -1});  // 6 elements do not divide by 4
  bad.Node("Reshape", {"x", "t"}, {"y"}, "reshape");
  bad.Output("y");
  ExpectLoadError([&] { LoadBuilt(bad); }, Status::kShapeInference, {"'reshape'"});
}

TEST(ShapeRules, ShapeChainReshapeResolves) {
  // The torch Flatten idiom: n = Shape(x)[0]; Reshape(x, Concat(Unsqueeze(n, 0), [-1])).
  // x is 1x8x4x4, so the target is [1, -1] and the output 1x128.
  OnnxModelBuilder b("chain", 13);
  b.Input("x", {1, 8, 4, 4});
  b.Initializer("zero", {}, Ints{0});
  b.Initializer("axes0", {1}, Ints{0});
  b.Initializer("minus1", {1}, Ints{-1});
  b.Node("Shape", {"x"}, {"shape"}, "shape");
  b.Node("Gather", {"shape", "zero"}, {"n"}, "gather").Attr("axis", 0);
  b.Node("Unsqueeze", {"n", "axes0"}, {"n1"}, "unsqueeze");
  b.Node("Concat", {"n1", "minus1"}, {"target"}, "concat").Attr("axis", 0);
  b.Node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "shape"), (ir::Shape{4}));
  EXPECT_EQ(ShapeOf(g, "n"), ir::Shape{});
  EXPECT_EQ(ShapeOf(g, "target"), (ir::Shape{2}));
  EXPECT_EQ(TensorNamed(g, "target").dtype, ir::DType::kInt64);
  EXPECT_EQ(ShapeOf(g, "y"), (ir::Shape{1, 128}));
}

TEST(ShapeRules, ShapeArithmeticChain) {
  // Reshape to [H * W, C] computed as Mul(Gather(shape, 2), Gather(shape, 3)) and a
  // Slice of the shape: x 1x3x4x5 -> target [20, 3] -> 20x3.
  OnnxModelBuilder b("arith", 13);
  b.Input("x", {1, 3, 4, 5});
  b.Initializer("i2", {1}, Ints{2});
  b.Initializer("i3", {1}, Ints{3});
  b.Initializer("s1", {1}, Ints{1});
  b.Initializer("e2", {1}, Ints{2});
  b.Node("Shape", {"x"}, {"shape"}, "shape");
  b.Node("Gather", {"shape", "i2"}, {"h"}, "gh");
  b.Node("Gather", {"shape", "i3"}, {"w"}, "gw");
  b.Node("Mul", {"h", "w"}, {"hw"}, "mul");
  b.Node("Slice", {"shape", "s1", "e2"}, {"c"}, "slice");
  b.Node("Concat", {"hw", "c"}, {"target"}, "concat").Attr("axis", 0);
  b.Node("Reshape", {"x", "target"}, {"y"}, "reshape");
  b.Output("y");
  EXPECT_EQ(ShapeOf(LoadBuilt(b), "y"), (ir::Shape{20, 3}));
}

TEST(ShapeRules, FlattenTransposeConcat) {
  OnnxModelBuilder b("misc", 11);
  b.Input("x", {2, 3, 4, 5});
  b.Node("Flatten", {"x"}, {"f"}, "flatten").Attr("axis", 2);  // 6 x 20
  b.Node("Transpose", {"x"}, {"t"}, "transpose").Attr("perm", Ints{0, 2, 3, 1});
  b.Node("Transpose", {"x"}, {"r"}, "reverse");                    // default: reversed
  b.Node("Concat", {"x", "x"}, {"c"}, "concat").Attr("axis", -3);  // axis 1: 2x6x4x5
  b.Output("f");
  b.Output("t");
  b.Output("r");
  b.Output("c");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(ShapeOf(g, "f"), (ir::Shape{6, 20}));
  EXPECT_EQ(ShapeOf(g, "t"), (ir::Shape{2, 4, 5, 3}));
  EXPECT_EQ(ShapeOf(g, "r"), (ir::Shape{5, 4, 3, 2}));
  EXPECT_EQ(ShapeOf(g, "c"), (ir::Shape{2, 6, 4, 5}));
}

TEST(ShapeRules, QuantizeDequantizeDTypes) {
  OnnxModelBuilder b("qdq", 13);
  b.Input("x", {1, 4});
  b.Initializer("scale", {}, Floats{0.1f});
  onnx::TensorProto zp;
  zp.set_name("zp_s8");
  zp.set_data_type(onnx::TensorProto::INT8);
  zp.set_raw_data(std::string(1, '\0'));
  b.Initializer(zp);
  b.Node("QuantizeLinear", {"x", "scale", "zp_s8"}, {"q8"}, "q_s8");
  b.Node("QuantizeLinear", {"x", "scale"}, {"qu8"}, "q_default");
  b.Node("DequantizeLinear", {"q8", "scale", "zp_s8"}, {"dq"}, "dq");
  b.Output("dq");
  b.Output("qu8");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(TensorNamed(g, "q8").dtype, ir::DType::kInt8);    // from the zero point
  EXPECT_EQ(TensorNamed(g, "qu8").dtype, ir::DType::kUInt8);  // default without one
  EXPECT_EQ(TensorNamed(g, "dq").dtype, ir::DType::kFloat32);
  EXPECT_EQ(ShapeOf(g, "dq"), (ir::Shape{1, 4}));
}

TEST(ShapeRules, ConvTransposeOutput) {
  // stride 2, kernel 3, pads 1/1, output_padding 1: 2 * (4 - 1) + 1 + 3 - 2 = 8
  OnnxModelBuilder b("ct", 13);
  b.Input("x", {1, 4, 4, 4});
  b.Initializer("w", {4, 2, 3, 3}, Floats(72, 0.0f));
  b.Node("ConvTranspose", {"x", "w"}, {"y"}, "deconv")
      .Attr("strides", Ints{2, 2})
      .Attr("pads", Ints{1, 1, 1, 1})
      .Attr("output_padding", Ints{1, 1});
  b.Output("y");
  EXPECT_EQ(ShapeOf(LoadBuilt(b), "y"), (ir::Shape{1, 2, 8, 8}));
}

}  // namespace
}  // namespace tigris::testing
