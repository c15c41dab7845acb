#include "target/rules.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <numeric>

#include "target/yaml_util.h"
#include "util/error.h"

namespace tigris::target {
namespace {

std::optional<TensorKind> ParseType(const std::string& source, const YAML::Node& node,
                                    const std::string& rule) {
  const std::string text = ScalarOf(source, node, rule + " type");
  if (text == "*") return std::nullopt;
  if (text == "SCRATCH") return TensorKind::kScratch;
  if (text == "PERSISTENT") return TensorKind::kPersistent;
  if (text == "CONSTANT") return TensorKind::kConstant;
  Fail(source, node, rule + " type '" + text + "' is not SCRATCH, PERSISTENT, CONSTANT or \"*\"");
}

std::vector<std::string> ParseIds(const std::string& source, const YAML::Node& node,
                                  const std::string& rule) {
  std::vector<std::string> ids;
  if (node.IsNull()) return ids;
  if (node.IsScalar()) return {node.Scalar()};
  if (!node.IsSequence()) Fail(source, node, rule + " id must be a name, a list of names or null");
  for (const YAML::Node& id : node) {
    ids.push_back(ScalarOf(source, id, rule + " id"));
  }
  if (ids.empty()) Fail(source, node, rule + " id is an empty list (use null for every tensor)");
  return ids;
}

// "type: PERSISTENT, id: [a, b], memory: SRAM" as the rule reads.
std::string Summary(const Rule& r) {
  std::string s = std::string("type: ") + (r.type ? TensorKindName(*r.type) : "*");
  if (!r.ids.empty()) {
    std::string list;
    for (const std::string& id : r.ids) list += (list.empty() ? "" : ", ") + id;
    s += ", id: " + (r.ids.size() == 1 ? list : "[" + list + "]");
  }
  if (!r.memory.empty()) s += ", memory: " + r.memory;
  if (!r.destination.empty()) s += ", constant_destination_memory: " + r.destination;
  return s;
}

}  // namespace

const char* TensorKindName(TensorKind kind) {
  switch (kind) {
    case TensorKind::kScratch:
      return "SCRATCH";
    case TensorKind::kPersistent:
      return "PERSISTENT";
    case TensorKind::kConstant:
      return "CONSTANT";
  }
  return "?";
}

bool Rule::Matches(TensorKind kind, const std::string& name) const {
  if (type && *type != kind) return false;
  return ids.empty() || std::find(ids.begin(), ids.end(), name) != ids.end();
}

Rules ParseRules(const std::string& yaml, const std::string& source, const Target& target) {
  const YAML::Node root = LoadYaml(yaml, source);
  if (!root || root.IsNull()) {
    throw Error(Status::kInvalidArgument, source + ": empty rules file (needs tensors:)");
  }
  RequireKeys(source, root, "the rules", {"tensors"});
  const YAML::Node list = root["tensors"];
  if (!list) Fail(source, root, "the rules have no tensors: list");
  if (!list.IsSequence()) Fail(source, list, "tensors must be a list of rules");
  Rules rules;
  rules.source = source;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node node = list[i];
    const std::string name = "rule " + std::to_string(i);
    RequireKeys(source, node, name.c_str(), {"type", "id", "attributes"});
    Rule r;
    if (node["type"]) r.type = ParseType(source, node["type"], name);
    if (node["id"]) r.ids = ParseIds(source, node["id"], name);
    const YAML::Node attributes = node["attributes"];
    if (!attributes) Fail(source, node, name + " has no attributes");
    RequireKeys(source, attributes, (name + " attributes").c_str(),
                {"memory", "constant_destination_memory"});
    if (attributes["memory"]) {
      r.memory = ScalarOf(source, attributes["memory"], name + " memory");
    }
    if (attributes["constant_destination_memory"]) {
      r.destination = ScalarOf(source, attributes["constant_destination_memory"],
                               name + " constant_destination_memory");
    }
    if (r.memory.empty() && r.destination.empty()) {
      Fail(source, attributes, name + " sets no attribute (memory, constant_destination_memory)");
    }
    r.text = name + " (" + Summary(r) + ") at " + Where(source, node);
    r.text.resize(r.text.size() - 2);  // Where's trailing ": "
    for (const std::string* memory : {&r.memory, &r.destination}) {
      if (memory->empty()) continue;
      const int m = target.Find(*memory);
      if (m < 0) {
        std::string known;
        for (const Memory& mem : target.memories) known += (known.empty() ? "" : ", ") + mem.name;
        Fail(source, node,
             name + ": memory '" + *memory + "' is not in target " + target.source + " (" + known +
                 ")");
      }
      const bool read_only = target.memories[static_cast<size_t>(m)].read_only;
      if (read_only && memory == &r.destination) {
        Fail(source, node,
             name + ": constant_destination_memory " + *memory +
                 " is read-only; staged constants are copied into it");
      }
      if (read_only && r.type && *r.type != TensorKind::kConstant) {
        Fail(source, node,
             name + ": " + TensorKindName(*r.type) + " tensors are written, and " + *memory +
                 " is read-only");
      }
    }
    if (!r.destination.empty() && r.type && *r.type != TensorKind::kConstant) {
      Fail(source, node,
           name + ": constant_destination_memory applies to CONSTANT tensors, not " +
               TensorKindName(*r.type));
    }
    rules.rules.push_back(std::move(r));
  }
  return rules;
}

namespace {

// Merges the rules `matches` accepts.
template <typename Match>
Attributes Merge(const Rules& rules, Match matches) {
  std::vector<int> matching;
  for (size_t i = 0; i < rules.rules.size(); ++i) {
    if (matches(rules.rules[i])) matching.push_back(static_cast<int>(i));
  }
  // Least specific first, file order within a specificity: each later one overrides.
  std::stable_sort(matching.begin(), matching.end(), [&rules](int a, int b) {
    return rules.rules[static_cast<size_t>(a)].Specificity() <
           rules.rules[static_cast<size_t>(b)].Specificity();
  });
  Attributes out;
  for (int i : matching) {
    const Rule& r = rules.rules[static_cast<size_t>(i)];
    if (!r.memory.empty()) {
      out.memory = r.memory;
      out.memory_rule = i;
    }
    if (!r.destination.empty()) {
      out.destination = r.destination;
      out.destination_rule = i;
    }
  }
  return out;
}

}  // namespace

Attributes Resolve(const Rules& rules, TensorKind kind, const std::string& name) {
  return Merge(rules, [&](const Rule& r) { return r.Matches(kind, name); });
}

Attributes ResolveKind(const Rules& rules, TensorKind kind) {
  return Merge(rules, [&](const Rule& r) { return r.ids.empty() && (!r.type || *r.type == kind); });
}

}  // namespace tigris::target
