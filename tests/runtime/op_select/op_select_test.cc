// The executor built with the ops header of one plan (tigris inspect --ops-header,
// tgrs_op_select.h): CMakeLists.txt here compiles kws_small_cnn at 16 KiB, writes the
// header of that plan and builds the runtime objects with it.
//
// Claims: the header selects exactly the op codes of the plan it was written from (read
// here with the runtime's reader, not from the header's writer); that plan, and the same
// model untiled, run on the reduced runtime with the bytes of the full runtime (libtigris.so,
// every op); a plan holding an op outside the selection fails with TGRS_ERR_UNSUPPORTED_OP
// at the first such op, after the ops before it ran.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "runtime/plan_fixture.h"
#include "runtime/reduced_runtime.h"
#include "support/test_env.h"
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

static_assert(TGRS_OPS_SELECTED == 1, "built with the generated ops header (CMakeLists.txt)");

Bytes ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

std::set<int> OpCodes(const tgrs_plan& plan) {
  std::set<int> codes;
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    tgrs_plan_op op{};
    EXPECT_EQ(tgrs_plan_get_op(&plan, i, &op), TGRS_OK);
    codes.insert(static_cast<int>(op.code));
  }
  return codes;
}

// What this build's dispatch was compiled with, code by code (tgrs_op_select.h).
std::set<int> SelectedCodes() {
  std::set<int> codes;
  const std::pair<int, bool> table[] = {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) {TGRS_OP_##NAME, TGRS_OP_ON(NAME) != 0},
#include "tgrs_ops.def"
#undef TGRS_OP
  };
  for (const auto& [code, selected] : table) {
    if (selected) codes.insert(code);
  }
  return codes;
}

TEST(OpSelectTest, TheHeaderSelectsExactlyTheOpsOfItsPlan) {
  auto p = Load(ReadFile(TIGRIS_OP_SELECT_PLAN));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(SelectedCodes(), OpCodes(p->plan));
  EXPECT_EQ(TGRS_WITH_INT8, 0) << "a float32 plan: the int8 kernels are left out too";
}

TEST(OpSelectTest, ItsModelRunsWithTheFullRuntimesBytesTiledAndWhole) {
  const std::string model = testing::SharedOnnxModel("kws_small_cnn.onnx");
  for (const uint64_t budget : {uint64_t{16} << 10, uint64_t{64} << 20}) {
    SCOPED_TRACE(budget);
    auto p = Load(Compile(model, budget));
    ASSERT_NE(p, nullptr);
    const std::vector<Bytes> inputs = Inputs(p->plan);
    const ReducedRun r = RunReduced(p->plan, inputs);
    ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status) << " at op " << r.stats.failed_op;
    EXPECT_EQ(r.outputs, RunFull(*p, inputs));
    if (budget == uint64_t{16} << 10) {
      EXPECT_GT(r.stats.tiles_run, 0u) << "meant to tile";
    }
  }
}

TEST(OpSelectTest, AnOpLeftOutFailsWhereItIsReached) {
  // mnist8 uses ops kws_small_cnn does not (a max pool, for one).
  auto p = Load(Compile(testing::SharedOnnxModel("mnist8.onnx"), 64 << 20));
  ASSERT_NE(p, nullptr);
  const std::set<int> selected = SelectedCodes();
  int32_t first = -1;
  for (uint32_t i = 0; i < tgrs_plan_op_count(&p->plan) && first < 0; ++i) {
    tgrs_plan_op op{};
    tgrs_plan_get_op(&p->plan, i, &op);
    if (!selected.count(static_cast<int>(op.code))) first = static_cast<int32_t>(i);
  }
  ASSERT_GT(first, 0) << "mnist8 was meant to begin with selected ops and hold another";
  ExpectUnsupportedAt(*p, first);
}

// Plan features the header leaves out when its plan does not use them (tgrs_op_select.h):
// a plan that needs one is refused where it is reached, naming it, never misread.
TEST(OpSelectTest, FeaturesLeftOutAreRefusedNamingThem) {
  static_assert(TGRS_WITH_LZ4 == 0 && TGRS_WITH_STATE == 0 && TGRS_WITH_STAGED_CONSTANTS == 0 &&
                    TGRS_WITH_PINNED == 0,
                "kws_small_cnn at 16K --xip has no LZ4 blocks, state, staged constants or pins");
  const std::string model = testing::SharedOnnxModel("kws_small_cnn.onnx");
  // Staged constants: tgrs_plan_init refuses the plan, naming the field.
  {
    const Bytes file = Compile(model, 64 << 20, TIGRIS_WEIGHTS_STAGED);
    AlignedBuffer copy = Aligned(file.size());
    std::memcpy(copy.get(), file.data(), file.size());
    tgrs_plan plan;
    EXPECT_EQ(tgrs_plan_init(&plan, copy.get(), file.size()), TGRS_ERR_UNSUPPORTED_OP);
    char text[200];
    tgrs_verify_error_format(&plan.error, text, sizeof text);
    EXPECT_NE(std::string(text).find(
                  "staged_bytes: 28848 staged bytes: this runtime was built without staged"),
              std::string::npos)
        << text;
  }
  // A pinned arena: placement rules pin the graph output (whole: one normal stage) to SRAM;
  // tgrs_plan_init refuses the plan, naming the memory entry.
  {
    tigris_model* m = nullptr;
    ASSERT_EQ(tigris_load(&m, model.c_str(), nullptr), TIGRIS_OK);
    tigris_tensor_info out{};
    out.version = TIGRIS_TENSOR_INFO_VERSION;
    ASSERT_EQ(tigris_model_tensor(m, static_cast<size_t>(tigris_model_output(m, 0)), &out),
              TIGRIS_OK);
    const std::string rules =
        std::string("tensors:\n  - id: \"") + out.name + "\"\n    attributes: { memory: SRAM }\n";
    tigris_plan_options options;
    tigris_plan_options_init(&options, TIGRIS_PLAN_OPTIONS_VERSION);
    options.rules_yaml = rules.c_str();
    tigris_execution_plan* plan = nullptr;
    ASSERT_EQ(tigris_plan_for_target(&plan, m, &options,
                                     "memories:\n  - {name: DTCM, size: 256K}\n"
                                     "  - {name: SRAM, size: 1M}\n"
                                     "  - {name: FLASH, size: 4M, read_only: true}\n",
                                     "part.yaml"),
              TIGRIS_OK)
        << tigris_last_error();
    void* bytes = nullptr;
    size_t size = 0;
    ASSERT_EQ(tigris_emit(&bytes, &size, plan), TIGRIS_OK);
    AlignedBuffer copy = Aligned(size);
    std::memcpy(copy.get(), bytes, size);
    tigris_free(bytes);
    tigris_plan_free(plan);
    tigris_model_free(m);
    tgrs_plan loaded;
    EXPECT_EQ(tgrs_plan_init(&loaded, copy.get(), size), TGRS_ERR_UNSUPPORTED_OP);
    char text[200];
    tgrs_verify_error_format(&loaded.error, text, sizeof text);
    EXPECT_NE(std::string(text).find("memories[6]: a pinned arena: this runtime was built without"),
              std::string::npos)
        << text;
  }
  // An LZ4 block (the fixture's, really compressed: kws_small_cnn's float weights do not
  // shrink, so its blocks are stored raw): the plan verifies, and stage 0, which loads the
  // block before any op, fails.
  {
    auto p = Load(Serialize(FullPlan(/*compressed=*/true)));
    ASSERT_NE(p, nullptr);
    tgrs_plan_weight_block block;
    ASSERT_EQ(tgrs_plan_get_weight_block(&p->plan, 0, &block), TGRS_OK);
    ASSERT_LT(block.compressed_size, block.raw_size);
    const ReducedRun r = RunReduced(p->plan, Inputs(p->plan));
    EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
    EXPECT_EQ(r.stats.failed_stage, 0);
    EXPECT_EQ(r.stats.failed_op, -1);
  }
}

}  // namespace
}  // namespace tigris::runtime_test
