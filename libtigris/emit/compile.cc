#include "emit/compile.h"

#include <optional>
#include <string>
#include <vector>

#include "analysis/alignment.h"
#include "emit/rule_placement.h"
#include "plan/joint_arena.h"
#include "plan/pinning.h"
#include "plan/planner.h"
#include "plan/weight_residency.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

void RequireStagesFit(const ir::Graph& graph, const plan::PlanResult& result, int64_t fast) {
  for (const plan::Stage& stage : result.stages) {
    if (stage.fits) continue;
    std::string ops;
    for (int op : stage.ops) {
      ops += (ops.empty() ? "" : ", ") + graph.ops[static_cast<size_t>(op)].name;
    }
    std::string msg = "stage " + std::to_string(stage.id) + " (ops " + ops + ") needs " +
                      std::to_string(stage.peak_bytes) + " bytes of fast memory, budget " +
                      std::to_string(fast);
    for (const std::string& reason : stage.reasons) msg += "; " + reason;
    throw Error(Status::kDoesNotFit, msg);
  }
}

// Planning, and the per-stage weight choices, for `budget`.
plan::PlanResult PlanForEmit(const ir::Graph& graph, const plan::Budget& budget,
                             const EmitOptions& options) {
  if (options.lz4 && options.xip) {
    throw Error(Status::kInvalidArgument,
                "LZ4-compressed weights cannot be executed in place: use xip = 0 with LZ4");
  }
  // Without xip each stage's weights are copied into a prefix of the fast arena
  // (docs/memory-model.md), so the planner must leave room for them.
  plan::Budget planned = budget;
  planned.reserve_weights = !options.xip;
  plan::PlanResult result = plan::PlanModel(graph, planned);
  // The plan's own graph from here on: the planner may have rewritten its copy.
  RequireStagesFit(result.graph, result, budget.fast_bytes);
  if (options.xip && options.copy_where_faster) plan::ChooseWeightCopies(result, budget.fast_bytes);
  return result;
}

// The planner's prefix mirrors the emitter's (analysis/weight_prefix.cc); this check
// stays as the safety net should the two ever disagree.
void RequireReservedFit(const CompiledPlan& out, int64_t fast_bytes) {
  for (const plan::Stage& stage : out.result.stages) {
    const int64_t reserved = out.emitted.stage_reserved_bytes[static_cast<size_t>(stage.id)];
    if (reserved + stage.peak_bytes > fast_bytes) {
      throw Error(Status::kDoesNotFit,
                  "stage " + std::to_string(stage.id) + " needs " + std::to_string(reserved) +
                      " bytes of weights copied to fast memory (not xip) + " +
                      std::to_string(stage.peak_bytes) + " bytes of activations = " +
                      std::to_string(reserved + stage.peak_bytes) + " > fast budget " +
                      std::to_string(fast_bytes) + " bytes; use xip or a larger budget");
    }
  }
}

// One RAM (issue 39, docs/memories.md "One RAM"): when no other writable memory can hold
// the spills, they share the scratch arena's memory. The fast budget starts at the whole
// memory and is lowered along a ladder (15/16 each step, on the 16-byte grid); at each step the
// model is planned with the one-memory partition (plan/one_memory_partition.h), which cuts
// for small spills, and with the default one, which fills each stage. Each plan keeps its
// spills at the top of its fast arena (plan/joint_arena.h: one arena, above every stage's
// buffers); the first whose one arena fits the memory wins: the largest budget (the
// fewest, largest tiles), the one-memory partition on a tie. `least` is the smallest arena
// any plan on the ladder needed, for the refusal when none fits.
struct SharedSplit {
  bool found = false;
  int64_t least = 0;  // 0: no budget on the ladder planned at all
  int64_t least_fast = 0;
  int64_t least_slow = 0;
};
SharedSplit ShareScratchMemory(const ir::Graph& graph, plan::Budget& budget,
                               const EmitOptions& options, int64_t memory_bytes,
                               plan::PlanResult& result) {
  const int64_t grid = analysis::kArenaAlignment;
  SharedSplit split;
  for (int64_t fast = budget.fast_bytes / grid * grid; fast >= grid;
       fast = fast * 15 / 16 / grid * grid) {
    bool planned_any = false;
    for (const bool one_memory : {true, false}) {
      // The default partition at the whole memory is the plan that led here.
      if (!one_memory && fast == budget.fast_bytes) continue;
      plan::Budget tried = budget;
      tried.fast_bytes = fast;
      tried.one_memory_bytes = one_memory ? memory_bytes : 0;
      plan::PlanResult planned;
      try {
        planned = PlanForEmit(graph, tried, options);
      } catch (const Error& e) {
        if (e.status() == Status::kDoesNotFit || e.status() == Status::kInvalidBudget) continue;
        throw;
      }
      planned_any = true;
      // One arena for both (plan/joint_arena.h): the spills at its top, above each stage.
      const int64_t scratch = plan::FastArenaBytes(planned);
      const int64_t spills = planned.slow_peak_bytes;
      plan::JoinArenas(planned);
      const int64_t arena = plan::FastArenaBytes(planned);
      if (split.least == 0 || arena < split.least) {
        split.least = arena;
        split.least_fast = scratch;
        split.least_slow = spills;
      }
      if (arena <= memory_bytes) {
        budget = tried;
        result = std::move(planned);
        split.found = true;
        return split;
      }
    }
    if (!planned_any) break;
  }
  return split;
}

// `e` with the rule that asked to pin its tensor (and the rules file) in front.
[[noreturn]] void RefusePin(const plan::UnpinnableTensor& e, const RulePlacement& placed,
                            const target::Rules& rules) {
  const auto it = placed.pinned.find(e.tensor());
  const std::string rule =
      it != placed.pinned.end() ? rules.rules[static_cast<size_t>(it->second)].text + ": " : "";
  throw Error(e.status(), rules.source + ": " + rule + e.what());
}

}  // namespace

CompiledPlan Compile(const ir::Graph& graph, const plan::Budget& budget,
                     const EmitOptions& options) {
  CompiledPlan out;
  out.result = PlanForEmit(graph, budget, options);
  out.emitted = EmitPlan(out.result.graph, out.result, options);
  RequireReservedFit(out, budget.fast_bytes);
  const int64_t size = static_cast<int64_t>(out.emitted.bytes.size());
  if (budget.flash_bytes > 0 && size > budget.flash_bytes) {
    throw Error(Status::kFlashBudgetTooSmall, "the plan is " + std::to_string(size) +
                                                  " bytes but the flash budget is " +
                                                  std::to_string(budget.flash_bytes) + " bytes");
  }
  out.memories = {
      {options.memory_names[0], budget.fast_bytes, out.emitted.fast_arena_bytes, 0, "scratch"},
      {options.memory_names[1], budget.slow_bytes, out.emitted.slow_arena_bytes,
       out.result.slow_traffic_bytes, "spills"},
      {options.memory_names[2], budget.flash_bytes, size, 0, "plan"}};
  // The -m shorthand has no memory for them: their own arenas, unbudgeted.
  if (out.emitted.state_arena_bytes > 0) {
    out.memories.push_back({options.memory_names[3], 0, out.emitted.state_arena_bytes, 0, "state"});
  }
  if (out.emitted.staged_bytes > 0) {
    out.memories.push_back({options.memory_names[4], 0, out.emitted.staged_bytes, 0, "constants"});
  }
  return out;
}

namespace {

// What else the scratch arena's memory must hold, when it did not fit: its capacity and
// the bytes of the other roles the rules or defaults put there (constants, state, pinned
// tensors; not spills sharing it, which the split already counts).
struct ScratchOverflow {
  int64_t capacity = 0;
  int64_t beside = 0;
};

// CompileForTarget with the scratch arena's memory giving the planner `room` bytes (-1: all
// of it); `overflow` is set when that memory overflows with something beside the scratch.
CompiledPlan CompileWithin(const ir::Graph& graph, const target::Target& target,
                           const plan::Budget& choices, EmitOptions options,
                           const target::Rules* rules, int64_t room, ScratchOverflow& overflow) {
  RulePlacement placed;
  if (rules != nullptr) {
    if (options.lz4) {
      throw Error(Status::kInvalidArgument,
                  rules->source +
                      ": rules keep constants in place or stage them as stored; "
                      "they do not combine with LZ4 compression");
    }
    // The scratch arena's memory sets the budget, so it is decided on the model as given.
    placed = ApplyRules(graph, target, *rules, options.state);
    // Constants go where the rules say: in place, or staged; no per-stage copies.
    options.xip = true;
    options.copy_where_faster = false;
    options.stage_constants = false;
  }
  const int scratch_index =
      placed.scratch_memory >= 0 ? placed.scratch_memory : target.ScratchMemory();
  const target::Memory& scratch = target.memories[static_cast<size_t>(scratch_index)];
  if (room < 0) room = scratch.size;
  plan::Budget budget;
  budget.fast_bytes = room;  // slow_bytes 0: the spills' memory is chosen below
  budget.layout = choices.layout;
  budget.fdt = choices.fdt;
  budget.search = choices.search;
  // Pinned tensors count against no fast budget; the planner pins them by name
  // (plan/pinning.h), so a tensor a rewrite replaced is not pinned, and the rules' second
  // pass below warns that its id matches no tensor.
  for (const auto& [name, rule] : placed.pinned) budget.pinned.insert(name);
  CompiledPlan out;
  try {
    out.result = PlanForEmit(graph, budget, options);
  } catch (const plan::UnpinnableTensor& e) {
    RefusePin(e, placed, *rules);  // only rules pin
  }
  if (rules != nullptr) {
    // Everything else on the graph the plan runs: the planner's rewrites may have replaced
    // tensors (plan/rewrites.h), and the warnings then name what the plan really lacks.
    placed = ApplyRules(out.result.graph, target, *rules, options.state);
    options.staged_constants = placed.staged;
  }

  // Spills: the fastest other writable memory with room for the whole slow arena; else the
  // scratch arena's own memory, in one arena with a smaller scratch.
  const int64_t slow = out.result.slow_peak_bytes;
  int spill = slow > 0 ? target.SpillMemory(slow, scratch_index) : -1;
  SharedSplit shared;
  if (slow > 0 && spill < 0 && !scratch.read_only) {
    shared = ShareScratchMemory(graph, budget, options, room, out.result);
    if (shared.found) {
      spill = scratch_index;
      out.shared_scratch_memory = true;
    }
  }
  if (slow > 0 && spill < 0) {
    std::string tried;
    for (int i : target.WritableBySpeed()) {
      if (i == scratch_index) continue;
      const target::Memory& m = target.memories[static_cast<size_t>(i)];
      tried += (tried.empty() ? "" : ", ") + m.name + " " + std::to_string(m.size);
    }
    throw Error(Status::kSlowBudgetTooSmall,
                target.source + ": spills need " + std::to_string(slow) +
                    " bytes beside the scratch arena in " + scratch.name +
                    ", no other writable memory has room" +
                    (tried.empty() ? std::string(" (there is none)") : " (" + tried + " bytes)") +
                    (scratch.read_only ? std::string()
                                       : ", nor does " + scratch.name +
                                             " hold a smaller scratch arena beside its spills") +
                    (shared.least > 0
                         ? ": the least any split needs is " + std::to_string(shared.least) +
                               " bytes (scratch " + std::to_string(shared.least_fast) +
                               " and spills " + std::to_string(shared.least_slow) + " in one arena)"
                         : std::string()));
  }
  const target::Memory& plan_memory = target.plan();
  const int pinned_memory = out.result.pinned_peak_bytes > 0 ? placed.pinned_memory : -1;
  options.memory_names = {
      scratch.name,
      spill >= 0 ? target.memories[static_cast<size_t>(spill)].name : "slow",
      plan_memory.name,
      "state",
      "constants",
      pinned_memory >= 0 ? target.memories[static_cast<size_t>(pinned_memory)].name : "pinned"};
  out.emitted = EmitPlan(out.result.graph, out.result, options);
  RequireReservedFit(out, budget.fast_bytes);

  // Persistent state, then staged constants: each in the fastest writable memory with room
  // beside what it already holds (tensor-memory-attributes.txt: unruled tensors go to the
  // fastest memory with room). Their sizes are known only once emitted; the names change
  // no size, so the plan is emitted again with them.
  std::vector<int64_t> held(target.memories.size(), 0);
  held[static_cast<size_t>(scratch_index)] += out.emitted.fast_arena_bytes;
  if (spill >= 0) held[static_cast<size_t>(spill)] += out.emitted.slow_arena_bytes;
  if (pinned_memory >= 0) {
    held[static_cast<size_t>(pinned_memory)] += out.emitted.pinned_arena_bytes;
  }
  // A memory the rules chose (checked against its size with the others below), else the
  // fastest writable one with room.
  auto place = [&](int64_t bytes, const char* what, int ruled) {
    if (bytes == 0) return -1;
    if (ruled >= 0) {
      held[static_cast<size_t>(ruled)] += bytes;
      return ruled;
    }
    for (int m : target.WritableBySpeed()) {
      if (held[static_cast<size_t>(m)] + bytes <= target.memories[static_cast<size_t>(m)].size) {
        held[static_cast<size_t>(m)] += bytes;
        return m;
      }
    }
    throw Error(Status::kDoesNotFit, target.source + ": " + what + " needs " +
                                         std::to_string(bytes) +
                                         " bytes and no writable memory has that much left");
  };
  const int state_memory =
      place(out.emitted.state_arena_bytes, "persistent state", placed.state_memory);
  const int constants_memory =
      place(out.emitted.staged_bytes, "staged constants", placed.constants_memory);
  if (state_memory >= 0 || constants_memory >= 0) {
    if (state_memory >= 0) {
      options.memory_names[3] = target.memories[static_cast<size_t>(state_memory)].name;
    }
    if (constants_memory >= 0) {
      options.memory_names[4] = target.memories[static_cast<size_t>(constants_memory)].name;
    }
    out.emitted = EmitPlan(out.result.graph, out.result, options);
  }
  const int64_t size = static_cast<int64_t>(out.emitted.bytes.size());
  if (plan_memory.size > 0 && size > plan_memory.size) {
    throw Error(Status::kFlashBudgetTooSmall, target.source + ": the plan is " +
                                                  std::to_string(size) + " bytes but " +
                                                  plan_memory.name + ", its plan_memory, has " +
                                                  std::to_string(plan_memory.size) + " bytes");
  }
  // What each memory holds; a writable plan memory may share with an arena.
  for (size_t i = 0; i < target.memories.size(); ++i) {
    const target::Memory& m = target.memories[i];
    const int index = static_cast<int>(i);
    MemoryUse use{m.name, m.size, 0, 0, ""};
    auto add = [&use](const char* role, int64_t bytes) {
      use.role += (use.role.empty() ? "" : "+") + std::string(role);
      use.used_bytes += bytes;
    };
    if (index == scratch_index) add("scratch", out.emitted.fast_arena_bytes);
    if (index == spill) {
      add("spills", out.emitted.slow_arena_bytes);
      use.traffic_bytes = out.result.slow_traffic_bytes;
    }
    if (index == pinned_memory) add("pinned", out.emitted.pinned_arena_bytes);
    if (index == target.plan_memory) add("plan", size);
    if (index == state_memory) add("state", out.emitted.state_arena_bytes);
    if (index == constants_memory) add("constants", out.emitted.staged_bytes);
    if (m.size > 0 && use.used_bytes > m.size) {  // 0: OneMemoryTarget's unbounded flash
      int64_t beside = 0;
      if (index == scratch_index) {
        beside = use.used_bytes - out.emitted.fast_arena_bytes -
                 (spill == scratch_index ? out.emitted.slow_arena_bytes : 0);
        overflow = {m.size, beside};
      }
      throw Error(Status::kDoesNotFit,
                  target.source + ": memory " + m.name + " holds " + use.role + ", " +
                      std::to_string(use.used_bytes) + " bytes, but has " + std::to_string(m.size) +
                      (rules != nullptr ? " (placed there by " + rules->source + ")" : "") +
                      (beside >= m.size ? ": what it holds beside the scratch arena alone is " +
                                              std::to_string(beside) + " bytes"
                                        : std::string()));
    }
    out.memories.push_back(std::move(use));
  }
  out.warnings = std::move(placed.warnings);
  return out;
}

}  // namespace

// The scratch budget is what the memory leaves after everything else placed in it (issue
// 39): constants the rules stage into the scratch memory, state, pinned tensors. Their
// sizes are known once a plan is emitted, so a compile that overflows the scratch memory
// with them is planned again with the scratch given only what they leave, until it fits
// (a few rounds at most: they do not depend on the tiling, or barely).
CompiledPlan CompileForTarget(const ir::Graph& graph, const target::Target& target,
                              const plan::Budget& choices, EmitOptions options,
                              const target::Rules* rules) {
  int64_t room = -1;
  std::optional<Error> first;  // the overflow that started the rounds, what the user asked
  for (int round = 0;; ++round) {
    ScratchOverflow overflow;
    try {
      return CompileWithin(graph, target, choices, options, rules, room, overflow);
    } catch (const Error& e) {
      const int64_t left = (overflow.capacity - overflow.beside) / analysis::kArenaAlignment *
                           analysis::kArenaAlignment;
      const bool again = e.status() == Status::kDoesNotFit && overflow.beside > 0 && left > 0 &&
                         round < 3 && (room < 0 || left < room);
      if (!first && !again) throw;
      if (!first) first = e;
      if (!again) {
        throw Error(first->status(),
                    std::string(first->what()) + "; and with the scratch arena given only the " +
                        std::to_string(room) + " bytes left beside it: " + e.what());
      }
      room = left;
    }
  }
}

}  // namespace tigris::emit
