// The `tigris` command as a user runs it: exit codes, help, version, errors without stack
// traces, JSON that parses.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/process.h"
#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::RunCommand;
using tigris::testing::SharedOnnxModel;
using tigris::testing::TigrisCli;

TEST(CliTest, HelpAndVersion) {
  auto help = RunCommand(TigrisCli() + " --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: tigris"), std::string::npos);
  EXPECT_NE(help.out.find("analyze"), std::string::npos);

  auto version = RunCommand(TigrisCli() + " --version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out, std::string("tigris ") + tigris_version() + "\n");

  auto analyze_help = RunCommand(TigrisCli() + " analyze --help");
  EXPECT_EQ(analyze_help.exit_code, 0);
  EXPECT_NE(analyze_help.out.find("--json"), std::string::npos);
}

TEST(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCommand(TigrisCli()).exit_code, 2);
  auto unknown = RunCommand(TigrisCli() + " frobnicate");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown command 'frobnicate'"), std::string::npos);
  auto bad_opt = RunCommand(TigrisCli() + " analyze --bogus x.onnx");
  EXPECT_EQ(bad_opt.exit_code, 2);
  EXPECT_NE(bad_opt.err.find("--bogus"), std::string::npos);
  EXPECT_EQ(RunCommand(TigrisCli() + " analyze").exit_code, 2);
}

TEST(CliTest, LibraryErrorsExitOneWithTheMessage) {
  auto missing = RunCommand(TigrisCli() + " analyze /nonexistent.onnx");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent.onnx"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("TIGRIS_ERR_IO"), std::string::npos) << missing.err;

  std::string junk = (std::filesystem::temp_directory_path() / "tigris_cli_junk.onnx").string();
  std::ofstream(junk, std::ios::binary) << std::string("\xff\xff\xff\xff not onnx at all", 21);
  auto bad = RunCommand(TigrisCli() + " analyze " + junk);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("TIGRIS_ERR_NOT_ONNX"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("terminate called"), std::string::npos);
  std::filesystem::remove(junk);
}

TEST(CliTest, AnalyzeSummaryAndJson) {
  std::string model = SharedOnnxModel("vww_mobilenetv1_025_96.onnx");
  auto text = RunCommand(TigrisCli() + " analyze " + model);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("input    input_1  1x3x96x96"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("output   Identity  1x2"), std::string::npos) << text.out;

  auto json = RunCommand(TigrisCli() + " analyze --json " + model);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out);
  const auto& m = j.at("model");
  for (const char* key : {"name", "ops", "op_types", "tensors", "dtype", "inputs", "outputs"}) {
    EXPECT_TRUE(m.contains(key)) << key;
  }
  EXPECT_EQ(m["dtype"], "float32");
  EXPECT_EQ(m["inputs"][0]["name"], "input_1");
}

TEST(CliTest, DimensionOptionsReachTheLoader) {
  std::string model = SharedOnnxModel("cifar_mobilenet_relu6.onnx");
  auto pinned = RunCommand(TigrisCli() + " analyze --json --dim batch=3 " + model);
  ASSERT_EQ(pinned.exit_code, 0) << pinned.err;
  EXPECT_EQ(nlohmann::json::parse(pinned.out)["model"]["outputs"][0]["shape"],
            (std::vector<int64_t>{3, 10}));
  auto bad = RunCommand(TigrisCli() + " analyze --dim batch=zero " + model);
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
