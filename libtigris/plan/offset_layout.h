// Offsets of an arena's buffers, behind one interface (issue 13, item 1): every stage, tile
// loop, chain and the slow arena are laid out by LayOut. Two greedy algorithms, and the
// lower of their peaks is kept:
//   - first fit in order of birth (arena_allocator.h): each buffer at the lowest offset
//     free of the buffers it overlaps in time;
//   - greedy by size with best fit (TensorFlow Lite Micro's planner, with best fit):
//     buffers from the largest down, each into the smallest gap between the buffers it
//     overlaps in time that holds it, else on top of them.
// Neither is optimal; the live-bytes bound (the most bytes live at one step) is what both
// approach, and a layout that reaches it is optimal. An exact layout (a solver) can be a
// third entry here.
#ifndef TIGRIS_PLAN_OFFSET_LAYOUT_H_
#define TIGRIS_PLAN_OFFSET_LAYOUT_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "plan/arena_allocator.h"
#include "plan/buffer.h"

namespace tigris::plan {

enum class LayoutAlgorithm : uint8_t { kFirstFit = 0, kGreedyBySize };
std::string_view LayoutAlgorithmName(LayoutAlgorithm algorithm);  // "first_fit", ...

struct Layout {
  std::vector<int64_t> offsets;  // one per interval, in their order
  int64_t peak_bytes = 0;        // highest offset + aligned size
  LayoutAlgorithm algorithm = LayoutAlgorithm::kFirstFit;
  int64_t live_bound_bytes = 0;  // LiveLowerBound of the intervals (LayOut only)
};

// First fit in the given order (which must be by `first`).
Layout FirstFitLayout(const std::vector<Interval>& intervals);
// Greedy by size, best fit; ties in size go in the given order.
Layout GreedyBySizeLayout(const std::vector<Interval>& intervals);
// The lower peak of the two (first fit on a tie), with the live bound. `intervals` must be
// ordered by `first`.
Layout LayOut(const std::vector<Interval>& intervals);

// The most aligned bytes live at one step: no layout's peak is below it.
int64_t LiveLowerBound(const std::vector<Interval>& intervals);

// Lays out `buffers` (ordered by first_op) in `region` with LayOut: sets every home and
// returns the layout (offsets and algorithm).
Layout LayOutBuffers(std::vector<Buffer>& buffers, MemoryRegion region);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_OFFSET_LAYOUT_H_
