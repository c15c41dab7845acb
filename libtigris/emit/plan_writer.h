// The .tgrs writer (tigris-compilation-pipeline.txt, stage 7 step 4): serializes a
// normalized graph and the planner's PlanResult into the FlatBuffer of format/tgrs.fbs
// through flatc's generated code. docs/plan-format.md explains every table for runtime
// implementers.
#ifndef TIGRIS_EMIT_PLAN_WRITER_H_
#define TIGRIS_EMIT_PLAN_WRITER_H_

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::emit {

// Plan.schema_version (format/tgrs.fbs, revision history): a plan is stamped with the
// oldest version that describes it, so a runtime built before 2-D tiles still runs every
// plan without them and rejects, by version, the plans it would misread.
inline constexpr uint32_t kSchemaVersion = 1;
inline constexpr uint32_t kSchemaVersion2DTiles = 2;
inline constexpr uint32_t kSchemaVersionState = 3;   // Plan.state, staged constants
inline constexpr uint32_t kSchemaVersionPinned = 4;  // homes in the PINNED arena
inline constexpr uint32_t kSchemaVersionTflite = 5;  // ops in TFLite's arithmetic

// A persistent state pair (`tigris compile --state IN=OUT`, format/tgrs.fbs StateSlot):
// graph input `input` reads what graph output `output` held after the previous invoke.
struct StatePair {
  std::string input;
  std::string output;
};

struct EmitOptions {
  // Weights read in place from the plan (flash). false: each stage's weights are copied
  // or decompressed into a reserved prefix of the fast arena.
  bool xip = true;
  // Compile only, with xip: after planning, copy the weights of each residency unit that
  // fits and reads them more than once into the fast arena after all (the kAuto policy,
  // plan/weight_residency.h). EmitPlan follows the plan's Stage::copy_weights either way.
  bool copy_where_faster = false;
  bool lz4 = false;  // requires xip = false (compressed bytes cannot be executed in place)
  // Staged constants: the weights read in place (xip, no blocks) are copied once, before
  // the first invoke, into the CONSTANTS arena and read from there (tgrs.fbs, Plan).
  bool stage_constants = false;
  // Or only these (IR tensor names; placement rules, target/rules.h), with xip.
  std::set<std::string> staged_constants{};
  // Persistent state pairs, by tensor name; each input and output at most once, of the
  // same caller-side shape and dtype (else kInvalidArgument naming them).
  std::vector<StatePair> state{};
  // Plan.memories' names for FAST, SLOW, FLASH, STATE, CONSTANTS and PINNED: the target's
  // memories holding them (emit/compile.h, CompileForTarget), else the roles.
  std::array<std::string, 6> memory_names{"fast", "slow", "flash", "state", "constants", "pinned"};
  // Leave op names and the names of tensors other than the graph's inputs and outputs out
  // of the plan (compile --strip-names; docs/plan-format.md, "Names").
  bool strip_names = false;
};

struct EmittedPlan {
  std::vector<uint8_t> bytes;                 // the .tgrs file
  int64_t weight_bytes = 0;                   // constants in the runtime layout, raw
  int64_t stored_weight_bytes = 0;            // what they occupy in the file (blobs or blocks)
  int64_t fast_arena_bytes = 0;               // max over stages of reserved + peak
  int64_t slow_arena_bytes = 0;               // the planner's slow_peak_bytes
  int64_t scheduled_peak_bytes = 0;           // the planner's max Stage::peak_bytes
  std::vector<int64_t> stage_reserved_bytes;  // per stage (0 when xip)
  int64_t state_arena_bytes = 0;              // the STATE arena (persistent state)
  int64_t staged_bytes = 0;                   // the CONSTANTS arena (staged constants)
  int64_t pinned_arena_bytes = 0;             // the PINNED arena (plan/pinning.h)
};

// Deterministic: the same graph, result and options give the same bytes. Throws
// kInvalidArgument for lz4 with xip, kUnsupportedOp / kUnsupportedQuantization /
// kUnsupportedDType naming the op or tensor the format cannot express.
EmittedPlan EmitPlan(const ir::Graph& graph, const plan::PlanResult& result,
                     const EmitOptions& options);

// "tigris MAJOR.MINOR.PATCH", the Plan.generator string.
std::string GeneratorString();

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_PLAN_WRITER_H_
