/*
 * op_dispatch.c: the op table (tgrs_ops.def) as a table of op functions, one per op code.
 * Codes without a kernel (SPLIT), combinations the kernels do not cover, dtypes the build
 * left out and op codes it did not select (tgrs_op_select.h) are TGRS_ERR_UNSUPPORTED_OP;
 * tgrs_run reports the op index in tgrs_run_stats.failed_op.
 */
#include "ops_internal.h"

tgrs_status tgrs_op_reserved(tgrs_op_call* call) {
  (void)call;
  return TGRS_ERR_UNSUPPORTED_OP;
}

/* An op function of a code the build did not select is not named here, so nothing
 * references it and --gc-sections drops it with its kernels. The selection is a constant
 * expression, folded in the initializer at any optimization level. */
static tgrs_status (*const op_fns[TGRS_OP_CODE_COUNT])(tgrs_op_call*) = {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) [CODE] = TGRS_OP_ON(NAME) ? FN : NULL,
#include "tgrs_ops.def"
#undef TGRS_OP
};

tgrs_status tgrs_exec_op(tgrs_op_call* call) {
  uint32_t i;
  for (i = 0; i < call->num_outputs; ++i) {
    if (call->out[i].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (call->num_inputs == 0 || call->in[0].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  /* A build without one dtype (TGRS_WITH_*, tigris_executor.h) refuses every op touching
   * it, byte movers and QuantizeLinear included, so the first such op is the one named.
   * With both dtypes the test is constant 0 and the loops compile to nothing. */
  for (i = 0; i < call->num_inputs; ++i) {
    if (tgrs_dtype_left_out(call->in[i].tensor.dtype)) return TGRS_ERR_UNSUPPORTED_OP;
  }
  for (i = 0; i < call->num_outputs; ++i) {
    if (tgrs_dtype_left_out(call->out[i].tensor.dtype)) return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((unsigned)call->op.code >= TGRS_OP_CODE_COUNT || op_fns[call->op.code] == NULL) {
    return TGRS_ERR_UNSUPPORTED_OP; /* a code left out, or one out of range */
  }
  return op_fns[call->op.code](call);
}
