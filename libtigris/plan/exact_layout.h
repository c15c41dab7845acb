// An exact arena layout: the MILP of the FDT paper (../shared/reference/
// fused-depthwise-tiling-paper.txt, section 4.2, eq. 1-3), solved by COIN-OR CBC under a
// time limit (docs/memory-model.md, "Exact layout", says why CBC).
//
//   minimise  P
//   s.t.      o_i + s_i <= P                                  every buffer i   (eq. 1, 2)
//             o_i + s_i <= o_j  or  o_j + s_j <= o_i          every pair live at one step (eq. 3)
//
// with offsets o_i >= 0 and sizes s_i in units of the arena alignment. The disjunction is a
// binary per pair and the big-M method, M being the starting layout's peak. The starting
// layout (a greedy one) is given to the solver as its first incumbent, so the result is
// never worse than it, and the peak's lower bound is raised to `floor_bytes` (at least the
// live-bytes bound): a layout reaching it is proven optimal at once, and the solve stops.
#ifndef TIGRIS_PLAN_EXACT_LAYOUT_H_
#define TIGRIS_PLAN_EXACT_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "plan/arena_allocator.h"

namespace tigris::plan {

struct ExactLayoutResult {
  std::vector<int64_t> offsets;  // one per interval; the start's when the solver found no better
  int64_t peak_bytes = 0;
  // No layout of these intervals needs fewer bytes: the live-bytes bound, raised to the
  // solver's proven bound when the floor was the live bound. Equal to peak_bytes when
  // `optimal`.
  int64_t lower_bound_bytes = 0;
  bool optimal = false;             // proven: peak_bytes == lower_bound_bytes
  bool reached_floor = false;       // peak_bytes <= floor_bytes
  bool time_limit_reached = false;  // the solver stopped on `seconds`, not on a proof
};

// Solves the layout of `intervals` (ordered by `first`) starting from a valid layout
// (`start_offsets`, `start_peak`). `floor_bytes` is a peak low enough to stop at (the live
// bound, or a budget: a layout within it is good enough); `seconds` bounds the solve
// (> 0). The returned offsets are checked: two buffers live at one step never share a byte.
ExactLayoutResult SolveExactLayout(const std::vector<Interval>& intervals,
                                   const std::vector<int64_t>& start_offsets, int64_t start_peak,
                                   int64_t floor_bytes, double seconds);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_EXACT_LAYOUT_H_
