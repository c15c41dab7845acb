// The table `tigris analyze --explore` prints: the plans the planner's search made
// (docs/planning.md, "Search"), from the "exploration" object of tigris_analysis_json
// (tigris_plan_exploration_json for compile's one line).
#ifndef TIGRIS_CLI_EXPLORATION_TABLE_H_
#define TIGRIS_CLI_EXPLORATION_TABLE_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>

namespace tigris::cli {

// A summary line, then a row per plan on the Pareto front (every plan with `all`), the
// chosen one marked '*'. `model_macs` (the JSON's totals.macs) turns recompute into a
// share.
void PrintExplorationTable(std::FILE* out, const nlohmann::json& exploration, uint64_t model_macs,
                           bool all);

// One line for `tigris compile --objective`: what the search chose, of how many plans.
void PrintSearchChoice(std::FILE* out, const nlohmann::json& exploration);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_EXPLORATION_TABLE_H_
