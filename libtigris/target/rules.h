// Placement rules (`tigris compile --target T.yaml --rules RULES.yaml`): the seed's tensor
// attribute ruleset (tensor-memory-attributes.txt, "Rule structure & precedence"):
//
//   tensors:
//     - type: "*"                       # SCRATCH | PERSISTENT | CONSTANT | "*" (default)
//       id: null                        # a tensor name, a list of names, or null (all)
//       attributes:
//         memory: DTCM                  # a memory of the target
//         constant_destination_memory: SRAM   # constants: stage them there
//
// A tensor's attributes merge every rule that matches its kind and name, from the least
// specific to the most (catch-all < type < id < type and id), later rules winning at equal
// specificity, one attribute at a time. docs/memories.md says what the compiler does with
// them (emit/compile.h, CompileForTarget).
#ifndef TIGRIS_TARGET_RULES_H_
#define TIGRIS_TARGET_RULES_H_

#include <optional>
#include <string>
#include <vector>

#include "target/target.h"

namespace tigris::target {

enum class TensorKind { kScratch, kPersistent, kConstant };
const char* TensorKindName(TensorKind kind);  // "SCRATCH", "PERSISTENT", "CONSTANT"

struct Rule {
  std::optional<TensorKind> type;  // nullopt: "*"
  std::vector<std::string> ids;    // empty: every tensor
  std::string memory;              // "" when the rule does not set it
  std::string destination;         // constant_destination_memory, "" when not set
  std::string text;                // "rule 2 (type: PERSISTENT, memory: SRAM) at FILE:L:C"

  // 0 catch-all, 1 type, 2 id, 3 type and id.
  int Specificity() const { return (ids.empty() ? 0 : 2) + (type ? 1 : 0); }
  bool Matches(TensorKind kind, const std::string& name) const;
};

struct Rules {
  std::vector<Rule> rules;  // in file order
  std::string source;
};

// One tensor's merged attributes and the rules that set each (-1: none).
struct Attributes {
  std::string memory;
  std::string destination;
  int memory_rule = -1;
  int destination_rule = -1;
};

// Parses and checks `yaml` against `target`. Throws Error(kInvalidArgument), naming the
// source, line and column and the rule, for YAML that does not parse, an unknown key or
// type, an id that is not a name or a list of names, a rule without attributes, a memory
// the target does not have, SCRATCH or PERSISTENT rules in a read-only memory, and a
// constant_destination_memory that is read-only or on a rule for another kind.
Rules ParseRules(const std::string& yaml, const std::string& source, const Target& target);

// The attributes of tensor `name` of kind `kind` (tensor-memory-attributes.txt,
// "How attributes are applied").
Attributes Resolve(const Rules& rules, TensorKind kind, const std::string& name);
// The attributes every tensor of kind `kind` gets from the rules without ids (catch-all and
// type rules): for SCRATCH, the scratch arena's memory; an id rule that places a tensor
// elsewhere pins it there (emit/rule_placement.h).
Attributes ResolveKind(const Rules& rules, TensorKind kind);

}  // namespace tigris::target

#endif  // TIGRIS_TARGET_RULES_H_
