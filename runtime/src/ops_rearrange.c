/*
 * ops_rearrange.c: TILE, EXPAND, DEPTH_TO_SPACE, SPACE_TO_DEPTH (tgrs_ops.def): byte copies
 * of whole tensors of any dtype (kernels/rearrange.c). The compiler keeps an int8 tensor's
 * quantization across them (requantize_split.cc), so a copy is the whole computation.
 */
#include "ops_internal.h"

tgrs_status tgrs_op_rearrange(tgrs_op_call* call) {
  const tgrs_op_code code = call->op.code;
  const size_t elem = tgrs_dtype_size(call->out[0].tensor.dtype);
  tgrs_dims in, out;
  tgrs_status st;
  if (call->num_inputs < 1 || call->in[0].data == NULL || call->out[0].data == NULL ||
      call->tiled) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (elem == 0 || call->in[0].tensor.dtype != call->out[0].tensor.dtype) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &out)) != TGRS_OK) {
    return st;
  }
  if (code == TGRS_OP_TILE || code == TGRS_OP_EXPAND) {
    /* One rank on both sides (the compiler lifts an Expand's lower-rank input), so the
     * runtime layout permutes both alike and the copy is per runtime axis. */
    if (call->in[0].tensor.shape.count != call->out[0].tensor.shape.count) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    return tgrs_kernel_result(call,
                              tgrs_tile(elem, &in, call->in[0].data, &out, call->out[0].data));
  }
  {
    const tgrs_i32s block = tgrs_read_i32s_(call->attrs, FB_ATTRS_KERNEL);
    int64_t b, area;
    int same, crd;
    if (block.count != 2 || block.data[0] != block.data[1] || block.data[0] < 1 ||
        block.data[0] > 4096 || call->in[0].tensor.shape.count != 4) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    b = block.data[0];
    area = b * b;
    /* The output's shape must be the one the copy writes (in int64: a plan's b may be big). */
    same = code == TGRS_OP_DEPTH_TO_SPACE
               ? out.n == in.n && out.h == in.h * b && out.w == in.w * b && out.c * area == in.c
               : out.n == in.n && out.h * b == in.h && out.w * b == in.w && out.c == in.c * area;
    if (!same) return TGRS_ERR_INCONSISTENT_PLAN;
    crd = tgrs_str_is(tgrs_read_string_(call->attrs, FB_ATTRS_MODE), "CRD");
    if (code == TGRS_OP_DEPTH_TO_SPACE) {
      return tgrs_kernel_result(call, tgrs_depth_to_space(elem, (int32_t)b, crd, &in,
                                                          call->in[0].data, call->out[0].data));
    }
    return tgrs_kernel_result(
        call, tgrs_space_to_depth(elem, (int32_t)b, crd, &in, call->in[0].data, call->out[0].data));
  }
}
