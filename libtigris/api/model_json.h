// The JSON description of a normalized model (docs/json.md): the "model" object that
// `tigris analyze --json` prints and tigris_model_json returns.
#ifndef TIGRIS_API_MODEL_JSON_H_
#define TIGRIS_API_MODEL_JSON_H_

#include <nlohmann/json.hpp>

#include "ir/graph.h"

namespace tigris::api {

// Summary fields (name, ops, op_types, tensors, dtype, inputs, outputs, weight_bytes) and,
// with `with_graph`, the full op and tensor lists under "graph".
nlohmann::ordered_json ModelToJson(const ir::Graph& graph, bool with_graph);

}  // namespace tigris::api

#endif  // TIGRIS_API_MODEL_JSON_H_
