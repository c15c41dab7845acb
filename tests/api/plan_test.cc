// tigris_plan / tigris_emit through the C ABI: options, the budget errors with both numbers
// in the message, bytes handed out and written, NULL handling.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::SharedOnnxModel;

struct ModelDeleter {
  void operator()(tigris_model* m) const { tigris_model_free(m); }
};
struct PlanDeleter {
  void operator()(tigris_execution_plan* p) const { tigris_plan_free(p); }
};
using ModelPtr = std::unique_ptr<tigris_model, ModelDeleter>;
using PlanPtr = std::unique_ptr<tigris_execution_plan, PlanDeleter>;

ModelPtr Load(const std::string& file) {
  tigris_model* m = nullptr;
  EXPECT_EQ(tigris_load(&m, SharedOnnxModel(file).c_str(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  return ModelPtr(m);
}

tigris_plan_options Options(uint64_t fast) {
  tigris_plan_options o = TIGRIS_PLAN_OPTIONS_INIT;
  o.fast_bytes = fast;
  return o;
}

TEST(PlanApiTest, OptionsInitGivesTheDefaults) {
  tigris_plan_options o;
  std::memset(&o, 0xff, sizeof o);
  ASSERT_EQ(tigris_plan_options_init(&o, TIGRIS_PLAN_OPTIONS_VERSION), TIGRIS_OK);
  EXPECT_EQ(o.version, TIGRIS_PLAN_OPTIONS_VERSION);
  EXPECT_EQ(o.fast_bytes, 0u);
  EXPECT_EQ(o.xip, TIGRIS_WEIGHTS_AUTO);
  EXPECT_EQ(o.compression, TIGRIS_COMPRESSION_NONE);
  EXPECT_EQ(tigris_plan_options_init(&o, 99), TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(tigris_plan_options_init(nullptr, 1), TIGRIS_ERR_INVALID_ARGUMENT);
}

// Version 6's strip_names: the plan loses its op and intermediate tensor names; a version-5
// caller's struct ends before the field, which is then not read (and names stay).
TEST(PlanApiTest, StripNamesSinceVersionSix) {
  ModelPtr m = Load("mnist8.onnx");
  const auto emitted_size = [&](tigris_plan_options o) {
    tigris_execution_plan* raw = nullptr;
    EXPECT_EQ(tigris_plan(&raw, m.get(), &o), TIGRIS_OK) << tigris_last_error();
    PlanPtr p(raw);
    return tigris_plan_file_bytes(p.get());
  };
  tigris_plan_options o = Options(64 * 1024);
  EXPECT_EQ(o.strip_names, 0);
  const uint64_t named = emitted_size(o);
  o.strip_names = 1;
  const uint64_t stripped = emitted_size(o);
  EXPECT_LT(stripped, named);
  o.version = 5;  // strip_names lies past a version-5 struct and is not read
  EXPECT_EQ(emitted_size(o), named);
}

TEST(PlanApiTest, PlansEmitsAndWrites) {
  ModelPtr m = Load("mnist8.onnx");
  tigris_plan_options o = Options(64 * 1024);
  o.xip = TIGRIS_WEIGHTS_IN_PLACE;
  tigris_execution_plan* raw = nullptr;
  ASSERT_EQ(tigris_plan(&raw, m.get(), &o), TIGRIS_OK) << tigris_last_error();
  PlanPtr p(raw);
  // mnist8's weights: conv 8x1x5x5 + 8 bias, conv 16x8x5x5 + 16 bias, gemm 10x256 + 10,
  // all float: (200 + 8 + 3200 + 16 + 2560 + 10) * 4 = 23976 bytes.
  EXPECT_EQ(tigris_plan_weight_bytes(p.get()), 23976u);
  EXPECT_EQ(tigris_plan_stored_weight_bytes(p.get()), 23976u);  // xip, uncompressed
  EXPECT_GT(tigris_plan_file_bytes(p.get()), 23976u);
  EXPECT_GT(tigris_plan_fast_arena_bytes(p.get()), 0u);
  EXPECT_LE(tigris_plan_fast_arena_bytes(p.get()), 64u * 1024);

  void* bytes = nullptr;
  size_t size = 0;
  ASSERT_EQ(tigris_emit(&bytes, &size, p.get()), TIGRIS_OK);
  EXPECT_EQ(size, tigris_plan_file_bytes(p.get()));
  ASSERT_GE(size, 8u);
  EXPECT_EQ(std::memcmp(static_cast<const char*>(bytes) + 4, "TGRS", 4), 0);  // file_identifier

  const std::string path =
      (std::filesystem::temp_directory_path() / "tigris_plan_test.tgrs").string();
  ASSERT_EQ(tigris_emit_to_file(p.get(), path.c_str()), TIGRIS_OK);
  std::ifstream in(path, std::ios::binary);
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(file.size(), size);
  EXPECT_EQ(std::memcmp(file.data(), bytes, size), 0);
  tigris_free(bytes);
  tigris_free(nullptr);
  std::filesystem::remove(path);

  EXPECT_EQ(tigris_emit_to_file(p.get(), "/nonexistent-dir/x.tgrs"), TIGRIS_ERR_IO);
  EXPECT_NE(std::string(tigris_plan_last_error(p.get())).find("/nonexistent-dir/x.tgrs"),
            std::string::npos);
}

TEST(PlanApiTest, StageThatDoesNotFitNamesItsOps) {
  // mobilenet_v2_035_144 at 4K: every other layer fits with 2-D tiles and channel groups
  // (docs/planning.md), but the classifier (a 1x1 convolution after normalization) reads
  // 1280 floats and writes 1000, 5120 + 4000 = 9120 bytes at once; in groups of one output
  // channel it still reads all 1280: 5120 + 16 (one float, aligned) = 5136 > 4096.
  ModelPtr m = Load("mobilenet_v2_035_144.onnx");
  tigris_plan_options o = Options(4 * 1024);
  tigris_execution_plan* p = nullptr;
  EXPECT_EQ(tigris_plan(&p, m.get(), &o), TIGRIS_ERR_DOES_NOT_FIT);
  EXPECT_EQ(p, nullptr);
  const std::string msg = tigris_model_last_error(m.get());
  EXPECT_NE(msg.find("'/classifier/classifier.1/Gemm'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 9120 bytes untiled, over the fast budget of 4096"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("1-channel groups 5136"), std::string::npos) << msg;
  EXPECT_EQ(msg, tigris_last_error());
}

TEST(PlanApiTest, CopiedWeightsCountAgainstTheFastBudget) {
  // vww_mobilenetv1_025_96 fits 64K with weights in flash; without xip the planner reserves
  // each stage's weights in the same 64K, and one stage's weights alone exceed it: the
  // error names them and the budget.
  ModelPtr m = Load("vww_mobilenetv1_025_96.onnx");
  tigris_plan_options o = Options(64 * 1024);
  tigris_execution_plan* p = nullptr;
  ASSERT_EQ(tigris_plan(&p, m.get(), &o), TIGRIS_OK);
  tigris_plan_free(p);
  o.xip = TIGRIS_WEIGHTS_COPIED;
  p = nullptr;
  EXPECT_EQ(tigris_plan(&p, m.get(), &o), TIGRIS_ERR_DOES_NOT_FIT);
  const std::string msg = tigris_last_error();
  EXPECT_NE(msg.find("bytes of weights copied to fast memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("weights alone need"), std::string::npos) << msg;
  EXPECT_NE(msg.find("65536"), std::string::npos) << msg;
}

TEST(PlanApiTest, FlashBudgetTooSmallStatesBothNumbers) {
  ModelPtr m = Load("mnist8.onnx");
  tigris_plan_options o = Options(64 * 1024);
  o.flash_bytes = 4096;
  tigris_execution_plan* p = nullptr;
  EXPECT_EQ(tigris_plan(&p, m.get(), &o), TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL);
  const std::string msg = tigris_last_error();
  EXPECT_NE(msg.find("flash budget is 4096 bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the plan is 26"), std::string::npos) << msg;  // 26,5xx bytes (> weights)
}

TEST(PlanApiTest, BadArguments) {
  ModelPtr m = Load("mnist8.onnx");
  tigris_plan_options o = Options(64 * 1024);
  tigris_execution_plan* p = reinterpret_cast<tigris_execution_plan*>(&o);
  EXPECT_EQ(tigris_plan(&p, nullptr, &o), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(tigris_plan(nullptr, m.get(), &o), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan(&p, m.get(), nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  tigris_plan_options zero = Options(0);
  EXPECT_EQ(tigris_plan(&p, m.get(), &zero), TIGRIS_ERR_INVALID_BUDGET);
  tigris_plan_options version = Options(1024);
  version.version = 7;
  EXPECT_EQ(tigris_plan(&p, m.get(), &version), TIGRIS_ERR_VERSION_MISMATCH);
  tigris_plan_options lz4_xip = Options(64 * 1024);
  lz4_xip.xip = TIGRIS_WEIGHTS_IN_PLACE;
  lz4_xip.compression = TIGRIS_COMPRESSION_LZ4;
  EXPECT_EQ(tigris_plan(&p, m.get(), &lz4_xip), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("in place"), std::string::npos);
  tigris_plan_options bad_weights = Options(64 * 1024);
  bad_weights.xip = 4;  // 0..3 are tigris_weights values
  EXPECT_EQ(tigris_plan(&p, m.get(), &bad_weights), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("tigris_plan_options.xip"), std::string::npos);
  tigris_plan_options bad_codec = Options(64 * 1024);
  bad_codec.compression = static_cast<tigris_compression>(9);
  EXPECT_EQ(tigris_plan(&p, m.get(), &bad_codec), TIGRIS_ERR_INVALID_ARGUMENT);
  // NULL handles: accessors return zero, free accepts NULL.
  EXPECT_EQ(tigris_plan_file_bytes(nullptr), 0u);
  EXPECT_STREQ(tigris_plan_last_error(nullptr), "");
  tigris_plan_free(nullptr);
  void* bytes = &o;
  size_t size = 3;
  EXPECT_EQ(tigris_emit(&bytes, &size, nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(bytes, nullptr);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(tigris_emit_to_file(nullptr, "x"), TIGRIS_ERR_INVALID_ARGUMENT);
}

TEST(PlanApiTest, Lz4PlanWithoutXip) {
  ModelPtr m = Load("vww_small_cnn.onnx");
  for (int weights : {TIGRIS_WEIGHTS_COPIED, TIGRIS_WEIGHTS_AUTO}) {
    SCOPED_TRACE(weights);
    tigris_plan_options o = Options(256 * 1024);
    o.xip = weights;  // AUTO with LZ4: every stage decompresses its block
    o.compression = TIGRIS_COMPRESSION_LZ4;
    tigris_execution_plan* raw = nullptr;
    ASSERT_EQ(tigris_plan(&raw, m.get(), &o), TIGRIS_OK) << tigris_last_error();
    PlanPtr p(raw);
    EXPECT_LT(tigris_plan_stored_weight_bytes(p.get()), tigris_plan_weight_bytes(p.get()));
    EXPECT_LE(tigris_plan_fast_arena_bytes(p.get()), 256u * 1024);
  }
}

TEST(PlanApiTest, AutoWeightsNeverMakeAPlanInfeasible) {
  // mobilenet_v2_035_144 at 256K: one stage's weights alone exceed the budget, so
  // copying every stage fails; in place fits, and auto fits too, copying only within the
  // budget: its arena lies above the in-place one (activations alone), at most the budget.
  ModelPtr m = Load("mobilenet_v2_035_144.onnx");
  tigris_plan_options o = Options(256 * 1024);
  o.xip = TIGRIS_WEIGHTS_COPIED;
  tigris_execution_plan* copied = nullptr;
  EXPECT_EQ(tigris_plan(&copied, m.get(), &o), TIGRIS_ERR_DOES_NOT_FIT);
  o.xip = TIGRIS_WEIGHTS_IN_PLACE;
  tigris_execution_plan* raw = nullptr;
  ASSERT_EQ(tigris_plan(&raw, m.get(), &o), TIGRIS_OK) << tigris_last_error();
  PlanPtr in_place(raw);
  o.xip = TIGRIS_WEIGHTS_AUTO;
  raw = nullptr;
  ASSERT_EQ(tigris_plan(&raw, m.get(), &o), TIGRIS_OK) << tigris_last_error();
  PlanPtr automatic(raw);
  EXPECT_GT(tigris_plan_fast_arena_bytes(automatic.get()),
            tigris_plan_fast_arena_bytes(in_place.get()));
  EXPECT_LE(tigris_plan_fast_arena_bytes(automatic.get()), 256u * 1024);
  // A constant read by a copying stage and an in-place one is stored in both places.
  EXPECT_GE(tigris_plan_weight_bytes(automatic.get()), tigris_plan_weight_bytes(in_place.get()));
}

}  // namespace

namespace {

TEST(PlanApiTest, PlanForTargetChecksItsArguments) {
  ModelPtr m = Load("mnist8.onnx");
  const char* yaml =
      "memories: [{name: SRAM, size: 64K}, {name: FLASH, size: 1M, read_only: true}]";
  tigris_plan_options o = TIGRIS_PLAN_OPTIONS_INIT;
  tigris_execution_plan* p = nullptr;
  ASSERT_EQ(tigris_plan_for_target(&p, m.get(), &o, yaml, "t.yaml"), TIGRIS_OK)
      << tigris_last_error();
  PlanPtr plan(p);
  // The memories JSON names the target's memories, in order.
  const std::string json = tigris_plan_memories_json(plan.get());
  EXPECT_EQ(json.find("\"name\":\"SRAM\""), json.find("\"name\""));
  EXPECT_NE(json.find("\"role\":\"plan\""), std::string::npos) << json;
  EXPECT_STREQ(tigris_plan_memories_json(nullptr), "[]");

  o.fast_bytes = 1024;  // the target gives the sizes
  p = nullptr;
  EXPECT_EQ(tigris_plan_for_target(&p, m.get(), &o, yaml, "t.yaml"), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("leave fast_bytes"), std::string::npos);
  o.fast_bytes = 0;
  EXPECT_EQ(tigris_plan_for_target(&p, m.get(), &o, nullptr, "t.yaml"),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan_for_target(&p, nullptr, &o, yaml, "t.yaml"), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_plan_for_target(&p, m.get(), &o, "memories: [", nullptr),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tigris_last_error()).rfind("target:", 0), 0u) << tigris_last_error();
  EXPECT_EQ(p, nullptr);
}

}  // namespace
