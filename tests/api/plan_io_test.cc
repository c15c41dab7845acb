// A plan's graph inputs and outputs (tigris_plan_input / _output), plan handles made from
// .tgrs bytes or files (tigris_plan_from_memory / _from_file) and tigris_plan_run
// (libtigris/api/plan_io.cc, run.cc). Expected names and shapes are the ONNX files' own
// declarations; a handle read back from its bytes must describe and run like the original.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::GeneratedModelsDir;
using tigris::testing::SharedOnnxModel;

struct PlanDeleter {
  void operator()(tigris_execution_plan* p) const { tigris_plan_free(p); }
};
using PlanPtr = std::unique_ptr<tigris_execution_plan, PlanDeleter>;

PlanPtr Compile(const std::string& path, uint64_t fast) {
  tigris_model* model = nullptr;
  EXPECT_EQ(tigris_load(&model, path.c_str(), nullptr), TIGRIS_OK) << tigris_last_error();
  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  options.fast_bytes = fast;
  tigris_execution_plan* plan = nullptr;
  EXPECT_EQ(tigris_plan(&plan, model, &options), TIGRIS_OK) << tigris_last_error();
  tigris_model_free(model);
  return PlanPtr(plan);
}

std::vector<uint8_t> Emit(const tigris_execution_plan* plan) {
  void* bytes = nullptr;
  size_t size = 0;
  EXPECT_EQ(tigris_emit(&bytes, &size, plan), TIGRIS_OK);
  std::vector<uint8_t> out(static_cast<uint8_t*>(bytes), static_cast<uint8_t*>(bytes) + size);
  tigris_free(bytes);
  return out;
}

tigris_tensor_info Info(const tigris_execution_plan* plan, size_t i, bool output) {
  tigris_tensor_info info;
  info.version = TIGRIS_TENSOR_INFO_VERSION;
  const tigris_status s =
      output ? tigris_plan_output(plan, i, &info) : tigris_plan_input(plan, i, &info);
  EXPECT_EQ(s, TIGRIS_OK) << tigris_plan_last_error(plan);
  return info;
}

std::vector<int64_t> Shape(const tigris_tensor_info& info) {
  return std::vector<int64_t>(info.shape, info.shape + info.rank);
}

TEST(PlanIoTest, FloatPlanDescribesTheOnnxInputsAndOutputs) {
  PlanPtr plan = Compile(SharedOnnxModel("mnist8.onnx"), 64 << 10);
  ASSERT_EQ(tigris_plan_input_count(plan.get()), 1u);
  ASSERT_EQ(tigris_plan_output_count(plan.get()), 1u);
  // mnist8.onnx declares input Input3 [1,1,28,28] and output Plus214_Output_0 [1,10], float.
  const tigris_tensor_info in = Info(plan.get(), 0, false);
  EXPECT_STREQ(in.name, "Input3");
  EXPECT_EQ(in.dtype, TIGRIS_DTYPE_FLOAT32);
  EXPECT_EQ(Shape(in), (std::vector<int64_t>{1, 1, 28, 28}));
  EXPECT_EQ(in.num_scales, 0u);
  EXPECT_EQ(in.is_constant, 0);
  const tigris_tensor_info out = Info(plan.get(), 0, true);
  EXPECT_STREQ(out.name, "Plus214_Output_0");
  EXPECT_EQ(Shape(out), (std::vector<int64_t>{1, 10}));
}

TEST(PlanIoTest, Int8PlanStatesItsQuantization) {
  PlanPtr plan = Compile(GeneratedModelsDir() + "/mnist8.int8.onnx", 64 << 10);
  const tigris_tensor_info in = Info(plan.get(), 0, false);
  EXPECT_EQ(in.dtype, TIGRIS_DTYPE_INT8);
  EXPECT_EQ(Shape(in), (std::vector<int64_t>{1, 1, 28, 28}));
  ASSERT_EQ(in.num_scales, 1u);
  // The QDQ model's input QuantizeLinear: scale 0.0278489, zero point 11
  // (tests/models/make_qdq_models.py; the same figures run_plan_test.cc quantizes with).
  EXPECT_NEAR(in.scales[0], 0.0278489f, 1e-6);
  EXPECT_EQ(in.zero_points[0], 11);
  const tigris_tensor_info out = Info(plan.get(), 0, true);
  ASSERT_EQ(out.num_scales, 1u);
  EXPECT_EQ(out.zero_points[0], 14);
}

TEST(PlanIoTest, PlanFromBytesDescribesAndRunsLikeTheCompiledOne) {
  PlanPtr compiled = Compile(SharedOnnxModel("mnist8.onnx"), 8 << 10);
  const std::vector<uint8_t> bytes = Emit(compiled.get());
  // Any alignment: the library copies the bytes.
  std::vector<uint8_t> shifted(bytes.size() + 3);
  std::memcpy(shifted.data() + 3, bytes.data(), bytes.size());
  tigris_execution_plan* raw = nullptr;
  ASSERT_EQ(tigris_plan_from_memory(&raw, shifted.data() + 3, bytes.size()), TIGRIS_OK)
      << tigris_last_error();
  PlanPtr loaded(raw);
  EXPECT_EQ(tigris_plan_file_bytes(loaded.get()), bytes.size());
  EXPECT_EQ(tigris_plan_fast_arena_bytes(loaded.get()),
            tigris_plan_fast_arena_bytes(compiled.get()));
  EXPECT_EQ(tigris_plan_slow_arena_bytes(loaded.get()),
            tigris_plan_slow_arena_bytes(compiled.get()));
  EXPECT_EQ(Emit(loaded.get()), bytes);
  EXPECT_STREQ(Info(loaded.get(), 0, false).name, Info(compiled.get(), 0, false).name);
  EXPECT_EQ(Shape(Info(loaded.get(), 0, true)), Shape(Info(compiled.get(), 0, true)));

  // tigris_plan_run on either handle gives the bytes tigris_run_plan gives on the file.
  std::vector<float> x(28 * 28);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37f * static_cast<float>(i));
  std::vector<float> y_ref(10), y_compiled(10), y_loaded(10);
  tigris_run_io in{TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, x.data(), x.size() * 4};
  tigris_run_io out{TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, y_ref.data(), 40};
  ASSERT_EQ(tigris_run_plan(bytes.data(), bytes.size(), nullptr, &in, 1, &out, 1, nullptr),
            TIGRIS_OK);
  out.data = y_compiled.data();
  tigris_run_stats stats;
  stats.version = TIGRIS_RUN_STATS_VERSION;
  ASSERT_EQ(tigris_plan_run(compiled.get(), nullptr, &in, 1, &out, 1, &stats), TIGRIS_OK)
      << tigris_plan_last_error(compiled.get());
  EXPECT_EQ((stats.fast_hwm_bytes + 15) / 16 * 16, tigris_plan_fast_arena_bytes(compiled.get()));
  out.data = y_loaded.data();
  ASSERT_EQ(tigris_plan_run(loaded.get(), nullptr, &in, 1, &out, 1, nullptr), TIGRIS_OK);
  EXPECT_EQ(std::memcmp(y_ref.data(), y_compiled.data(), 40), 0);
  EXPECT_EQ(std::memcmp(y_ref.data(), y_loaded.data(), 40), 0);

  // A run failure names the runtime status in the handle's message too.
  out.size = 12;
  EXPECT_EQ(tigris_plan_run(loaded.get(), nullptr, &in, 1, &out, 1, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_plan_last_error(loaded.get())).find("TGRS_ERR_OUTPUT_SIZE"),
            std::string::npos)
      << tigris_plan_last_error(loaded.get());
}

TEST(PlanIoTest, PlanFromFileReadsWhatEmitWrote) {
  PlanPtr compiled = Compile(SharedOnnxModel("mnist8.onnx"), 64 << 10);
  const std::string path =
      (std::filesystem::temp_directory_path() / "tigris_plan_io_test.tgrs").string();
  ASSERT_EQ(tigris_emit_to_file(compiled.get(), path.c_str()), TIGRIS_OK);
  tigris_execution_plan* raw = nullptr;
  ASSERT_EQ(tigris_plan_from_file(&raw, path.c_str()), TIGRIS_OK) << tigris_last_error();
  PlanPtr loaded(raw);
  EXPECT_EQ(Emit(loaded.get()), Emit(compiled.get()));
  std::filesystem::remove(path);

  raw = reinterpret_cast<tigris_execution_plan*>(&raw);  // must be reset to NULL on failure
  EXPECT_EQ(tigris_plan_from_file(&raw, path.c_str()), TIGRIS_ERR_IO);
  EXPECT_EQ(raw, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find(path), std::string::npos);
}

// A directory or an empty file where a plan belongs is a status naming the path and the
// cause, not a crash or a verifier complaint about zero bytes (issue 42).
TEST(PlanIoTest, PlanFromFileNamesADirectoryAndAnEmptyFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tigris_plan_io_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "plan.tgrs");
  tigris_execution_plan* raw = nullptr;
  const std::string folder = (dir / "plan.tgrs").string();
  EXPECT_EQ(tigris_plan_from_file(&raw, folder.c_str()), TIGRIS_ERR_IO);
  EXPECT_EQ(raw, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find("'" + folder + "': is a directory"),
            std::string::npos)
      << tigris_last_error();
  const std::string empty = (dir / "empty.tgrs").string();
  std::ofstream(empty).flush();
  EXPECT_EQ(tigris_plan_from_file(&raw, empty.c_str()), TIGRIS_ERR_INVALID_PLAN);
  EXPECT_NE(std::string(tigris_last_error()).find("'" + empty + "' is empty (0 bytes)"),
            std::string::npos)
      << tigris_last_error();
  std::filesystem::remove_all(dir);
}

// tigris_emit_to_file replaces the file whole or not at all, and leaves no temporary file.
TEST(PlanIoTest, EmitToFileReplacesTheFileWholeOrNotAtAll) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tigris_emit_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto listing = [&] {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  const auto slurp = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  PlanPtr plan = Compile(SharedOnnxModel("mnist8.onnx"), 64 << 10);
  const std::vector<uint8_t> bytes = Emit(plan.get());
  const std::string path = (dir / "plan.tgrs").string();
  std::ofstream(path) << "an older plan";
  ASSERT_EQ(tigris_emit_to_file(plan.get(), path.c_str()), TIGRIS_OK);
  EXPECT_EQ(slurp(path), std::string(bytes.begin(), bytes.end()));
  EXPECT_EQ(listing(), std::vector<std::string>{"plan.tgrs"});

  // A directory at the path: the rename fails, and the directory keeps what it held.
  std::filesystem::create_directories(dir / "taken" / "inside");
  const std::string taken = (dir / "taken").string();
  EXPECT_EQ(tigris_emit_to_file(plan.get(), taken.c_str()), TIGRIS_ERR_IO);
  const std::string message = tigris_plan_last_error(plan.get());
  EXPECT_NE(message.find("cannot write the plan to '" + taken + "': cannot rename '"),
            std::string::npos)
      << message;
  EXPECT_TRUE(std::filesystem::is_directory(dir / "taken" / "inside"));
  EXPECT_EQ(listing(), (std::vector<std::string>{"plan.tgrs", "taken"}));
  EXPECT_EQ(slurp(path), std::string(bytes.begin(), bytes.end()));
  std::filesystem::remove_all(dir);
}

TEST(PlanIoTest, BadBytesAndArgumentsGetNamedStatuses) {
  PlanPtr compiled = Compile(SharedOnnxModel("mnist8.onnx"), 64 << 10);
  std::vector<uint8_t> bytes = Emit(compiled.get());
  tigris_execution_plan* raw = nullptr;
  EXPECT_EQ(tigris_plan_from_memory(&raw, nullptr, 10), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan_from_memory(&raw, bytes.data(), 0), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan_from_memory(nullptr, bytes.data(), bytes.size()),
            TIGRIS_ERR_INVALID_ARGUMENT);
  // The file identifier "TGRS" sits at bytes 4..7: break it.
  bytes[5] ^= 0x20;
  EXPECT_EQ(tigris_plan_from_memory(&raw, bytes.data(), bytes.size()), TIGRIS_ERR_INVALID_PLAN);
  EXPECT_EQ(raw, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find("TGRS_ERR_"), std::string::npos)
      << tigris_last_error();
  // Truncated: the verifier bounds every offset.
  bytes[5] ^= 0x20;
  EXPECT_EQ(tigris_plan_from_memory(&raw, bytes.data(), bytes.size() / 2), TIGRIS_ERR_INVALID_PLAN);

  tigris_tensor_info info;
  info.version = TIGRIS_TENSOR_INFO_VERSION;
  EXPECT_EQ(tigris_plan_input(compiled.get(), 1, &info), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_plan_last_error(compiled.get())).find("index 1 out of range"),
            std::string::npos);
  EXPECT_EQ(tigris_plan_output(nullptr, 0, &info), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan_output(compiled.get(), 0, nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  info.version = 99;
  EXPECT_EQ(tigris_plan_output(compiled.get(), 0, &info), TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(tigris_plan_input_count(nullptr), 0u);
  EXPECT_EQ(tigris_plan_run(nullptr, nullptr, nullptr, 0, nullptr, 0, nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
}

}  // namespace
