// CompileForTarget (emit/compile.h, docs/memories.md): which memory holds scratch, spills
// and the plan, the refusals naming memories and bytes, and the invariant that a target
// changes only where things live: the same fast budget through -m gives the same arenas.
#include <gtest/gtest.h>

#include <string>

#include "emit/emit_test_util.h"
#include "runtime/executor_support.h"
#include "target/target.h"
#include "tigris_runtime.h"

namespace tigris::testing {
namespace {

// vww_mobilenetv1_025_96 float at a 128K fast budget spills (tests below check it).
const char kModel[] = "vww_mobilenetv1_025_96.onnx";

emit::CompiledPlan ForTarget(const std::string& yaml) {
  return emit::CompileForTarget(LoadNormalized(SharedOnnxModel(kModel)),
                                target::ParseTarget(yaml, "t.yaml"), plan::Budget{},
                                emit::EmitOptions{});
}

// The message and status CompileForTarget throws for `yaml` ("" when it compiles).
std::string RefusalOf(const std::string& yaml, Status expected) {
  try {
    ForTarget(yaml);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), expected) << e.what();
    return e.what();
  }
  return "";
}

// Plan.memories names as the runtime's reader sees them.
std::vector<std::string> PlanMemoryNames(const std::vector<uint8_t>& bytes) {
  std::vector<uint8_t> copy(bytes);  // std::vector's buffer is 16-aligned on the host
  tgrs_plan p;
  EXPECT_EQ(tgrs_plan_init(&p, copy.data(), copy.size()), TGRS_OK);
  std::vector<std::string> names;
  for (uint32_t i = 0; i < tgrs_plan_memory_count(&p); ++i) {
    tgrs_plan_memory m;
    EXPECT_EQ(tgrs_plan_get_memory(&p, i, &m), TGRS_OK);
    names.push_back(m.name);
  }
  return names;
}

TEST(CompileForTargetTest, ScratchFastestSpillsNextWithRoomPlanInItsMemory) {
  // SRAM (64K) is faster than PSRAM but too small for the spills: they go to PSRAM.
  const emit::CompiledPlan c = ForTarget(R"(
memories:
  - {name: PSRAM, size: 4M}
  - {name: DTCM, size: 128K}
  - {name: SRAM, size: 64K}
  - {name: FLASH, size: 4M, read_only: true}
)");
  // The same fast budget through the shorthand: the same plan, other names.
  plan::Budget budget;
  budget.fast_bytes = 128 * 1024;
  const emit::CompiledPlan shorthand =
      emit::Compile(LoadNormalized(SharedOnnxModel(kModel)), budget, emit::EmitOptions{});
  ASSERT_GT(shorthand.emitted.slow_arena_bytes, 64 * 1024);
  EXPECT_EQ(c.emitted.fast_arena_bytes, shorthand.emitted.fast_arena_bytes);
  EXPECT_EQ(c.emitted.slow_arena_bytes, shorthand.emitted.slow_arena_bytes);
  EXPECT_EQ(c.emitted.bytes.size(), shorthand.emitted.bytes.size());

  ASSERT_EQ(c.memories.size(), 4u);
  EXPECT_EQ(c.memories[0].name, "PSRAM");
  EXPECT_EQ(c.memories[0].role, "spills");
  EXPECT_EQ(c.memories[0].used_bytes, c.emitted.slow_arena_bytes);
  EXPECT_EQ(c.memories[0].traffic_bytes, c.result.slow_traffic_bytes);
  EXPECT_GT(c.memories[0].traffic_bytes, 0);
  EXPECT_EQ(c.memories[1].role, "scratch");
  EXPECT_EQ(c.memories[1].used_bytes, c.emitted.fast_arena_bytes);
  EXPECT_EQ(c.memories[2].role, "");
  EXPECT_EQ(c.memories[2].used_bytes, 0);
  EXPECT_EQ(c.memories[3].role, "plan");
  EXPECT_EQ(c.memories[3].used_bytes, static_cast<int64_t>(c.emitted.bytes.size()));
  EXPECT_EQ(PlanMemoryNames(c.emitted.bytes),
            (std::vector<std::string>{"DTCM", "PSRAM", "FLASH", "host"}));
}

TEST(CompileForTargetTest, AWritablePlanMemorySharesWithTheArena) {
  const emit::CompiledPlan c = ForTarget(R"(
memories:
  - {name: SRAM, size: 4M}
plan_memory: SRAM
)");
  ASSERT_EQ(c.memories.size(), 1u);
  EXPECT_EQ(c.memories[0].role, "scratch+plan");
  EXPECT_EQ(c.memories[0].used_bytes,
            c.emitted.fast_arena_bytes + static_cast<int64_t>(c.emitted.bytes.size()));
  // Arena and plan together past the memory: refused, naming both.
  const std::string msg = RefusalOf(R"(
memories:
  - {name: SRAM, size: 900K}
plan_memory: SRAM
)",
                                    Status::kDoesNotFit);
  EXPECT_NE(msg.find("t.yaml: memory SRAM holds scratch+plan, "), std::string::npos) << msg;
  EXPECT_NE(msg.find(" bytes, but has 921600"), std::string::npos) << msg;
  // It tried a scratch arena of what the plan leaves (issue 39), and says why that failed.
  EXPECT_NE(msg.find("; and with the scratch arena given only the "), std::string::npos) << msg;
}

// One RAM (issue 39): no other writable memory holds the spills, so they share SRAM with a
// smaller scratch arena, in one arena (plan/joint_arena.h: the spills above the stages they
// live through). It fits SRAM, and the plan answers as a roomy one does, byte for byte.
TEST(CompileForTargetTest, OneMemoryHoldsScratchAndSpillsTogether) {
  const int64_t sram = 160 * 1024;
  const emit::CompiledPlan c = ForTarget(R"(
memories:
  - {name: SRAM, size: 160K}
  - {name: FLASH, size: 4M, read_only: true}
)");
  ASSERT_TRUE(c.shared_scratch_memory);
  ASSERT_FALSE(c.result.slow_buffers.empty()) << "the model no longer spills at 160K: pick less";
  EXPECT_GT(c.result.joint_arena_bytes, 0);
  for (const plan::SlowBuffer& s : c.result.slow_buffers) {
    EXPECT_EQ(s.home.region, plan::MemoryRegion::kFast);
  }
  EXPECT_EQ(c.emitted.slow_arena_bytes, 0);
  EXPECT_LE(c.emitted.fast_arena_bytes, sram);
  ASSERT_GE(c.memories.size(), 1u);
  EXPECT_EQ(c.memories[0].name, "SRAM");
  EXPECT_EQ(c.memories[0].role, "scratch+spills");
  EXPECT_EQ(c.memories[0].used_bytes, c.emitted.fast_arena_bytes);
  EXPECT_EQ(PlanMemoryNames(c.emitted.bytes),
            (std::vector<std::string>{"SRAM", "SRAM", "FLASH", "host"}));

  // Untiled in a roomy arena: the same output bytes.
  plan::Budget roomy;
  roomy.fast_bytes = 8 << 20;
  const emit::CompiledPlan whole =
      emit::Compile(LoadNormalized(SharedOnnxModel(kModel)), roomy, emit::EmitOptions{});
  auto shared = runtime_test::LoadPlanBytes(c.emitted.bytes);
  auto reference = runtime_test::LoadPlanBytes(whole.emitted.bytes);
  ASSERT_NE(shared, nullptr);
  ASSERT_NE(reference, nullptr);
  const auto inputs = runtime_test::DeterministicInputs(reference->plan);
  const runtime_test::RunResult a = runtime_test::RunExact(shared->plan, inputs);
  const runtime_test::RunResult b = runtime_test::RunExact(reference->plan, inputs);
  ASSERT_EQ(a.status, TGRS_OK);
  ASSERT_EQ(b.status, TGRS_OK);
  EXPECT_EQ(a.outputs, b.outputs);
}

TEST(CompileForTargetTest, RefusalsNameTheMemories) {
  std::string msg = RefusalOf(R"(
memories:
  - {name: DTCM, size: 40K}
  - {name: SRAM, size: 8K}
  - {name: FLASH, size: 4M, read_only: true}
)",
                              Status::kSlowBudgetTooSmall);
  EXPECT_NE(msg.find("beside the scratch arena in DTCM, no other writable memory has room "
                     "(SRAM 8192 bytes), nor does DTCM hold a smaller scratch arena beside its "
                     "spills"),
            std::string::npos)
      << msg;
  msg = RefusalOf("memories: [{name: DTCM, size: 40K}, {name: FLASH, size: 4M, read_only: true}]",
                  Status::kSlowBudgetTooSmall);
  EXPECT_NE(msg.find("(there is none)"), std::string::npos) << msg;
  msg = RefusalOf(R"(
memories:
  - {name: DTCM, size: 1M}
  - {name: FLASH, size: 256K, read_only: true}
)",
                  Status::kFlashBudgetTooSmall);
  EXPECT_NE(msg.find("but FLASH, its plan_memory, has 262144 bytes"), std::string::npos) << msg;
  // Too little scratch memory for some stage: the planner's refusal, naming the stage.
  msg = RefusalOf("memories: [{name: DTCM, size: 1K}, {name: FLASH, size: 4M, read_only: true}]",
                  Status::kDoesNotFit);
  EXPECT_NE(msg.find("stage "), std::string::npos) << msg;
}

}  // namespace
}  // namespace tigris::testing
