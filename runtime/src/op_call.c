/*
 * op_call.c: reading one op of the plan into a tgrs_op_call, and resolving its constant
 * operands. The stage runners (stage_normal.c, stage_tiled.c) place the activations.
 */
#include <string.h>

#include "exec_internal.h"
#include "fb_read.h"
#include "plan_internal.h"

tgrs_status tgrs_op_call_begin(tgrs_exec* ex, uint32_t index, tgrs_op_call* call) {
  memset(call, 0, sizeof *call);
  call->ex = ex;
  call->index = index;
  call->table = tgrs_vec_table_(ex->plan->ops_, index);
  if (call->table == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  /* The fields every op reads; the others and the attributes where an op reads them. */
  tgrs_read_op_core_(call->table, &call->op);
  call->attrs = tgrs_read_table_(call->table, FB_OP_ATTRS);
  if (call->op.inputs.count > TGRS_EXEC_MAX_OPERANDS ||
      call->op.outputs.count > TGRS_EXEC_MAX_OUTPUTS || call->op.outputs.count == 0) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  call->num_inputs = call->op.inputs.count;
  call->num_outputs = call->op.outputs.count;
  return TGRS_OK;
}

int tgrs_op_call_constant(tgrs_op_call* call, tgrs_operand* operand, int32_t tensor) {
  memset(operand, 0, sizeof *operand);
  operand->index = tensor;
  if (tensor < 0) return 1; /* an absent optional input */
  if (tgrs_plan_get_tensor(call->ex->plan, (uint32_t)tensor, &operand->tensor) != TGRS_OK) {
    return -1;
  }
  operand->rows = tgrs_tensor_rows(&operand->tensor);
  operand->cols = tgrs_tensor_cols(&operand->tensor);
  operand->chans = tgrs_tensor_chans(&operand->tensor);
  if (operand->tensor.weight < 0) return 0;
  operand->data = (void*)(uintptr_t)tgrs_exec_weight(call->ex, &operand->tensor);
  return operand->data != NULL ? 1 : -1;
}
