// `tigris analyze MODEL -m FAST [-m SLOW] [-f FLASH] [-v] [--json] [--timeline FILE]` as a
// user runs it: the report agrees with the C ABI run in this process, sizes parse in every
// accepted spelling, and bad budgets are usage errors (exit 2) or library errors (exit 1)
// that say what is wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/bad_files.h"
#include "support/process.h"
#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::cli_test::BadFiles;
using tigris::cli_test::ExpectNamedError;
using tigris::cli_test::MakeBadFiles;
using tigris::cli_test::RunningAsRoot;
using tigris::testing::ProcessResult;
using tigris::testing::RunCommand;
using tigris::testing::SharedOnnxModel;
using tigris::testing::TigrisCli;

ProcessResult Analyze(const std::string& model_file, const std::string& options) {
  return RunCommand(TigrisCli() + " analyze " + SharedOnnxModel(model_file) + " " + options);
}

// The same analysis through the C ABI, in this process: what the CLI must print.
struct InProcess {
  tigris_model* model = nullptr;
  tigris_analysis* analysis = nullptr;
  InProcess(const std::string& model_file, uint64_t fast, uint64_t slow = 0) {
    EXPECT_EQ(tigris_load(&model, SharedOnnxModel(model_file).c_str(), nullptr), TIGRIS_OK);
    tigris_analyze_options o = TIGRIS_ANALYZE_OPTIONS_INIT;
    o.fast_bytes = fast;
    o.slow_bytes = slow;
    EXPECT_EQ(tigris_analyze(&analysis, model, &o), TIGRIS_OK) << tigris_last_error();
  }
  ~InProcess() {
    tigris_analysis_free(analysis);
    tigris_model_free(model);
  }
  nlohmann::json Json() const { return nlohmann::json::parse(tigris_analysis_json(analysis)); }
};

size_t Lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(CliAnalyzeTest, HumanReportHasTheHeadlineLines) {
  auto r = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K -f 4M");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  InProcess lib("vww_mobilenetv1_025_96.onnx", 64 * 1024);
  // model line: the file's stem, the dtype and the op count of the normalized graph.
  EXPECT_EQ(r.out.rfind("model     vww_mobilenetv1_025_96 (float32, " +
                            std::to_string(tigris_model_op_count(lib.model)) + " ops, ",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\nSRAM      64 KiB budget, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nslow      not given; "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nflash     4 MiB budget, weights "), std::string::npos) << r.out;
  const std::string verdict = lib.Json()["verdict"];
  EXPECT_NE(r.out.find("\nverdict   " + verdict + ": " +
                       std::to_string(tigris_analysis_stage_count(lib.analysis)) + " stages"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Lines(r.out), 5u) << "compact without -v:\n" << r.out;
}

TEST(CliAnalyzeTest, VerboseAddsOneTableRowPerStage) {
  auto r = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K -v");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  InProcess lib("vww_mobilenetv1_025_96.onnx", 64 * 1024);
  const size_t stages = tigris_analysis_stage_count(lib.analysis);
  // 5 report lines, a blank line, the header, one row per stage, the footnote.
  EXPECT_EQ(Lines(r.out), 5 + 1 + 1 + stages + 1) << r.out;
  EXPECT_NE(r.out.find("strategy"), std::string::npos);
  // Every stage's strategy appears in its row.
  for (const auto& stage : lib.Json()["stages"]) {
    EXPECT_NE(r.out.find(stage["strategy"].get<std::string>()), std::string::npos);
  }
}

TEST(CliAnalyzeTest, JsonIsTheLibrarysJson) {
  auto r = Analyze("kws_small_cnn.onnx", "-m 32K --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  InProcess lib("kws_small_cnn.onnx", 32 * 1024);
  EXPECT_EQ(nlohmann::json::parse(r.out), lib.Json());
  // The foundation's "model" object is kept, without the graph.
  EXPECT_EQ(lib.Json()["model"]["name"], tigris_model_name(lib.model));
  EXPECT_FALSE(lib.Json()["model"].contains("graph"));
}

TEST(CliAnalyzeTest, EverySizeSpellingGivesTheSameBudget) {
  for (const char* size : {"256K", "256KiB", "262144", "0.25MiB", "0.25m"}) {
    auto r = Analyze("mnist8.onnx", std::string("--json -m ") + size);
    ASSERT_EQ(r.exit_code, 0) << size << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["budget"]["fast_bytes"], 262144) << size;
  }
  auto r = Analyze("mnist8.onnx", "--json -m 64K -m 1.5MiB -f 4M");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto budget = nlohmann::json::parse(r.out)["budget"];
  EXPECT_EQ(budget["fast_bytes"], 65536);
  EXPECT_EQ(budget["slow_bytes"], 1572864);  // 1.5 * 2^20
  EXPECT_EQ(budget["flash_bytes"], 4194304);
}

TEST(CliAnalyzeTest, TimelineWritesAnSvg) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "tigris_cli_timeline.svg").string();
  std::filesystem::remove(path);
  auto r = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K --timeline " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("timeline  " + path), std::string::npos) << r.out;
  const std::string svg = tigris::testing::ReadFile(path);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("id=\"budget-line\""), std::string::npos);
  // vww spills at 64K (json's slow_peak_bytes > 0): a lane for them, and one for the
  // weights read in place from flash.
  EXPECT_NE(svg.find("<g id=\"lane-slow\""), std::string::npos);
  EXPECT_NE(svg.find("<g id=\"lane-flash\""), std::string::npos);
  std::filesystem::remove(path);

  // With a target the plot and lanes carry its memories' names.
  const std::string target = tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml";
  auto t = Analyze("vww_mobilenetv1_025_96.onnx", "--target " + target + " --timeline " + path);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const std::string named = tigris::testing::ReadFile(path);
  EXPECT_NE(named.find("DTCM, scratch (KiB)"), std::string::npos);
  EXPECT_NE(named.find("<g id=\"lane-AXI_SRAM\""), std::string::npos);
  EXPECT_NE(named.find("<g id=\"lane-OSPI_FLASH\""), std::string::npos);
  std::filesystem::remove(path);

  // With --json the SVG is still written, and stdout stays pure JSON.
  auto j = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K --json --timeline " + path);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_NO_THROW(nlohmann::json::parse(j.out));
  EXPECT_TRUE(std::filesystem::exists(path));
  std::filesystem::remove(path);
}

TEST(CliAnalyzeTest, NeedsWorkNamesTheBlockedStagesOps) {
  // At 4K the late 1x1 convolutions (one pixel of 320 or more channels in and out) and the
  // classifier (5 KiB read whole) block.
  auto r = Analyze("mobilenet_v2_100_224.onnx", "-m 4K");
  ASSERT_EQ(r.exit_code, 0) << r.err;  // a plan that needs work is still an answer
  EXPECT_NE(r.out.find("\nverdict   needs_work: "), std::string::npos) << r.out;
  InProcess lib("mobilenet_v2_100_224.onnx", 4 * 1024);
  for (const auto& stage : lib.Json()["stages"]) {
    if (stage["reasons"].empty()) continue;
    const std::string line = "blocked   stage " + std::to_string(stage["id"].get<int>()) + " (" +
                             stage["ops"][0].get<std::string>();
    EXPECT_NE(r.out.find(line), std::string::npos) << line;
  }
}

TEST(CliAnalyzeTest, BadSizesAreUsageErrors) {
  const std::string model = "mnist8.onnx";
  struct Case {
    const char* options;
    const char* says;
  };
  for (const Case& c :
       {Case{"-m 0", "greater than zero"}, Case{"-m -5K", "negative"}, Case{"-m lots", "no number"},
        Case{"-m 12Q", "unknown unit"}, Case{"-m 0.3K", "whole number"},
        Case{"-m 64K -m 0K", "greater than zero"}, Case{"-m 64K -f 0", "greater than zero"}}) {
    auto r = Analyze(model, c.options);
    EXPECT_EQ(r.exit_code, 2) << c.options << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.options << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.options;
  }
}

// `-m SIZE -m 0` (docs/memories.md, "One RAM"): one SRAM and nothing else. The float VWW
// needs 216 KiB untiled, so at 160K its spills share the SRAM with a smaller scratch arena.
TEST(CliAnalyzeTest, ASecondMOfZeroMeansOneRamAndNothingElse) {
  ProcessResult r = Analyze("vww_mobilenetv1_025_96.onnx", "-m 160K -m 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nSRAM      160 KiB, one memory: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\nslow "), std::string::npos) << r.out;  // no second memory
  ProcessResult j = Analyze("vww_mobilenetv1_025_96.onnx", "-m 160K -m 0 --json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json analysis = nlohmann::json::parse(j.out);
  EXPECT_EQ(analysis.at("target").at("source"), "-m");
  const nlohmann::json& sram = analysis.at("memories").at(0);
  EXPECT_EQ(sram.at("name"), "SRAM");
  EXPECT_EQ(sram.at("size"), 160 * 1024);
  EXPECT_EQ(sram.at("role"), "scratch+spills");
  EXPECT_LE(sram.at("used_bytes").get<int64_t>(), 160 * 1024);
  // The plan is the compile's: at most the whole SRAM for scratch, spills inside it.
  EXPECT_LE(analysis.at("budget").at("fast_bytes").get<int64_t>(), 160 * 1024);
  EXPECT_GT(analysis.at("slow_peak_bytes").get<int64_t>(), 0);
  EXPECT_EQ(analysis.at("memories").at(1).at("role"), "plan");
}

TEST(CliAnalyzeTest, OptionsThatNeedABudgetAreUsageErrorsWithoutIt) {
  for (const char* options : {"-f 4M", "-v", "--timeline x.svg", "--json -v"}) {
    auto r = Analyze("mnist8.onnx", options);
    EXPECT_EQ(r.exit_code, 2) << options;
    EXPECT_NE(r.err.find("needs -m"), std::string::npos) << options << ": " << r.err;
  }
  auto three = Analyze("mnist8.onnx", "-m 1K -m 2K -m 3K");
  EXPECT_EQ(three.exit_code, 2);
  EXPECT_NE(three.err.find("-m FAST [-m SLOW]"), std::string::npos) << three.err;
  EXPECT_EQ(Analyze("mnist8.onnx", "-m").exit_code, 2);  // a value is required
}

TEST(CliAnalyzeTest, BadLayoutOptionsAreUsageErrors) {
  struct Case {
    const char* options;
    const char* says;
  };
  for (const Case& c : {Case{"-m 64K --layout best", "greedy or exact"},
                        Case{"-m 64K --time-limit 5", "needs --layout exact"},
                        Case{"-m 64K --layout exact --time-limit 0", "positive number"},
                        Case{"-m 64K --layout exact --time-limit 5s", "positive number"},
                        Case{"-m 64K --layout exact --time-limit nan", "positive number"},
                        Case{"--layout exact", "needs -m"}}) {
    auto r = Analyze("mnist8.onnx", c.options);
    EXPECT_EQ(r.exit_code, 2) << c.options << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.options << ": " << r.err;
    EXPECT_EQ(r.out, "") << c.options;
  }
}

TEST(CliAnalyzeTest, ExactLayoutIsInTheJsonAndNeverAboveGreedy) {
  auto greedy = Analyze("cifar_mobilenet_relu6.onnx", "-m 64M --json");
  auto exact =
      Analyze("cifar_mobilenet_relu6.onnx", "-m 64M --json --layout exact --time-limit 60");
  ASSERT_EQ(greedy.exit_code, 0) << greedy.err;
  ASSERT_EQ(exact.exit_code, 0) << exact.err;
  const auto g = nlohmann::json::parse(greedy.out), e = nlohmann::json::parse(exact.out);
  EXPECT_EQ(g["budget"]["layout"], "greedy");
  EXPECT_TRUE(g["budget"]["time_limit_seconds"].is_null());
  EXPECT_EQ(e["budget"]["layout"], "exact");
  EXPECT_EQ(e["budget"]["time_limit_seconds"], 60.0);
  EXPECT_LT(e["scheduled_peak_bytes"].get<int64_t>(), g["scheduled_peak_bytes"].get<int64_t>());
}

TEST(CliAnalyzeTest, LibraryErrorsExitOneWithTheStatusName) {
  // kws_small_cnn spills at 16 KiB; 1 KiB of slow memory cannot hold them.
  auto slow = Analyze("kws_small_cnn.onnx", "-m 16K -m 1K");
  EXPECT_EQ(slow.exit_code, 1);
  EXPECT_NE(slow.err.find("TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL"), std::string::npos) << slow.err;
  EXPECT_NE(slow.err.find("1024"), std::string::npos) << slow.err;  // states the budget

  auto unwritable = Analyze("mnist8.onnx", "-m 64K --timeline /nonexistent-dir/t.svg");
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_NE(unwritable.err.find("TIGRIS_ERR_IO"), std::string::npos) << unwritable.err;
  EXPECT_NE(unwritable.err.find("/nonexistent-dir/t.svg"), std::string::npos) << unwritable.err;

  auto missing = RunCommand(TigrisCli() + " analyze /nonexistent.onnx -m 64K");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("TIGRIS_ERR_IO"), std::string::npos) << missing.err;
}

TEST(CliAnalyzeTest, FlashBelowTheWeightsIsFlagged) {
  // The weights (hundreds of KiB of float32) exceed 100 KiB. The report says so, and, as
  // compile refuses the plan, analyze does too: verdict needs_work, the refusal named, exit
  // 1 with compile's status (the verdict is a promise, docs/planning.md step 6).
  auto r = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K -f 100K");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("(over the budget)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verdict   needs_work: compile refuses this plan"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("refused   the plan is "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("[TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL]"), std::string::npos) << r.err;
  const std::string out = (std::filesystem::temp_directory_path() / "flash.tgrs").string();
  auto compiled =
      RunCommand(TigrisCli() + " compile " + SharedOnnxModel("vww_mobilenetv1_025_96.onnx") +
                 " -m 64K -f 100K -o " + out);
  EXPECT_EQ(compiled.exit_code, 1);
  EXPECT_NE(compiled.err.find("[TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL]"), std::string::npos);

  auto json = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K -f 100K --json");
  EXPECT_EQ(json.exit_code, 1);
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("verdict"), "needs_work");
  EXPECT_EQ(j.at("refusal").at("status"), "TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL");
  auto fits = Analyze("vww_mobilenetv1_025_96.onnx", "-m 64K --json");
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_TRUE(nlohmann::json::parse(fits.out).at("refusal").is_null());
}

}  // namespace

namespace {

// A target whose spills do not fit anywhere: analyze reports it and exits 1.
TEST(CliAnalyzeTest, TargetSaysWhatEachMemoryHolds) {
  const std::string target = tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml";
  ProcessResult r = Analyze("vww_mobilenetv1_025_96.onnx", "--target " + target + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  // The fast budget is DTCM's 128K; the same analysis through -m 128K.
  ProcessResult m = Analyze("vww_mobilenetv1_025_96.onnx", "-m 128K --json");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const nlohmann::json mj = nlohmann::json::parse(m.out);
  EXPECT_EQ(j.at("scheduled_peak_bytes"), mj.at("scheduled_peak_bytes"));
  EXPECT_EQ(j.at("slow_peak_bytes"), mj.at("slow_peak_bytes"));
  ASSERT_EQ(j.at("memories").size(), 4u);
  EXPECT_EQ(j.at("memories")[0].at("role"), "scratch");
  EXPECT_EQ(j.at("memories")[0].at("used_bytes"), mj.at("scheduled_peak_bytes"));
  EXPECT_EQ(j.at("memories")[1].at("name"), "AXI_SRAM");
  EXPECT_EQ(j.at("memories")[1].at("role"), "spills");
  EXPECT_EQ(j.at("memories")[1].at("used_bytes"), mj.at("slow_peak_bytes"));
  EXPECT_EQ(j.at("memories")[2].at("role"), "");
  EXPECT_EQ(j.at("memories")[3].at("role"), "plan");
  // The plan file compile writes: the weights and the plan's tables.
  EXPECT_GT(j.at("memories")[3].at("used_bytes"), mj.at("model").at("weight_bytes"));
  EXPECT_TRUE(j.at("target").at("spills_fit").get<bool>());

  // The spills fit no other memory: they share DTCM beside a smaller scratch arena, as
  // compile puts them, and the report says so (one line for the one memory).
  const std::string tight =
      (std::filesystem::temp_directory_path() / "cli_analyze_tight.yaml").string();
  auto write_tight = [&tight](const char* dtcm) {
    std::FILE* f = std::fopen(tight.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fprintf(f,
                 "memories: [{name: DTCM, size: %s}, {name: SRAM, size: 4K}, "
                 "{name: FLASH, size: 4M, read_only: true}]\n",
                 dtcm);
    std::fclose(f);
  };
  write_tight("128K");
  ProcessResult t = Analyze("vww_mobilenetv1_025_96.onnx", "--target " + tight + " -v");
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("\nDTCM      128 KiB, one memory: "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("scratch+spills"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("SRAM                 4096            0              0  -"),
            std::string::npos)
      << t.out;
  // Too small even for that: refused as compile refuses, with the least split it found.
  write_tight("16K");
  ProcessResult refused = Analyze("vww_mobilenetv1_025_96.onnx", "--target " + tight);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.out.find("fit no writable memory besides the scratch one"), std::string::npos)
      << refused.out;
  EXPECT_NE(refused.err.find("the least any split needs is "), std::string::npos) << refused.err;
  EXPECT_EQ(Analyze("mnist8.onnx", "-m 64K --target " + target).exit_code, 2);
  std::filesystem::remove(tight);

  // The summary lines name the memories holding scratch, spills and the plan, with their
  // sizes as the budgets (examples/targets/stm32h7.yaml).
  ProcessResult text = Analyze("vww_mobilenetv1_025_96.onnx", "--target " + target);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("\nDTCM      128 KiB budget, "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\nAXI_SRAM  512 KiB budget; spills need "), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\nOSPI_FLASH 64 MiB budget, weights "), std::string::npos) << text.out;
}

// The model and --target, empty, cut in half, a directory or missing: exit 1 naming the
// file and the cause (issue 42). Unreadable: below.
TEST(CliAnalyzeTest, BadInputFilesAreNamedErrors) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cli_analyze_bad_" + std::to_string(::getpid()));
  const auto analyze = [&](const std::string& args) {
    return RunCommand(TigrisCli() + " analyze " + args);
  };
  const BadFiles m = MakeBadFiles(dir, SharedOnnxModel("mnist8.onnx"));
  ExpectNamedError(analyze(m.empty + " -m 64K"), m.empty,
                   "model is empty (0 bytes) [TIGRIS_ERR_EMPTY_MODEL]");
  const auto cut = analyze(m.truncated + " -m 64K");
  ExpectNamedError(cut, m.truncated, "truncated model: field 7 (graph) at byte ");
  EXPECT_NE(cut.err.find("[TIGRIS_ERR_TRUNCATED_MODEL]"), std::string::npos) << cut.err;
  ExpectNamedError(analyze(m.directory + " -m 64K"), m.directory,
                   "cannot read model file '" + m.directory + "': is a directory [TIGRIS_ERR_IO]");
  ExpectNamedError(analyze(m.missing + " -m 64K"), m.missing,
                   "cannot read model file '" + m.missing + "': No such file or directory");

  const std::string model = SharedOnnxModel("mnist8.onnx");
  const BadFiles t =
      MakeBadFiles(dir, tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml");
  ExpectNamedError(analyze(model + " --target " + t.empty), t.empty,
                   "target '" + t.empty + "' is empty (0 bytes)");
  // Its first half is only the comment at its top.
  ExpectNamedError(analyze(model + " --target " + t.truncated), t.truncated,
                   t.truncated + ": empty target description (needs memories:)");
  ExpectNamedError(analyze(model + " --target " + t.directory), t.directory,
                   "cannot read target '" + t.directory + "': is a directory");
  ExpectNamedError(analyze(model + " --target " + t.missing), t.missing,
                   "cannot read target '" + t.missing + "': No such file or directory");
  std::filesystem::remove_all(dir);
}

TEST(CliAnalyzeTest, UnreadableInputFilesAreNamedErrors) {
  if (RunningAsRoot()) GTEST_SKIP() << "root reads a mode-000 file: nothing to refuse";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("cli_analyze_unreadable_" + std::to_string(::getpid()));
  const std::string m = MakeBadFiles(dir, SharedOnnxModel("mnist8.onnx")).unreadable;
  ExpectNamedError(RunCommand(TigrisCli() + " analyze " + m + " -m 64K"), m,
                   "cannot read model file '" + m + "': Permission denied [TIGRIS_ERR_IO]");
  const std::string t =
      MakeBadFiles(dir, tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml").unreadable;
  ExpectNamedError(
      RunCommand(TigrisCli() + " analyze " + SharedOnnxModel("mnist8.onnx") + " --target " + t), t,
      "cannot read target '" + t + "': Permission denied");
  std::filesystem::remove_all(dir);
}

}  // namespace
