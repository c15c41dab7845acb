/*
 * ops_scan.c: HARDMAX and CUMSUM (tgrs_ops.def), along attrs.axis of the runtime layout, on
 * whole tensors (kernels/scan.c).
 */
#include "ops_internal.h"

tgrs_status tgrs_op_scan(tgrs_op_call* call) {
  const tgrs_dtype dtype = call->in[0].tensor.dtype;
  const uint32_t rank = call->in[0].tensor.shape.count;
  const int32_t axis = tgrs_read_i32_(call->attrs, FB_ATTRS_AXIS, 0);
  tgrs_dims dims;
  tgrs_status st;
  if (call->tiled || call->num_inputs < 1 || call->in[0].data == NULL ||
      call->out[0].data == NULL || rank == 0 || rank > 4 || axis < 0 || (uint32_t)axis >= rank ||
      call->out[0].tensor.dtype != dtype ||
      tgrs_operand_count(&call->out[0]) != tgrs_operand_count(&call->in[0])) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &dims)) != TGRS_OK) return st;
  if (call->op.code == TGRS_OP_HARDMAX) {
    if (!(TGRS_WITH_FLOAT32 && dtype == TGRS_DTYPE_FLOAT32)) return TGRS_ERR_UNSUPPORTED_OP;
    return tgrs_kernel_result(
        call, tgrs_hardmax_f32(axis + (int32_t)(4 - rank), &dims, (const float*)call->in[0].data,
                               (float*)call->out[0].data));
  }
  {
    const char* mode = tgrs_read_string_(call->attrs, FB_ATTRS_MODE);
    const int both = tgrs_str_is(mode, "exclusive reverse");
    const int exclusive = both || tgrs_str_is(mode, "exclusive");
    const int reverse = both || tgrs_str_is(mode, "reverse");
    tgrs_elem_type type;
    if (TGRS_WITH_FLOAT32 && dtype == TGRS_DTYPE_FLOAT32) {
      type = TGRS_ELEM_F32;
    } else if (dtype == TGRS_DTYPE_INT32) {
      type = TGRS_ELEM_I32;
    } else if (dtype == TGRS_DTYPE_INT64) {
      type = TGRS_ELEM_I64;
    } else {
      return TGRS_ERR_UNSUPPORTED_OP;
    }
    return tgrs_kernel_result(
        call, tgrs_cumsum(type, axis + (int32_t)(4 - rank), exclusive, reverse, &dims,
                          call->in[0].data, call->out[0].data));
  }
}
