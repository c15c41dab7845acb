#include "plan/weight_residency.h"

#include <algorithm>

#include "analysis/weight_prefix.h"

namespace tigris::plan {
namespace {

// Ops that walk their weights once per output position.
bool WalksWeightsPerPosition(ir::OpType type) {
  switch (type) {
    case ir::OpType::kConv:
    case ir::OpType::kDepthwiseConv:
    case ir::OpType::kConv1D:
    case ir::OpType::kConvTranspose:
    case ir::OpType::kGemm:
    case ir::OpType::kMatMul:
      return true;
    default:
      return false;
  }
}

// Output positions of `shape`: its elements over its channels (dimension 1 of an NCHW or
// NCL map, the last of a matrix).
int64_t Positions(const ir::Shape& shape) {
  if (shape.empty()) return 1;
  const int64_t channels = shape.size() >= 3 ? shape[1] : shape.back();
  return channels > 0 ? ir::NumElements(shape) / channels : 0;
}

}  // namespace

const char* WeightResidencyName(WeightResidency residency) {
  switch (residency) {
    case WeightResidency::kInPlace:
      return "in-place";
    case WeightResidency::kCopied:
      return "copied";
    case WeightResidency::kAuto:
      return "auto";
  }
  return "?";
}

int64_t WeightReads(const ir::Graph& graph, const ir::Op& op) {
  if (op.outputs.empty()) return 0;
  const ir::Shape& out = graph.tensor(op.outputs.front()).shape;
  int64_t reads = 0;
  for (ir::TensorId t : analysis::ResidentConstants(graph, op)) {
    const ir::Tensor& c = graph.tensor(t);
    const int64_t bytes = static_cast<int64_t>(c.data.size());
    const int64_t walks = WalksWeightsPerPosition(op.type)
                              ? Positions(out)
                              : ir::NumElements(out) / std::max<int64_t>(1, c.num_elements());
    reads += bytes * std::max<int64_t>(1, walks);
  }
  return reads;
}

void ChooseWeightCopies(PlanResult& result, int64_t fast_bytes) {
  const ir::Graph& graph = result.graph;
  size_t first = 0;
  while (first < result.stages.size()) {
    // The unit: this stage, or the run of stages sharing its chain.
    const int chain = result.stages[first].chain;
    size_t end = first + 1;
    while (chain >= 0 && end < result.stages.size() && result.stages[end].chain == chain) ++end;

    std::vector<int> ops;
    int64_t peak = 0;
    for (size_t s = first; s < end; ++s) {
      const Stage& stage = result.stages[s];
      ops.insert(ops.end(), stage.ops.begin(), stage.ops.end());
      peak = std::max(peak, stage.peak_bytes);
    }
    const int64_t prefix = analysis::WeightPrefixBytes(graph, ops);
    int64_t held = 0, reads = 0;
    std::vector<bool> seen(graph.tensors.size(), false);
    for (int op : ops) {
      const ir::Op& o = graph.ops[static_cast<size_t>(op)];
      for (ir::TensorId t : analysis::ResidentConstants(graph, o)) {
        if (seen[static_cast<size_t>(t)]) continue;
        seen[static_cast<size_t>(t)] = true;
        held += static_cast<int64_t>(graph.tensor(t).data.size());
      }
      reads += WeightReads(graph, o);
    }
    const bool fits = prefix + peak <= fast_bytes;
    const bool saves_reads = held > 0 && reads >= 2 * held;
    if (fits && saves_reads) {
      for (size_t s = first; s < end; ++s) {
        result.stages[s].copy_weights = true;
        result.stages[s].weight_bytes = prefix;
      }
    }
    first = end;
  }
}

}  // namespace tigris::plan
