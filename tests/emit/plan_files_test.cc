// Whole .tgrs files of the shared models: flatc decodes every one with the schema,
// compiling twice gives the same bytes, and the sizes (float, int8, int8 + LZ4) and the
// LZ4 ratios are printed for the record.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "emit/emit_test_util.h"
#include "format/tgrs_generated.h"
#include "support/process.h"

namespace tigris::testing {
namespace {

namespace fs = std::filesystem;

emit::CompiledPlan CompileAt(const ir::Graph& g, int64_t fast, const emit::EmitOptions& o) {
  plan::Budget budget;
  budget.fast_bytes = fast;
  return emit::Compile(g, budget, o);
}

TEST(PlanFilesTest, DeterministicAndDecodedByFlatc) {
  ASSERT_EQ(RunCommand("flatc --version").exit_code, 0) << "flatc must be on PATH";
  const std::string schema = SourceDir() + "/format/tgrs.fbs";
  const fs::path dir = fs::temp_directory_path() / "tigris_emit_flatc";
  fs::create_directories(dir);
  emit::EmitOptions xip;
  for (const std::string& path : FloatAndInt8Models()) {
    SCOPED_TRACE(path);
    const ir::Graph g = LoadNormalized(path);
    const int64_t fast = SmallestWorkingBudget(g, xip);
    const emit::CompiledPlan a = CompileAt(g, fast, xip);
    const emit::CompiledPlan b = CompileAt(LoadNormalized(path), fast, xip);
    EXPECT_TRUE(a.emitted.bytes == b.emitted.bytes) << "two compilations differ";

    const std::string stem = fs::path(path).stem().string();
    const fs::path file = dir / (stem + ".tgrs");
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(a.emitted.bytes.data()),
               static_cast<std::streamsize>(a.emitted.bytes.size()));
    const ProcessResult r = RunCommand("flatc --json --strict-json --raw-binary -o " +
                                       dir.string() + " " + schema + " -- " + file.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(ReadFile((dir / (stem + ".json")).string()));
    EXPECT_EQ(j.at("model_name"), g.name);
    EXPECT_EQ(j.at("ops").size(), g.ops.size());
    EXPECT_EQ(j.at("schema_version"), UsesSchema2(a.result) ? 2 : 1);
  }
  fs::remove_all(dir);
}

TEST(PlanFilesTest, LzCompressedPlansAreDeterministicToo) {
  emit::EmitOptions lz4;
  lz4.xip = false;
  lz4.lz4 = true;
  const ir::Graph g = LoadNormalized(GeneratedModelsDir() + "/kws_small_cnn.int8.onnx");
  const int64_t fast = SmallestWorkingBudget(g, lz4);
  EXPECT_TRUE(CompileAt(g, fast, lz4).emitted.bytes == CompileAt(g, fast, lz4).emitted.bytes);
}

// Not a check: the table of plan sizes and LZ4 ratios for the report (every model, xip
// plans at the smallest working budget; the LZ4 plan at its own smallest budget).
TEST(PlanFilesTest, PrintSizeAndCompressionTable) {
  std::printf("%-34s %10s %12s %12s %10s %8s\n", "model", "fast", "plan", "weights", "lz4 wts",
              "ratio");
  emit::EmitOptions xip, lz4;
  lz4.xip = false;
  lz4.lz4 = true;
  for (const std::string& path : FloatAndInt8Models()) {
    const ir::Graph g = LoadNormalized(path);
    const int64_t fast = SmallestWorkingBudget(g, xip);
    const emit::CompiledPlan a = CompileAt(g, fast, xip);
    const emit::CompiledPlan c = CompileAt(g, SmallestWorkingBudget(g, lz4), lz4);
    std::printf("%-34s %10lld %12zu %12lld %10lld %8.3f  lz4 plan %zu\n",
                fs::path(path).filename().string().c_str(), static_cast<long long>(fast),
                a.emitted.bytes.size(), static_cast<long long>(a.emitted.weight_bytes),
                static_cast<long long>(c.emitted.stored_weight_bytes),
                static_cast<double>(c.emitted.weight_bytes) /
                    static_cast<double>(c.emitted.stored_weight_bytes),
                c.emitted.bytes.size());
    // A block is compressed only when that makes it smaller; otherwise stored raw.
    const tgrs::Plan* p = tgrs::GetPlan(c.emitted.bytes.data());
    for (const tgrs::WeightBlock* b : *p->weight_blocks()) {
      EXPECT_LE(b->compressed_size(), b->raw_size()) << path;
    }
  }
}

}  // namespace
}  // namespace tigris::testing
