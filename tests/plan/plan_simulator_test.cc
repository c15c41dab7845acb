// The brute-force replay must be able to fail: corrupt a correct plan and expect it to
// notice.
#include "plan/plan_simulator.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "plan/planner.h"
#include "support/graph_builder.h"

namespace tigris::plan {
namespace {

ir::Graph TwoRelus() {
  testing::GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 1, 4, 4});
  ir::TensorId a = g.Op(ir::OpType::kRelu, "r1", {x}, "a", {1, 1, 4, 4});
  g.Output(g.Op(ir::OpType::kRelu, "r2", {a}, "b", {1, 1, 4, 4}));
  return g.Take();
}

// Every failure message the replay reports for `p`, concatenated.
std::string ReplayFailures(const ir::Graph& g, const PlanResult& p) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    testing::ExpectPlanReplays(g, p);
  }
  std::string all;
  for (int i = 0; i < results.size(); ++i) all += results.GetTestPartResult(i).message();
  return all;
}

TEST(PlanSimulatorTest, CatchesOverlappingBuffers) {
  const ir::Graph g = TwoRelus();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  EXPECT_EQ(ReplayFailures(g, p), "");  // the real plan is clean
  ASSERT_GE(p.stages[0].buffers.size(), 2u);
  p.stages[0].buffers[1].home.offset = p.stages[0].buffers[0].home.offset;  // x and a collide
  EXPECT_NE(ReplayFailures(g, p).find("overlap"), std::string::npos);
}

TEST(PlanSimulatorTest, CatchesWrongPeakAndMissingTensor) {
  const ir::Graph g = TwoRelus();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  p.stages[0].peak_bytes += 16;
  EXPECT_NE(ReplayFailures(g, p).find("stage.peak_bytes"), std::string::npos);
  p = PlanModel(g, {4096, 0, 0});
  p.stages[0].buffers[1].last_op = -1;  // a vanishes before r2 reads it
  EXPECT_NE(ReplayFailures(g, p).find("not resident"), std::string::npos);
}

}  // namespace
}  // namespace tigris::plan
