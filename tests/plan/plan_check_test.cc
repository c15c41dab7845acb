// plan::CheckPlan, the replay every plan passes before the library returns it
// (plan/plan_check.h), must be able to fail: corrupt correct plans and expect it to notice
// each defect class, and VerifyPlan to turn it into a kInternal error.
#include "plan/plan_check.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "analysis/conv_graphs.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "support/graph_builder.h"
#include "support/test_env.h"
#include "util/error.h"

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
    testing::ExpectPlanReplays(p);
  }
  std::string all;
  for (int i = 0; i < results.size(); ++i) all += results.GetTestPartResult(i).message();
  return all;
}

TEST(PlanCheckTest, CatchesOverlappingBuffers) {
  const ir::Graph g = TwoRelus();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  EXPECT_EQ(ReplayFailures(g, p), "");  // the real plan is clean
  ASSERT_GE(p.stages[0].buffers.size(), 2u);
  p.stages[0].buffers[1].home.offset = p.stages[0].buffers[0].home.offset;  // x and a collide
  EXPECT_NE(ReplayFailures(g, p).find("overlap"), std::string::npos);
}

TEST(PlanCheckTest, CatchesWrongPeakAndMissingTensor) {
  const ir::Graph g = TwoRelus();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  p.stages[0].peak_bytes += 16;
  EXPECT_NE(ReplayFailures(g, p).find("stage.peak_bytes"), std::string::npos);
  p = PlanModel(g, {4096, 0, 0});
  p.stages[0].buffers[1].last_op = -1;  // a vanishes before r2 reads it
  EXPECT_NE(ReplayFailures(g, p).find("not resident"), std::string::npos);
}

// in 1x1x32x32 float32 -> conv 3x3 -> conv 3x3 -> out: at 4 KiB it tiles (a chain) and,
// at 8 KiB with the convs in separate stages, spills.
ir::Graph TwoConvs() {
  testing::GraphBuilder g;
  ir::TensorId in = g.Input("in", {1, 1, 32, 32});
  ir::TensorId a = testing::AddConv(g, "conv1", in, {1, 3, 1, 1, 1});
  g.Output(testing::AddConv(g, "conv2", a, {1, 3, 1, 1, 1}));
  return g.Take();
}

std::string Defects(const ir::Graph& g, const PlanResult& p) {
  std::string all;
  for (const std::string& d : CheckPlan(g, p)) all += d + "\n";
  return all;
}

TEST(PlanCheckTest, TileLoopsMustCoverEveryRowOnce) {
  const ir::Graph g = TwoConvs();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  ASSERT_FALSE(p.chains.empty()) << "4 KiB was meant to chain the two convs";
  EXPECT_EQ(Defects(g, p), "");
  TilePlan& tile = p.chains[0].tile;
  ASSERT_GE(tile.count, 2);
  tile.count -= 1;  // the last rows are never produced
  const std::string defects = Defects(g, p);
  EXPECT_NE(defects.find("does not cover"), std::string::npos) << defects;
  EXPECT_NE(defects.find("the tiles' rows of"), std::string::npos) << defects;
  EXPECT_NE(defects.find("end at"), std::string::npos) << defects;
}

TEST(PlanCheckTest, StreamedStripsMustLiveForTheWholeLoop) {
  const ir::Graph g = TwoConvs();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  ASSERT_FALSE(p.chains.empty());
  ASSERT_TRUE(p.chains[0].tile.streamed) << "the chain was meant to stream";
  EXPECT_EQ(Defects(g, p), "");
  const ir::TensorId a = g.ops[0].outputs[0];
  for (Buffer& b : p.chains[0].tile.buffers) {
    if (b.tensor == a) b.first_op = 1;  // its kept rows could be overwritten at op 0
  }
  const std::string defects = Defects(g, p);
  EXPECT_NE(defects.find("is not live for the whole loop"), std::string::npos) << defects;
}

TEST(PlanCheckTest, StripsMustHoldTheirLargestTile) {
  const ir::Graph g = TwoConvs();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  ASSERT_FALSE(p.chains.empty());
  for (Buffer& b : p.chains[0].tile.buffers) {
    if (b.kind == BufferKind::kRowStrip) b.bytes -= 16;  // one row short of 128 B is enough
  }
  EXPECT_NE(Defects(g, p).find("not resident"), std::string::npos) << Defects(g, p);
}

TEST(PlanCheckTest, CrossingTensorsNeedSpillsAndSlowHomes) {
  // mnist8 at 8 KiB (weights in place): several stages with spills between them.
  ir::Graph g = onnx_import::LoadOnnxFile(testing::SharedOnnxModel("mnist8.onnx"), {});
  passes::Normalize(g);
  PlanResult p = PlanModel(g, {8192, 0, 0});
  ASSERT_FALSE(p.slow_buffers.empty()) << "8 KiB was meant to spill";
  EXPECT_EQ(Defects(g, p), "");
  PlanResult no_home = p;
  no_home.slow_buffers.clear();
  EXPECT_NE(Defects(g, no_home).find("without a slow home"), std::string::npos);
  PlanResult no_reload = p;
  for (Stage& stage : no_reload.stages) stage.spill_in.clear();
  EXPECT_NE(Defects(g, no_reload).find("is not reloaded by stage"), std::string::npos);
  PlanResult overlap = p;
  overlap.slow_buffers.push_back(p.slow_buffers[0]);  // the same home twice
  EXPECT_NE(Defects(g, overlap).find("slow arena at stage"), std::string::npos);
}

TEST(PlanCheckTest, AStageThatClaimsToFitMustBeWithinTheBudget) {
  const ir::Graph g = TwoConvs();
  PlanResult p = PlanModel(g, {8192, 0, 0});
  p.budget.fast_bytes = 1024;
  EXPECT_NE(Defects(g, p).find("claims to fit"), std::string::npos) << Defects(g, p);
}

TEST(PlanCheckTest, VerifyPlanReportsAPlannerBugAsInternal) {
  const ir::Graph g = TwoRelus();
  PlanResult p = PlanModel(g, {4096, 0, 0});
  EXPECT_NO_THROW(VerifyPlan(g, p));
  p.stages[0].buffers[1].home.offset = p.stages[0].buffers[0].home.offset;
  try {
    VerifyPlan(g, p);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInternal);
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::plan
