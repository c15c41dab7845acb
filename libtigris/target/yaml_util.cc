#include "target/yaml_util.h"

#include "util/error.h"

namespace tigris::target {

// "SOURCE:LINE:COLUMN: " for a node (yaml-cpp marks are 0-based).
std::string Where(const std::string& source, const YAML::Node& node) {
  const YAML::Mark m = node.Mark();
  if (m.line < 0) return source + ": ";
  return source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": ";
}

void Fail(const std::string& source, const YAML::Node& node, const std::string& what) {
  throw Error(Status::kInvalidArgument, Where(source, node) + what);
}

void RequireKeys(const std::string& source, const YAML::Node& map, const char* what,
                 const std::set<std::string>& known) {
  if (!map.IsMap()) Fail(source, map, std::string(what) + " must be a mapping");
  for (const auto& kv : map) {
    if (!kv.first.IsScalar())
      Fail(source, kv.first, std::string("a key in ") + what + " is not a name");
    const std::string key = kv.first.Scalar();
    if (known.count(key)) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    Fail(source, kv.first, "unknown key '" + key + "' in " + what + " (known: " + list + ")");
  }
}

std::string ScalarOf(const std::string& source, const YAML::Node& node, const std::string& field) {
  if (!node.IsScalar()) Fail(source, node, field + " must be a single value");
  return node.Scalar();
}

YAML::Node LoadYaml(const std::string& text, const std::string& source) {
  try {
    return YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw Error(Status::kInvalidArgument, source + ":" + std::to_string(e.mark.line + 1) + ":" +
                                              std::to_string(e.mark.column + 1) +
                                              ": not valid YAML: " + e.msg);
  }
}

}  // namespace tigris::target
