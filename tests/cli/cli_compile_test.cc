// `tigris compile` as a user runs it: the summary, budget errors with both numbers, usage
// errors (exit 2) and the written plan.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/process.h"
#include "support/test_env.h"

namespace {

using tigris::testing::RunCommand;
using tigris::testing::SharedOnnxModel;
using tigris::testing::TigrisCli;

std::string OutPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / name).string();
}

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
  auto help = RunCommand(TigrisCli() + " compile --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--xip"), std::string::npos);
  EXPECT_NE(RunCommand(TigrisCli() + " --help").out.find("compile"), std::string::npos);
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

}  // namespace
