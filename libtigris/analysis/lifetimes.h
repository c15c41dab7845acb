// Lifetime analysis (tigris-compilation-pipeline.txt, stage 3).
//
// For every activation tensor: the execution step (op index) where it enters the fast
// arena and the last step where it must still be there. Constants live in flash and have
// no lifetime. The rules (docs/memory-model.md):
//  - a produced tensor is born at its producer's step;
//  - a graph input is born at the step of its first consumer (the stage that first reads
//    it copies it in from the caller's buffer);
//  - a tensor dies at its last consumer's step; a graph output lives to the last step
//    (it is written out of the arena at the end of the stage that produces it); a
//    tensor nobody reads dies where it is born (its producer still writes it).
// Intervals are inclusive: a tensor is live at every step s with birth <= s <= death, so
// an op's inputs and outputs are co-resident at its step.
#ifndef TIGRIS_ANALYSIS_LIFETIMES_H_
#define TIGRIS_ANALYSIS_LIFETIMES_H_

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace tigris::analysis {

struct Lifetime {
  ir::TensorId tensor = ir::kNoTensor;
  int birth = 0;      // op index
  int death = 0;      // op index, inclusive
  int64_t bytes = 0;  // payload bytes (unaligned)
};

// Payload bytes of an activation. Throws kUnsupportedDType for an unknown element type
// and kInvalidModel when the size overflows, naming the tensor.
int64_t ActivationBytes(const ir::Tensor& tensor);

// Lifetimes of every activation the ops touch, indexed by TensorId (entries of constants
// and unused tensors have tensor == kNoTensor). Throws kInvalidModel, naming the op and
// tensor, for an activation read before anything produces it.
std::vector<Lifetime> ComputeLifetimes(const ir::Graph& graph);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_LIFETIMES_H_
