// Plan integrity (issue 42, docs/integrity.md): a plan the compiler sealed is refused with
// TGRS_ERR_PLAN_CORRUPT, naming the region, when any byte the runtime reads has changed.
// Exhaustive where it can be: every byte of a compiled plan flipped in turn, each either
// refused or provably never read. Then the three modes, the periodic re-check, the staged
// constants in RAM, and the tool side (tgrs_plan_seal).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "executor_support.h"
#include "support/test_env.h"
#include "tigris_context.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

std::string ErrorText(const tgrs_verify_error& error) {
  char text[256];
  tgrs_verify_error_format(&error, text, sizeof text);
  return std::string(tgrs_status_name(error.status)) + " " + text;
}

// `bytes` in a 16-aligned buffer of exactly their size.
AlignedBuffer Aligned(const std::vector<uint8_t>& bytes) {
  AlignedBuffer b = PoisonedBuffer(bytes.size());
  std::memcpy(b.get(), bytes.data(), bytes.size());
  return b;
}

tgrs_status Init(const std::vector<uint8_t>& bytes, tgrs_integrity_mode mode,
                 std::string* text = nullptr) {
  AlignedBuffer b = Aligned(bytes);
  tgrs_plan plan;
  const tgrs_status st = tgrs_plan_init_with(&plan, b.get(), bytes.size(), mode);
  if (text) *text = ErrorText(plan.error);
  return st;
}

// Which bytes of a verified plan its runs may read from weight_data: every weight with
// block -1 and every compressed block. The rest of weight_data is alignment padding.
std::vector<bool> ReadWeightBytes(const tgrs_plan& plan) {
  const tgrs_u8s data = tgrs_plan_weight_data(&plan);
  std::vector<bool> read(data.count, false);
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&plan); ++i) {
    tgrs_plan_weight w;
    EXPECT_EQ(tgrs_plan_get_weight(&plan, i, &w), TGRS_OK);
    if (w.block >= 0) continue;
    for (uint32_t k = 0; k < w.size; ++k) read[w.offset + k] = true;
  }
  for (uint32_t i = 0; i < tgrs_plan_weight_block_count(&plan); ++i) {
    tgrs_plan_weight_block b;
    EXPECT_EQ(tgrs_plan_get_weight_block(&plan, i, &b), TGRS_OK);
    for (uint32_t k = 0; k < b.compressed_size; ++k) read[b.offset + k] = true;
  }
  return read;
}

std::vector<uint8_t> Compile(const std::string& model, int64_t fast, bool xip, bool lz4 = false) {
  return CompileModel(testing::SharedOnnxModel(model), fast, xip, lz4);
}

// mnist8 with weights read in place at 4K, or LZ4 blocks decoded into a 32K fast arena.
std::vector<uint8_t> Mnist8(bool lz4) {
  return lz4 ? Compile("mnist8.onnx", 32 << 10, false, true)
             : Compile("mnist8.onnx", 4 << 10, true);
}

TEST(PlanIntegrity, CompiledPlansAreSealedWithCrc32c) {
  for (bool lz4 : {false, true}) {
    const std::vector<uint8_t> bytes = Mnist8(lz4);
    auto loaded = LoadPlanBytes(bytes);
    ASSERT_NE(loaded, nullptr);
    EXPECT_EQ(tgrs_plan_checksum(&loaded->plan), TGRS_CHECKSUM_CRC32C);
    tgrs_verify_error error;
    EXPECT_EQ(tgrs_plan_check_integrity(&loaded->plan, &error), TGRS_OK) << ErrorText(error);
    // Sealing is idempotent: the compiler's bytes are already what tgrs_plan_seal writes.
    AlignedBuffer copy = Aligned(bytes);
    ASSERT_EQ(tgrs_plan_seal(copy.get(), bytes.size()), TGRS_OK);
    EXPECT_EQ(std::memcmp(copy.get(), bytes.data(), bytes.size()), 0);
  }
}

// Every byte, one bit each (the bit varies with the position): refused, or a padding byte
// of weight_data that nothing reads. Uncompressed and LZ4 plans.
TEST(PlanIntegrity, EveryFlippedByteIsRefusedOrNeverRead) {
  for (bool lz4 : {false, true}) {
    const std::vector<uint8_t> bytes = Mnist8(lz4);
    auto good = LoadPlanBytes(bytes);
    ASSERT_NE(good, nullptr);
    const tgrs_u8s data = tgrs_plan_weight_data(&good->plan);
    const size_t data_begin = static_cast<size_t>(data.data - good->bytes.get());
    const std::vector<bool> read = ReadWeightBytes(good->plan);
    size_t refused = 0, padding = 0;
    for (size_t pos = 0; pos < bytes.size(); ++pos) {
      std::vector<uint8_t> mutant = bytes;
      mutant[pos] ^= static_cast<uint8_t>(1u << (pos % 8));
      std::string text;
      const tgrs_status st = Init(mutant, TGRS_INTEGRITY_ALL, &text);
      if (st != TGRS_OK) {
        ++refused;
        continue;
      }
      const bool in_data = pos >= data_begin && pos < data_begin + data.count;
      ASSERT_TRUE(in_data && !read[pos - data_begin])
          << "byte " << pos << " flipped and the plan was accepted (lz4 " << lz4 << ")";
      ++padding;
    }
    EXPECT_GT(refused, bytes.size() * 9 / 10) << "padding bytes: " << padding;
  }
}

TEST(PlanIntegrity, DamageIsNamedByRegion) {
  const std::vector<uint8_t> bytes = Compile("mnist8.onnx", 4 << 10, true);
  auto good = LoadPlanBytes(bytes);
  ASSERT_NE(good, nullptr);
  // A weight's byte: weights[w].
  tgrs_plan_weight w;
  ASSERT_EQ(tgrs_plan_get_weight(&good->plan, 2, &w), TGRS_OK);
  const size_t weight_pos =
      static_cast<size_t>(tgrs_plan_weight_data(&good->plan).data - good->bytes.get()) + w.offset +
      w.size / 2;
  std::vector<uint8_t> mutant = bytes;
  mutant[weight_pos] ^= 0x10;
  std::string text;
  EXPECT_EQ(Init(mutant, TGRS_INTEGRITY_ALL, &text), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_NE(text.find("weights[2]: the weight's bytes are damaged"), std::string::npos) << text;
  // A byte of the tables (the model name's string, far from the header).
  const char* name = tgrs_plan_model_name(&good->plan);
  mutant = bytes;
  mutant[static_cast<size_t>(reinterpret_cast<const uint8_t*>(name) - good->bytes.get())] ^= 1;
  EXPECT_EQ(Init(mutant, TGRS_INTEGRITY_ALL, &text), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_NE(text.find("integrity.tables_crc: the plan's tables are damaged"), std::string::npos)
      << text;
  // The same byte without the check: the structure still verifies (only the name changed).
  EXPECT_EQ(Init(mutant, TGRS_INTEGRITY_NONE, &text), TGRS_OK) << text;
}

TEST(PlanIntegrity, UncheckedDamageChangesTheAnswerThatTheCheckRefuses) {
  const std::vector<uint8_t> bytes = Compile("mnist8.onnx", 4 << 10, true);
  auto good = LoadPlanBytes(bytes);
  ASSERT_NE(good, nullptr);
  const auto inputs = DeterministicInputs(good->plan);
  const RunResult reference = RunExact(good->plan, inputs);
  ASSERT_EQ(reference.status, TGRS_OK);
  // The largest weight, one exponent bit of a float in its middle.
  uint32_t largest = 0, largest_size = 0;
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&good->plan); ++i) {
    tgrs_plan_weight w;
    ASSERT_EQ(tgrs_plan_get_weight(&good->plan, i, &w), TGRS_OK);
    if (w.size > largest_size) {
      largest = i;
      largest_size = w.size;
    }
  }
  tgrs_plan_weight w;
  ASSERT_EQ(tgrs_plan_get_weight(&good->plan, largest, &w), TGRS_OK);
  std::vector<uint8_t> mutant = bytes;
  const size_t pos =
      static_cast<size_t>(tgrs_plan_weight_data(&good->plan).data - good->bytes.get()) + w.offset +
      (w.size / 2 & ~3u) + 3;
  mutant[pos] ^= 0x20;

  AlignedBuffer b = Aligned(mutant);
  tgrs_plan plan;
  ASSERT_EQ(tgrs_plan_init_with(&plan, b.get(), mutant.size(), TGRS_INTEGRITY_NONE), TGRS_OK);
  const RunResult silent = RunExact(plan, inputs);
  ASSERT_EQ(silent.status, TGRS_OK);
  EXPECT_NE(silent.outputs, reference.outputs) << "the flipped weight did not change the answer";
  EXPECT_EQ(tgrs_plan_init(&plan, b.get(), mutant.size()), TGRS_ERR_PLAN_CORRUPT);
}

// TGRS_INTEGRITY_TABLES: init accepts a damaged weight, the run that would read it stops
// before the op that reads it, and tgrs_plan_check_integrity names it.
TEST(PlanIntegrity, LazyModeStopsTheRunBeforeTheDamagedWeightIsRead) {
  for (bool lz4 : {false, true}) {
    const std::vector<uint8_t> bytes = Mnist8(lz4);
    auto good = LoadPlanBytes(bytes);
    ASSERT_NE(good, nullptr);
    const auto inputs = DeterministicInputs(good->plan);
    const RunResult reference = RunExact(good->plan, inputs);
    ASSERT_EQ(reference.status, TGRS_OK);

    // A read byte of weight_data in the last quarter: a late op's weight.
    const std::vector<bool> read = ReadWeightBytes(good->plan);
    size_t victim = read.size();
    for (size_t k = read.size() * 3 / 4; k < read.size(); ++k) {
      if (read[k]) {
        victim = k;
        break;
      }
    }
    ASSERT_LT(victim, read.size());
    const size_t data_begin =
        static_cast<size_t>(tgrs_plan_weight_data(&good->plan).data - good->bytes.get());
    std::vector<uint8_t> mutant = bytes;
    mutant[data_begin + victim] ^= 0x01;

    AlignedBuffer b = Aligned(mutant);
    tgrs_plan plan;
    ASSERT_EQ(tgrs_plan_init_with(&plan, b.get(), mutant.size(), TGRS_INTEGRITY_TABLES), TGRS_OK)
        << ErrorText(plan.error);
    const RunResult lazy = RunExact(plan, inputs);
    EXPECT_EQ(lazy.status, TGRS_ERR_PLAN_CORRUPT) << "lz4 " << lz4;
    EXPECT_GE(lazy.stats.failed_stage, 0);
    tgrs_verify_error error;
    EXPECT_EQ(tgrs_plan_check_integrity(&plan, &error), TGRS_ERR_PLAN_CORRUPT);
    EXPECT_NE(ErrorText(error).find(lz4 ? "weight_blocks[" : "weights["), std::string::npos)
        << ErrorText(error);

    // The good plan, lazily checked, answers as the eagerly checked one, run after run.
    AlignedBuffer g = Aligned(bytes);
    ASSERT_EQ(tgrs_plan_init_with(&plan, g.get(), bytes.size(), TGRS_INTEGRITY_TABLES), TGRS_OK);
    for (int run = 0; run < 2; ++run) {
      const RunResult ok = RunExact(plan, inputs);
      ASSERT_EQ(ok.status, TGRS_OK);
      EXPECT_EQ(ok.outputs, reference.outputs);
    }
  }
}

TEST(PlanIntegrity, PeriodicCheckFindsDamageAfterInit) {
  const std::vector<uint8_t> bytes = Compile("mnist8.onnx", 4 << 10, true);
  AlignedBuffer b = Aligned(bytes);
  tgrs_plan plan;
  ASSERT_EQ(tgrs_plan_init(&plan, b.get(), bytes.size()), TGRS_OK);
  tgrs_verify_error error;
  ASSERT_EQ(tgrs_plan_check_integrity(&plan, &error), TGRS_OK);
  // Flash wear after boot: a weight byte, then a byte of the op table.
  tgrs_plan_weight w;
  ASSERT_EQ(tgrs_plan_get_weight(&plan, 0, &w), TGRS_OK);
  uint8_t* weight_byte = const_cast<uint8_t*>(tgrs_plan_weight_data(&plan).data) + w.offset + 1;
  *weight_byte ^= 0x80;
  EXPECT_EQ(tgrs_plan_check_integrity(&plan, &error), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_NE(ErrorText(error).find("weights[0]"), std::string::npos) << ErrorText(error);
  *weight_byte ^= 0x80;
  EXPECT_EQ(tgrs_plan_check_integrity(&plan, &error), TGRS_OK) << ErrorText(error);
  tgrs_plan_op op;
  ASSERT_EQ(tgrs_plan_get_op(&plan, 0, &op), TGRS_OK);
  uint8_t* table_byte = const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(op.outputs.data));
  *table_byte ^= 0x04;
  EXPECT_EQ(tgrs_plan_check_integrity(&plan, &error), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_NE(ErrorText(error).find("integrity.tables_crc"), std::string::npos) << ErrorText(error);
  EXPECT_EQ(tgrs_plan_check_integrity(nullptr, &error), TGRS_ERR_NULL_ARGUMENT);
  tgrs_plan never{};
  EXPECT_EQ(tgrs_plan_check_integrity(&never, &error), TGRS_ERR_PLAN_NOT_VERIFIED);
}

// Staged constants: hydration checks the copy; RAM disturbed after it is found by
// tgrs_check_constants / tgrs_context_check_integrity.
TEST(PlanIntegrity, StagedConstantsAreCheckedInRam) {
  ir::Graph graph = onnx_import::LoadOnnxFile(testing::SharedOnnxModel("mnist8.onnx"),
                                              onnx_import::LoadOptions{});
  passes::Normalize(graph);
  plan::Budget budget;
  budget.fast_bytes = 64 << 10;
  emit::EmitOptions options;
  options.xip = true;
  options.stage_constants = true;
  auto loaded = LoadPlanBytes(emit::Compile(graph, budget, options).emitted.bytes);
  ASSERT_NE(loaded, nullptr);
  const tgrs_plan& plan = loaded->plan;
  ASSERT_GT(tgrs_plan_staged_constants(&plan).count, 0u);

  tgrs_context ctx;
  ASSERT_EQ(tgrs_context_init(&ctx, &plan), TGRS_OK);
  const size_t fast = tgrs_context_arena_bytes(&ctx, TGRS_REGION_FAST);
  const size_t slow = tgrs_context_arena_bytes(&ctx, TGRS_REGION_SLOW);
  const size_t constants = tgrs_context_arena_bytes(&ctx, TGRS_REGION_CONSTANTS);
  AlignedBuffer fast_arena = PoisonedBuffer(fast), slow_arena = PoisonedBuffer(slow),
                constants_arena = PoisonedBuffer(constants);
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_FAST, fast_arena.get(), fast), TGRS_OK);
  if (slow > 0) {
    ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_SLOW, slow_arena.get(), slow), TGRS_OK);
  }
  ASSERT_EQ(tgrs_bind_arena(&ctx, TGRS_REGION_CONSTANTS, constants_arena.get(), constants),
            TGRS_OK);
  ASSERT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
  tgrs_verify_error error;
  EXPECT_EQ(tgrs_context_check_integrity(&ctx, &error), TGRS_OK) << ErrorText(error);

  constants_arena.get()[constants / 2] ^= 0x02;  // RAM disturbed after hydration
  EXPECT_EQ(tgrs_check_constants(&ctx, &error), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_NE(ErrorText(error).find("weights["), std::string::npos) << ErrorText(error);
  EXPECT_EQ(tgrs_context_check_integrity(&ctx, &error), TGRS_ERR_PLAN_CORRUPT);
  // Hydrating again copies good bytes over the damage.
  EXPECT_EQ(tgrs_hydrate_constants(&ctx), TGRS_OK);
  EXPECT_EQ(tgrs_check_constants(&ctx, &error), TGRS_OK) << ErrorText(error);
}

TEST(PlanIntegrity, SealRefusesWhatItCannotSeal) {
  const std::vector<uint8_t> bytes = Compile("mnist8.onnx", 4 << 10, true);
  AlignedBuffer b = Aligned(bytes);
  EXPECT_EQ(tgrs_plan_seal(nullptr, bytes.size()), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_plan_seal(b.get(), 4), TGRS_ERR_PLAN_TOO_SMALL);
  std::vector<uint8_t> shifted(bytes.size() + 16);
  AlignedBuffer s = Aligned(shifted);
  std::memcpy(s.get() + 8, bytes.data(), bytes.size());
  EXPECT_EQ(tgrs_plan_seal(s.get() + 8, bytes.size()), TGRS_ERR_PLAN_MISALIGNED);
  // Garbage: no root table to find the checksums through.
  std::vector<uint8_t> junk(64, 0xA5);
  AlignedBuffer j = Aligned(junk);
  EXPECT_NE(tgrs_plan_seal(j.get(), junk.size()), TGRS_OK);
  // An edited plan is refused as damaged until a tool reseals it: then the verifier judges
  // the edit on its merits (a model name edited in place verifies).
  tgrs_plan plan;
  ASSERT_EQ(tgrs_plan_init(&plan, b.get(), bytes.size()), TGRS_OK);
  const char* name = tgrs_plan_model_name(&plan);
  ASSERT_GT(std::strlen(name), 0u);
  b.get()[reinterpret_cast<const uint8_t*>(name) - b.get()] = 'Z';
  EXPECT_EQ(tgrs_plan_init(&plan, b.get(), bytes.size()), TGRS_ERR_PLAN_CORRUPT);
  ASSERT_EQ(tgrs_plan_seal(b.get(), bytes.size()), TGRS_OK);
  ASSERT_EQ(tgrs_plan_init(&plan, b.get(), bytes.size()), TGRS_OK) << ErrorText(plan.error);
  EXPECT_EQ(tgrs_plan_model_name(&plan)[0], 'Z');
}

}  // namespace
}  // namespace tigris::runtime_test
