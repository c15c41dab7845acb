// channel-shuffle-fuse and requantize-split. The values are checked against onnxruntime in
// tests/e2e/test_classic_cnn_ops.py (float and int8); here, the rewrites themselves.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris::passes {
namespace {

using testing::GraphBuilder;
using testing::OpTypes;
using Strings = std::vector<std::string>;

struct ShuffleSpec {
  std::vector<int64_t> perm = {0, 2, 1, 3, 4};
  ir::Shape view = {1, 3, 4, 5, 6};  // [N, G, C/G, H, W] of x [1, 12, 5, 6]
  bool extra_reader = false;
  std::optional<ir::QuantParams> view_quant, out_quant;
};

ir::Graph ShuffleGraph(const ShuffleSpec& s) {
  GraphBuilder b;
  const ir::DType dtype = s.out_quant ? ir::DType::kInt8 : ir::DType::kFloat32;
  const ir::TensorId x = b.Input("x", {1, 12, 5, 6}, dtype);
  if (s.out_quant) b.graph().tensor(x).quant = ir::QuantParams{{0.5f}, {1}, -1};
  ir::Attributes to_view, swap, back;
  to_view.Set("shape", s.view);
  swap.Set("perm", s.perm);
  const ir::TensorId v = b.Op(ir::OpType::kReshape, "r1", {x}, "v", s.view, to_view, dtype);
  ir::Shape swapped(s.view);
  for (size_t i = 0; i < s.perm.size(); ++i) swapped[i] = s.view[size_t(s.perm[i])];
  const ir::TensorId t = b.Op(ir::OpType::kTranspose, "t", {v}, "t_out", swapped, swap, dtype);
  back.Set("shape", std::vector<int64_t>{1, 12, 5, 6});
  const ir::TensorId y = b.Op(ir::OpType::kReshape, "r2", {t}, "y", {1, 12, 5, 6}, back, dtype);
  if (s.out_quant) {
    b.graph().tensor(v).quant = s.view_quant ? s.view_quant : b.graph().tensor(x).quant;
    b.graph().tensor(t).quant = b.graph().tensor(v).quant;
    b.graph().tensor(y).quant = s.out_quant;
  }
  b.Output(y);
  if (s.extra_reader)
    b.Output(b.Op(ir::OpType::kRelu, "peek", {t}, "peek_out", swapped, {}, dtype));
  return b.Take();
}

TEST(ChannelShuffleFuse, ThreeOpsBecomeOneThatKeepsTheOutputTensor) {
  ir::Graph g = ShuffleGraph({});
  const ir::TensorId x = g.inputs[0], y = g.outputs[0];
  ChannelShuffleFuse(g);
  ASSERT_EQ(OpTypes(g), Strings{"ChannelShuffle"});
  EXPECT_EQ(g.ops[0].inputs, std::vector<ir::TensorId>{x});
  EXPECT_EQ(g.ops[0].outputs, std::vector<ir::TensorId>{y});
  EXPECT_EQ(g.ops[0].attrs.GetInt("group", 0), 3);
}

TEST(ChannelShuffleFuse, OtherPermutationsReadersAndViewsAreLeftAlone) {
  ShuffleSpec other_perm;
  other_perm.perm = {0, 1, 2, 4, 3};
  ShuffleSpec peeked;
  peeked.extra_reader = true;
  ShuffleSpec not_channels;
  not_channels.view = {1, 12, 5, 2, 3};  // splits W, not C
  not_channels.perm = {0, 1, 2, 4, 3};
  for (const ShuffleSpec& s : {other_perm, peeked, not_channels}) {
    ir::Graph g = ShuffleGraph(s);
    const Strings before = OpTypes(g);
    ChannelShuffleFuse(g);
    EXPECT_EQ(OpTypes(g), before);
  }
}

TEST(ChannelShuffleFuse, RequantizedViewIsNotFused) {
  ShuffleSpec s;
  s.view_quant = ir::QuantParams{{0.25f}, {0}, -1};
  s.out_quant = ir::QuantParams{{0.5f}, {1}, -1};
  ir::Graph g = ShuffleGraph(s);
  ChannelShuffleFuse(g);
  EXPECT_EQ(OpTypes(g), (Strings{"Reshape", "Transpose", "Reshape"}));
}

TEST(RequantizeSplit, ARequantizingMoveCopiesThenConvertsThroughAClip) {
  ShuffleSpec s;
  s.out_quant = ir::QuantParams{{0.125f}, {-3}, -1};  // x is {0.5, 1}
  ir::Graph g = ShuffleGraph(s);
  ChannelShuffleFuse(g);
  ASSERT_EQ(OpTypes(g), Strings{"ChannelShuffle"});
  const ir::TensorId y = g.outputs[0];
  RequantizeSplit(g);
  ASSERT_EQ(OpTypes(g), (Strings{"ChannelShuffle", "Clip"}));
  const ir::TensorId moved = g.ops[0].outputs[0];
  EXPECT_EQ(g.tensor(moved).quant, g.tensor(g.inputs[0]).quant);
  EXPECT_EQ(g.tensor(moved).dtype, ir::DType::kInt8);
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{moved});
  EXPECT_EQ(g.ops[1].outputs, std::vector<ir::TensorId>{y});
  EXPECT_EQ(g.tensor(y).name, "y");
  EXPECT_FALSE(g.ops[1].attrs.Has("min"));  // identity: only the parameters change
  EXPECT_FALSE(g.ops[1].attrs.Has("max"));
}

TEST(RequantizeSplit, MovesThatKeepTheirParametersAndFloatMovesAreLeftAlone) {
  ShuffleSpec same;
  same.out_quant = ir::QuantParams{{0.5f}, {1}, -1};
  for (const ShuffleSpec& s : {ShuffleSpec{}, same}) {
    ir::Graph g = ShuffleGraph(s);
    const Strings before = OpTypes(g);
    RequantizeSplit(g);
    EXPECT_EQ(OpTypes(g), before);
  }
}

}  // namespace
}  // namespace tigris::passes
