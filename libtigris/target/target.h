// A target description: the memories of a part and where the plan lives (issue 15,
// tensor-memory-attributes.txt "Memory types"; docs/memories.md).
//
//   memories:
//     - {name: DTCM,  size: 128K}                  # alignment 16, writable, speed by name
//     - {name: SRAM,  size: 512K}
//     - {name: PSRAM, size: 8M}
//     - {name: FLASH, size: 2M, read_only: true}
//   plan_memory: FLASH                             # default: the read-only memory, else FLASH
//
// How the compiler uses the memories (emit/compile.h, CompileForTarget): scratch in the
// fastest writable memory, spills in the fastest other writable memory with room for
// them, weights read in place from the plan's memory.
#ifndef TIGRIS_TARGET_TARGET_H_
#define TIGRIS_TARGET_TARGET_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tigris::target {

struct Memory {
  std::string name;
  int64_t size = 0;        // bytes, > 0 (0 only for OneMemoryTarget's unbounded FLASH)
  int64_t alignment = 16;  // a power of two, at least 16 for a writable memory
  bool read_only = false;
  // Rank: lower is faster. Defaults by name (SpeedRankOfName); ties keep declaration order.
  int speed = 0;
};

struct Target {
  std::vector<Memory> memories;  // as declared, names unique
  int plan_memory = -1;          // index into memories: where the .tgrs file lives
  std::string source;            // "stm32h7.yaml", or "-m" for the shorthand

  const Memory& plan() const { return memories[static_cast<size_t>(plan_memory)]; }
  // Index of the memory called `name` (case-sensitive), -1 when none.
  int Find(const std::string& name) const;
  // Indices of the writable memories, fastest first (speed, then declaration order).
  std::vector<int> WritableBySpeed() const;
  // Where the scratch (fast) arena goes: the fastest writable memory.
  int ScratchMemory() const { return WritableBySpeed().front(); }
  // Where `bytes` of spills (the slow arena) go: the fastest writable memory other than
  // `scratch` (the scratch arena's, by default ScratchMemory()) with room for all of them;
  // -1 when none has.
  int SpillMemory(int64_t bytes, int scratch = -1) const;
};

// The default rank of a memory called `name` (case-insensitive): ITCM 0, DTCM 1, TCM 1,
// SRAM 2 (and names starting with SRAM or AXI), PSRAM 3, SDRAM 3, MRAM 4, FLASH 4,
// anything else 2.
int SpeedRankOfName(const std::string& name);

// Parses and checks a target description. `source` names it in messages. Throws
// Error(kInvalidArgument) as "SOURCE:LINE:COLUMN: what is wrong, naming the field", for
// YAML that does not parse, a missing or unknown key, a size that is not a positive size
// (tigris_parse_size syntax), an alignment that is not a power of two (or below 16 for a
// writable memory), two memories of one name, no writable memory, and a plan_memory that
// names no memory or that cannot be found (no read-only memory and none called FLASH).
Target ParseTarget(const std::string& yaml, const std::string& source);

// The part `-m FAST -m 0` describes (TIGRIS_NO_SLOW_MEMORY; docs/memories.md): one writable
// memory called SRAM of `bytes`, and the plan in a read-only FLASH of `plan_bytes`, 0 for
// a flash of any size. Source "-m".
Target OneMemoryTarget(int64_t bytes, int64_t plan_bytes);

}  // namespace tigris::target

#endif  // TIGRIS_TARGET_TARGET_H_
