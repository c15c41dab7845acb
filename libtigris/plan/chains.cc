#include "plan/chains.h"

#include "analysis/tileability.h"
#include "plan/row_tiling.h"

namespace tigris::plan {

std::string StageTileProblem(const ir::Graph& graph, const GraphFacts& facts, const Stage& stage) {
  std::string reason;
  if (!MakeTileLoop(graph, facts, stage.ops, &reason)) return reason;
  int spatial = 0;
  for (int op : stage.ops) {
    const auto t = analysis::ClassifyRowTiling(graph, graph.ops[static_cast<size_t>(op)]);
    if (t.kind == analysis::RowTileClass::kSpatial) ++spatial;
  }
  if (spatial > 1) {
    return "stage " + std::to_string(stage.id) + " has " + std::to_string(spatial) +
           " spatial ops; row tiling handles at most one per stage";
  }
  return "";
}

std::string ChainLinkProblem(const ir::Graph& graph, const GraphFacts& facts,
                             const std::vector<Stage>& stages, size_t first) {
  const Stage& a = stages.at(first);
  const Stage& b = stages.at(first + 1);
  const int a_last = a.ops.back();
  std::vector<ir::TensorId> outputs;
  for (int op : a.ops) {
    for (ir::TensorId out : graph.ops[static_cast<size_t>(op)].outputs) {
      if (!facts.IsActivation(out)) continue;
      const auto& readers = facts.consumers[static_cast<size_t>(out)];
      const bool read_later = !readers.empty() && readers.back() > a_last;
      if (read_later || facts.graph_output[static_cast<size_t>(out)]) outputs.push_back(out);
    }
  }
  const std::string where = "stage " + std::to_string(a.id);
  if (outputs.size() != 1) {
    return where + " has " + std::to_string(outputs.size()) + " output tensors, not one";
  }
  const ir::TensorId link = outputs[0];
  const std::string name = "'" + graph.tensor(link).name + "'";
  if (facts.graph_output[static_cast<size_t>(link)]) return name + " is a graph output";
  for (int reader : facts.consumers[static_cast<size_t>(link)]) {
    if (reader > a_last && (reader < b.ops.front() || reader > b.ops.back())) {
      return name + " fans out beyond stage " + std::to_string(b.id);
    }
  }
  const ir::Shape& shape = graph.tensor(link).shape;
  if (shape.size() != 4 || shape[2] < 2) {
    return name + " of shape " + ir::ShapeToString(shape) + " has no rows to tile";
  }
  return "";
}

}  // namespace tigris::plan
