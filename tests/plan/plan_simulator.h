// The plan checks of the test suite: plan::CheckPlan (libtigris/plan/plan_check.h), the
// brute-force replay every plan passes before the library returns it, reported as gtest
// failures. It began here as the tests' own simulator; issue 11 moved it into the library
// so that every plan is checked, not only the ones the tests make.
#ifndef TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_
#define TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_

#include <gtest/gtest.h>

#include <string>

#include "ir/graph.h"
#include "plan/plan.h"
#include "plan/plan_check.h"

namespace tigris::testing {

inline void ExpectTileRowsConsistent(const ir::Graph& g, const plan::TilePlan& tile) {
  for (const std::string& defect : plan::CheckTileLoop(g, tile)) ADD_FAILURE() << defect;
}

// Replays `p` on its own graph (PlanResult::graph: rewritten and reordered by the
// planner, so its op indices are the plan's).
inline void ExpectPlanReplays(const plan::PlanResult& p) {
  for (const std::string& defect : plan::CheckPlan(p.graph, p)) ADD_FAILURE() << defect;
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_PLAN_PLAN_SIMULATOR_H_
