// One arena for scratch and spills (issue 39, docs/memories.md "One RAM"): when the spills
// share the scratch arena's memory, the two need not sit side by side, each as large as its
// own peak. Stage s needs its fast bytes F(s) (weight prefix + activation peak) from the
// bottom of the arena; a spilled tensor's home must sit above F(s) of every stage it lives
// through and clear of every other home live at the same time. Placed that way (largest
// first, each at the lowest offset that allows), the plan needs one arena of
//
//   J = the highest end of any home, or max F(s) if higher,
//
// instead of max F + the slow arena's peak: the two peaks seldom fall on the same stage
// (MobileNetV1's early loops hold the large spills beside short strips, its late stages
// whole maps beside small spills).
//
// Nothing changes in the runtime: a slow home in the FAST region is a home like any other
// (tgrs_exec_home), its copies to and from stage buffers as before.
#ifndef TIGRIS_PLAN_JOINT_ARENA_H_
#define TIGRIS_PLAN_JOINT_ARENA_H_

#include "plan/plan.h"

namespace tigris::plan {

// Moves the slow homes into the fast arena as above and sets PlanResult::joint_arena_bytes
// to J (FastArenaBytes then reports it); slow_peak_bytes keeps the slow arena's peak, for
// reports. Does nothing to a plan without spills or already joined.
void JoinArenas(PlanResult& plan);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_JOINT_ARENA_H_
