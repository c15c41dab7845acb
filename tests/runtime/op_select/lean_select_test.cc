// The leanest runtime build (lean_ops.h): mnist8's float32 ops, no plan features,
// no verifier messages.
//
// Claims:
//  - mnist8 runs with the full runtime's bytes: its NCHW input of one channel moves only a
//    unit axis, so it is copied as it is, without element-by-element host copies;
//  - a plan whose input needs them (vww_small_cnn: an NCHW input of three channels) fails
//    with TGRS_ERR_UNSUPPORTED_OP at its first op, never misread;
//  - the verifier refuses 2-D tiles, channel groups and weight blocks by field
//    (TGRS_ERR_UNSUPPORTED_OP at the field), and every other rule as the full build does:
//    same status, path, value and limit, only without the sentence, and the path names
//    each field by its id in its table ("#2" for Op.inputs), not by its name;
//  - no status has a name: tgrs_status_name gives TGRS_STATUS_UNNAMED and the error text
//    the status's number.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../runtime/src/fb_read.h"
#include "runtime/plan_fixture.h"
#include "runtime/reduced_runtime.h"
#include "support/test_env.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

static_assert(TGRS_OPS_SELECTED == 1 && TGRS_WITH_MESSAGES == 0 && TGRS_WITH_TILE_COLUMNS == 0 &&
                  TGRS_WITH_TILE_CHANNELS == 0 && TGRS_WITH_WEIGHT_BLOCKS == 0 &&
                  TGRS_WITH_HOST_PERMUTATION == 0,
              "built with lean_ops.h (CMakeLists.txt)");

std::string ModelPath(const std::string& name) {
  return testing::ModelsDir() + "/onnx/" + name + ".onnx";
}

TEST(LeanSelectTest, Mnist8RunsWithTheFullRuntimesBytes) {
  auto p = Load(Compile(ModelPath("mnist8"), 64 << 20, TIGRIS_WEIGHTS_IN_PLACE));
  ASSERT_NE(p, nullptr);
  const tgrs_plan_tensor in = Io(p->plan, /*output=*/false, 0);
  ASSERT_EQ(in.host_permutation.count, 4u) << "meant to be an NCHW input";
  ASSERT_EQ(in.shape.data[3], 1) << "of one channel";
  const std::vector<Bytes> inputs = Inputs(p->plan);
  const ReducedRun r = RunReduced(p->plan, inputs);
  ASSERT_EQ(r.status, TGRS_OK) << "status " << r.status << " at op " << r.stats.failed_op;
  EXPECT_EQ(r.outputs, RunFull(*p, inputs));
}

TEST(LeanSelectTest, AnInputCopiedElementByElementFailsAtTheFirstOp) {
  auto p = Load(Compile(ModelPath("vww_small_cnn"), 64 << 20, TIGRIS_WEIGHTS_IN_PLACE));
  ASSERT_NE(p, nullptr);
  const tgrs_plan_tensor in = Io(p->plan, /*output=*/false, 0);
  ASSERT_EQ(in.shape.count, 4u);
  ASSERT_EQ(in.shape.data[3], 3) << "meant to be an NCHW input of three channels";
  ExpectUnsupportedAt(*p, 0);
}

// tgrs_plan_init on `parts`: the status, with the error's formatted text in `text`.
tgrs_status Verify(const PlanParts& parts, tgrs_verify_error* error, std::string* text) {
  tgrs_plan plan;
  AlignedPlan aligned(Serialize(parts));
  const tgrs_status st = tgrs_plan_init(&plan, aligned.data(), aligned.size());
  char buffer[256];
  tgrs_verify_error_format(&plan.error, buffer, sizeof buffer);
  *error = plan.error;
  *text = buffer;
  return st;
}

// "status 57": how tgrs_verify_error_format names a status in this build.
std::string Status(tgrs_status status) { return "status " + std::to_string(status); }

// "#2": how the path names field id 2 of its table in this build (FB_* of fb_read.h).
std::string Id(int field) { return "#" + std::to_string(field); }

TEST(LeanSelectTest, NoStatusHasAName) {
  for (int s = TGRS_OK; s <= TGRS_ERR_ARENA_NOT_BOUND; ++s) {
    EXPECT_STREQ(tgrs_status_name(static_cast<tgrs_status>(s)), TGRS_STATUS_UNNAMED) << s;
  }
}

TEST(LeanSelectTest, TheVerifierNamesTheFeaturesLeftOut) {
  tgrs_verify_error e;
  std::string text;
  PlanParts p = FullPlan();
  ASSERT_EQ(Verify(p, &e, &text), TGRS_OK) << text;

  p.schema_version = 2;  // 2-D tiles: one column band per row band of stage 0's 4 regions
  p.stages[0].tile->columns.assign(4, Region(0, 8, 0, 8, 0, 0));
  EXPECT_EQ(Verify(p, &e, &text), TGRS_ERR_UNSUPPORTED_OP);
  EXPECT_EQ(e.message, nullptr);
  EXPECT_EQ(text, Id(FB_PLAN_STAGES) + "[0]." + Id(FB_STAGE_TILE) + "." + Id(FB_TILE_COLUMNS) +
                      ": " + Status(TGRS_ERR_UNSUPPORTED_OP) + " (value 4, limit 0)");

  p.stages[0].tile->columns.clear();  // channel groups: every channel of the conv's 4
  p.stages[0].tile->channels.assign(4, Region(0, 3, 0, 4, 0, 0));
  EXPECT_EQ(Verify(p, &e, &text), TGRS_ERR_UNSUPPORTED_OP);
  EXPECT_EQ(text, Id(FB_PLAN_STAGES) + "[0]." + Id(FB_STAGE_TILE) + "." + Id(FB_TILE_CHANNELS) +
                      ": " + Status(TGRS_ERR_UNSUPPORTED_OP) + " (value 4, limit 0)");

  EXPECT_EQ(Verify(FullPlan(/*compressed=*/true), &e, &text), TGRS_ERR_UNSUPPORTED_OP);
  EXPECT_EQ(text, Id(FB_PLAN_WEIGHT_BLOCKS) + ": " + Status(TGRS_ERR_UNSUPPORTED_OP) +
                      " (value 1, limit 0)");
}

TEST(LeanSelectTest, EveryOtherRuleFailsAsInTheFullBuildWithoutItsSentence) {
  tgrs_verify_error e;
  std::string text;
  PlanParts p = FullPlan();
  p.ops[0].inputs[1] = 4087;  // 7 tensors
  EXPECT_EQ(Verify(p, &e, &text), TGRS_ERR_BAD_INDEX);
  EXPECT_EQ(e.message, nullptr);
  EXPECT_EQ(text, Id(FB_PLAN_OPS) + "[0]." + Id(FB_OP_INPUTS) +
                      "[1]: " + Status(TGRS_ERR_BAD_INDEX) + " (value 4087, limit 7)");

  p = FullPlan();
  p.ops[1].output_shift[0] = 31;  // requantize.h shifts right by 31 - shift: at most 30
  EXPECT_EQ(Verify(p, &e, &text), TGRS_ERR_BAD_VALUE);
  EXPECT_EQ(text, Id(FB_PLAN_OPS) + "[1]." + Id(FB_OP_OUTPUT_SHIFT) +
                      "[0]: " + Status(TGRS_ERR_BAD_VALUE) + " (value 31, limit 30)");

  p = FullPlan();
  p.schema_version = TGRS_SCHEMA_VERSION + 1;
  EXPECT_EQ(Verify(p, &e, &text), TGRS_ERR_UNSUPPORTED_VERSION);
  EXPECT_EQ(text, Id(FB_PLAN_SCHEMA_VERSION) + ": " + Status(TGRS_ERR_UNSUPPORTED_VERSION) +
                      " (value " + std::to_string(TGRS_SCHEMA_VERSION + 1) + ", limit " +
                      std::to_string(TGRS_SCHEMA_VERSION) + ")");
}

}  // namespace
}  // namespace tigris::runtime_test
