#include "plan/graph_facts.h"

#include <algorithm>

#include "analysis/kernel_scratch.h"

namespace tigris::plan {

GraphFacts ComputeGraphFacts(const ir::Graph& graph, const std::set<std::string>* pinned) {
  GraphFacts facts;
  facts.lifetimes = analysis::ComputeLifetimes(graph);
  facts.producer = graph.ProducerIndex();
  facts.consumers = graph.ConsumerIndex();
  facts.graph_output.assign(graph.tensors.size(), false);
  for (ir::TensorId id : graph.outputs) {
    if (id != ir::kNoTensor) facts.graph_output[static_cast<size_t>(id)] = true;
  }
  facts.pinned.assign(graph.tensors.size(), false);
  for (size_t i = 0; pinned != nullptr && i < graph.tensors.size(); ++i) {
    facts.pinned[i] = facts.IsActivation(static_cast<ir::TensorId>(i)) &&
                      pinned->count(graph.tensors[i].name) > 0;
  }
  facts.scratch_bytes.reserve(graph.ops.size());
  facts.activation_inputs.resize(graph.ops.size());
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    facts.scratch_bytes.push_back(analysis::KernelScratchBytes(graph, op));
    auto& inputs = facts.activation_inputs[i];
    for (ir::TensorId in : op.inputs) {
      if (!facts.IsActivation(in)) continue;
      if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
    }
  }
  return facts;
}

}  // namespace tigris::plan
