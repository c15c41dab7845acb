// reshape-split: a Reshape between two channels-last layouts whose bytes differ goes through
// the flat row of its elements, each half one transpose. The values are checked end to end
// by ONNX's test_reshape_reordered_* and test_unsqueeze_axis_* conformance cases; here, the
// rewrite and the Reshapes it leaves alone.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

ir::Graph OneReshape(const ir::Shape& in, const ir::Shape& out) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", in, ir::DType::kInt8);
  ir::Attributes shape;
  shape.Set("shape", std::vector<int64_t>(out.begin(), out.end()));
  b.Output(b.Op(ir::OpType::kReshape, "r", {x}, "y", out, shape, ir::DType::kInt8));
  ir::Graph g = b.Take();
  g.tensor(x).quant = ir::QuantParams{{0.5f}, {3}, -1};
  return g;
}

TEST(ReshapeSplit, ReorderBetweenTwoChannelsLastLayoutsGoesThroughTheFlatRow) {
  ir::Graph g = OneReshape({2, 3, 4}, {4, 2, 3});
  const ir::TensorId x = g.inputs[0], y = g.outputs[0];
  ReshapeSplit(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "Reshape"}));
  const ir::TensorId flat = g.ops[0].outputs[0];
  EXPECT_EQ(g.ops[0].inputs[0], x);
  EXPECT_EQ(g.tensor(flat).shape, (ir::Shape{24}));
  EXPECT_EQ(g.tensor(flat).dtype, ir::DType::kInt8);
  ASSERT_TRUE(g.tensor(flat).quant.has_value());  // a Reshape moves codes: x's quantization
  EXPECT_EQ(g.tensor(flat).quant->zero_points, std::vector<int32_t>{3});
  EXPECT_EQ(g.ops[1].inputs[0], flat);
  EXPECT_EQ(g.ops[1].outputs[0], y);  // the graph output is still written, under its name
  EXPECT_EQ(g.ops[1].attrs.GetInts("shape"), (std::vector<int64_t>{4, 2, 3}));
  EXPECT_EQ(g.ops[1].name, "r");
}

TEST(ReshapeSplit, UnsqueezeOfRankThreeToFourIsSplit) {
  ir::Graph g = OneReshape({3, 4, 5}, {1, 3, 4, 5});
  ReshapeSplit(g);
  EXPECT_EQ(OpTypes(g), (Strings{"Reshape", "Reshape"}));
}

TEST(ReshapeSplit, OneStepReshapesAreLeftAlone) {
  for (const auto& [in, out] : std::vector<std::pair<ir::Shape, ir::Shape>>{
           {{1, 8, 4, 4}, {1, 128}},    // flatten: channels-last to row-major, one transpose
           {{1, 6, 10}, {1, 6, 2, 5}},  // [N, C, L] -> [N, C, H, W]: the same runtime bytes
           {{2, 3, 4}, {2, 3, 4}}}) {   // no change
    ir::Graph g = OneReshape(in, out);
    ReshapeSplit(g);
    EXPECT_EQ(OpTypes(g), (Strings{"Reshape"})) << ir::ShapeToString(in);
  }
}

}  // namespace
}  // namespace tigris::passes
