// pool1d-lift: a 1-D MaxPool/AveragePool runs as the 2-D pool over [N, C, 1, L]. The values
// are checked end to end by ONNX's conformance cases test_maxpool_1d_default,
// test_averagepool_1d_default and PyTorch's MaxPool1d exports
// (tests/conformance/onnx_conformance.py); here, the rewrite itself.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;
using Ints = std::vector<int64_t>;

TEST(Pool1dLift, WindowStridesPadsAndDilationsGainAUnitAxis) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 3, 32});
  b.Output(b.Op(ir::OpType::kMaxPool, "pool", {x}, "y", {1, 3, 16},
                Attrs({{"kernel_shape", Ints{3}},
                       {"strides", Ints{2}},
                       {"pads", Ints{1, 2}},
                       {"dilations", Ints{1}},
                       {"ceil_mode", int64_t{1}}})));
  ir::Graph g = b.Take();
  Pool1dLift(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "MaxPool", "Reshape"}));
  EXPECT_EQ(g.ops[0].inputs[0], x);
  EXPECT_EQ(g.ops[0].attrs.GetInts("shape"), (Ints{1, 3, 1, 32}));
  const ir::Op& pool = g.ops[1];
  EXPECT_EQ(g.tensor(pool.inputs[0]).shape, (ir::Shape{1, 3, 1, 32}));
  EXPECT_EQ(g.tensor(pool.outputs[0]).shape, (ir::Shape{1, 3, 1, 16}));
  EXPECT_EQ(pool.attrs.GetInts("kernel_shape"), (Ints{1, 3}));
  EXPECT_EQ(pool.attrs.GetInts("strides"), (Ints{1, 2}));
  EXPECT_EQ(pool.attrs.GetInts("pads"), (Ints{0, 1, 0, 2}));
  EXPECT_EQ(pool.attrs.GetInts("dilations"), (Ints{1, 1}));
  EXPECT_EQ(pool.attrs.GetInt("ceil_mode", 0), 1);
  EXPECT_EQ(g.ops[2].outputs[0], g.outputs[0]);  // y keeps its tensor (name, readers)
  EXPECT_EQ(g.ops[2].attrs.GetInts("shape"), (Ints{1, 3, 16}));
}

TEST(Pool1dLift, AbsentAttributesStayAbsentAndTwoDimensionalPoolsAreLeftAlone) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 8});
  ir::TensorId t = b.Op(ir::OpType::kAveragePool, "avg1d", {x}, "t", {1, 2, 7},
                        Attrs({{"kernel_shape", Ints{2}}}));
  ir::TensorId m = b.Input("m", {1, 2, 8, 8});
  b.Output(t);
  b.Output(b.Op(ir::OpType::kMaxPool, "max2d", {m}, "u", {1, 2, 7, 7},
                Attrs({{"kernel_shape", Ints{2, 2}}})));
  ir::Graph g = b.Take();
  Pool1dLift(g);
  ASSERT_EQ(OpTypes(g), (Strings{"Reshape", "AveragePool", "Reshape", "MaxPool"}));
  EXPECT_EQ(g.ops[1].attrs.GetInts("kernel_shape"), (Ints{1, 2}));
  EXPECT_FALSE(g.ops[1].attrs.Has("pads"));
  EXPECT_FALSE(g.ops[1].attrs.Has("strides"));
  EXPECT_EQ(g.ops[3].attrs.GetInts("kernel_shape"), (Ints{2, 2}));
}

}  // namespace
}  // namespace tigris::passes
