#include "target_option.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "input_file.h"

namespace tigris::cli {

std::optional<TargetFile> ReadFileOption(const Args& args, const char* option, const char* what) {
  const std::vector<std::string>& given = args.Values(option);
  if (given.empty()) return std::nullopt;
  if (given.size() > 1) throw UsageError(std::string(option) + " is given more than once");
  return TargetFile{given[0], ReadInputFile(given[0], what)};
}

std::optional<TargetFile> ReadTargetOption(const Args& args) {
  return ReadFileOption(args, "--target", "target");
}

void PrintMemoryTable(const char* memories_json) {
  const nlohmann::json memories = nlohmann::json::parse(memories_json);
  std::printf("%-12s %12s %12s %14s  %s\n", "memory", "size", "used", "traffic/run", "holds");
  for (const nlohmann::json& m : memories) {
    const std::string role = m.at("role").get<std::string>();
    std::printf("%-12s %12lld %12lld %14lld  %s\n", m.at("name").get<std::string>().c_str(),
                m.at("size").get<long long>(), m.at("used_bytes").get<long long>(),
                m.at("traffic_bytes").get<long long>(), role.empty() ? "-" : role.c_str());
  }
}

void PrintStateAndConstants(const char* memories_json) {
  const nlohmann::json memories = nlohmann::json::parse(memories_json);
  for (const nlohmann::json& m : memories) {
    const std::string role = m.at("role").get<std::string>();
    if (role != "state" && role != "constants") continue;
    std::printf("%-8s %lld bytes arena (%s)\n", role.c_str(), m.at("used_bytes").get<long long>(),
                role == "state" ? "persistent state, zero-filled when bound"
                                : "staged constants, copied in by tgrs_hydrate_constants");
  }
}

}  // namespace tigris::cli
