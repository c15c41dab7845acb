// `tigris run` as a user runs it: a plan compiled from a shared model runs on a .npy input,
// writes a .npy output and prints latency and the arena high-water marks; wrong input
// shapes, missing files and too-small arenas exit 1 naming the runtime status.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// A folder of this process's own: ctest runs each test in its own process, in parallel,
// and each one's SetUpTestSuite writes the plan and input again (a shared path raced: a
// test read a plan another process was rewriting).
std::filesystem::path TmpDir() {
  return std::filesystem::temp_directory_path() / ("cli_run_" + std::to_string(::getpid()));
}

std::string Tmp(const std::string& name) { return (TmpDir() / name).string(); }

// A float32 .npy (format 1.0, header padded to 64 bytes as numpy writes it).
void WriteFloatNpy(const std::string& path, const std::string& shape, size_t count, float v) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const char len[2] = {static_cast<char>(header.size() & 0xff),
                       static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  std::vector<float> data(count, v);
  out.write(reinterpret_cast<const char*>(data.data()),
            static_cast<std::streamsize>(data.size() * 4));
}

class CliRunTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::filesystem::create_directories(TmpDir());
    // mnist8 at 8K: several stages, tiles and spills (docs/planning.md).
    auto r = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                        " -m 8K --xip -o " + Tmp("mnist8.tgrs"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    WriteFloatNpy(Tmp("x.npy"), "(1, 1, 28, 28)", 28 * 28, 0.5f);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(TmpDir()); }
};

TEST_F(CliRunTest, RunsAndReportsHighWaterMarks) {
  std::filesystem::remove(Tmp("y.npy"));
  auto r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " --input " + Tmp("x.npy") +
                      " --output " + Tmp("y.npy"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("latency  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fast     high-water "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("poison   fast intact, slow intact"), std::string::npos) << r.out;
  // 10 float scores, shape (1, 10): a 128-byte header (numpy pads to 64) + 40 bytes.
  ASSERT_TRUE(std::filesystem::exists(Tmp("y.npy")));
  EXPECT_EQ(std::filesystem::file_size(Tmp("y.npy")), 128u + 40u);
}

TEST_F(CliRunTest, WrongInputShapeNamesTheStatus) {
  WriteFloatNpy(Tmp("bad.npy"), "(1, 1, 28, 27)", 28 * 27, 0.5f);
  auto r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + Tmp("bad.npy") +
                      " -o " + Tmp("y.npy"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("TGRS_ERR_INPUT_SIZE"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1x1x28x28"), std::string::npos) << r.err;
}

TEST_F(CliRunTest, TooSmallArenaNamesTheStatus) {
  auto r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + Tmp("x.npy") + " -o " +
                      Tmp("y.npy") + " -m 1K");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("TGRS_ERR_ARENA_TOO_SMALL"), std::string::npos) << r.err;
}

TEST_F(CliRunTest, MissingFilesAndUsage) {
  auto r = RunCommand(TigrisCli() + " run " + Tmp("missing.tgrs") + " -i " + Tmp("x.npy") + " -o " +
                      Tmp("y.npy"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.tgrs"), std::string::npos) << r.err;
  r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + Tmp("missing.npy") + " -o " +
                 Tmp("y.npy"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.npy"), std::string::npos) << r.err;
  r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -o " + Tmp("y.npy"));
  EXPECT_EQ(r.exit_code, 2) << "one --input per graph input";
  r = RunCommand(TigrisCli() + " run --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--dequantize"), std::string::npos);
}

TEST_F(CliRunTest, DumpsEveryOpOutputWithAnIndex) {
  const std::string dir = Tmp("dump");
  std::filesystem::remove_all(dir);
  auto r = RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + Tmp("x.npy") + " -o " +
                      Tmp("y.npy") + " --dump-intermediates " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // mnist8 runs 5 ops (2 conv, 2 max pool, gemm: its Flatten folds into the Gemm,
  // passes/gemm_flatten_fold.cc): one file each, plus the index.
  EXPECT_NE(r.out.find("dumped   5 tensors"), std::string::npos) << r.out;
  size_t npy = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    npy += entry.path().extension() == ".npy";
  }
  EXPECT_EQ(npy, 5u);
  EXPECT_TRUE(std::filesystem::exists(dir + "/index.json"));
  // The last op writes the graph output: the same file as --output, header and bytes.
  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string y = slurp(Tmp("y.npy"));
  EXPECT_FALSE(y.empty());
  EXPECT_EQ(slurp(dir + "/004_Plus214_Output_0.npy"), y);
}

// compile --strip-names: a smaller plan with only the caller's names (the graph's input and
// output), inspect printing indices for the rest, the same output bytes as the named plan.
TEST_F(CliRunTest, StrippedNamesChangeNothingButTheBytesOfNames) {
  auto compiled = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                             " -m 8K --xip --strip-names -o " + Tmp("stripped.tgrs"));
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_LT(std::filesystem::file_size(Tmp("stripped.tgrs")),
            std::filesystem::file_size(Tmp("mnist8.tgrs")));
  auto inspect = RunCommand(TigrisCli() + " inspect " + Tmp("stripped.tgrs") + " --json");
  ASSERT_EQ(inspect.exit_code, 0) << inspect.err;
  const nlohmann::json plan = nlohmann::json::parse(inspect.out);
  for (const nlohmann::json& op : plan.at("ops")) EXPECT_EQ(op.at("name"), "") << op;
  size_t named = 0;
  for (const nlohmann::json& t : plan.at("tensors"))
    named += !t.at("name").get<std::string>().empty();
  EXPECT_EQ(named, 2u);  // Input3 and Plus214_Output_0
  auto text = RunCommand(TigrisCli() + " inspect " + Tmp("stripped.tgrs"));
  EXPECT_NE(text.out.find("tensor    #"), std::string::npos) << text.out;
  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  for (const char* plan_file : {"mnist8.tgrs", "stripped.tgrs"}) {
    auto r = RunCommand(TigrisCli() + " run " + Tmp(plan_file) + " -i " + Tmp("x.npy") + " -o " +
                        Tmp(std::string("y_") + plan_file + ".npy"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string named_y = slurp(Tmp("y_mnist8.tgrs.npy"));
  EXPECT_FALSE(named_y.empty());
  EXPECT_EQ(slurp(Tmp("y_stripped.tgrs.npy")), named_y);
  auto both = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                         " -m 8K --strip-names --keep-names -o " + Tmp("both.tgrs"));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("contradict"), std::string::npos) << both.err;
}

TEST_F(CliRunTest, DumpDirectoryErrors) {
  const std::string base = TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + Tmp("x.npy") +
                           " -o " + Tmp("y.npy") + " --dump-intermediates ";
  // A file where the directory should be: exit 1 naming the path.
  { std::ofstream(Tmp("not_a_dir")) << "x"; }
  auto r = RunCommand(base + Tmp("not_a_dir"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("not_a_dir' is not a directory"), std::string::npos) << r.err;
  r = RunCommand(base + Tmp("d1") + " --dump-intermediates " + Tmp("d2"));
  EXPECT_EQ(r.exit_code, 2) << "one directory";
}

// The plan, the .npy inputs and --target, empty, cut in half, a directory or missing:
// exit 1 naming the file and the cause (issue 42). Unreadable: below.
TEST_F(CliRunTest, BadInputFilesAreNamedErrors) {
  const auto run = [&](const std::string& plan, const std::string& input,
                       const std::string& more = "") {
    return RunCommand(TigrisCli() + " run " + plan + " -i " + input + " -o " + Tmp("y.npy") + more);
  };
  const BadFiles p = MakeBadFiles(TmpDir() / "bad", Tmp("mnist8.tgrs"));
  ExpectNamedError(run(p.empty, Tmp("x.npy")), p.empty,
                   "plan '" + p.empty + "' is empty (0 bytes)");
  // The runtime's verifier names what the cut left dangling, and its status.
  ExpectNamedError(run(p.truncated, Tmp("x.npy")), p.truncated + ": ", "[TGRS_ERR_");
  ExpectNamedError(run(p.directory, Tmp("x.npy")), p.directory,
                   "cannot read plan '" + p.directory + "': is a directory");
  ExpectNamedError(run(p.missing, Tmp("x.npy")), p.missing,
                   "cannot read plan '" + p.missing + "': No such file or directory");

  const BadFiles x = MakeBadFiles(TmpDir() / "bad", Tmp("x.npy"));
  const std::string plan = Tmp("mnist8.tgrs");
  ExpectNamedError(run(plan, x.empty), x.empty, "input '" + x.empty + "' is empty (0 bytes)");
  const auto cut = run(plan, x.truncated);
  ExpectNamedError(cut, x.truncated, x.truncated + ": truncated: npy data has ");
  EXPECT_NE(cut.err.find("; shape 1x1x28x28 of <f4 needs 3136"), std::string::npos) << cut.err;
  ExpectNamedError(run(plan, x.directory), x.directory,
                   "cannot read input '" + x.directory + "': is a directory");
  ExpectNamedError(run(plan, x.missing), x.missing,
                   "cannot read input '" + x.missing + "': No such file or directory");

  const std::string target = tigris::testing::SourceDir() + "/examples/targets/stm32h7.yaml";
  const BadFiles t = MakeBadFiles(TmpDir() / "bad", target);
  const std::string x_npy = Tmp("x.npy");
  ExpectNamedError(run(plan, x_npy, " --target " + t.empty), t.empty,
                   "target '" + t.empty + "' is empty (0 bytes)");
  ExpectNamedError(run(plan, x_npy, " --target " + t.directory), t.directory,
                   "cannot read target '" + t.directory + "': is a directory");
  ExpectNamedError(run(plan, x_npy, " --target " + t.missing), t.missing,
                   "cannot read target '" + t.missing + "': No such file or directory");
}

TEST_F(CliRunTest, UnreadableInputFilesAreNamedErrors) {
  if (RunningAsRoot()) GTEST_SKIP() << "root reads a mode-000 file: nothing to refuse";
  const std::string p = MakeBadFiles(TmpDir() / "unreadable", Tmp("mnist8.tgrs")).unreadable;
  ExpectNamedError(
      RunCommand(TigrisCli() + " run " + p + " -i " + Tmp("x.npy") + " -o " + Tmp("y.npy")), p,
      "cannot read plan '" + p + "': Permission denied");
  const std::string x = MakeBadFiles(TmpDir() / "unreadable", Tmp("x.npy")).unreadable;
  ExpectNamedError(
      RunCommand(TigrisCli() + " run " + Tmp("mnist8.tgrs") + " -i " + x + " -o " + Tmp("y.npy")),
      x, "cannot read input '" + x + "': Permission denied");
}

}  // namespace
