// Pinned tensors: single scratch tensors that placement rules put in a memory other than the
// fast arena's (tensor-memory-attributes.txt, example 2: all scratch in PSRAM except two hot
// buffers in DTCM; docs/memories.md, "Pinned tensors").
//
// The planner's normal stages hold pinned tensors (Budget::pinned) outside the fast arena,
// so they count against no fast budget; PinTensors, the planner's last phase (or a caller's
// on a finished plan), then gives each pinned tensor, whole and for its whole life, a home
// in one more arena, the pinned arena:
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
// refuses it, naming the tensor and the stage. Pinning a pinned plan again changes nothing.
#ifndef TIGRIS_PLAN_PINNING_H_
#define TIGRIS_PLAN_PINNING_H_

#include <string>
#include <utility>
#include <vector>

#include "ir/tensor.h"
#include "plan/plan.h"
#include "util/error.h"

namespace tigris::plan {

// What PinTensors throws for a tensor it cannot pin (kInvalidArgument), naming it so a
// caller can say which rule asked for it.
class UnpinnableTensor : public Error {
 public:
  UnpinnableTensor(std::string tensor, const std::string& message)
      : Error(Status::kInvalidArgument, message), tensor_(std::move(tensor)) {}
  const std::string& tensor() const { return tensor_; }

 private:
  std::string tensor_;
};

// Pins `tensors` (of plan.graph) as above, setting plan.pinned_peak_bytes, and checks the
// result (plan_check.h). Throws UnpinnableTensor for a constant, and for a tensor held only
// in tiles or not at all (no op reads or writes it).
void PinTensors(PlanResult& plan, const std::vector<ir::TensorId>& tensors);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_PINNING_H_
