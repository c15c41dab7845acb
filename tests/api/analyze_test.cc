// tigris_analyze through the C ABI: options, bad budgets, the accessors and the JSON on a
// graph small enough to plan by hand (docs/memory-model.md), and the SVG.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/onnx_builder.h"
#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::OnnxModelBuilder;
using tigris::testing::SharedOnnxModel;

struct ModelDeleter {
  void operator()(tigris_model* m) const { tigris_model_free(m); }
};
struct AnalysisDeleter {
  void operator()(tigris_analysis* a) const { tigris_analysis_free(a); }
};
using ModelPtr = std::unique_ptr<tigris_model, ModelDeleter>;
using AnalysisPtr = std::unique_ptr<tigris_analysis, AnalysisDeleter>;

// x [1,1,8,8] float32 -> Relu "relu_a" -> Relu "relu_b" -> y. Every tensor is 8*8*4 =
// 256 bytes, a multiple of the 16-byte alignment.
ModelPtr TwoRelus() {
  OnnxModelBuilder b("two_relus", 13);
  b.Input("x", {1, 1, 8, 8});
  b.Node("Relu", {"x"}, {"a"}, "relu_a");
  b.Node("Relu", {"a"}, {"y"}, "relu_b");
  b.Output("y", {1, 1, 8, 8});
  const std::string bytes = b.Bytes();
  tigris_model* m = nullptr;
  EXPECT_EQ(tigris_load_from_memory(&m, bytes.data(), bytes.size(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  return ModelPtr(m);
}

ModelPtr LoadShared(const std::string& file) {
  tigris_model* m = nullptr;
  EXPECT_EQ(tigris_load(&m, SharedOnnxModel(file).c_str(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  return ModelPtr(m);
}

tigris_analyze_options Budget(uint64_t fast, uint64_t slow = 0, uint64_t flash = 0) {
  tigris_analyze_options o = TIGRIS_ANALYZE_OPTIONS_INIT;
  o.fast_bytes = fast;
  o.slow_bytes = slow;
  o.flash_bytes = flash;
  return o;
}

AnalysisPtr Analyze(const tigris_model* m, const tigris_analyze_options& o) {
  tigris_analysis* a = nullptr;
  EXPECT_EQ(tigris_analyze(&a, m, &o), TIGRIS_OK) << tigris_last_error();
  return AnalysisPtr(a);
}

TEST(AnalyzeTest, OptionsInitMatchesTheMacroAndChecksTheVersion) {
  tigris_analyze_options o;
  o.version = -7;
  o.fast_bytes = 99;
  ASSERT_EQ(tigris_analyze_options_init(&o, TIGRIS_ANALYZE_OPTIONS_VERSION), TIGRIS_OK);
  const tigris_analyze_options want = TIGRIS_ANALYZE_OPTIONS_INIT;
  EXPECT_EQ(o.version, want.version);
  EXPECT_EQ(o.fast_bytes, 0u);
  EXPECT_EQ(o.slow_bytes, 0u);
  EXPECT_EQ(o.flash_bytes, 0u);
  EXPECT_EQ(tigris_analyze_options_init(&o, 99), TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(tigris_analyze_options_init(nullptr, 1), TIGRIS_ERR_INVALID_ARGUMENT);
}

TEST(AnalyzeTest, OptionsInitDefaultsToTheGreedyLayout) {
  tigris_analyze_options o;
  ASSERT_EQ(tigris_analyze_options_init(&o, TIGRIS_ANALYZE_OPTIONS_VERSION), TIGRIS_OK);
  EXPECT_EQ(o.layout, TIGRIS_LAYOUT_GREEDY);
  EXPECT_EQ(o.time_limit_seconds, 10.0);
  EXPECT_EQ(o.progress, nullptr);
  EXPECT_EQ(o.progress_user_data, nullptr);
}

// A caller built against the version-1 header has a struct that ends at flash_bytes: init
// must not write past it, and analyze must not read the version-2 fields.
TEST(AnalyzeTest, AVersionOneStructIsNeitherOverwrittenNorReadPastItsEnd) {
  constexpr size_t kV1Size = offsetof(tigris_analyze_options, layout);
  alignas(tigris_analyze_options) unsigned char bytes[sizeof(tigris_analyze_options)];
  std::memset(bytes, 0xAB, sizeof bytes);
  auto* o = reinterpret_cast<tigris_analyze_options*>(bytes);
  ASSERT_EQ(tigris_analyze_options_init(o, 1), TIGRIS_OK);
  EXPECT_EQ(o->version, 1);
  EXPECT_EQ(o->fast_bytes, 0u);
  for (size_t i = kV1Size; i < sizeof bytes; ++i) EXPECT_EQ(bytes[i], 0xAB) << "byte " << i;

  // The 0xAB bytes where a version-2 struct has its layout fields are not looked at.
  ModelPtr m = TwoRelus();
  o->fast_bytes = 1 << 20;
  AnalysisPtr a = Analyze(m.get(), *o);
  ASSERT_TRUE(a);
  const auto j = nlohmann::json::parse(tigris_analysis_json(a.get()));
  EXPECT_EQ(j["budget"]["layout"], "greedy");
}

// x [1, 16] -> Gemm (64) -> Relu -> Gemm (64) -> Relu -> Gemm (2) -> y: its last pair
// needs 512 B unsplit; split (fdt-fan-out-fan-in) far less.
ModelPtr SmallMlp() {
  OnnxModelBuilder b("small_mlp", 13);
  b.Input("x", {1, 16});
  const int64_t widths[] = {16, 64, 64, 2};
  std::string in = "x";
  for (int i = 0; i < 3; ++i) {
    const std::string id = std::to_string(i), out = i == 2 ? "y" : "h" + id;
    b.Initializer("w" + id, {widths[i + 1], widths[i]},
                  std::vector<float>(static_cast<size_t>(widths[i + 1] * widths[i]), 0.01f));
    b.Node("Gemm", {in, "w" + id}, {i == 2 ? out : "g" + id}, "fc" + id).Attr("transB", int64_t{1});
    if (i < 2) b.Node("Relu", {"g" + id}, {out}, "relu" + id);
    in = out;
  }
  b.Output("y", {1, 2});
  const std::string bytes = b.Bytes();
  tigris_model* m = nullptr;
  EXPECT_EQ(tigris_load_from_memory(&m, bytes.data(), bytes.size(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  return ModelPtr(m);
}

std::vector<std::string> RewriteKinds(const tigris_analysis* a) {
  std::vector<std::string> kinds;
  const nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(a));
  for (const auto& r : j["rewrites"]) kinds.push_back(r["kind"]);
  return kinds;
}

// `fdt` (version 3) defaults to on; 0 plans with feature-map tiling alone, and a version-2
// struct, which has no such field, plans as the default does.
TEST(AnalyzeTest, TheFdtSwitchTurnsTheSplitsOff) {
  ModelPtr m = SmallMlp();
  tigris_analyze_options o = Budget(400);
  EXPECT_EQ(o.fdt, 1);
  AnalysisPtr split = Analyze(m.get(), o);
  EXPECT_EQ(RewriteKinds(split.get()), std::vector<std::string>{"fdt-fan-out-fan-in"});
  EXPECT_NE(tigris_analysis_verdict(split.get()), TIGRIS_VERDICT_NEEDS_WORK);
  o.fdt = 0;
  AnalysisPtr unsplit = Analyze(m.get(), o);
  EXPECT_TRUE(RewriteKinds(unsplit.get()).empty());
  EXPECT_LT(tigris_analysis_scheduled_peak_bytes(split.get()),
            tigris_analysis_scheduled_peak_bytes(unsplit.get()));
  o.version = 2;  // `fdt` (still 0) lies past a version-2 struct and is not read
  AnalysisPtr v2 = Analyze(m.get(), o);
  EXPECT_EQ(RewriteKinds(v2.get()), std::vector<std::string>{"fdt-fan-out-fan-in"});
}

// `objective` (version 4): the search's plan needs no more than the single pass's, its
// JSON lists the plans with the chosen one, and the progress callback hears it on the
// calling thread; a version-3 struct, which has no such field, plans once.
TEST(AnalyzeTest, TheMemoryObjectiveSearchesAndReportsWhatItFound) {
  ModelPtr m = LoadShared("kws_small_cnn.onnx");
  tigris_analyze_options o = Budget(16 * 1024);
  EXPECT_EQ(o.objective, TIGRIS_OBJECTIVE_NONE);
  EXPECT_LT(o.max_recompute_percent, 0);
  AnalysisPtr single = Analyze(m.get(), o);
  EXPECT_FALSE(nlohmann::json::parse(tigris_analysis_json(single.get())).contains("exploration"));

  struct Heard {
    std::vector<std::string> messages;
    std::thread::id thread;
    bool other_thread = false;
  } heard;
  heard.thread = std::this_thread::get_id();
  o.objective = TIGRIS_OBJECTIVE_MEMORY;
  o.progress = [](const char* message, void* user) {
    auto* h = static_cast<Heard*>(user);
    h->messages.emplace_back(message);
    h->other_thread = h->other_thread || std::this_thread::get_id() != h->thread;
  };
  o.progress_user_data = &heard;
  AnalysisPtr searched = Analyze(m.get(), o);
  ASSERT_TRUE(searched);
  EXPECT_LE(tigris_analysis_scheduled_peak_bytes(searched.get()),
            tigris_analysis_scheduled_peak_bytes(single.get()));
  const auto j = nlohmann::json::parse(tigris_analysis_json(searched.get()));
  const auto& e = j.at("exploration");
  EXPECT_EQ(e.at("objective"), "memory");
  ASSERT_TRUE(e.at("chosen").is_number());
  const auto& chosen = e.at("plans").at(e.at("chosen").get<size_t>());
  EXPECT_EQ(chosen.at("fast_bytes"), j.at("scheduled_peak_bytes"));
  EXPECT_TRUE(chosen.at("on_front").get<bool>());
  for (const auto& p : e.at("plans")) {
    EXPECT_GE(p.at("fast_bytes").get<uint64_t>(), chosen.at("fast_bytes").get<uint64_t>());
  }
  ASSERT_FALSE(heard.messages.empty());
  EXPECT_FALSE(heard.other_thread);
  const std::string last = heard.messages.back();
  EXPECT_EQ(last.rfind("explore: ", 0), 0u) << last;
  const std::string all = std::to_string(e.at("configurations").get<int>());
  EXPECT_NE(last.find(all + "/" + all + " configurations"), std::string::npos) << last;

  o.version = 3;  // `objective` lies past a version-3 struct and is not read
  AnalysisPtr v3 = Analyze(m.get(), o);
  EXPECT_FALSE(nlohmann::json::parse(tigris_analysis_json(v3.get())).contains("exploration"));
}

TEST(AnalyzeTest, BadSearchOptionsNameTheField) {
  ModelPtr m = TwoRelus();
  tigris_analysis* a = nullptr;
  tigris_analyze_options o = Budget(1 << 20);
  o.objective = static_cast<tigris_objective>(9);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &o), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("tigris_analyze_options.objective"),
            std::string::npos);
  o.objective = TIGRIS_OBJECTIVE_LATENCY;
  o.max_recompute_percent = std::nan("");
  EXPECT_EQ(tigris_analyze(&a, m.get(), &o), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("max_recompute_percent"), std::string::npos);
  EXPECT_EQ(a, nullptr);
}

TEST(AnalyzeTest, BadLayoutOptionsNameTheField) {
  ModelPtr m = TwoRelus();
  tigris_analysis* a = nullptr;
  tigris_analyze_options bad_layout = Budget(1 << 20);
  bad_layout.layout = static_cast<tigris_layout>(7);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &bad_layout), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("tigris_analyze_options.layout"),
            std::string::npos);
  for (double limit : {0.0, -1.0, std::nan("")}) {
    tigris_analyze_options o = Budget(1 << 20);
    o.layout = TIGRIS_LAYOUT_EXACT;
    o.time_limit_seconds = limit;
    EXPECT_EQ(tigris_analyze(&a, m.get(), &o), TIGRIS_ERR_INVALID_ARGUMENT) << limit;
    EXPECT_NE(std::string(tigris_last_error()).find("time_limit_seconds"), std::string::npos);
    EXPECT_EQ(a, nullptr);
  }
  // The greedy layout does not use the time limit.
  tigris_analyze_options greedy = Budget(1 << 20);
  greedy.time_limit_seconds = 0;
  EXPECT_EQ(tigris_analyze(&a, m.get(), &greedy), TIGRIS_OK);
  tigris_analysis_free(a);
}

// cifar_mobilenet_relu6 in one stage: the greedy layouts leave its arena above the most
// bytes live at one step (the timeline's largest live_bytes, summed from the buffers'
// homes); the exact layout reaches that and says it is optimal.
TEST(AnalyzeTest, ExactLayoutReachesTheLiveBoundOfTheTimeline) {
  ModelPtr m = LoadShared("cifar_mobilenet_relu6.onnx");
  tigris_analyze_options o = Budget(64 << 20);
  AnalysisPtr greedy = Analyze(m.get(), o);
  o.layout = TIGRIS_LAYOUT_EXACT;
  o.time_limit_seconds = 60;
  AnalysisPtr exact = Analyze(m.get(), o);
  ASSERT_TRUE(greedy && exact);
  const auto g = nlohmann::json::parse(tigris_analysis_json(greedy.get()));
  const auto e = nlohmann::json::parse(tigris_analysis_json(exact.get()));
  ASSERT_EQ(g["stages"].size(), 1u);
  ASSERT_EQ(e["stages"].size(), 1u);
  int64_t most_live = 0;
  for (const auto& step : e["timeline"]) {
    most_live = std::max<int64_t>(most_live, step["live_bytes"].get<int64_t>());
  }
  const auto& layout = e["stages"][0]["layout"];
  EXPECT_EQ(e["budget"]["layout"], "exact");
  EXPECT_EQ(layout["algorithm"], "exact");
  EXPECT_EQ(layout["arena_bytes"].get<int64_t>(), most_live);
  EXPECT_TRUE(layout["optimal"].get<bool>());
  EXPECT_LT(most_live, g["stages"][0]["layout"]["arena_bytes"].get<int64_t>());
  EXPECT_FALSE(g["stages"][0]["layout"]["optimal"].get<bool>());
  EXPECT_EQ(tigris_analysis_scheduled_peak_bytes(exact.get()), static_cast<uint64_t>(most_live));
}

TEST(AnalyzeTest, NullArgumentsAreInvalid) {
  ModelPtr m = TwoRelus();
  const tigris_analyze_options o = Budget(1 << 20);
  EXPECT_EQ(tigris_analyze(nullptr, m.get(), &o), TIGRIS_ERR_INVALID_ARGUMENT);
  int not_an_analysis = 0;  // *out must be reset to NULL on failure
  tigris_analysis* a = reinterpret_cast<tigris_analysis*>(&not_an_analysis);
  EXPECT_EQ(tigris_analyze(&a, nullptr, &o), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(a, nullptr);
  EXPECT_EQ(tigris_analyze(&a, m.get(), nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(a, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find("fast_bytes"), std::string::npos);
}

TEST(AnalyzeTest, BadBudgetsNameTheField) {
  ModelPtr m = TwoRelus();
  tigris_analysis* a = nullptr;

  tigris_analyze_options zero = Budget(0);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &zero), TIGRIS_ERR_INVALID_BUDGET);
  EXPECT_EQ(a, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find("fast_bytes"), std::string::npos);
  // The model keeps the message of the failed call made on it.
  EXPECT_NE(std::string(tigris_model_last_error(m.get())).find("fast_bytes"), std::string::npos);

  // uint64_t values a signed byte count cannot hold ("negative" once cast).
  tigris_analyze_options huge = Budget(UINT64_MAX);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &huge), TIGRIS_ERR_INVALID_BUDGET);
  EXPECT_NE(std::string(tigris_last_error()).find("fast_bytes"), std::string::npos);
  tigris_analyze_options huge_slow = Budget(1024, UINT64_MAX - 1);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &huge_slow), TIGRIS_ERR_INVALID_BUDGET);
  EXPECT_NE(std::string(tigris_last_error()).find("slow_bytes"), std::string::npos);
  tigris_analyze_options huge_flash = Budget(1024, 0, uint64_t{1} << 63);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &huge_flash), TIGRIS_ERR_INVALID_BUDGET);
  EXPECT_NE(std::string(tigris_last_error()).find("flash_bytes"), std::string::npos);

  tigris_analyze_options future = Budget(1024);
  future.version = TIGRIS_ANALYZE_OPTIONS_VERSION + 1;
  EXPECT_EQ(tigris_analyze(&a, m.get(), &future), TIGRIS_ERR_VERSION_MISMATCH);
  EXPECT_EQ(a, nullptr);
}

TEST(AnalyzeTest, AccessorsOnNullAreNeutral) {
  EXPECT_EQ(tigris_analysis_verdict(nullptr), TIGRIS_VERDICT_NEEDS_WORK);
  EXPECT_EQ(tigris_analysis_scheduled_peak_bytes(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_naive_peak_bytes(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_slow_peak_bytes(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_stage_count(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_tiled_stage_count(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_chain_count(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_macs(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_recompute_macs(nullptr), 0u);
  EXPECT_EQ(tigris_analysis_slow_traffic_bytes(nullptr), 0u);
  EXPECT_STREQ(tigris_analysis_json(nullptr), "");
  EXPECT_STREQ(tigris_analysis_timeline_svg(nullptr), "");
  EXPECT_EQ(tigris_analysis_refusal_status(nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tigris_analysis_refusal(nullptr), "");
  tigris_analysis_free(nullptr);
}

// The verdict is a promise: a plan whose stages fit but that tigris_plan refuses (here its
// weights exceed the flash budget) is needs_work, with tigris_plan's status and message;
// the same budgets without the flash limit fit, with nothing refused.
TEST(AnalyzeTest, AVerdictCompileWouldRefuseIsNeedsWorkWithCompilesStatus) {
  ModelPtr m = LoadShared("vww_mobilenetv1_025_96.onnx");
  AnalysisPtr refused = Analyze(m.get(), Budget(64 * 1024, 0, 100 * 1024));
  EXPECT_EQ(tigris_analysis_verdict(refused.get()), TIGRIS_VERDICT_NEEDS_WORK);
  EXPECT_EQ(tigris_analysis_refusal_status(refused.get()), TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL);
  EXPECT_NE(std::string(tigris_analysis_refusal(refused.get())).find("flash budget is 102400"),
            std::string::npos)
      << tigris_analysis_refusal(refused.get());
  const nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(refused.get()));
  EXPECT_EQ(j.at("verdict"), "needs_work");
  EXPECT_EQ(j.at("refusal").at("status"), "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL");

  tigris_plan_options po = TIGRIS_PLAN_OPTIONS_INIT;
  po.fast_bytes = 64 * 1024;
  po.flash_bytes = 100 * 1024;
  tigris_execution_plan* plan = nullptr;
  EXPECT_EQ(tigris_plan(&plan, m.get(), &po), TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL);
  tigris_plan_free(plan);

  AnalysisPtr fits = Analyze(m.get(), Budget(64 * 1024));
  EXPECT_EQ(tigris_analysis_verdict(fits.get()), TIGRIS_VERDICT_TILED);
  EXPECT_EQ(tigris_analysis_refusal_status(fits.get()), TIGRIS_OK);
  EXPECT_STREQ(tigris_analysis_refusal(fits.get()), "");
  EXPECT_TRUE(nlohmann::json::parse(tigris_analysis_json(fits.get())).at("refusal").is_null());
}

TEST(AnalyzeTest, OneStageWhenEverythingFits) {
  ModelPtr m = TwoRelus();
  AnalysisPtr a = Analyze(m.get(), Budget(1 << 20, 0, 4 << 20));
  ASSERT_TRUE(a);
  // docs/memory-model.md: x enters at relu_a (its first reader) and leaves after it; a and
  // the output y are co-resident with the op's input. Step 0: x + a = 512; step 1: a + y
  // = 512. First fit: x@0, a@256, then y@0 (x is gone): extent 512.
  EXPECT_EQ(tigris_analysis_verdict(a.get()), TIGRIS_VERDICT_OK);
  EXPECT_EQ(tigris_analysis_naive_peak_bytes(a.get()), 512u);
  EXPECT_EQ(tigris_analysis_scheduled_peak_bytes(a.get()), 512u);
  EXPECT_EQ(tigris_analysis_stage_count(a.get()), 1u);
  EXPECT_EQ(tigris_analysis_tiled_stage_count(a.get()), 0u);
  EXPECT_EQ(tigris_analysis_chain_count(a.get()), 0u);
  EXPECT_EQ(tigris_analysis_slow_peak_bytes(a.get()), 0u);
  EXPECT_EQ(tigris_analysis_slow_traffic_bytes(a.get()), 0u);
  EXPECT_EQ(tigris_analysis_macs(a.get()), 0u);  // elementwise ops count 0 (analysis/macs.h)
  EXPECT_EQ(tigris_analysis_recompute_macs(a.get()), 0u);

  nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(a.get()));
  EXPECT_EQ(j["verdict"], "ok");
  EXPECT_EQ(j["budget"]["fast_bytes"], 1 << 20);
  EXPECT_EQ(j["budget"]["flash_bytes"], 4 << 20);
  EXPECT_EQ(j["scheduled_peak_bytes"], 512);
  ASSERT_EQ(j["timeline"].size(), 2u);
  EXPECT_EQ(j["timeline"][0]["op"], "relu_a");
  EXPECT_EQ(j["timeline"][1]["live_bytes"], 512);
}

TEST(AnalyzeTest, ChainWhenEachOpAloneIsOverBudget) {
  ModelPtr m = TwoRelus();
  AnalysisPtr a = Analyze(m.get(), Budget(256));
  ASSERT_TRUE(a);
  // Each op needs 512 bytes > 256, so each is a stage of its own, both row-tileable, and
  // a (one consumer, not an output, 8 rows) links them into one chain
  // (tigris-tiling.txt, "Chain tiling"). Rows are 8 * 4 = 32 bytes. The loop holds
  // x's strip at relu_a, a's strip at both ops, y's strip at relu_b, first fit
  // x@0, a@32h, y@0: extent 64h <= 256 -> h = 4 rows, ceil(8 / 4) = 2 tiles, halo 0.
  EXPECT_EQ(tigris_analysis_verdict(a.get()), TIGRIS_VERDICT_TILED);
  EXPECT_EQ(tigris_analysis_stage_count(a.get()), 2u);
  EXPECT_EQ(tigris_analysis_chain_count(a.get()), 1u);
  EXPECT_EQ(tigris_analysis_tiled_stage_count(a.get()), 2u);  // chain stages count as tiled
  EXPECT_EQ(tigris_analysis_scheduled_peak_bytes(a.get()), 256u);
  EXPECT_EQ(tigris_analysis_naive_peak_bytes(a.get()), 512u);
  // x comes from the caller and y goes to it: nothing touches slow memory.
  EXPECT_EQ(tigris_analysis_slow_peak_bytes(a.get()), 0u);
  EXPECT_EQ(tigris_analysis_slow_traffic_bytes(a.get()), 0u);

  nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(a.get()));
  ASSERT_EQ(j["chains"].size(), 1u);
  EXPECT_EQ(j["chains"][0]["tile_height"], 4);
  EXPECT_EQ(j["chains"][0]["tiles"], 2);
  EXPECT_EQ(j["chains"][0]["halo"], 0);
  for (const auto& s : j["stages"]) {
    EXPECT_EQ(s["strategy"], "chain");
    EXPECT_EQ(s["chain"], 0);
  }
}

TEST(AnalyzeTest, JsonKeepsTheModelObjectAndAddsThePlan) {
  ModelPtr m = TwoRelus();
  AnalysisPtr a = Analyze(m.get(), Budget(1024));
  nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(a.get()));
  // The model summary is tigris_model_json's "model" without the "graph".
  nlohmann::json model = nlohmann::json::parse(tigris_model_json(m.get()))["model"];
  model.erase("graph");
  EXPECT_EQ(j["model"], model);
  for (const char* key : {"memory", "budget", "stages", "chains", "scheduled_peak_bytes",
                          "slow_peak_bytes", "verdict", "totals", "timeline"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  // Headline numbers agree between the accessors and the JSON.
  EXPECT_EQ(j["scheduled_peak_bytes"].get<uint64_t>(),
            tigris_analysis_scheduled_peak_bytes(a.get()));
  EXPECT_EQ(j["memory"]["naive_peak_bytes"].get<uint64_t>(),
            tigris_analysis_naive_peak_bytes(a.get()));
  EXPECT_EQ(j["stages"].size(), tigris_analysis_stage_count(a.get()));
  EXPECT_EQ(j["totals"]["macs"].get<uint64_t>(), tigris_analysis_macs(a.get()));
  // The model object comes first: a reader sees what was analysed before how.
  const auto ordered = nlohmann::ordered_json::parse(tigris_analysis_json(a.get()));
  EXPECT_EQ(ordered.begin().key(), "model");
}

TEST(AnalyzeTest, AnalysisOutlivesItsModel) {
  ModelPtr m = TwoRelus();
  AnalysisPtr a = Analyze(m.get(), Budget(1024));
  m.reset();
  const std::string svg = tigris_analysis_timeline_svg(a.get());
  EXPECT_NE(svg.find("relu_b"), std::string::npos);  // op names were copied
  EXPECT_NE(std::string(tigris_analysis_json(a.get())).find("two_relus"), std::string::npos);
  // Built once and owned by the analysis: the same pointer every time.
  EXPECT_EQ(tigris_analysis_timeline_svg(a.get()), tigris_analysis_timeline_svg(a.get()));
}

TEST(AnalyzeTest, TimelineSvgHasOneBarPerOp) {
  ModelPtr m = LoadShared("vww_mobilenetv1_025_96.onnx");
  AnalysisPtr a = Analyze(m.get(), Budget(64 * 1024));
  const std::string svg = tigris_analysis_timeline_svg(a.get());
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  size_t bars = 0;
  for (size_t p = svg.find("class=\"bar\""); p != std::string::npos;
       p = svg.find("class=\"bar\"", p + 1)) {
    ++bars;
  }
  EXPECT_EQ(bars, tigris_model_op_count(m.get()));
  EXPECT_NE(svg.find("id=\"budget-line\""), std::string::npos);
  EXPECT_NE(svg.find("budget 64 KiB"), std::string::npos);
}

TEST(AnalyzeTest, SlowBudgetBelowTheSpillsFails) {
  ModelPtr m = LoadShared("kws_small_cnn.onnx");
  // Unlimited first: what do the spills need? At 16 KiB the model runs in several stages
  // (its untiled peak is 32,000 bytes of live bytes).
  AnalysisPtr free_slow = Analyze(m.get(), Budget(16 * 1024));
  const uint64_t need = tigris_analysis_slow_peak_bytes(free_slow.get());
  ASSERT_GT(need, 0u) << "the model must spill at 16 KiB for this test";

  // Exactly the footprint is enough; one 16-byte slot less is not.
  AnalysisPtr exact = Analyze(m.get(), Budget(16 * 1024, need));
  EXPECT_TRUE(exact);
  tigris_analysis* a = nullptr;
  tigris_analyze_options small = Budget(16 * 1024, need - 16);
  EXPECT_EQ(tigris_analyze(&a, m.get(), &small), TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL);
  EXPECT_EQ(a, nullptr);
  const std::string message = tigris_last_error();
  EXPECT_NE(message.find(std::to_string(need)), std::string::npos) << message;
  EXPECT_NE(message.find("slow"), std::string::npos) << message;
}

}  // namespace
