// `tigris inspect` as a user runs it: plans written by flatc's generated builder (and, once
// `tigris compile` exists, by the compiler) read back through the C runtime's reader.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/bad_files.h"
#include "runtime/plan_fixture.h"
#include "support/process.h"
#include "support/test_env.h"

namespace {

using tigris::cli_test::BadFiles;
using tigris::cli_test::ExpectNamedError;
using tigris::cli_test::MakeBadFiles;
using tigris::cli_test::RunningAsRoot;
using tigris::runtime_test::FullPlan;
using tigris::runtime_test::PlanParts;
using tigris::runtime_test::Serialize;
using tigris::testing::RunCommand;
using tigris::testing::SharedOnnxModel;
using tigris::testing::TigrisCli;

std::string WritePlan(const std::string& name, const std::vector<uint8_t>& bytes) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

bool Has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(CliInspect, HumanReport) {
  std::string path = WritePlan("tigris_inspect_full.tgrs", Serialize(FullPlan()));
  auto r = RunCommand(TigrisCli() + " inspect " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Values are the fixture's (plan_fixture.h).
  EXPECT_TRUE(Has(r.out, "schema     1\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "generator  tigris 0.1.0\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "model      fixture_net\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "arenas     fast 512 B, slow 256 B (scheduled peak 192 B)")) << r.out;
  EXPECT_TRUE(Has(r.out, "128 B of weight data, read in place (xip)")) << r.out;
  EXPECT_TRUE(Has(r.out, "input      input 1x8x8x3 INT8")) << r.out;
  EXPECT_TRUE(Has(r.out, "output     probs 1x4x4x4 INT8")) << r.out;
  EXPECT_TRUE(Has(r.out, "stage 0  tiled  ops 0")) << r.out;
  EXPECT_TRUE(Has(r.out, "tile: 2 rows x 4 tiles, halo 2, ops 0, peak 160 B")) << r.out;
  EXPECT_TRUE(Has(r.out, "chain 0  stages 1,2")) << r.out;
  EXPECT_TRUE(Has(r.out, "MAX_POOL")) << r.out;
  EXPECT_TRUE(Has(r.out, "conv.weight")) << r.out;

  auto verbose = RunCommand(TigrisCli() + " inspect -v " + path);
  ASSERT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_TRUE(Has(verbose.out, "tile 3 op 0: in [5, 8) out [6, 8) pad 0/1")) << verbose.out;
  std::filesystem::remove(path);
}

TEST(CliInspect, JsonParses) {
  std::string path = WritePlan("tigris_inspect_lz4.tgrs", Serialize(FullPlan(true)));
  auto r = RunCommand(TigrisCli() + " inspect --json " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["plan"]["schema_version"], 1);
  EXPECT_EQ(j["plan"]["fast_arena_bytes"], 512);
  EXPECT_EQ(j["plan"]["compression"], "lz4");
  EXPECT_EQ(j["plan"]["xip"], false);
  ASSERT_EQ(j["stages"].size(), 4u);
  EXPECT_EQ(j["stages"][0]["strategy"], "tiled");
  EXPECT_EQ(j["stages"][0]["tile"]["count"], 4);
  EXPECT_EQ(j["stages"][0]["tile"]["regions"][3]["in"], nlohmann::json({5, 8}));
  EXPECT_EQ(j["stages"][0]["weight_block"], 0);
  EXPECT_EQ(j["chains"][0]["stages"], nlohmann::json({1, 2}));
  EXPECT_EQ(j["tensors"][1]["name"], "conv.weight");
  EXPECT_EQ(j["tensors"][1]["bytes"], 108);
  EXPECT_EQ(j["ops"][0]["code"], "CONV");
  EXPECT_EQ(j["weight_blocks"][0]["raw_size"], 128);
  EXPECT_EQ(j["slow_buffers"][0]["home"]["region"], "slow");
  std::filesystem::remove(path);
}

TEST(CliInspect, RejectedPlansExitOneWithTheVerifierDetail) {
  std::vector<uint8_t> bytes = Serialize(FullPlan());
  std::string truncated = WritePlan("tigris_inspect_cut.tgrs",
                                    std::vector<uint8_t>(bytes.begin(), bytes.begin() + 100));
  auto r = RunCommand(TigrisCli() + " inspect " + truncated);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "tigris: error: " + truncated + ": ")) << r.err;
  EXPECT_TRUE(Has(r.err, "[TGRS_ERR_")) << r.err;
  EXPECT_FALSE(Has(r.err, "terminate called")) << r.err;

  PlanParts parts = FullPlan();
  parts.ops[0].inputs[1] = 4087;
  std::string bad = WritePlan("tigris_inspect_bad.tgrs", Serialize(parts));
  r = RunCommand(TigrisCli() + " inspect --json " + bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err,
                  "ops[0].inputs[1]: tensor index 4087 out of range (tensors: 7) "
                  "[TGRS_ERR_BAD_INDEX]"))
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;

  r = RunCommand(TigrisCli() + " inspect /nonexistent.tgrs");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "/nonexistent.tgrs")) << r.err;
  EXPECT_EQ(RunCommand(TigrisCli() + " inspect").exit_code, 2);
  EXPECT_EQ(RunCommand(TigrisCli() + " inspect a.tgrs b.tgrs").exit_code, 2);
  std::filesystem::remove(truncated);
  std::filesystem::remove(bad);
}

TEST(CliInspect, HelpListsInspect) {
  auto help = RunCommand(TigrisCli() + " --help");
  EXPECT_TRUE(Has(help.out, "inspect PLAN.tgrs")) << help.out;
  auto own = RunCommand(TigrisCli() + " inspect --help");
  EXPECT_EQ(own.exit_code, 0);
  EXPECT_TRUE(Has(own.out, "--json")) << own.out;
}

// A plan the compiler wrote from a shared model verifies and reads back.
TEST(CliInspect, CompiledSharedModel) {
  std::string out = (std::filesystem::temp_directory_path() / "tigris_inspect_mnist.tgrs").string();
  for (const char* extra : {"", " --xip", " -c lz4"}) {
    auto c = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("mnist8.onnx") +
                        " -m 256K -m 8M" + extra + " -o " + out);
    ASSERT_EQ(c.exit_code, 0) << extra << ": " << c.err;
    auto r = RunCommand(TigrisCli() + " inspect --json " + out);
    ASSERT_EQ(r.exit_code, 0) << extra << ": " << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["plan"]["schema_version"], 1);
    EXPECT_FALSE(j["stages"].empty());
    EXPECT_FALSE(j["tensors"].empty());
    EXPECT_EQ(j["plan"]["xip"], std::string(extra) == " --xip");
  }
  // A tight budget makes the planner spill, tile and chain (kws_small_cnn under 16K).
  auto c = RunCommand(TigrisCli() + " compile " + SharedOnnxModel("kws_small_cnn.onnx") +
                      " --xip -m 16K -m 8M -o " + out);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  auto r = RunCommand(TigrisCli() + " inspect --json " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["chains"].empty()) << r.out.substr(0, 2000);
  EXPECT_FALSE(j["slow_buffers"].empty());
  // The memories a home's region indexes: the two arenas at the sizes the plan states,
  // the plan's weight data, the caller's buffers.
  const nlohmann::json& memories = j["plan"]["memories"];
  ASSERT_EQ(memories.size(), 4u) << memories;
  EXPECT_EQ(memories[0],
            nlohmann::json(
                {{"name", "fast"}, {"size", j["plan"]["fast_arena_bytes"]}, {"alignment", 16}}));
  EXPECT_EQ(memories[1],
            nlohmann::json(
                {{"name", "slow"}, {"size", j["plan"]["slow_arena_bytes"]}, {"alignment", 16}}));
  EXPECT_EQ(memories[2]["name"], "flash");
  EXPECT_EQ(memories[2]["size"], j["plan"]["weight_data_bytes"]);
  EXPECT_EQ(memories[3], nlohmann::json({{"name", "host"}, {"size", 0}, {"alignment", 1}}));
  std::filesystem::remove(out);
}

}  // namespace

namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The header names exactly the op codes the plan's JSON lists (an independent reading of
// the same plan), and leaves out the dtype no tensor has.
TEST(CliInspect, OpsHeaderNamesTheOpCodesOfEveryPlan) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string kws = (dir / "tigris_ops_kws.tgrs").string();
  const std::string mnist = (dir / "tigris_ops_mnist.tgrs").string();
  const std::string header = (dir / "tigris_ops.h").string();
  for (const auto& [model, plan] : {std::pair{std::string("kws_small_cnn.onnx"), kws},
                                    std::pair{std::string("mnist8.onnx"), mnist}}) {
    auto c =
        RunCommand(TigrisCli() + " compile " + SharedOnnxModel(model) + " -m 64K --xip -o " + plan);
    ASSERT_EQ(c.exit_code, 0) << c.err;
  }
  std::set<std::string> codes;
  for (const std::string& plan : {kws, mnist}) {
    auto j = RunCommand(TigrisCli() + " inspect --json " + plan);
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const nlohmann::json report = nlohmann::json::parse(j.out);
    for (const auto& op : report["ops"]) {
      codes.insert(op["code"].get<std::string>());
    }
  }
  auto r = RunCommand(TigrisCli() + " inspect " + kws + " " + mnist + " --ops-header " + header);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string text = ReadText(header);
  std::set<std::string> defined;
  for (size_t at = text.find("#define TGRS_WITH_OP_"); at != std::string::npos;
       at = text.find("#define TGRS_WITH_OP_", at + 1)) {
    const size_t name = at + std::string("#define TGRS_WITH_OP_").size();
    const std::string line = text.substr(name, text.find('\n', name) - name);
    EXPECT_EQ(line.substr(line.size() - 2), " 1") << line;
    defined.insert(line.substr(0, line.size() - 2));
  }
  EXPECT_EQ(defined, codes);
  EXPECT_TRUE(Has(text, "#define TGRS_OPS_SELECTED 1\n")) << text;
  EXPECT_TRUE(Has(text, "#define TGRS_WITH_INT8 0\n")) << "float32 plans: " << text;
  EXPECT_FALSE(Has(text, "TGRS_WITH_FLOAT32")) << text;
  EXPECT_TRUE(Has(text, kws) && Has(text, mnist)) << "the header names its plans";
  for (const std::string& path : {kws, mnist, header}) std::filesystem::remove(path);
}

// Whether a graph input's (or output's) host permutation reorders its bytes, by brute
// force: the ONNX offsets of the runtime layout's elements, walked in order, are not
// 0, 1, 2, ... (docs/plan-format.md: inputs runtime = transpose(onnx, P), outputs onnx =
// transpose(runtime, P)).
bool HostCopyReorders(const nlohmann::json& t, bool input) {
  const nlohmann::json none = nlohmann::json::array();
  const std::vector<int64_t> shape = t.value("shape", none), onnx = t.value("onnx_shape", none);
  const std::vector<int64_t> perm = t.value("host_permutation", none);
  const size_t rank = shape.size();
  if (perm.empty() || onnx.size() != rank) return false;
  std::vector<int64_t> onnx_stride(rank, 1), axis_of(rank);  // runtime axis -> ONNX axis
  for (size_t i = rank - 1; i > 0; --i) onnx_stride[i - 1] = onnx_stride[i] * onnx[i];
  for (size_t i = 0; i < rank; ++i) {
    if (input) {
      axis_of[i] = perm[i];
    } else {
      axis_of[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
    }
  }
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  for (int64_t flat = 0; flat < elements; ++flat) {
    int64_t rest = flat, offset = 0;
    for (size_t j = rank; j-- > 0;) {
      offset += (rest % shape[j]) * onnx_stride[static_cast<size_t>(axis_of[j])];
      rest /= shape[j];
    }
    if (offset != flat) return true;
  }
  return false;
}

// The plan features the ops header turns on are exactly those its plan uses, read from
// the plan's JSON: weight blocks, tile loops with columns or channels, and graph inputs
// or outputs whose host copy reorders bytes.
TEST(CliInspect, OpsHeaderSelectsExactlyThePlanFeaturesItsPlanUses) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string plan = (dir / "tigris_features.tgrs").string();
  const std::string header = (dir / "tigris_features.h").string();
  struct Case {
    std::string model, options;
  };
  // 2-D tiles in place; everything copied whole; a three-channel NCHW input the host copy
  // transposes to NHWC (kws_small_cnn's one-channel NHWC input is the runtime's bytes as
  // they are since input-reshape-trim); channel groups.
  const std::vector<Case> cases = {{"mnist8.onnx", "-m 2K --xip"},
                                   {"mnist8.onnx", "-m 64M"},
                                   {"cifar_mobilenet_relu6.onnx", "-m 64K --xip"},
                                   {"kws_small_cnn.onnx", "-m 4K --xip"}};
  std::set<std::string> seen;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.model + " " + c.options);
    auto compiled = RunCommand(TigrisCli() + " compile " + SharedOnnxModel(c.model) + " " +
                               c.options + " -o " + plan);
    ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
    auto j = RunCommand(TigrisCli() + " inspect --json " + plan);
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const nlohmann::json report = nlohmann::json::parse(j.out);
    std::set<std::string> expected;
    if (!report["weight_blocks"].empty()) expected.insert("WEIGHT_BLOCKS");
    for (const char* list : {"stages", "chains"}) {
      for (const auto& unit : report[list]) {
        if (!unit.contains("tile")) continue;
        if (!unit["tile"].value("columns", nlohmann::json::array()).empty()) {
          expected.insert("TILE_COLUMNS");
        }
        if (!unit["tile"].value("channels", nlohmann::json::array()).empty()) {
          expected.insert("TILE_CHANNELS");
        }
      }
    }
    for (const bool input : {true, false}) {
      for (const auto& id : report["plan"][input ? "inputs" : "outputs"]) {
        if (HostCopyReorders(report["tensors"][id.get<size_t>()], input)) {
          expected.insert("HOST_PERMUTATION");
        }
      }
    }
    auto r = RunCommand(TigrisCli() + " inspect " + plan + " --ops-header " + header);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = ReadText(header);
    for (const char* feature :
         {"WEIGHT_BLOCKS", "TILE_COLUMNS", "TILE_CHANNELS", "HOST_PERMUTATION"}) {
      const std::string line = std::string("#define TGRS_WITH_") + feature + " 1\n";
      EXPECT_EQ(Has(text, line), expected.count(feature) == 1) << feature << "\n" << text;
    }
    seen.insert(expected.begin(), expected.end());
  }
  // Each feature was present in some plan (and absent in another: mnist8 needs none).
  EXPECT_EQ(seen.size(), 4u);
  for (const std::string& path : {plan, header}) std::filesystem::remove(path);
}

TEST(CliInspect, OpsHeaderMisuseAndFailures) {
  const std::string plan = WritePlan("tigris_ops_full.tgrs", Serialize(FullPlan()));
  auto json = RunCommand(TigrisCli() + " inspect " + plan + " --json --ops-header x.h");
  EXPECT_EQ(json.exit_code, 2) << json.err;
  EXPECT_TRUE(Has(json.err, "--ops-header")) << json.err;
  auto none = RunCommand(TigrisCli() + " inspect --ops-header x.h");
  EXPECT_EQ(none.exit_code, 2) << none.err;
  auto two = RunCommand(TigrisCli() + " inspect " + plan + " " + plan);
  EXPECT_EQ(two.exit_code, 2) << "several plans only with --ops-header";
  auto unwritable =
      RunCommand(TigrisCli() + " inspect " + plan + " --ops-header /nonexistent-dir/ops.h");
  EXPECT_EQ(unwritable.exit_code, 1);
  EXPECT_TRUE(Has(unwritable.err, "TIGRIS_ERR_IO")) << unwritable.err;
  std::vector<uint8_t> bad = Serialize(FullPlan());
  bad.resize(bad.size() / 2);
  const std::string truncated = WritePlan("tigris_ops_truncated.tgrs", bad);
  auto rejected = RunCommand(TigrisCli() + " inspect " + plan + " " + truncated +
                             " --ops-header /tmp/tigris_ops_never.h");
  EXPECT_EQ(rejected.exit_code, 1);
  EXPECT_TRUE(Has(rejected.err, "tigris_ops_truncated.tgrs")) << rejected.err;
  EXPECT_FALSE(std::filesystem::exists("/tmp/tigris_ops_never.h"));
  std::filesystem::remove(plan);
  std::filesystem::remove(truncated);
}

// The plan, empty, cut in half, a directory or missing, alone or among --ops-header's
// plans: exit 1 naming the file and the cause (issue 42). Unreadable: below.
TEST(CliInspect, BadPlanFilesAreNamedErrors) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cli_inspect_bad_" + std::to_string(::getpid()));
  const std::string good = WritePlan("tigris_inspect_good.tgrs", Serialize(FullPlan()));
  const BadFiles p = MakeBadFiles(dir, good);
  const std::string header = (dir / "ops.h").string();
  for (const std::string& options :
       {std::string(""), std::string(" --json"), " " + good + " --ops-header " + header}) {
    const auto inspect = [&](const std::string& plan) {
      return RunCommand(TigrisCli() + " inspect " + plan + options);
    };
    ExpectNamedError(inspect(p.empty), p.empty, "plan '" + p.empty + "' is empty (0 bytes)");
    ExpectNamedError(inspect(p.truncated), "tigris: error: " + p.truncated + ": ", "[TGRS_ERR_");
    ExpectNamedError(inspect(p.directory), p.directory,
                     "cannot read plan '" + p.directory + "': is a directory");
    ExpectNamedError(inspect(p.missing), p.missing,
                     "cannot read plan '" + p.missing + "': No such file or directory");
  }
  EXPECT_FALSE(std::filesystem::exists(header));
  std::filesystem::remove_all(dir);
  std::filesystem::remove(good);
}

TEST(CliInspect, UnreadablePlanIsANamedError) {
  if (RunningAsRoot()) GTEST_SKIP() << "root reads a mode-000 file: nothing to refuse";
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("cli_inspect_unreadable_" + std::to_string(::getpid()));
  const std::string good = WritePlan("tigris_inspect_readable.tgrs", Serialize(FullPlan()));
  const std::string p = MakeBadFiles(dir, good).unreadable;
  ExpectNamedError(RunCommand(TigrisCli() + " inspect " + p), p,
                   "cannot read plan '" + p + "': Permission denied");
  std::filesystem::remove_all(dir);
  std::filesystem::remove(good);
}

}  // namespace
