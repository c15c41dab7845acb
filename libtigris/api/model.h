// The object behind the opaque tigris_model handle.
#ifndef TIGRIS_API_MODEL_H_
#define TIGRIS_API_MODEL_H_

#include <string>

#include "ir/graph.h"

struct tigris_model {
  tigris::ir::Graph graph;  // normalized and verified
  std::string last_error;   // tigris_model_last_error
  std::string json;         // tigris_model_json, built on first request
};

#endif  // TIGRIS_API_MODEL_H_
