// Reference pass 10: Resize scale operands become attributes
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

std::string ErrorOf(ir::Graph& g, Status* status) {
  try {
    passes::ResizeScaleExtract(g);
  } catch (const Error& e) {
    *status = e.status();
    return e.what();
  }
  return "";
}

TEST(ResizeScaleExtract, SizesGiveScalesAndIntegerFactors) {
  // Opset 13 form (X, roi, scales, sizes) with empty roi and scales: sizes [1,3,64,64] over
  // a 1x3x32x32 input gives scales [1/1, 3/3, 64/32, 64/32] = [1,1,2,2], and the integral
  // H and W factors 2 and 2. ONNX defaults fill the unset modes.
  GraphBuilder b;
  b.graph().opset = 13;
  ir::TensorId x = b.Input("x", {1, 3, 32, 32});
  ir::TensorId roi = b.Floats("roi", {0}, {});
  ir::TensorId scales = b.Floats("scales", {0}, {});
  ir::TensorId sizes = b.Int64s("sizes", {4}, {1, 3, 64, 64});
  b.Output(b.Op(OpType::kResize, "resize", {x, roi, scales, sizes}, "y", {1, 3, 64, 64}));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Resize"});
  const ir::Op& op = g.ops[0];
  EXPECT_EQ(op.inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(op.attrs.GetFloats("scales"), (std::vector<float>{1, 1, 2, 2}));
  EXPECT_EQ(op.attrs.GetInt("scale_h"), 2);
  EXPECT_EQ(op.attrs.GetInt("scale_w"), 2);
  EXPECT_EQ(op.attrs.GetString("mode"), "nearest");
  EXPECT_EQ(op.attrs.GetString("coordinate_transformation_mode"), "half_pixel");
  EXPECT_EQ(op.attrs.GetString("nearest_mode"), "round_prefer_floor");
}

TEST(ResizeScaleExtract, FractionalScalesKeepModesAndHaveNoIntegerFactors) {
  // Opset 11 scales [1,1,1.5,1.5]: 1.5 is not an integer factor, so no scale_h/scale_w;
  // the explicit linear/align_corners attributes are kept.
  GraphBuilder b;
  b.graph().opset = 11;
  ir::TensorId x = b.Input("x", {1, 3, 8, 8});
  ir::TensorId roi = b.Floats("roi", {0}, {});
  ir::TensorId scales = b.Floats("scales", {4}, {1, 1, 1.5f, 1.5f});
  b.Output(b.Op(OpType::kResize, "resize", {x, roi, scales}, "y", {1, 3, 12, 12},
                Attrs({{"mode", std::string("linear")},
                       {"coordinate_transformation_mode", std::string("align_corners")}})));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  const ir::Op& op = g.ops[0];
  EXPECT_EQ(op.inputs.size(), 1u);
  EXPECT_EQ(op.attrs.GetFloats("scales"), (std::vector<float>{1, 1, 1.5f, 1.5f}));
  EXPECT_FALSE(op.attrs.Has("scale_h"));
  EXPECT_FALSE(op.attrs.Has("scale_w"));
  EXPECT_EQ(op.attrs.GetString("mode"), "linear");
  EXPECT_EQ(op.attrs.GetString("coordinate_transformation_mode"), "align_corners");
}

TEST(ResizeScaleExtract, HugeIntegralScalesAreNoIntegerFactors) {
  // 1e31 is integral but no int32 (nor int64) factor; over an empty H it is a valid model.
  GraphBuilder b;
  b.graph().opset = 11;
  ir::TensorId x = b.Input("x", {1, 3, 0, 8});
  ir::TensorId roi = b.Floats("roi", {0}, {});
  ir::TensorId scales = b.Floats("scales", {4}, {1, 1, 1e31f, 2});
  b.Output(b.Op(OpType::kResize, "resize", {x, roi, scales}, "y", {1, 3, 0, 16}));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  EXPECT_FALSE(g.ops[0].attrs.Has("scale_h"));
  EXPECT_FALSE(g.ops[0].attrs.Has("scale_w"));
}

TEST(ResizeScaleExtract, Opset10ResizeIsAsymmetricWithFloorWhenUpsampling) {
  // Raw Resize-10 form (X, scales), as a graph built without the loader has it. Resize-10
  // has no coordinate attributes; onnxruntime runs it with asymmetric
  // coordinates and floor rounding when upsampling: [0..4] x1.5 -> [0,0,1,2,2,3,4].
  GraphBuilder b;
  b.graph().opset = 10;
  ir::TensorId x = b.Input("x", {1, 2, 5, 5});
  ir::TensorId scales = b.Floats("scales", {4}, {1, 1, 2, 3});
  b.Output(b.Op(OpType::kResize, "resize", {x, scales}, "y", {1, 2, 10, 15}));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  const ir::Op& op = g.ops[0];
  EXPECT_EQ(op.inputs.size(), 1u);
  EXPECT_EQ(op.attrs.GetFloats("scales"), (std::vector<float>{1, 1, 2, 3}));
  EXPECT_EQ(op.attrs.GetInt("scale_h"), 2);
  EXPECT_EQ(op.attrs.GetInt("scale_w"), 3);
  EXPECT_EQ(op.attrs.GetString("coordinate_transformation_mode"), "asymmetric");
  EXPECT_EQ(op.attrs.GetString("nearest_mode"), "floor");
}

TEST(ResizeScaleExtract, Opset10DownsamplingRoundsUp) {
  // onnxruntime, Resize-10 nearest, [0..4] x0.6 -> [0,2,4]: source x = out / 0.6 =
  // 0, 1.67, 3.33 rounded up. A 0.5 factor is not an integer upscale: no scale_h.
  // The operands are in the loader's canonical positions (X, absent roi, scales).
  GraphBuilder b;
  b.graph().opset = 10;
  ir::TensorId x = b.Input("x", {1, 2, 8, 8});
  ir::TensorId scales = b.Floats("scales", {4}, {1, 1, 0.5f, 0.5f});
  b.Output(b.Op(OpType::kResize, "resize", {x, ir::kNoTensor, scales}, "y", {1, 2, 4, 4}));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.ops[0].attrs.GetFloats("scales"), (std::vector<float>{1, 1, 0.5f, 0.5f}));
  EXPECT_EQ(g.ops[0].attrs.GetString("coordinate_transformation_mode"), "asymmetric");
  EXPECT_EQ(g.ops[0].attrs.GetString("nearest_mode"), "ceil");
  EXPECT_FALSE(g.ops[0].attrs.Has("scale_h"));
}

TEST(ResizeScaleExtract, UpsampleWithAttributeOrInputBecomesResize) {
  // Upsample-7 carries scales as an attribute, Upsample-9 as input 1; both become Resize.
  GraphBuilder b;
  b.graph().opset = 9;
  ir::TensorId x = b.Input("x", {1, 4, 6, 6});
  ir::TensorId a =
      b.Op(OpType::kUpsample, "up7", {x}, "a", {1, 4, 12, 18},
           Attrs({{"scales", std::vector<float>{1, 1, 2, 3}}, {"mode", std::string("nearest")}}));
  ir::TensorId s = b.Floats("s", {4}, {1, 1, 2, 2});
  b.Output(b.Op(OpType::kUpsample, "up9", {a, s}, "y", {1, 4, 24, 36},
                Attrs({{"mode", std::string("linear")}})));
  ir::Graph g = b.Take();

  passes::ResizeScaleExtract(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Resize", "Resize"}));
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.ops[0].attrs.GetInt("scale_h"), 2);
  EXPECT_EQ(g.ops[0].attrs.GetInt("scale_w"), 3);
  EXPECT_EQ(g.ops[0].attrs.GetString("coordinate_transformation_mode"), "asymmetric");
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{a});
  EXPECT_EQ(g.ops[1].attrs.GetFloats("scales"), (std::vector<float>{1, 1, 2, 2}));
  EXPECT_EQ(g.ops[1].attrs.GetString("mode"), "linear");
}

TEST(ResizeScaleExtract, ComputedScalesAreUnsupportedAndNameTheNode) {
  GraphBuilder b;
  b.graph().opset = 13;
  ir::TensorId x = b.Input("x", {1, 3, 8, 8});
  ir::TensorId scales = b.Input("runtime_scales", {4});
  b.Output(b.Op(OpType::kResize, "dyn_resize", {x, ir::kNoTensor, scales}, "y", {1, 3, 16, 16}));
  ir::Graph g = b.Take();
  Status status = Status::kOk;
  const std::string message = ErrorOf(g, &status);
  EXPECT_EQ(status, Status::kUnsupportedOp);
  EXPECT_NE(message.find("dyn_resize"), std::string::npos) << message;
}

TEST(ResizeScaleExtract, CubicModeIsUnsupported) {
  GraphBuilder b;
  b.graph().opset = 13;
  ir::TensorId x = b.Input("x", {1, 3, 8, 8});
  ir::TensorId scales = b.Floats("scales", {4}, {1, 1, 2, 2});
  b.Output(b.Op(OpType::kResize, "cubic_resize", {x, ir::kNoTensor, scales}, "y", {1, 3, 16, 16},
                Attrs({{"mode", std::string("cubic")}})));
  ir::Graph g = b.Take();
  Status status = Status::kOk;
  const std::string message = ErrorOf(g, &status);
  EXPECT_EQ(status, Status::kUnsupportedOp);
  EXPECT_NE(message.find("cubic_resize"), std::string::npos) << message;
}

}  // namespace
}  // namespace tigris
