// Reference pass 11: Concat's axis moves from NCHW to the runtime's NHWC convention
// (tigris-compilation-pipeline.txt, stage 2).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;

// Two [1,2,3,4]-like inputs concatenated along `axis` of `shape` (the output shape; the
// pass only reads its rank).
ir::Graph ConcatGraph(ir::Shape shape, int64_t axis) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", shape);
  ir::TensorId c = b.Input("c", shape);
  b.Output(b.Op(OpType::kConcat, "concat", {a, c}, "y", shape, Attrs({{"axis", axis}})));
  return b.Take();
}

TEST(ConcatAxisNormalize, ChannelAxisOnRank4BecomesLastNhwcAxis) {
  // NCHW axis 1 (C) is axis 3 in NHWC.
  ir::Graph g = ConcatGraph({1, 8, 4, 4}, 1);
  passes::ConcatAxisNormalize(g);
  EXPECT_EQ(g.ops[0].attrs.GetInt("axis", -99), 3);
  EXPECT_EQ(g.ops[0].attrs.GetString("layout"), "NHWC");
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).shape, (ir::Shape{1, 8, 4, 4}));  // IR stays NCHW
}

TEST(ConcatAxisNormalize, EveryRank4AxisIncludingNegativeMapsByPosition) {
  // N stays 0; H (2, or -2) is NHWC position 1; W (3, or -1) is position 2; C (-3) is 3.
  const std::vector<std::pair<int64_t, int64_t>> cases = {{0, 0},  {2, 1},  {3, 2}, {-1, 2},
                                                          {-2, 1}, {-3, 3}, {-4, 0}};
  for (const auto& [nchw, nhwc] : cases) {
    ir::Graph g = ConcatGraph({1, 8, 4, 4}, nchw);
    passes::ConcatAxisNormalize(g);
    EXPECT_EQ(g.ops[0].attrs.GetInt("axis", -99), nhwc) << "NCHW axis " << nchw;
  }
}

TEST(ConcatAxisNormalize, Rank3FollowsNcwToNwc) {
  // Conv1D activations [N,C,W] are NWC on the device: C 1 -> 2, W 2 -> 1.
  ir::Graph channels = ConcatGraph({1, 8, 16}, 1);
  passes::ConcatAxisNormalize(channels);
  EXPECT_EQ(channels.ops[0].attrs.GetInt("axis", -99), 2);
  EXPECT_EQ(channels.ops[0].attrs.GetString("layout"), "NWC");

  ir::Graph width = ConcatGraph({1, 8, 16}, -1);
  passes::ConcatAxisNormalize(width);
  EXPECT_EQ(width.ops[0].attrs.GetInt("axis", -99), 1);
}

TEST(ConcatAxisNormalize, Rank2OnlyNormalizesNegativeAxis) {
  // [N,C] is the same in both conventions: -1 is just axis 1, and no layout is recorded.
  ir::Graph g = ConcatGraph({1, 8}, -1);
  passes::ConcatAxisNormalize(g);
  EXPECT_EQ(g.ops[0].attrs.GetInt("axis", -99), 1);
  EXPECT_FALSE(g.ops[0].attrs.Has("layout"));
}

TEST(ConcatAxisNormalize, RunningTwiceDoesNotRemapAgain) {
  // "layout" marks the axis as converted: 1 -> 3 once, not 3 -> 2 on a second run.
  ir::Graph g = ConcatGraph({1, 8, 4, 4}, 1);
  passes::ConcatAxisNormalize(g);
  passes::ConcatAxisNormalize(g);
  EXPECT_EQ(g.ops[0].attrs.GetInt("axis", -99), 3);
}

TEST(ConcatAxisNormalize, AxisOutOfRangeIsInvalidModel) {
  ir::Graph g = ConcatGraph({1, 8, 4, 4}, 4);
  try {
    passes::ConcatAxisNormalize(g);
    FAIL() << "expected tigris::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("concat"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
