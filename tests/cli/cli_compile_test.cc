// `tigris compile` as a user runs it: the summary, budget errors with both numbers, usage
// errors (exit 2) and the written plan.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/bad_files.h"
#include "support/process.h"
#include "support/test_env.h"

namespace {

using tigris::cli_test::BadFiles;
using tigris::cli_test::ExpectNamedError;
using tigris::cli_test::MakeBadFiles;
using tigris::cli_test::RunningAsRoot;
using tigris::testing::RunCommand;
using tigris::testing::SharedOnnxModel;
using tigris::testing::TigrisCli;

std::string OutPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

// A folder of this process's own (ctest runs the tests of this file in parallel).
std::filesystem::path FreshDir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::set<std::string> Listing(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

// tcm_sram_psram_mram.yaml and a scratch_to_psram.yaml rule without their comments, so
// the first half of each stops inside the YAML, not inside a comment.
const char kTarget[] =
    "memories:\n"
    "  - {name: DTCM, size: 64K}\n"
    "  - {name: SRAM, size: 256K}\n"
    "  - {name: PSRAM, size: 8M}\n"
    "  - {name: MRAM, size: 2M, read_only: true}\n"
    "plan_memory: MRAM\n";
const char kRules[] =
    "tensors:\n"
    "  - type: SCRATCH\n"
    "    attributes: { memory: PSRAM }\n";

TEST(CliCompileTest, WritesThePlanAndPrintsTheSummary) {
  const std::string out = OutPath("cli_compile_mnist8.tgrs");
  std::filesystem::remove(out);
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                      " -m 64K -f 1M --xip -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(out));
  const auto size = std::filesystem::file_size(out);
  EXPECT_NE(r.out.find("plan     " + out + "  " + std::to_string(size) + " bytes"),
            std::string::npos)
      << r.out;
  // mnist8's float weights: 5994 values * 4 bytes (tests/api/plan_test.cc).
  EXPECT_NE(r.out.find("weights  23976 bytes raw, 23976 bytes stored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fast     "), std::string::npos);
  EXPECT_NE(r.out.find("slow     "), std::string::npos);
  std::filesystem::remove(out);
}

TEST(CliCompileTest, Lz4AndASlowBudget) {
  const std::string out = OutPath("cli_compile_vww.tgrs");
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("vww_small_cnn.onnx") +
                      " -m 256K -m 8M -c lz4 -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(lz4, ratio "), std::string::npos) << r.out;
  std::filesystem::remove(out);
}

// `-m SIZE -m 0`: one SRAM and nothing else (docs/memories.md, "One RAM"); with -f the plan's
// flash is budgeted too. The table names the one memory holding scratch and spills.
TEST(CliCompileTest, ASecondMOfZeroPutsEverythingInOneRam) {
  const std::string out = OutPath("cli_compile_one_ram.tgrs");
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("vww_mobilenetv1_025_96.onnx") +
                      " -m 160K -m 0 -f 1M -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nSRAM               163840 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  scratch+spills\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nFLASH             1048576 "), std::string::npos) << r.out;
  std::filesystem::remove(out);
  // Too small for any split: refused, naming the least one found.
  auto small = RunCommand(TigrisCli() + " compile " +
                          SharedOnnxModel("vww_mobilenetv1_025_96.onnx") + " -m 8K -m 0 -o " + out);
  EXPECT_EQ(small.exit_code, 1);
  EXPECT_NE(small.err.find("TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL"), std::string::npos) << small.err;
  EXPECT_NE(small.err.find("the least any split needs is "), std::string::npos) << small.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliCompileTest, FlashTooSmallExitsOneWithBothNumbers) {
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                      " -m 64K -f 4K --xip -o " + OutPath("cli_compile_small.tgrs"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("flash budget is 4096 bytes"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the plan is "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL"), std::string::npos) << r.err;
}

TEST(CliCompileTest, UsageErrorsExitTwo) {
  const std::string model = SharedOnnxModel("mnist8.onnx");
  auto codec = RunCommand(TigrisCli() + " compile " + model + " -m 64K -c zstd -o x.tgrs");
  EXPECT_EQ(codec.exit_code, 2);
  EXPECT_NE(codec.err.find("zstd"), std::string::npos) << codec.err;
  auto no_out = RunCommand(TigrisCli() + " compile " + model + " -m 64K");
  EXPECT_EQ(no_out.exit_code, 2);
  EXPECT_NE(no_out.err.find("-o"), std::string::npos) << no_out.err;
  EXPECT_EQ(RunCommand(TigrisCli() + " compile " + model + " -o x.tgrs").exit_code, 2);  // no -m
  EXPECT_EQ(RunCommand(TigrisCli() + " compile " + model + " -m 64Q -o x.tgrs").exit_code, 2);
  EXPECT_EQ(
      RunCommand(TigrisCli() + " compile " + model + " -m 64K --xip -c lz4 -o x.tgrs").exit_code,
      2);
  auto mode = RunCommand(TigrisCli() + " compile " + model + " -m 64K --weights ram -o x.tgrs");
  EXPECT_EQ(mode.exit_code, 2);
  EXPECT_NE(mode.err.find("--weights expects auto, in-place, copy or staged, got 'ram'"),
            std::string::npos)
      << mode.err;
  auto both =
      RunCommand(TigrisCli() + " compile " + model + " -m 64K --xip --weights copy -o x.tgrs");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--xip means --weights in-place"), std::string::npos) << both.err;
  EXPECT_EQ(
      RunCommand(TigrisCli() + " compile " + model + " -m 64K --weights in-place -c lz4 -o x.tgrs")
          .exit_code,
      2);
  auto help = RunCommand(TigrisCli() + " compile --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--xip"), std::string::npos);
  EXPECT_NE(help.out.find("--weights MODE"), std::string::npos);
  EXPECT_NE(RunCommand(TigrisCli() + " --help").out.find("compile"), std::string::npos);
}

TEST(CliCompileTest, WeightPoliciesSayWhereWeightsAreRead) {
  // mobilenet_v2_035_144 at 256K: one stage's weights alone exceed the budget. Copying
  // every stage fails naming them; the default (auto) and in-place compile, and the
  // summary says which stages copy (read back from the written plan).
  const std::string model = SharedOnnxModel("mobilenet_v2_035_144.onnx");
  const std::string out = OutPath("cli_compile_weights.tgrs");
  auto copy = RunCommand(TigrisCli() + " compile " + model + " -m 256K --weights copy -o " + out);
  EXPECT_EQ(copy.exit_code, 1);
  EXPECT_NE(copy.err.find("bytes of weights copied to fast memory"), std::string::npos) << copy.err;
  auto in_place = RunCommand(TigrisCli() + " compile " + model + " -m 256K --xip -o " + out);
  ASSERT_EQ(in_place.exit_code, 0) << in_place.err;
  EXPECT_NE(in_place.out.find("read in place (xip)"), std::string::npos) << in_place.out;
  auto automatic = RunCommand(TigrisCli() + " compile " + model + " -m 256K -o " + out);
  ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_NE(automatic.out.find("read in place; copied into fast memory by "), std::string::npos)
      << automatic.out;
  auto inspect = RunCommand(TigrisCli() + " inspect " + out);
  EXPECT_NE(inspect.out.find("read in place; copied into fast memory by "), std::string::npos)
      << inspect.out;
  std::filesystem::remove(out);
}

TEST(CliCompileTest, TargetPlacesScratchSpillsAndThePlan) {
  // examples/targets/stm32h7.yaml: DTCM 128K, AXI_SRAM 512K, PSRAM 8M, OSPI_FLASH 64M
  // (read-only: the plan). vww_mobilenetv1_025_96 float spills at 128K, and its spills fit
  // the AXI SRAM.
  const std::string target = tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml";
  const std::string out = OutPath("cli_compile_target.tgrs");
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("vww_mobilenetv1_025_96.onnx") +
                      " --target " + target + " -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("memory               size         used    traffic/run  holds"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("AXI_SRAM           524288 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  spills\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PSRAM             8388608            0              0  -\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  plan\n"), std::string::npos) << r.out;
  // The plan names the memories: inspect reads them back.
  auto inspect = RunCommand(TigrisCli() + " inspect " + out + " --json");
  EXPECT_NE(inspect.out.find("\"DTCM\""), std::string::npos) << inspect.out;
  // -m and --target together, a missing file, a broken one.
  EXPECT_EQ(RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                       " -m 64K --target " + target + " -o " + out)
                .exit_code,
            2);
  auto missing = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                            " --target /nonexistent.yaml -o " + out);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("cannot read target '/nonexistent.yaml'"), std::string::npos)
      << missing.err;
  const std::string bad = OutPath("cli_bad_target.yaml");
  std::ofstream(bad) << "memories:\n  - {name: SRAM, size: 64K, alignment: 3}\n";
  auto broken = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                           " --target " + bad + " -o " + out);
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_NE(broken.err.find(bad + ":2:40: memory 'SRAM' alignment 3 is not a power of two"),
            std::string::npos)
      << broken.err;
  EXPECT_NE(broken.err.find("[TIGRIS_ERR_INVALID_ARGUMENT]"), std::string::npos) << broken.err;
  std::filesystem::remove(out);
  std::filesystem::remove(bad);
}

TEST(CliCompileTest, EmitCWritesTheFirmwareGlue) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cli_emit_c";
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "kws-16k.tgrs").string();
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("kws_small_cnn.onnx") +
                      " -m 16K -o " + out + " --emit-c " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The -m shorthand names the memories fast, slow and flash; the sizes are the plan's.
  auto inspect = RunCommand(TigrisCli() + " inspect " + out + " --json");
  const nlohmann::json plan = nlohmann::json::parse(inspect.out).at("plan");
  std::ifstream header(dir / "kws_16k.h");
  const std::string h((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
  EXPECT_NE(
      h.find("#define KWS_16K_PLAN_BYTES " + std::to_string(std::filesystem::file_size(out)) + "u"),
      std::string::npos)
      << h;
  EXPECT_NE(h.find("#define KWS_16K_ARENA_FAST_SIZE " +
                   std::to_string(plan.at("fast_arena_bytes").get<long long>()) + "u"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("#define KWS_16K_ARENA_SLOW_SIZE " +
                   std::to_string(plan.at("slow_arena_bytes").get<long long>()) + "u"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("KWS_16K_ARENA_FAST = 0"), std::string::npos) << h;
  EXPECT_NE(h.find("#define KWS_16K_PLAN_SECTION \".flash\""), std::string::npos) << h;
  EXPECT_TRUE(std::filesystem::exists(dir / "kws_16k.c"));
  auto not_dir = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                            " -m 64K -o " + out + " --emit-c /nonexistent-dir");
  EXPECT_EQ(not_dir.exit_code, 2);
  EXPECT_NE(not_dir.err.find("--emit-c /nonexistent-dir: not a directory"), std::string::npos)
      << not_dir.err;
  std::filesystem::remove_all(dir);
}

TEST(CliCompileTest, StageThatDoesNotFitExitsOne) {
  auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mobilenet_v2_035_144.onnx") +
                      " -m 4K --xip -o " + OutPath("cli_compile_mnv2.tgrs"));
  // At 4K the classifier (5120 bytes in, 4000 out) does not fit, and even a group of one of
  // its output channels reads all 5120; every layer before it fits.
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("TIGRIS_ERR_DOES_NOT_FIT"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stage 63 (ops /classifier/classifier.1/Gemm) needs 9120 bytes"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("1-channel groups 5136"), std::string::npos) << r.err;
}

// Every file compile reads (the model, --target, --rules), empty, cut in half, a directory
// or missing: exit 1 naming the file and the cause (issue 42). Unreadable: below.
TEST(CliCompileTest, BadInputFilesAreNamedErrors) {
  const std::filesystem::path dir = FreshDir("cli_compile_inputs");
  const std::string out = (dir / "out.tgrs").string();
  const std::string model = SharedOnnxModel("mnist8.onnx");
  const std::string target = (dir / "target.yaml").string();
  const std::string rules = (dir / "rules.yaml").string();
  std::ofstream(target) << kTarget;
  std::ofstream(rules) << kRules;
  const auto compile = [&](const std::string& args) {
    return RunCommand(TigrisCli() + " compile " + args + " -o " + out);
  };
  ASSERT_EQ(compile(model + " --target " + target + " --rules " + rules).exit_code, 0);

  const BadFiles m = MakeBadFiles(dir, model);
  ExpectNamedError(compile(m.empty + " -m 64K"), m.empty,
                   "model is empty (0 bytes) [TIGRIS_ERR_EMPTY_MODEL]");
  ExpectNamedError(compile(m.truncated + " -m 64K"), m.truncated, "truncated model: ");
  ExpectNamedError(compile(m.directory + " -m 64K"), m.directory,
                   "cannot read model file '" + m.directory + "': is a directory [TIGRIS_ERR_IO]");
  ExpectNamedError(compile(m.missing + " -m 64K"), m.missing,
                   "cannot read model file '" + m.missing + "': No such file or directory");

  const BadFiles t = MakeBadFiles(dir, target);
  ExpectNamedError(compile(model + " --target " + t.empty), t.empty,
                   "target '" + t.empty + "' is empty (0 bytes)");
  ExpectNamedError(compile(model + " --target " + t.truncated), t.truncated,
                   t.truncated + ":4:1: not valid YAML: ");
  ExpectNamedError(compile(model + " --target " + t.directory), t.directory,
                   "cannot read target '" + t.directory + "': is a directory");
  ExpectNamedError(compile(model + " --target " + t.missing), t.missing,
                   "cannot read target '" + t.missing + "': No such file or directory");

  const BadFiles r = MakeBadFiles(dir, rules);
  const std::string with = model + " --target " + target + " --rules ";
  ExpectNamedError(compile(with + r.empty), r.empty,
                   "rules file '" + r.empty + "' is empty (0 bytes)");
  ExpectNamedError(compile(with + r.truncated), r.truncated,
                   r.truncated + ":2:5: rule 0 has no attributes");
  ExpectNamedError(compile(with + r.directory), r.directory,
                   "cannot read rules file '" + r.directory + "': is a directory");
  ExpectNamedError(compile(with + r.missing), r.missing,
                   "cannot read rules file '" + r.missing + "': No such file or directory");
  std::filesystem::remove_all(dir);
}

TEST(CliCompileTest, UnreadableInputFilesAreNamedErrors) {
  if (RunningAsRoot()) GTEST_SKIP() << "root reads a mode-000 file: nothing to refuse";
  const std::filesystem::path dir = FreshDir("cli_compile_unreadable");
  const std::string out = (dir / "out.tgrs").string();
  const std::string model = SharedOnnxModel("mnist8.onnx");
  const std::string target = (dir / "target.yaml").string();
  const std::string rules = (dir / "rules.yaml").string();
  std::ofstream(target) << kTarget;
  std::ofstream(rules) << kRules;
  const auto compile = [&](const std::string& args) {
    return RunCommand(TigrisCli() + " compile " + args + " -o " + out);
  };
  const std::string m = MakeBadFiles(dir, model).unreadable;
  ExpectNamedError(compile(m + " -m 64K"), m,
                   "cannot read model file '" + m + "': Permission denied [TIGRIS_ERR_IO]");
  const std::string t = MakeBadFiles(dir, target).unreadable;
  ExpectNamedError(compile(model + " --target " + t), t,
                   "cannot read target '" + t + "': Permission denied");
  const std::string r = MakeBadFiles(dir, rules).unreadable;
  ExpectNamedError(compile(model + " --target " + target + " --rules " + r), r,
                   "cannot read rules file '" + r + "': Permission denied");
  std::filesystem::remove_all(dir);
}

// The plan is written to a temporary file beside it and renamed over it
// (tigris_emit_to_file): what is left is the plan alone, and replacing a plan works.
TEST(CliCompileTest, ASuccessfulCompileLeavesOnlyThePlan) {
  const std::filesystem::path dir = FreshDir("cli_compile_atomic");
  const std::string out = (dir / "mnist8.tgrs").string();
  const std::string command =
      TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") + " -m 64K -o " + out;
  ASSERT_EQ(RunCommand(command).exit_code, 0);
  const std::string first = Slurp(out);
  EXPECT_EQ(Listing(dir), std::set<std::string>{"mnist8.tgrs"});
  std::ofstream(out) << "an older plan";
  ASSERT_EQ(RunCommand(command).exit_code, 0);
  EXPECT_EQ(Slurp(out), first) << "the older file is replaced whole";
  EXPECT_EQ(Listing(dir), std::set<std::string>{"mnist8.tgrs"});
  std::filesystem::remove_all(dir);
}

// A compile that fails, before writing or while writing, leaves the plan that was at the
// output path byte for byte, and no temporary file.
TEST(CliCompileTest, AFailedCompileLeavesTheExistingPlanUntouched) {
  const std::filesystem::path dir = FreshDir("cli_compile_failed");
  const std::string out = (dir / "plan.tgrs").string();
  const std::string old_plan = "the plan a firmware build is using\n";
  std::ofstream(out) << old_plan;
  const std::string compile = TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx");

  // Planning fails: nothing is written.
  auto r = RunCommand(compile + " -m 64K -f 4K -o " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(out), old_plan);
  EXPECT_EQ(Listing(dir), std::set<std::string>{"plan.tgrs"});

  // Writing fails part way: a file size limit of 512 bytes (ulimit -f 1) with SIGXFSZ
  // ignored makes write() fail with EFBIG inside the 26K plan, as a full disk would.
  r = RunCommand("trap '' XFSZ; ulimit -f 1; " + compile + " -m 64K -o " + out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write the plan to '" + out + "': "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File too large [TIGRIS_ERR_IO]"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(out), old_plan);
  EXPECT_EQ(Listing(dir), std::set<std::string>{"plan.tgrs"});

  // The output path is a directory: the rename fails, the directory is as it was.
  const std::filesystem::path sub = dir / "plans";
  std::filesystem::create_directories(sub);
  r = RunCommand(compile + " -m 64K -o " + sub.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write the plan to '" + sub.string() + "': "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Is a directory [TIGRIS_ERR_IO]"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(sub));
  EXPECT_EQ(Listing(dir), (std::set<std::string>{"plan.tgrs", "plans"}));
  std::filesystem::remove_all(dir);
}

TEST(CliCompileTest, AReadOnlyDirectoryLeavesTheExistingPlanUntouched) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into a read-only directory anyway";
  const std::filesystem::path dir = FreshDir("cli_compile_read_only");
  const std::string out = (dir / "plan.tgrs").string();
  const std::string old_plan = "the plan a firmware build is using\n";
  std::ofstream(out) << old_plan;
  namespace fs = std::filesystem;
  fs::permissions(dir, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  auto r =
      RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") + " -m 64K -o " + out);
  fs::permissions(dir, fs::perms::owner_write, fs::perm_options::add);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write the plan to '" + out + "': cannot create the temporary file"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("Permission denied [TIGRIS_ERR_IO]"), std::string::npos) << r.err;
  EXPECT_EQ(Slurp(out), old_plan);
  EXPECT_EQ(Listing(dir), std::set<std::string>{"plan.tgrs"});
  fs::remove_all(dir);
}

}  // namespace
