#include "emit/rule_placement.h"

#include <map>
#include <tuple>
#include <utility>

#include "util/error.h"

namespace tigris::emit {
namespace {

using target::TensorKind;

[[noreturn]] void Refuse(const target::Rules& rules, const std::string& what) {
  throw Error(Status::kInvalidArgument, rules.source + ": " + what);
}

const std::string& RuleText(const target::Rules& rules, int index) {
  return rules.rules[static_cast<size_t>(index)].text;
}

// The one memory a role's tensors resolve to (-1: none set), refusing two; `why` says why
// there is one.
struct RoleMemory {
  RoleMemory(const char* r, const char* w) : role(r), why(w) {}
  const char* role;
  const char* why;
  int memory = -1;
  int rule = -1;
  std::string tensor;

  void Add(const target::Target& target, const target::Rules& rules, const std::string& name,
           const target::Attributes& a) {
    if (a.memory.empty()) return;
    const int m = target.Find(a.memory);
    if (target.memories[static_cast<size_t>(m)].read_only) {
      Refuse(rules, RuleText(rules, a.memory_rule) + " puts " + role + " tensor '" + name +
                        "' in " + a.memory + ", which is read-only");
    }
    if (memory >= 0 && m != memory) {
      Refuse(rules, RuleText(rules, rule) + " puts " + role + " tensor '" + tensor + "' in " +
                        target.memories[static_cast<size_t>(memory)].name + " but " +
                        RuleText(rules, a.memory_rule) + " puts '" + name + "' in " + a.memory +
                        ": " + why);
    }
    memory = m;
    rule = a.memory_rule;
    tensor = name;
  }
};

}  // namespace

RulePlacement ApplyRules(const ir::Graph& graph, const target::Target& target,
                         const target::Rules& rules, const std::vector<StatePair>& state) {
  std::set<std::string> persistent;
  for (const StatePair& p : state) {
    persistent.insert(p.input);
    persistent.insert(p.output);
  }
  RulePlacement out;
  RoleMemory scratch("SCRATCH", "a plan keeps its scratch arena in one memory"),
      pinned("SCRATCH",
             "a plan pins tensors to one memory besides its scratch arena's (one pinned arena)"),
      kept("PERSISTENT", "a plan keeps its PERSISTENT tensors in one arena, so one memory");
  // The scratch arena's memory: what catch-all and type rules give SCRATCH, else the
  // target's default. An id rule putting a tensor anywhere else pins it there.
  const target::Attributes arena = target::ResolveKind(rules, TensorKind::kScratch);
  const int arena_memory =
      arena.memory.empty() ? target.ScratchMemory() : target.Find(arena.memory);
  const std::string& plan_memory = target.plan().name;
  // Staged destination -> (source, the rule that set it, a tensor).
  std::map<std::string, std::tuple<std::string, int, std::string>> sources;
  // The tensors the plan holds: what ops read and write, and the graph's inputs and
  // outputs (a tensor fused or folded away has no placement).
  std::set<ir::TensorId> live(graph.inputs.begin(), graph.inputs.end());
  live.insert(graph.outputs.begin(), graph.outputs.end());
  for (const ir::Op& op : graph.ops) {
    for (ir::TensorId t : op.inputs) {
      if (t != ir::kNoTensor) live.insert(t);
    }
    live.insert(op.outputs.begin(), op.outputs.end());
  }
  std::vector<std::pair<TensorKind, std::string>> seen;
  for (ir::TensorId id : live) {
    const ir::Tensor& t = graph.tensor(id);
    const TensorKind kind = t.is_constant              ? TensorKind::kConstant
                            : persistent.count(t.name) ? TensorKind::kPersistent
                                                       : TensorKind::kScratch;
    seen.emplace_back(kind, t.name);
    const target::Attributes a = target::Resolve(rules, kind, t.name);
    if (kind == TensorKind::kScratch) {
      const bool by_id =
          a.memory_rule >= 0 && !rules.rules[static_cast<size_t>(a.memory_rule)].ids.empty();
      if (by_id && target.Find(a.memory) != arena_memory) {
        pinned.Add(target, rules, t.name, a);
        out.pinned[t.name] = a.memory_rule;
      } else {
        scratch.Add(target, rules, t.name, by_id ? arena : a);
      }
      continue;
    }
    if (kind == TensorKind::kPersistent) {
      kept.Add(target, rules, t.name, a);
      continue;
    }
    // A constant: memory is where its bytes come from, the destination where kernels read
    // them; without a destination, a memory other than the plan's is the destination.
    const bool has_destination = !a.destination.empty() && a.destination != a.memory;
    const std::string source = has_destination && !a.memory.empty() ? a.memory : plan_memory;
    const std::string destination = has_destination                                ? a.destination
                                    : !a.memory.empty() && a.memory != plan_memory ? a.memory
                                                                                   : "";
    const int rule = has_destination ? a.destination_rule : a.memory_rule;
    if (destination.empty()) continue;  // cold: read in place from the plan
    auto [it, fresh] = sources.emplace(destination, std::make_tuple(source, rule, t.name));
    if (!fresh && std::get<0>(it->second) != source) {
      Refuse(rules, "two source memories for the staged destination " + destination + ": " +
                        RuleText(rules, std::get<1>(it->second)) + " stages '" +
                        std::get<2>(it->second) + "' from " + std::get<0>(it->second) + ", " +
                        RuleText(rules, rule) + " stages '" + t.name + "' from " + source +
                        " (one bulk copy per destination needs one source)");
    }
    if (source != plan_memory) {
      Refuse(rules, RuleText(rules, rule) + " stages constant '" + t.name + "' from " + source +
                        ", but constants are stored in the plan, in " + plan_memory);
    }
    const int d = target.Find(destination);
    if (target.memories[static_cast<size_t>(d)].read_only) {
      Refuse(rules, RuleText(rules, rule) + " puts constant '" + t.name + "' in " + destination +
                        ", read-only and not the plan's memory " + plan_memory +
                        ": it can be neither read in place there nor staged into it");
    }
    if (out.constants_memory >= 0 && d != out.constants_memory) {
      Refuse(rules, "constants are staged into " +
                        target.memories[static_cast<size_t>(out.constants_memory)].name + " and " +
                        destination + " (" + RuleText(rules, rule) +
                        "): a plan has one constants arena, so one destination memory");
    }
    out.constants_memory = d;
    out.staged.insert(t.name);
  }
  out.scratch_memory = scratch.memory;
  out.pinned_memory = pinned.memory;
  out.state_memory = kept.memory;
  for (const target::Rule& rule : rules.rules) {
    for (const std::string& id : rule.ids) {
      bool named = false, matched = false;
      for (const auto& [kind, name] : seen) {
        named = named || name == id;
        matched = matched || (name == id && (!rule.type || *rule.type == kind));
      }
      if (matched) continue;
      out.warnings.push_back(rules.source + ": " + rule.text + ": id '" + id + "' " +
                             (named ? "names a tensor of another kind"
                                    : "matches no tensor of the model (renamed, fused or folded "
                                      "away?)"));
    }
  }
  return out;
}

}  // namespace tigris::emit
