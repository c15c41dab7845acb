#include "analysis/memory_timeline.h"

#include "analysis/alignment.h"
#include "analysis/kernel_scratch.h"

namespace tigris::analysis {

MemoryTimeline ComputeMemoryTimeline(const ir::Graph& graph,
                                     const std::vector<Lifetime>& lifetimes) {
  const size_t steps = graph.ops.size();
  // Difference array: +size at birth, -size after death; linear in tensors + steps.
  std::vector<int64_t> delta(steps + 1, 0);
  for (const Lifetime& life : lifetimes) {
    if (life.tensor == ir::kNoTensor) continue;
    const int64_t size = AlignUp(life.bytes);
    delta[static_cast<size_t>(life.birth)] += size;
    delta[static_cast<size_t>(life.death) + 1] -= size;
  }
  MemoryTimeline timeline;
  timeline.live_bytes.resize(steps, 0);
  int64_t live = 0;
  for (size_t s = 0; s < steps; ++s) {
    live += delta[s];
    const int64_t scratch = AlignUp(KernelScratchBytes(graph, graph.ops[s]));
    timeline.live_bytes[s] = live + scratch;
    if (timeline.live_bytes[s] > timeline.peak_bytes) {
      timeline.peak_bytes = timeline.live_bytes[s];
      timeline.peak_step = static_cast<int>(s);
    }
  }
  return timeline;
}

}  // namespace tigris::analysis
