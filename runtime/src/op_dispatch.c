/*
 * op_dispatch.c: the op table (tgrs_ops.def) as a switch over op codes, one op function each.
 * Codes without a kernel (SPLIT), combinations the kernels do not cover, dtypes the build
 * left out and op codes it did not select (tgrs_op_select.h) are TGRS_ERR_UNSUPPORTED_OP;
 * tgrs_run reports the op index in tgrs_run_stats.failed_op.
 */
#include "ops_internal.h"

tgrs_status tgrs_op_reserved(tgrs_op_call* call) {
  (void)call;
  return TGRS_ERR_UNSUPPORTED_OP;
}

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
  /* TFLite's arithmetic left out of the build (TGRS_WITH_TFLITE_ROUNDING 0): an op that
   * asks for it is refused here, not computed in ONNX's. */
  if (!TGRS_WITH_TFLITE_ROUNDING && call->op.rounding == TGRS_ROUNDING_TFLITE) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* One case per row of the op table. A code the build did not select returns
   * TGRS_ERR_UNSUPPORTED_OP: its condition is the constant 0, the call is folded away (GCC
   * and Clang drop a constant conditional's dead arm even at -O0), no code names its op
   * function, and --gc-sections drops it with its kernels. A switch, not a table of
   * function pointers: unselected cases merge into the default, 190 B less Cortex-M
   * flash for a typical selection than a pointer per code. */
  switch (call->op.code) {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) \
  case CODE:                                     \
    return TGRS_OP_ON(NAME) ? FN(call) : TGRS_ERR_UNSUPPORTED_OP;
#include "tgrs_ops.def"
#undef TGRS_OP
    default:
      return TGRS_ERR_UNSUPPORTED_OP; /* a code out of range */
  }
}
