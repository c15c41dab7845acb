// tigris_run_plan (libtigris/api/run.cc): the C ABI entry the CLI and the bindings use to
// run a plan on the host. Checks the float <-> int8 conversions against the plan's own
// scales (ONNX QuantizeLinear / DequantizeLinear), the statuses and messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::GeneratedModelsDir;
using tigris::testing::SharedOnnxModel;

std::vector<uint8_t> Compile(const std::string& path, uint64_t fast) {
  tigris_model* model = nullptr;
  EXPECT_EQ(tigris_load(&model, path.c_str(), nullptr), TIGRIS_OK) << tigris_last_error();
  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  options.fast_bytes = fast;
  tigris_execution_plan* plan = nullptr;
  EXPECT_EQ(tigris_plan(&plan, model, &options), TIGRIS_OK) << tigris_last_error();
  void* bytes = nullptr;
  size_t size = 0;
  EXPECT_EQ(tigris_emit(&bytes, &size, plan), TIGRIS_OK);
  std::vector<uint8_t> out(static_cast<uint8_t*>(bytes), static_cast<uint8_t*>(bytes) + size);
  tigris_free(bytes);
  tigris_plan_free(plan);
  tigris_model_free(model);
  return out;
}

tigris_run_io Io(tigris_dtype dtype, void* data, size_t size) {
  return tigris_run_io{TIGRIS_RUN_IO_VERSION, dtype, data, size};
}

TEST(RunPlanTest, FloatPlanRunsWithThePlansArenas) {
  const std::vector<uint8_t> plan = Compile(SharedOnnxModel("mnist8.onnx"), 8 << 10);
  std::vector<float> x(28 * 28, 0.25f), y(10, NAN);
  tigris_run_io in = Io(TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4);
  tigris_run_io out = Io(TIGRIS_DTYPE_FLOAT32, y.data(), y.size() * 4);
  tigris_run_stats stats;
  stats.version = TIGRIS_RUN_STATS_VERSION;
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in, 1, &out, 1, &stats), TIGRIS_OK)
      << tigris_last_error();
  for (float v : y) EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(stats.runtime_status, 0);
  EXPECT_EQ((stats.fast_hwm_bytes + 15) / 16 * 16, stats.fast_arena_bytes);
  EXPECT_EQ(stats.fast_untouched_beyond_hwm, 1);
  EXPECT_EQ(stats.slow_untouched_beyond_hwm, 1);
  EXPECT_GT(stats.slow_arena_bytes, 0u);

  // Unaligned plan bytes are fine: the library copies them.
  std::vector<uint8_t> shifted(plan.size() + 1);
  std::memcpy(shifted.data() + 1, plan.data(), plan.size());
  std::vector<float> y2(10);
  tigris_run_io out2 = Io(TIGRIS_DTYPE_FLOAT32, y2.data(), y2.size() * 4);
  ASSERT_EQ(tigris_run_plan(shifted.data() + 1, plan.size(), nullptr, &in, 1, &out2, 1, nullptr),
            TIGRIS_OK);
  EXPECT_EQ(std::memcmp(y.data(), y2.data(), 40), 0);
}

// A version-1 caller's tigris_run_stats ends before the pinned arena's fields (version 2):
// the library writes none of them.
TEST(RunPlanTest, Version1StatsAreWrittenOnlyAsFarAsVersion1Reaches) {
  const std::vector<uint8_t> plan = Compile(SharedOnnxModel("mnist8.onnx"), 8 << 10);
  std::vector<float> x(28 * 28, 0.25f), y(10);
  tigris_run_io in = Io(TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4);
  tigris_run_io out = Io(TIGRIS_DTYPE_FLOAT32, y.data(), y.size() * 4);
  const size_t v1 = offsetof(tigris_run_stats, pinned_arena_bytes);
  std::vector<uint8_t> block(sizeof(tigris_run_stats), 0xA5);
  tigris_run_stats* stats = reinterpret_cast<tigris_run_stats*>(block.data());
  stats->version = 1;
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in, 1, &out, 1, stats), TIGRIS_OK);
  EXPECT_GT(stats->fast_arena_bytes, 0u);
  for (size_t i = v1; i < block.size(); ++i) ASSERT_EQ(block[i], 0xA5) << "byte " << i;
  stats->version = 2;
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in, 1, &out, 1, stats), TIGRIS_OK);
  EXPECT_EQ(stats->pinned_arena_bytes, 0u);  // mnist8 at 8K pins nothing
  EXPECT_EQ(stats->pinned_hwm_bytes, 0u);
}

TEST(RunPlanTest, Int8PlanQuantizesFloatInputsAndDequantizesOutputs) {
  const std::string model = GeneratedModelsDir() + "/mnist8.int8.onnx";
  const std::vector<uint8_t> plan = Compile(model, 64 << 10);
  // Input scale 0.0278489, zero point 11 (docs: tigris inspect of this plan). Quantizing the
  // float input by hand must give the same int8 input and so the same int8 output.
  std::vector<float> x(28 * 28);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 17) * 0.1f - 0.8f;
  std::vector<int8_t> xq(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float q = std::nearbyint(x[i] / 0.0278489f) + 11;  // round half to even
    xq[i] = static_cast<int8_t>(std::fmax(-128.f, std::fmin(127.f, q)));
  }
  std::vector<int8_t> y_from_float(10), y_from_int8(10);
  std::vector<float> y_real(10);
  tigris_run_io in_f = Io(TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4);
  tigris_run_io in_q = Io(TIGRIS_DTYPE_INT8, xq.data(), xq.size());
  tigris_run_io out_q = Io(TIGRIS_DTYPE_INT8, y_from_float.data(), 10);
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in_f, 1, &out_q, 1, nullptr),
            TIGRIS_OK)
      << tigris_last_error();
  out_q.data = y_from_int8.data();
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in_q, 1, &out_q, 1, nullptr),
            TIGRIS_OK);
  EXPECT_EQ(y_from_float, y_from_int8);
  tigris_run_io out_f = Io(TIGRIS_DTYPE_FLOAT32, y_real.data(), 40);
  ASSERT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in_q, 1, &out_f, 1, nullptr),
            TIGRIS_OK);
  // Output scale 0.0448624 (6 digits as inspect prints it), zero point 14:
  // real = (q - 14) * scale; one zero point off would be 0.045 away.
  for (int i = 0; i < 10; ++i) {
    EXPECT_NEAR(y_real[i], static_cast<float>(y_from_int8[i] - 14) * 0.0448624f, 1e-5);
  }
}

TEST(RunPlanTest, BadArgumentsNameTheRuntimeStatus) {
  const std::vector<uint8_t> plan = Compile(SharedOnnxModel("mnist8.onnx"), 64 << 10);
  std::vector<float> x(28 * 28), y(10);
  tigris_run_io in = Io(TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4 - 4);
  tigris_run_io out = Io(TIGRIS_DTYPE_FLOAT32, y.data(), 40);
  EXPECT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("TGRS_ERR_INPUT_SIZE"), std::string::npos)
      << tigris_last_error();
  in.size += 4;
  tigris_run_options options = TIGRIS_RUN_OPTIONS_INIT;
  options.fast_bytes = 1024;
  EXPECT_EQ(tigris_run_plan(plan.data(), plan.size(), &options, &in, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("TGRS_ERR_ARENA_TOO_SMALL"), std::string::npos);
  std::vector<uint8_t> broken = plan;
  broken[4] = 'X';  // the file identifier
  EXPECT_EQ(tigris_run_plan(broken.data(), broken.size(), nullptr, &in, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("TGRS_ERR_BAD_IDENTIFIER"), std::string::npos);
  tigris_run_io wrong = Io(TIGRIS_DTYPE_INT8, x.data(), x.size());
  EXPECT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &wrong, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  tigris_run_stats stats;
  stats.version = 99;
  EXPECT_EQ(tigris_run_plan(plan.data(), plan.size(), nullptr, &in, 1, &out, 1, &stats),
            TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(tigris_run_plan(nullptr, 0, nullptr, &in, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
}

}  // namespace
