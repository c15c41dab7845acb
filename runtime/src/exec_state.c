/*
 * exec_state.c: what the stage runners ask of a run in progress (exec_internal.h): the
 * first failing op, graph input/output positions, slow homes, the observer. Apart from
 * executor.c, which calls the stage runners (stage_normal.c, stage_tiled.c), so that they
 * and the executor do not depend on each other (tests/runtime/check_runtime_objects.py).
 */
#include "exec_internal.h"
#include "plan_internal.h"

tgrs_status tgrs_exec_fail(tgrs_exec* ex, tgrs_status status, int32_t op) {
  if (ex->stats->failed_op < 0) ex->stats->failed_op = op;
  return status;
}

static int32_t find_index(tgrs_i32s list, int32_t tensor) {
  uint32_t i;
  for (i = 0; i < list.count; ++i) {
    if (list.data[i] == tensor) return (int32_t)i;
  }
  return -1;
}

int32_t tgrs_exec_graph_input(const tgrs_exec* ex, int32_t tensor) {
  return find_index(tgrs_plan_inputs(ex->plan), tensor);
}

int32_t tgrs_exec_graph_output(const tgrs_exec* ex, int32_t tensor) {
  return find_index(tgrs_plan_outputs(ex->plan), tensor);
}

int tgrs_exec_slow_home(const tgrs_exec* ex, int32_t tensor, tgrs_home* out) {
  tgrs_plan_buffer b;
  if (!tgrs_find_buffer_(ex->plan->slow_buffers_, -1, tensor, TGRS_ANY_STEP, ~0u, &b)) return 0;
  *out = b.home;
  return 1;
}

void tgrs_exec_report(const tgrs_op_call* call) {
  if (call->ex->observer != NULL) call->ex->observer->report(call);
}
