// Memory timeline (tigris-compilation-pipeline.txt, stage 4), corrected.
//
// The reference sweep frees a step's dying tensors before allocating its outputs, which
// undercounts: a kernel reads its inputs while it writes its outputs. Here a tensor is
// live at every step of its inclusive [birth, death] interval, so an op's inputs, its
// outputs and its kernel scratch all count at its step. Each buffer counts with its size
// rounded up to kArenaAlignment. The result is the live-bytes lower bound of a
// single-stage execution; its peak is the analysis' naive_peak_bytes.
#ifndef TIGRIS_ANALYSIS_MEMORY_TIMELINE_H_
#define TIGRIS_ANALYSIS_MEMORY_TIMELINE_H_

#include <cstdint>
#include <vector>

#include "analysis/lifetimes.h"
#include "ir/graph.h"

namespace tigris::analysis {

struct MemoryTimeline {
  std::vector<int64_t> live_bytes;  // per step (op index): aligned bytes live at it
  int64_t peak_bytes = 0;           // max of live_bytes
  int peak_step = 0;                // first step reaching the peak
};

// Single-stage timeline of `graph` from its lifetimes (ComputeLifetimes).
MemoryTimeline ComputeMemoryTimeline(const ir::Graph& graph,
                                     const std::vector<Lifetime>& lifetimes);

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_MEMORY_TIMELINE_H_
