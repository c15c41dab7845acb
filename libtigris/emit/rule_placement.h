// What placement rules (target/rules.h) decide for one model on one target, before it is
// planned (docs/memories.md, "Rules"):
//  - scratch: the memory of the scratch (fast) arena, when rules place SCRATCH tensors;
//  - persistent state: the memory of the STATE arena;
//  - constants: each is cold (read in place from the plan's memory) or staged into one
//    destination memory, copied from the plan (tensor-memory-attributes.txt, "Cold vs
//    staged constants": memory = source, constant_destination_memory = destination; a
//    memory other than the plan's without a destination stages into that memory).
//  - pinned tensors: SCRATCH tensors an id rule puts in a memory other than the scratch
//    arena's (which catch-all and type rules choose: target::ResolveKind) live there,
//    whole, in the pinned arena (plan/pinning.h; the seed's example 2).
// The runtime has one arena per role, and one pinned arena, so rules that would split a
// role over more memories are refused, naming the rules and tensors, as are the seed's
// error classes.
#ifndef TIGRIS_EMIT_RULE_PLACEMENT_H_
#define TIGRIS_EMIT_RULE_PLACEMENT_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "emit/plan_writer.h"
#include "ir/graph.h"
#include "target/rules.h"
#include "target/target.h"

namespace tigris::emit {

struct RulePlacement {
  int scratch_memory = -1;            // index into the target's memories; -1: not set by rules
  int state_memory = -1;              // likewise
  int constants_memory = -1;          // the staged constants' destination; -1: none staged
  std::set<std::string> staged;       // constants staged there, by IR tensor name
  int pinned_memory = -1;             // the pinned arena's memory; -1: nothing pinned
  std::map<std::string, int> pinned;  // scratch tensors pinned there -> the rule doing it
  std::vector<std::string> warnings;  // ids that match no tensor
};

// Applies `rules` to every tensor of `graph`: CONSTANT (graph constants), PERSISTENT (the
// names in state), SCRATCH (every other tensor). Throws Error(kInvalidArgument) naming the
// rule and the tensor for: a SCRATCH or PERSISTENT tensor in a read-only memory; state
// split over several memories, or scratch tensors pinned to two; a constant kept in place in a
// memory other than the plan's, or staged from one; two source memories for one staged destination;
// constants staged into several memories.
RulePlacement ApplyRules(const ir::Graph& graph, const target::Target& target,
                         const target::Rules& rules, const std::vector<StatePair>& state);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_RULE_PLACEMENT_H_
