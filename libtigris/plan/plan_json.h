// The plan as JSON, the shape `tigris analyze --json` and tigris_analyze print
// (docs/planning.md lists every field). Tensors and ops appear by name.
#ifndef TIGRIS_PLAN_PLAN_JSON_H_
#define TIGRIS_PLAN_PLAN_JSON_H_

#include <nlohmann/json.hpp>

#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::plan {

nlohmann::json PlanToJson(const ir::Graph& graph, const PlanResult& plan);

// A search's "exploration" object (docs/json.md), which PlanToJson includes when set.
nlohmann::json ExplorationToJson(const Exploration& exploration);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PLAN_JSON_H_
