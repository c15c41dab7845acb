// Issue 3, "Done when": every shared model, float32 and its int8 QDQ variant, at 512K,
// 256K, 128K, 64K and 32K either fits (scheduled_peak_bytes <= budget, verdict other
// than needs_work) or is needs_work with the blocking ops named. Only the C ABI is used.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support/test_env.h"
#include "tigris.h"

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kBudgets[] = {512 * 1024, 256 * 1024, 128 * 1024, 64 * 1024, 32 * 1024};

std::string Stem(const std::string& path) {
  std::string s = fs::path(path).filename().string();
  return s.substr(0, s.find('.'));
}

std::set<std::string> OpNames(const tigris_model* m) {
  std::set<std::string> names;
  for (size_t i = 0; i < tigris_model_op_count(m); ++i) {
    tigris_op_info op{};
    op.version = TIGRIS_OP_INFO_VERSION;
    EXPECT_EQ(tigris_model_op(m, i, &op), TIGRIS_OK);
    names.insert(op.name);
  }
  return names;
}

// Whether `name` is an op of the model or, in a plan whose layers were split, a part of
// one (plan/dense_split.cc names them <op>_part<k>, <op>_merge<k>, <op>_activation).
bool FromModel(const std::set<std::string>& ops, const std::string& name, bool split) {
  if (ops.count(name)) return true;
  if (!split) return false;
  for (const char* suffix : {"_part", "_merge", "_activation"}) {
    const size_t at = name.rfind(suffix);
    if (at != std::string::npos && ops.count(name.substr(0, at))) return true;
  }
  return false;
}

// Which part of the rule a test checks: the plan's figures and the blocked stages' ops,
// or that the reasons' text names one of those ops.
enum class Check { kFitsOrBlockedOps, kReasonsNameOps };

// Checks one analysis against the "Done when" rule; returns the verdict name.
std::string CheckAnalysis(const tigris_model* m, const std::set<std::string>& ops, uint64_t budget,
                          Check check) {
  SCOPED_TRACE("budget " + std::to_string(budget));
  tigris_analyze_options o = TIGRIS_ANALYZE_OPTIONS_INIT;
  o.fast_bytes = budget;
  tigris_analysis* a = nullptr;
  EXPECT_EQ(tigris_analyze(&a, m, &o), TIGRIS_OK) << tigris_last_error();
  if (!a) return "";
  const nlohmann::json j = nlohmann::json::parse(tigris_analysis_json(a));
  const tigris_verdict verdict = tigris_analysis_verdict(a);

  // The timeline has one step per op, and the stages cover every op once: the model's, or
  // with layers split (fdt-fan-out-fan-in) their parts, which are named after them.
  bool split = false;
  for (const auto& rewrite : j["rewrites"])
    split = split || rewrite["kind"] == "fdt-fan-out-fan-in";
  size_t staged_ops = 0;
  for (const auto& stage : j["stages"]) {
    staged_ops += stage["ops"].size();
    for (const auto& op : stage["ops"]) {
      EXPECT_TRUE(FromModel(ops, op.get<std::string>(), split)) << op;
    }
  }
  EXPECT_EQ(j["timeline"].size(), staged_ops);
  if (!split) {
    EXPECT_EQ(staged_ops, ops.size());
  }

  if (verdict != TIGRIS_VERDICT_NEEDS_WORK) {
    EXPECT_LE(tigris_analysis_scheduled_peak_bytes(a), budget);
    for (const auto& stage : j["stages"]) {
      EXPECT_LE(stage["peak_bytes"].get<uint64_t>(), budget) << stage.dump();
      EXPECT_TRUE(stage["reasons"].empty()) << stage.dump();
    }
  } else {
    size_t blocked = 0;
    for (const auto& stage : j["stages"]) {
      if (stage["reasons"].empty()) {
        // A stage without reasons is one that fits.
        EXPECT_LE(stage["peak_bytes"].get<uint64_t>(), budget) << stage.dump();
        continue;
      }
      ++blocked;
      EXPECT_GT(stage["peak_bytes"].get<uint64_t>(), budget) << stage.dump();
      // The blocking ops are real ops of this model, and the reasons name one of them.
      EXPECT_FALSE(stage["ops"].empty());
      bool named = false;
      for (const auto& op : stage["ops"]) {
        for (const auto& reason : stage["reasons"]) {
          named =
              named || reason.get<std::string>().find(op.get<std::string>()) != std::string::npos;
        }
      }
      if (check == Check::kReasonsNameOps) {
        EXPECT_TRUE(named) << "reasons do not name an op of the stage: " << stage.dump();
      }
    }
    EXPECT_GT(blocked, 0u) << "needs_work without a blocked stage";
  }
  std::string name = j["verdict"].get<std::string>();
  tigris_analysis_free(a);
  return name;
}

void CheckModel(const std::string& path, Check check = Check::kFitsOrBlockedOps) {
  SCOPED_TRACE(path);
  tigris_model* m = nullptr;
  ASSERT_EQ(tigris_load(&m, path.c_str(), nullptr), TIGRIS_OK) << tigris_last_error();
  const std::set<std::string> ops = OpNames(m);
  std::string verdicts;
  for (uint64_t budget : kBudgets) verdicts += " " + CheckAnalysis(m, ops, budget, check);
  // One line per model and budget (512K .. 32K), for the record.
  if (check == Check::kFitsOrBlockedOps) {
    std::printf("  %-36s%s\n", fs::path(path).filename().c_str(), verdicts.c_str());
  }
  tigris_model_free(m);
}

TEST(AnalyzeModelsTest, EverySharedFloatModelFitsOrNamesWhatBlocks) {
  const std::vector<std::string> models = tigris::testing::SharedOnnxModels();
  ASSERT_FALSE(models.empty());
  for (const std::string& path : models) CheckModel(path);
}

std::vector<std::string> Int8Variants() {
  std::vector<std::string> out;
  for (const std::string& path : tigris::testing::SharedOnnxModels()) {
    const std::string q = tigris::testing::GeneratedModelsDir() + "/" + Stem(path) + ".int8.onnx";
    EXPECT_TRUE(fs::exists(q)) << q << " missing: the build generates it (tests/models)";
    if (fs::exists(q)) out.push_back(q);
  }
  return out;
}

TEST(AnalyzeModelsTest, EveryInt8VariantFitsOrNamesWhatBlocks) {
  for (const std::string& path : Int8Variants()) CheckModel(path);
}

// "needs_work with the blocking ops named": a person reading only the reasons (the CLI's
// "blocked" lines, a binding's error report) must learn which op is at fault.
TEST(AnalyzeModelsTest, ReasonsOfBlockedStagesNameAnOp) {
  for (const std::string& path : tigris::testing::SharedOnnxModels()) {
    CheckModel(path, Check::kReasonsNameOps);
  }
  for (const std::string& path : Int8Variants()) CheckModel(path, Check::kReasonsNameOps);
}

}  // namespace
