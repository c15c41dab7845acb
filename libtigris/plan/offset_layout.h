// Offsets of an arena's buffers, behind one interface (issue 13, item 1): every stage, tile
// loop, chain and the slow arena are laid out by LayOut. Two greedy algorithms, and the
// lower of their peaks is kept:
//   - first fit in order of birth (arena_allocator.h): each buffer at the lowest offset
//     free of the buffers it overlaps in time;
//   - greedy by size with best fit (TensorFlow Lite Micro's planner, with best fit):
//     buffers from the largest down, each into the smallest gap between the buffers it
//     overlaps in time that holds it, else on top of them.
// Neither is optimal; the live-bytes bound (the most bytes live at one step) is what both
// approach, and a layout that reaches it is optimal. With LayoutMode::kExact, a layout
// above its bound goes on to the MILP of exact_layout.h, within the plan's time limit.
#ifndef TIGRIS_PLAN_OFFSET_LAYOUT_H_
#define TIGRIS_PLAN_OFFSET_LAYOUT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "plan/arena_allocator.h"
#include "plan/buffer.h"

namespace tigris::plan {

enum class LayoutAlgorithm : uint8_t { kFirstFit = 0, kGreedyBySize, kExact };
std::string_view LayoutAlgorithmName(LayoutAlgorithm algorithm);  // "first_fit", ...

// What the user asks for (`--layout`, `--time-limit`).
enum class LayoutMode : uint8_t {
  kGreedy = 0,  // the lower of the two greedy layouts: fast, the default
  kExact,       // then the solver, for arenas above their live bound
};
std::string_view LayoutModeName(LayoutMode mode);  // "greedy", "exact"

struct LayoutOptions {
  LayoutMode mode = LayoutMode::kGreedy;
  // kExact: what all the solves of one plan may take together (> 0). PlanModel turns it
  // into `deadline`; an arena laid out after that keeps its greedy layout.
  double time_limit_seconds = 10.0;
  std::chrono::steady_clock::time_point deadline{};
  // Told about a solve still running after a second, and about its end (a line of text).
  std::function<void(const std::string&)> progress;
};

// How an arena was laid out and how good that is.
struct LayoutSummary {
  LayoutAlgorithm algorithm = LayoutAlgorithm::kFirstFit;
  int64_t live_bound_bytes = 0;   // LiveLowerBound: no layout needs less
  int64_t lower_bound_bytes = 0;  // the best proven bound: the live bound or the solver's
  bool optimal = false;           // the peak equals lower_bound_bytes: no layout needs less
};

struct Layout {
  std::vector<int64_t> offsets;  // one per interval, in their order
  int64_t peak_bytes = 0;        // highest offset + aligned size
  LayoutSummary summary;         // (algorithm only, from the single-algorithm functions)
};

// First fit in the given order (which must be by `first`).
Layout FirstFitLayout(const std::vector<Interval>& intervals);
// Greedy by size, best fit; ties in size go in the given order.
Layout GreedyBySizeLayout(const std::vector<Interval>& intervals);
// The lower peak of the two (first fit on a tie), with the live bound; with kExact, then the
// solver's if lower, until the peak reaches max(live bound, `good_enough_bytes`) or the
// deadline passes (no solve when `good_enough_bytes` > 0 is below the live bound: nothing
// reaches it). `intervals` must be ordered by `first`.
Layout LayOut(const std::vector<Interval>& intervals, const LayoutOptions& options = {},
              int64_t good_enough_bytes = 0);

// The most aligned bytes live at one step: no layout's peak is below it.
int64_t LiveLowerBound(const std::vector<Interval>& intervals);

// Lays out `buffers` (ordered by first_op) in `region` with LayOut: sets every home and
// returns the layout. Buffers homed in the pinned arena (plan/pinning.h) are left as they
// are: they are not in this arena. `layout.offsets` follows the others.
Layout LayOutBuffers(std::vector<Buffer>& buffers, MemoryRegion region,
                     const LayoutOptions& options = {}, int64_t good_enough_bytes = 0);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_OFFSET_LAYOUT_H_
