// Pinned tensors: single scratch tensors that placement rules put in a memory other than the
// fast arena's (tensor-memory-attributes.txt, example 2: all scratch in PSRAM except two hot
// buffers in DTCM; docs/memories.md, "Pinned tensors").
//
// The planner plans with every activation in the fast arena. PinTensors then moves each
// pinned tensor, whole and for its whole life, into one more arena, the pinned arena:
//  - the tensor gets one home there, live from the first op of the first stage holding it
//    to the last op of the last one; homes are laid out by LayOut over those intervals;
//  - its buffers in normal stages and its home between stages (a SlowBuffer) both become
//    that home, so the kernels read and write it in place, and reloading or spilling it
//    between normal stages copies nothing; a tile loop copies its rows to and from it as
//    it does with a slow home;
//  - each normal stage it left, and the slow arena, are laid out again without it, so the
//    fast and slow peaks only go down; traffic loses the copies that are no longer made.
// A tensor the plan never holds whole (an intermediate of a tile loop, or a graph input or
// output that tile loops read from or write to the caller) cannot be pinned: the pass
// refuses it, naming the tensor and the stage.
#ifndef TIGRIS_PLAN_PINNING_H_
#define TIGRIS_PLAN_PINNING_H_

#include <vector>

#include "ir/tensor.h"
#include "plan/plan.h"

namespace tigris::plan {

// Pins `tensors` (of plan.graph) as above, setting plan.pinned_peak_bytes, and checks the
// result (plan_check.h). Throws Error(kInvalidArgument) for a tensor held only in tiles or
// not at all (a constant, or a tensor no op reads or writes).
void PinTensors(PlanResult& plan, const std::vector<ir::TensorId>& tensors);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PINNING_H_
