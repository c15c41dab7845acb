// Facts about a graph that every planning step reads, computed once per PlanModel call.
#ifndef TIGRIS_PLAN_GRAPH_FACTS_H_
#define TIGRIS_PLAN_GRAPH_FACTS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "analysis/lifetimes.h"
#include "ir/graph.h"

namespace tigris::plan {

struct GraphFacts {
  std::vector<analysis::Lifetime> lifetimes;  // by TensorId (analysis/lifetimes.h)
  std::vector<int> producer;                  // by TensorId: op index, -1 if none
  std::vector<std::vector<int>> consumers;    // by TensorId: op indices in order
  std::vector<bool> graph_output;             // by TensorId
  std::vector<bool> pinned;                   // by TensorId: named in Budget::pinned
  std::vector<int64_t> scratch_bytes;         // by op: analysis/kernel_scratch.h
  // Activation inputs of each op, each once, in operand order.
  std::vector<std::vector<ir::TensorId>> activation_inputs;

  bool IsActivation(ir::TensorId id) const {
    return id != ir::kNoTensor && lifetimes[static_cast<size_t>(id)].tensor != ir::kNoTensor;
  }
};

// `pinned`: Budget::pinned (tensor names), or none.
GraphFacts ComputeGraphFacts(const ir::Graph& graph, const std::set<std::string>* pinned = nullptr);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_GRAPH_FACTS_H_
