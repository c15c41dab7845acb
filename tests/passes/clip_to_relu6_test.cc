// Reference pass 7 (tigris-compilation-pipeline.txt, stage 2): Clip(0, 6) -> Relu6,
// Clip(0, +inf) -> Relu, other constant bounds -> Clip with "min"/"max" attributes.
#include <gtest/gtest.h>

#include <limits>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

// Clip(x, min, max) in the loader's input form; absent bounds are kNoTensor.
ir::Graph ClipGraph(ir::TensorId (*min)(GraphBuilder&), ir::TensorId (*max)(GraphBuilder&)) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId lo = min ? min(b) : ir::kNoTensor;
  ir::TensorId hi = max ? max(b) : ir::kNoTensor;
  b.Output(b.Op(OpType::kClip, "clip", {x, lo, hi}, "y", {1, 4}));
  return b.Take();
}
ir::TensorId Zero(GraphBuilder& b) { return b.Floats("zero", {}, {0.0f}); }
ir::TensorId Six(GraphBuilder& b) { return b.Floats("six", {}, {6.0f}); }
ir::TensorId SixAndAHalf(GraphBuilder& b) { return b.Floats("six5", {}, {6.5f}); }
ir::TensorId PlusInf(GraphBuilder& b) {
  return b.Floats("inf", {}, {std::numeric_limits<float>::infinity()});
}
ir::TensorId MinusOne(GraphBuilder& b) { return b.Floats("m1", {}, {-1.0f}); }
ir::TensorId SixDouble(GraphBuilder& b) {
  return b.Const("six_f64", {}, DType::kFloat64, std::vector<double>{6.0});
}

TEST(ClipToRelu6, ZeroSixBecomesRelu6WithoutBoundInputs) {
  ir::Graph g = ClipGraph(Zero, Six);
  passes::ClipToRelu6(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu6"});
  EXPECT_EQ(g.ops[0].inputs.size(), 1u);
  EXPECT_TRUE(g.ops[0].attrs.values().empty());
}

TEST(ClipToRelu6, Float64BoundsAreRead) {
  ir::Graph g = ClipGraph(Zero, SixDouble);
  passes::ClipToRelu6(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Relu6"});
}

TEST(ClipToRelu6, ZeroAndNoMaxOrInfinityBecomesRelu) {
  ir::Graph no_max = ClipGraph(Zero, nullptr);
  passes::ClipToRelu6(no_max);
  EXPECT_EQ(OpTypes(no_max), std::vector<std::string>{"Relu"});

  ir::Graph inf_max = ClipGraph(Zero, PlusInf);
  passes::ClipToRelu6(inf_max);
  EXPECT_EQ(OpTypes(inf_max), std::vector<std::string>{"Relu"});
}

TEST(ClipToRelu6, OtherBoundsStayClipWithAttributes) {
  // Clip(0, 6.5) is not ReLU6.
  ir::Graph g = ClipGraph(Zero, SixAndAHalf);
  passes::ClipToRelu6(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Clip"});
  EXPECT_EQ(g.ops[0].inputs.size(), 1u);
  EXPECT_EQ(g.ops[0].attrs.GetFloat("min", -7.0f), 0.0f);
  EXPECT_EQ(g.ops[0].attrs.GetFloat("max", -7.0f), 6.5f);
}

TEST(ClipToRelu6, AbsentMinIsLowestFloatAndPassIsIdempotent) {
  // Clip(x, max = -1): min absent -> -FLT_MAX. Running again keeps the attributes.
  ir::Graph g = ClipGraph(nullptr, MinusOne);
  passes::ClipToRelu6(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Clip"});
  EXPECT_EQ(g.ops[0].attrs.GetFloat("min"), std::numeric_limits<float>::lowest());
  EXPECT_EQ(g.ops[0].attrs.GetFloat("max"), -1.0f);

  passes::ClipToRelu6(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Clip"});
  EXPECT_EQ(g.ops[0].attrs.GetFloat("min"), std::numeric_limits<float>::lowest());
  EXPECT_EQ(g.ops[0].attrs.GetFloat("max"), -1.0f);
}

TEST(ClipToRelu6, Int8ClipWithRealBoundsBecomesRelu6) {
  // In int8 graphs the bounds stay float constants holding real values.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4}, DType::kInt8);
  b.graph().tensor(x).quant = ir::QuantParams{{6.0f / 255.0f}, {-128}, -1};
  ir::TensorId y = b.Op(OpType::kClip, "clip", {x, Zero(b), Six(b)}, "y", {1, 4}, {}, DType::kInt8);
  b.graph().tensor(y).quant = ir::QuantParams{{6.0f / 255.0f}, {-128}, -1};
  b.Output(y);
  ir::Graph g = b.Take();

  passes::ClipToRelu6(g);

  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Relu6"});
}

TEST(ClipToRelu6, RuntimeBoundIsUnsupportedOpNamingNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId hi = b.Input("hi", {});
  b.Output(b.Op(OpType::kClip, "dyn_clip", {x, Zero(b), hi}, "y", {1, 4}));
  ir::Graph g = b.Take();

  try {
    passes::ClipToRelu6(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp);
    EXPECT_NE(std::string(e.what()).find("'dyn_clip'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'hi'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
