#include "analysis/lifetimes.h"

#include <gtest/gtest.h>

#include "analysis/memory_timeline.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

// The 4-op graph of the lifetime and timeline tests. Every activation is 1x1x4x4 float32
// = 64 bytes (already a multiple of 16):
//   step 0  a = Relu(in)
//   step 1  b = Relu(a)
//   step 2  c = Add(a, b)
//   step 3  d = Relu(c)      (graph output)
ir::Graph FourOpGraph() {
  GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 4, 4});
  ir::TensorId a = g.Op(ir::OpType::kRelu, "A", {in}, "a", {1, 1, 4, 4});
  ir::TensorId b = g.Op(ir::OpType::kRelu, "B", {a}, "b", {1, 1, 4, 4});
  ir::TensorId c = g.Op(ir::OpType::kAdd, "C", {a, b}, "c", {1, 1, 4, 4});
  ir::TensorId d = g.Op(ir::OpType::kRelu, "D", {c}, "d", {1, 1, 4, 4});
  g.Output(d);
  return g.Take();
}

TEST(LifetimesTest, FourOpGraphBirthAndDeath) {
  const ir::Graph g = FourOpGraph();
  const std::vector<Lifetime> life = ComputeLifetimes(g);
  auto of = [&](const char* name) { return life[static_cast<size_t>(*g.FindTensor(name))]; };
  // in: read by A only -> [0, 0]; a: made by A, last read by C -> [0, 2];
  // b: [1, 2]; c: [2, 3]; d: graph output -> lives to the last step, [3, 3].
  EXPECT_EQ(of("in").birth, 0);
  EXPECT_EQ(of("in").death, 0);
  EXPECT_EQ(of("a").birth, 0);
  EXPECT_EQ(of("a").death, 2);
  EXPECT_EQ(of("b").birth, 1);
  EXPECT_EQ(of("b").death, 2);
  EXPECT_EQ(of("c").birth, 2);
  EXPECT_EQ(of("c").death, 3);
  EXPECT_EQ(of("d").birth, 3);
  EXPECT_EQ(of("d").death, 3);
  EXPECT_EQ(of("a").bytes, 64);
}

TEST(LifetimesTest, FourOpGraphTimelineCountsInputsAndOutputsTogether) {
  const ir::Graph g = FourOpGraph();
  const MemoryTimeline t = ComputeMemoryTimeline(g, ComputeLifetimes(g));
  // step 0: in + a = 128; step 1: a + b = 128; step 2: a + b + c = 192 (C reads a and b
  // while writing c); step 3: c + d = 128. The reference's free-before-allocate sweep
  // would report 64 at step 2 and a peak of 128.
  EXPECT_EQ(t.live_bytes, (std::vector<int64_t>{128, 128, 192, 128}));
  EXPECT_EQ(t.peak_bytes, 192);
  EXPECT_EQ(t.peak_step, 2);
}

TEST(LifetimesTest, WeightsAreExcludedAndLateGraphInputsBornAtFirstReader) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 1, 4, 4});
  ir::TensorId y = g.Input("y", {1, 1, 4, 4});
  ir::TensorId bias = g.Floats("bias", {1}, {1.0f});
  ir::TensorId a = g.Op(ir::OpType::kAdd, "A", {x, bias}, "a", {1, 1, 4, 4});
  ir::TensorId b = g.Op(ir::OpType::kRelu, "B", {a}, "b", {1, 1, 4, 4});
  ir::TensorId c = g.Op(ir::OpType::kAdd, "C", {b, y}, "c", {1, 1, 4, 4});
  g.Output(c);
  const std::vector<Lifetime> life = ComputeLifetimes(g.graph());
  EXPECT_EQ(life[static_cast<size_t>(bias)].tensor, ir::kNoTensor);
  EXPECT_EQ(life[static_cast<size_t>(y)].birth, 2);  // copied in when C first reads it
  EXPECT_EQ(life[static_cast<size_t>(y)].death, 2);
}

TEST(LifetimesTest, UnreadOutputDiesWhereItIsBorn) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 1, 4, 4});
  ir::TensorId unused = g.Op(ir::OpType::kRelu, "A", {x}, "unused", {1, 1, 4, 4});
  ir::TensorId out = g.Op(ir::OpType::kSigmoid, "B", {x}, "out", {1, 1, 4, 4});
  g.Output(out);
  const std::vector<Lifetime> life = ComputeLifetimes(g.graph());
  EXPECT_EQ(life[static_cast<size_t>(unused)].birth, 0);
  EXPECT_EQ(life[static_cast<size_t>(unused)].death, 0);
  EXPECT_EQ(life[static_cast<size_t>(x)].death, 1);
}

TEST(LifetimesTest, ReadBeforeProducedIsInvalidModel) {
  GraphBuilder g;
  ir::TensorId ghost = g.Activation("ghost", {1, 4});
  g.Op(ir::OpType::kRelu, "reader", {ghost}, "y", {1, 4});
  try {
    ComputeLifetimes(g.graph());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("reader"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("ghost"), std::string::npos);
  }
}

TEST(LifetimesTest, UnknownDTypeIsUnsupported) {
  GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4}, ir::DType::kUnknown);
  g.Op(ir::OpType::kRelu, "A", {x}, "y", {1, 4});
  try {
    ComputeLifetimes(g.graph());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedDType);
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos);
  }
}

}  // namespace
}  // namespace tigris::analysis
