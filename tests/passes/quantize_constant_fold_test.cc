// quantize-constant-fold: QuantizeLinear of a float32 constant becomes the integer
// constant ONNX QuantizeLinear computes. Expected bytes are worked out by hand from
// saturate(round_half_even(x / scale) + zero_point).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

// w (constant) -> QuantizeLinear(scale, zp) -> w_q -> DequantizeLinear -> wd -> Add(x, wd).
struct QuantizedWeight {
  ir::Graph graph;
  ir::TensorId quantized = ir::kNoTensor;
};

QuantizedWeight Build(ir::Shape shape, const std::vector<float>& w, const std::vector<float>& scale,
                      ir::TensorId (*zero_point)(GraphBuilder&, size_t), ir::DType qtype,
                      ir::Attributes attrs = {}) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", shape);
  ir::TensorId weight = b.Floats("w", shape, w);
  ir::TensorId s = b.Floats("s", {static_cast<int64_t>(scale.size())}, scale);
  ir::TensorId zp = zero_point(b, scale.size());
  ir::TensorId q =
      b.Op(ir::OpType::kQuantizeLinear, "quantize_w", {weight, s, zp}, "w_q", shape, attrs, qtype);
  ir::TensorId d =
      b.Op(ir::OpType::kDequantizeLinear, "dequantize_w", {q, s, zp}, "wd", shape, attrs);
  b.Output(b.Op(ir::OpType::kAdd, "add", {x, d}, "y", shape));
  QuantizedWeight out{b.Take(), q};
  return out;
}

TEST(QuantizeConstantFold, PerTensorUint8RoundsHalfToEvenAndSaturates) {
  // x / 0.5 = [0.5, 1.5, -2, 200, -200, 2.5] -> [0, 2, -2, 200, -200, 2] -> + 128, clamped.
  QuantizedWeight m = Build(
      {6}, {0.25f, 0.75f, -1.0f, 100.0f, -100.0f, 1.25f}, {0.5f},
      [](GraphBuilder& b, size_t) { return b.Const<uint8_t>("zp", {}, ir::DType::kUInt8, {128}); },
      ir::DType::kUInt8);

  QuantizeConstantFold(m.graph);

  EXPECT_EQ(OpTypes(m.graph), (std::vector<std::string>{"DequantizeLinear", "Add"}));
  const ir::Tensor& q = m.graph.tensor(m.quantized);
  EXPECT_TRUE(q.is_constant);
  EXPECT_EQ(q.dtype, ir::DType::kUInt8);
  EXPECT_EQ(q.data, (std::vector<uint8_t>{128, 130, 126, 255, 0, 130}));
}

TEST(QuantizeConstantFold, PerAxisInt8UsesEachChannelsScaleAndZeroPoint) {
  // Row 0: scale 1, zp 0: [2.5, -3.5, 200] -> [2, -4, 127].
  // Row 1: scale 0.25, zp -10: [0.125, -0.375, 40] / 0.25 = [0.5, -1.5, 160]
  //        -> [0, -2, 160] - 10 = [-10, -12, 127 (saturated)].
  QuantizedWeight m = Build(
      {2, 3}, {2.5f, -3.5f, 200.0f, 0.125f, -0.375f, 40.0f}, {1.0f, 0.25f},
      [](GraphBuilder& b, size_t n) {
        return b.Const<int8_t>("zp", {static_cast<int64_t>(n)}, ir::DType::kInt8, {0, -10});
      },
      ir::DType::kInt8, Attrs({{"axis", int64_t{0}}}));

  QuantizeConstantFold(m.graph);

  const ir::Tensor& q = m.graph.tensor(m.quantized);
  ASSERT_TRUE(q.is_constant);
  EXPECT_EQ(q.dtype, ir::DType::kInt8);
  EXPECT_EQ(q.DataAs<int8_t>(), (std::vector<int8_t>{2, -4, 127, -10, -12, 127}));
}

TEST(QuantizeConstantFold, NanMapsToTheZeroPointAndInfinitiesSaturate) {
  const float inf = std::numeric_limits<float>::infinity();
  QuantizedWeight m = Build(
      {3}, {std::nanf(""), inf, -inf}, {0.1f},
      [](GraphBuilder& b, size_t) { return b.Const<int8_t>("zp", {}, ir::DType::kInt8, {5}); },
      ir::DType::kInt8);

  QuantizeConstantFold(m.graph);

  EXPECT_EQ(m.graph.tensor(m.quantized).DataAs<int8_t>(), (std::vector<int8_t>{5, 127, -128}));
}

TEST(QuantizeConstantFold, DivisionIsFloat32AsOnnxruntimeComputesIt) {
  // 0.35f / 0.1f rounds to exactly 3.5f in float32 (-> 4, half to even); the exact
  // quotient of the two floats is 3.49999988..., which a double division would keep (-> 3).
  const float x = 0.35f;
  const float s = 0.1f;
  ASSERT_EQ(x / s, 3.5f);
  QuantizedWeight m = Build(
      {1}, {x}, {s},
      [](GraphBuilder& b, size_t) { return b.Const<int8_t>("zp", {}, ir::DType::kInt8, {0}); },
      ir::DType::kInt8);

  QuantizeConstantFold(m.graph);

  EXPECT_EQ(m.graph.tensor(m.quantized).DataAs<int8_t>(), std::vector<int8_t>{4});
}

TEST(QuantizeConstantFold, ActivationsAreLeftToQdqFold) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {4});
  ir::TensorId s = b.Floats("s", {}, {0.5f});
  ir::TensorId zp = b.Const<int8_t>("zp", {}, ir::DType::kInt8, {0});
  ir::TensorId q =
      b.Op(ir::OpType::kQuantizeLinear, "quantize_x", {x, s, zp}, "x_q", {4}, {}, ir::DType::kInt8);
  b.Output(b.Op(ir::OpType::kDequantizeLinear, "dequantize_x", {q, s, zp}, "y", {4}));
  ir::Graph g = b.Take();

  QuantizeConstantFold(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"QuantizeLinear", "DequantizeLinear"}));
  EXPECT_FALSE(g.tensor(q).is_constant);
}

TEST(QuantizeConstantFold, ScaleCountNotMatchingTheAxisIsRejectedNamingTheNode) {
  QuantizedWeight m = Build(
      {2, 3}, std::vector<float>(6, 1.0f), {1.0f, 0.5f, 0.25f},
      [](GraphBuilder& b, size_t n) {
        return b.Const<int8_t>("zp", {static_cast<int64_t>(n)}, ir::DType::kInt8, {0, 0, 0});
      },
      ir::DType::kInt8, Attrs({{"axis", int64_t{0}}}));
  try {
    QuantizeConstantFold(m.graph);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedQuantization);
    EXPECT_NE(std::string(e.what()).find("quantize_w"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
