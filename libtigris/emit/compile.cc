#include "emit/compile.h"

#include <string>

#include "plan/planner.h"
#include "plan/weight_residency.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

void RequireStagesFit(const ir::Graph& graph, const plan::PlanResult& result, int64_t fast) {
  for (const plan::Stage& stage : result.stages) {
    if (stage.fits) continue;
    std::string ops;
    for (int op : stage.ops) {
      ops += (ops.empty() ? "" : ", ") + graph.ops[static_cast<size_t>(op)].name;
    }
    std::string msg = "stage " + std::to_string(stage.id) + " (ops " + ops + ") needs " +
                      std::to_string(stage.peak_bytes) + " bytes of fast memory, budget " +
                      std::to_string(fast);
    for (const std::string& reason : stage.reasons) msg += "; " + reason;
    throw Error(Status::kDoesNotFit, msg);
  }
}

}  // namespace

CompiledPlan Compile(const ir::Graph& graph, const plan::Budget& budget,
                     const EmitOptions& options) {
  if (options.lz4 && options.xip) {
    throw Error(Status::kInvalidArgument,
                "LZ4-compressed weights cannot be executed in place: use xip = 0 with LZ4");
  }
  CompiledPlan out;
  // Without xip each stage's weights are copied into a prefix of the fast arena
  // (docs/memory-model.md), so the planner must leave room for them.
  plan::Budget planned = budget;
  planned.reserve_weights = !options.xip;
  out.result = plan::PlanModel(graph, planned);
  // The plan's own graph from here on: the planner may have rewritten its copy.
  RequireStagesFit(out.result.graph, out.result, budget.fast_bytes);
  if (options.xip && options.copy_where_faster) {
    plan::ChooseWeightCopies(out.result, budget.fast_bytes);
  }
  out.emitted = EmitPlan(out.result.graph, out.result, options);
  // The planner's prefix mirrors the emitter's (analysis/weight_prefix.cc); this check
  // stays as the safety net should the two ever disagree.
  for (const plan::Stage& stage : out.result.stages) {
    const int64_t reserved = out.emitted.stage_reserved_bytes[static_cast<size_t>(stage.id)];
    if (reserved + stage.peak_bytes > budget.fast_bytes) {
      throw Error(Status::kDoesNotFit,
                  "stage " + std::to_string(stage.id) + " needs " + std::to_string(reserved) +
                      " bytes of weights copied to fast memory (not xip) + " +
                      std::to_string(stage.peak_bytes) + " bytes of activations = " +
                      std::to_string(reserved + stage.peak_bytes) + " > fast budget " +
                      std::to_string(budget.fast_bytes) + " bytes; use xip or a larger budget");
    }
  }
  const int64_t size = static_cast<int64_t>(out.emitted.bytes.size());
  if (budget.flash_bytes > 0 && size > budget.flash_bytes) {
    throw Error(Status::kFlashBudgetTooSmall, "the plan is " + std::to_string(size) +
                                                  " bytes but the flash budget is " +
                                                  std::to_string(budget.flash_bytes) + " bytes");
  }
  return out;
}

}  // namespace tigris::emit
