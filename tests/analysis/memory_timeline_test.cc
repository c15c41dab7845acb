#include "analysis/memory_timeline.h"

#include <gtest/gtest.h>

#include "analysis/alignment.h"
#include "support/graph_builder.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

TEST(MemoryTimelineTest, InputAndOutputOfAnOpAreCoResident) {
  // x: 25 float32 = 100 bytes, y = Concat(x, x): 50 float32 = 200 bytes. The kernel reads x
  // while writing y: 100 + 200 = 300, aligned 112 + 208 = 320. Freeing x first (the
  // reference's sweep) would claim 200.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 25});
  ir::TensorId y = g.Op(ir::OpType::kConcat, "cat", {x, x}, "y", {1, 50},
                        testing::Attrs({{"axis", int64_t{1}}}));
  g.Output(y);
  const MemoryTimeline t = ComputeMemoryTimeline(g.graph(), ComputeLifetimes(g.graph()));
  EXPECT_GE(t.peak_bytes, 300);
  EXPECT_EQ(t.peak_bytes, 320);
}

TEST(MemoryTimelineTest, AlignmentRoundsEachBufferUp) {
  EXPECT_EQ(AlignUp(0), 0);
  EXPECT_EQ(AlignUp(1), 16);
  EXPECT_EQ(AlignUp(16), 16);
  EXPECT_EQ(AlignUp(17), 32);
  // Three int8 tensors of 10 bytes: each occupies 16.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 10}, ir::DType::kInt8);
  ir::TensorId y = g.Op(ir::OpType::kRelu, "r", {x}, "y", {1, 10}, {}, ir::DType::kInt8);
  ir::TensorId z = g.Op(ir::OpType::kAdd, "a", {x, y}, "z", {1, 10}, {}, ir::DType::kInt8);
  g.Output(z);
  const MemoryTimeline t = ComputeMemoryTimeline(g.graph(), ComputeLifetimes(g.graph()));
  EXPECT_EQ(t.live_bytes, (std::vector<int64_t>{32, 48}));
}

TEST(MemoryTimelineTest, SoftmaxScratchCountsAtItsStep) {
  // Softmax over 10 floats: input 40 -> 48, output 48, scratch 4 * 10 = 40 -> 48.
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 10});
  ir::TensorId y = g.Op(ir::OpType::kSoftmax, "sm", {x}, "y", {1, 10});
  g.Output(y);
  const MemoryTimeline t = ComputeMemoryTimeline(g.graph(), ComputeLifetimes(g.graph()));
  EXPECT_EQ(t.peak_bytes, 144);
}

}  // namespace
}  // namespace tigris::analysis
