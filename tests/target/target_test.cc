// Target descriptions (target/target.h): what a valid one means, and every way a broken
// one is refused with the file, line and column and the field at fault.
#include "target/target.h"

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace tigris::target {
namespace {

const char kStm32h7[] = R"(# an STM32H7: TCM, AXI SRAM, external PSRAM, internal flash
memories:
  - {name: DTCM, size: 128K}
  - {name: AXI_SRAM, size: 512K}
  - name: PSRAM
    size: 8M
  - {name: FLASH, size: 2M, read_only: true}
)";

// The message of the Error that parsing `yaml` throws ("" when it parses).
std::string ErrorOf(const std::string& yaml) {
  try {
    ParseTarget(yaml, "t.yaml");
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
    return e.what();
  }
  return "";
}

TEST(TargetTest, ParsesAPartWithDefaults) {
  const Target t = ParseTarget(kStm32h7, "stm32h7.yaml");
  ASSERT_EQ(t.memories.size(), 4u);
  EXPECT_EQ(t.memories[0].name, "DTCM");
  EXPECT_EQ(t.memories[0].size, 128 * 1024);
  EXPECT_EQ(t.memories[2].size, 8 * 1024 * 1024);
  EXPECT_EQ(t.memories[1].alignment, 16);
  EXPECT_FALSE(t.memories[1].read_only);
  EXPECT_TRUE(t.memories[3].read_only);
  // Ranks by name: DTCM 1, AXI* 2, PSRAM 3, FLASH 4.
  EXPECT_EQ(t.memories[0].speed, 1);
  EXPECT_EQ(t.memories[1].speed, 2);
  EXPECT_EQ(t.memories[2].speed, 3);
  EXPECT_EQ(t.memories[3].speed, 4);
  EXPECT_EQ(t.plan().name, "FLASH");  // the only read-only memory
  EXPECT_EQ(t.WritableBySpeed(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.Find("PSRAM"), 2);
  EXPECT_EQ(t.Find("psram"), -1);
}

TEST(TargetTest, ExplicitSpeedAndPlanMemory) {
  // Declared slowest first; explicit ranks reorder them, ties keep declaration order.
  const Target t = ParseTarget(R"(
memories:
  - {name: BIG, size: 1M, speed: 5}
  - {name: FAST0, size: 4K, speed: 0}
  - {name: FAST1, size: 4K, speed: 0, alignment: 32}
  - {name: MRAM, size: 4M, read_only: true}
  - {name: FLASH, size: 1M, read_only: true}
plan_memory: MRAM
)",
                               "x.yaml");
  EXPECT_EQ(t.WritableBySpeed(), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(t.memories[2].alignment, 32);
  EXPECT_EQ(t.plan().name, "MRAM");
  // Without read-only memories the plan defaults to the memory called FLASH.
  EXPECT_EQ(
      ParseTarget("memories: [{name: SRAM, size: 1K}, {name: Flash, size: 1M}]", "y").plan().name,
      "Flash");
}

TEST(TargetTest, RefusalsNameTheLineAndTheField) {
  EXPECT_EQ(ErrorOf("memories: [{name: SRAM, size: 1K}, {name: FLASH, size: 1M, read_only: true}]"),
            "");
  EXPECT_NE(ErrorOf("memories: [{name: SRAM, size: 1K}\n").find("t.yaml:2:1: not valid YAML"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(""), "t.yaml: empty target description (needs memories:)");
  EXPECT_EQ(ErrorOf("memory: []"),
            "t.yaml:1:1: unknown key 'memory' in the target (known: memories, plan_memory)");
  EXPECT_NE(ErrorOf("{[1]: 2}").find(": a key in the target is not a name"), std::string::npos);
  EXPECT_EQ(ErrorOf("plan_memory: FLASH"), "t.yaml:1:1: the target has no memories: list");
  EXPECT_EQ(ErrorOf("memories: []"),
            "t.yaml:1:11: memories must be a non-empty list of {name, size, ...}");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K, sise: 2K}"),
            "t.yaml:2:28: unknown key 'sise' in memories[0] (known: alignment, name, read_only, "
            "size, speed)");
  EXPECT_EQ(ErrorOf("memories:\n  - {size: 1K}"), "t.yaml:2:5: memories[0] has no name");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM}"), "t.yaml:2:5: memory 'SRAM' has no size");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 12Q}"),
            "t.yaml:2:24: memory 'SRAM' size: invalid size '12Q': unknown unit 'Q' (expected "
            "bytes or a number with K, M or G, e.g. 256K, 1.5MiB)");
  EXPECT_NE(
      ErrorOf("memories:\n  - {name: SRAM, size: 0}")
          .find("t.yaml:2:24: memory 'SRAM' size: invalid size '0': must be greater than zero"),
      std::string::npos);
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K, alignment: 24}"),
            "t.yaml:2:39: memory 'SRAM' alignment 24 is not a power of two");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K, alignment: 8}"),
            "t.yaml:2:39: memory 'SRAM' alignment 8 is below 16, the runtime's arena alignment");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K, read_only: maybe}"),
            "t.yaml:2:39: memory 'SRAM' read_only must be true or false, got 'maybe'");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K, speed: -1}"),
            "t.yaml:2:35: memory 'SRAM' speed must be a rank >= 0 (0 = fastest)");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K}\n  - {name: SRAM, size: 2K}"),
            "t.yaml:3:12: memory 'SRAM' is declared twice");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: FLASH, size: 1M, read_only: true}"),
            "t.yaml:2:3: every memory is read_only: the plan needs a writable memory for its "
            "arenas");
  EXPECT_EQ(ErrorOf("memories: [{name: SRAM, size: 1K}]\nplan_memory: ROM"),
            "t.yaml:2:14: plan_memory 'ROM' names no memory");
  EXPECT_EQ(ErrorOf("memories:\n  - {name: SRAM, size: 1K}\n  - {name: A, size: 1M, read_only: "
                    "true}\n  - {name: B, size: 1M, read_only: true}"),
            "t.yaml:1:1: several read-only memories (A, B): say which one holds the plan with "
            "plan_memory");
  EXPECT_EQ(ErrorOf("memories: [{name: SRAM, size: 1K}]"),
            "t.yaml:1:1: no memory for the plan: mark one read_only (flash, MRAM) or name it "
            "with plan_memory");
}

}  // namespace
}  // namespace tigris::target
