// `tigris inspect PLAN... --ops-header OUT.h`: the op-selection header of a set of plans
// (runtime/include/tgrs_op_select.h, docs/runtime.md "Selecting ops").
#ifndef TIGRIS_CLI_OPS_HEADER_H_
#define TIGRIS_CLI_OPS_HEADER_H_

#include <string>
#include <vector>

#include "inspect_plan.h"

namespace tigris::cli {

// The header's text: TGRS_OPS_SELECTED 1, TGRS_WITH_OP_<CODE> 1 for every op code any of
// `plans` holds, and TGRS_WITH_FLOAT32 / TGRS_WITH_INT8 0 for a dtype none of their
// tensors has (never both).
std::string OpsHeader(const std::vector<const LoadedPlan*>& plans);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_OPS_HEADER_H_
