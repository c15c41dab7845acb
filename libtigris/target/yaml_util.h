// What the YAML readers of targets and rules share (target.h, rules.h): messages that
// name the file, line and column of the node at fault, and the checks every mapping gets.
#ifndef TIGRIS_TARGET_YAML_UTIL_H_
#define TIGRIS_TARGET_YAML_UTIL_H_

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>

namespace tigris::target {

// "SOURCE:LINE:COLUMN: " for a node (yaml-cpp marks are 0-based), "SOURCE: " without one.
std::string Where(const std::string& source, const YAML::Node& node);

// Throws Error(kInvalidArgument) "SOURCE:LINE:COLUMN: what".
[[noreturn]] void Fail(const std::string& source, const YAML::Node& node, const std::string& what);

// `map` is a mapping whose keys are all in `known` (else Fail naming the key and the list).
void RequireKeys(const std::string& source, const YAML::Node& map, const char* what,
                 const std::set<std::string>& known);

// The scalar text of `node` (else Fail: "FIELD must be a single value").
std::string ScalarOf(const std::string& source, const YAML::Node& node, const std::string& field);

// Parses `text` as YAML; Fail with the parser's position and message when it is not.
YAML::Node LoadYaml(const std::string& text, const std::string& source);

}  // namespace tigris::target

#endif  // TIGRIS_TARGET_YAML_UTIL_H_
