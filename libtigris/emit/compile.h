// Planning plus emission with the budget checks only the emitted plan can make
// (the C ABI's tigris_plan is a thin wrapper over Compile):
//  - every stage must fit the fast budget (else kDoesNotFit naming the stage's ops, from
//    the planner's Stage::reasons);
//  - with xip = false, a stage's reserved weight prefix plus its activation peak must fit
//    too (else kDoesNotFit with both numbers). The planner is given the whole fast budget:
//    which weights a stage holds depends on where the planner cuts, so subtracting them
//    beforehand is circular; the check afterwards is exact (docs/plan-format.md);
//  - with xip and copy_where_faster (the default policy, plan/weight_residency.h), the
//    units worth copying are chosen after planning, each within the fast budget;
//  - the .tgrs file must fit flash_bytes when given (else kFlashBudgetTooSmall with both
//    numbers).
// CompileForTarget does the same for a target description (target/target.h), choosing
// the memories itself (docs/memories.md).
#ifndef TIGRIS_EMIT_COMPILE_H_
#define TIGRIS_EMIT_COMPILE_H_

#include <string>
#include <vector>

#include "emit/plan_writer.h"
#include "ir/graph.h"
#include "plan/budget.h"
#include "plan/plan.h"
#include "target/rules.h"
#include "target/target.h"

namespace tigris::emit {

// What a plan keeps in one memory of its target.
struct MemoryUse {
  std::string name;
  int64_t size = 0;           // capacity; 0 = not given (unlimited)
  int64_t used_bytes = 0;     // the arena, or the plan file
  int64_t traffic_bytes = 0;  // bytes moved to and from it per inference (spills)
  std::string role;           // "scratch", "spills", "plan", "" (unused)
};

struct CompiledPlan {
  plan::PlanResult result;
  EmittedPlan emitted;
  // Every memory of the target (or the -m shorthand's fast, slow and flash), in order.
  std::vector<MemoryUse> memories;
  // Placement rules' ids that matched no tensor (target/rules.h), to show the user.
  std::vector<std::string> warnings;
  // CompileForTarget put the spills in one arena with the scratch, in the scratch arena's
  // own memory (one RAM): `result` is joined (plan/joint_arena.h) and was planned at the
  // fast budget the split chose.
  bool shared_scratch_memory = false;
};

CompiledPlan Compile(const ir::Graph& graph, const plan::Budget& budget,
                     const EmitOptions& options);

// Plans `graph` for `target`: the scratch (fast) arena in the fastest writable memory, the
// spills (slow arena) in the fastest other writable memory with room for them, else in
// one arena with a smaller scratch in the scratch memory (one RAM: the one-memory
// partition and plan/joint_arena.h), the plan, and the weights it keeps in place, in the
// target's plan memory. What else the scratch memory holds (constants, state, pinned
// tensors) is given room: the scratch is planned again with what it leaves. The layout,
// fdt and search of `choices` apply (its sizes are ignored: the target gives them).
// Throws kDoesNotFit as Compile does, kSlowBudgetTooSmall when no other writable memory
// holds the spills and kFlashBudgetTooSmall when the plan exceeds its memory (each naming
// the memories and the bytes).
// With `rules` (target/rules.h; emit/rule_placement.h), the scratch, state and constants
// arenas go where the rules put them, and constants are read in place or staged as the
// rules say (no per-stage copies; not with LZ4); refused rules throw kInvalidArgument.
CompiledPlan CompileForTarget(const ir::Graph& graph, const target::Target& target,
                              const plan::Budget& choices, EmitOptions options,
                              const target::Rules* rules = nullptr);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_COMPILE_H_
