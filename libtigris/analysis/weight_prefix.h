// Fast-arena bytes a residency unit reserves for its weights when they are not read in
// place (docs/plan-format.md, "Weights", "not xip"): before a normal or tiled stage, or
// the first stage of a chain, runs, the runtime copies (or LZ4-decompresses) the unit's
// constants into fast[0, prefix), and the stage's activations are laid out after them.
// The prefix holds each distinct constant the unit's ops read once, every one starting at
// a multiple of 16 (AlignUp), so its size is the sum of the constants' aligned sizes.
//
// Ops whose operands beyond input 0 are folded into attributes (Reshape shape, Clip bounds,
// Resize scales, Pad pads, ReduceMean axes, BatchNormalization statistics) reserve nothing
// for them: OperandsBecomeAttributes is the one list, and the emitter (emit/op_attrs.cc,
// TranslateAttrs) drops exactly those operands from the ops it writes.
#ifndef TIGRIS_ANALYSIS_WEIGHT_PREFIX_H_
#define TIGRIS_ANALYSIS_WEIGHT_PREFIX_H_

#include <cstdint>
#include <set>
#include <vector>

#include "ir/graph.h"

namespace tigris::analysis {

// True when the plan stores `type`'s operands after input 0 as attributes, not as inputs.
bool OperandsBecomeAttributes(ir::OpType type);

// The constants `op` reads from the weight store at run time, in operand order.
std::vector<ir::TensorId> ResidentConstants(const ir::Graph& graph, const ir::Op& op);

// The weight prefix of a unit under construction; copyable, so a caller can take an op
// back by restoring an earlier copy.
class WeightPrefix {
 public:
  void AddOp(const ir::Graph& graph, int op);
  int64_t bytes() const { return bytes_; }

 private:
  std::set<ir::TensorId> constants_;
  int64_t bytes_ = 0;
};

// Prefix bytes of the unit running `ops`.
int64_t WeightPrefixBytes(const ir::Graph& graph, const std::vector<int>& ops);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_WEIGHT_PREFIX_H_
