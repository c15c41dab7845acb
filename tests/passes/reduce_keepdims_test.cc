// reduce-keepdims: a keepdims = 0 reduction whose output layout differs from the order the
// runtime's kernel writes keeps its axes and a Reshape drops them. The values are checked
// end to end by tests/e2e/test_reductions.py and ONNX's test_reduce_*_do_not_keepdims cases;
// here, the rewrite and when it is not needed.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

ir::Attributes Keepdims(int64_t keepdims, std::vector<int64_t> axes = {}) {
  ir::Attributes a;
  a.Set("keepdims", keepdims);
  if (!axes.empty()) a.Set("axes", axes);
  return a;
}

TEST(ReduceKeepdims, ChannelReductionToRankThreeKeepsItsAxisThenReshapes) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 6, 5, 7});
  ir::TensorId axes = b.Const("axes", {1}, ir::DType::kInt64, std::vector<int64_t>{1});
  ir::TensorId y = b.Op(ir::OpType::kReduceSum, "sum", {x, axes}, "y", {1, 5, 7}, Keepdims(0));
  b.Output(y);
  ir::Graph g = b.Take();
  ReduceKeepdims(g);
  ASSERT_EQ(OpTypes(g), (Strings{"ReduceSum", "Reshape"}));
  EXPECT_EQ(g.ops[0].attrs.GetInt("keepdims", 0), 1);
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).shape, (ir::Shape{1, 1, 5, 7}));
  EXPECT_EQ(g.ops[1].inputs[0], g.ops[0].outputs[0]);
  EXPECT_EQ(g.ops[1].outputs[0], y);  // the graph output is still written
  EXPECT_EQ(g.ops[1].attrs.GetInts("shape"), (std::vector<int64_t>{1, 5, 7}));
}

TEST(ReduceKeepdims, SpatialReductionAndKeepdimsOneAreLeftAlone) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 6, 5, 7});
  // [1, 6, 1, 1] and [1, 6] are the same bytes in the runtime's layouts.
  b.Output(b.Op(ir::OpType::kReduceMax, "spatial", {x}, "s", {1, 6}, Keepdims(0, {2, 3})));
  b.Output(b.Op(ir::OpType::kReduceMin, "kept", {x}, "k", {1, 1, 5, 7}, Keepdims(1, {1})));
  ir::Graph g = b.Take();
  ReduceKeepdims(g);
  ASSERT_EQ(OpTypes(g), (Strings{"ReduceMax", "ReduceMin"}));
  EXPECT_EQ(g.ops[0].attrs.GetInt("keepdims", 1), 0);
}

}  // namespace
}  // namespace tigris::passes
