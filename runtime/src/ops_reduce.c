/*
 * ops_reduce.c: the reductions of the op table's REDUCE kind (REDUCE_MEAN, REDUCE_SUM ...
 * REDUCE_LOG_SUM_EXP, ARG_MAX, ARG_MIN; tgrs_ops.def) over attrs.axes, never inside a tile
 * loop.
 */
#include "ops_internal.h"

static tgrs_reduce_kind reduce_kind(tgrs_op_code code) {
  switch (code) {
    case TGRS_OP_REDUCE_MEAN:
      return TGRS_REDUCE_MEAN;
    case TGRS_OP_REDUCE_MAX:
      return TGRS_REDUCE_MAX;
    case TGRS_OP_REDUCE_MIN:
      return TGRS_REDUCE_MIN;
    case TGRS_OP_REDUCE_PROD:
      return TGRS_REDUCE_PROD;
    case TGRS_OP_REDUCE_L1:
      return TGRS_REDUCE_L1;
    case TGRS_OP_REDUCE_L2:
      return TGRS_REDUCE_L2;
    case TGRS_OP_REDUCE_SUM_SQUARE:
      return TGRS_REDUCE_SUM_SQUARE;
    case TGRS_OP_REDUCE_LOG_SUM_EXP:
      return TGRS_REDUCE_LOG_SUM_EXP;
    case TGRS_OP_REDUCE_LOG_SUM:
      return TGRS_REDUCE_LOG_SUM;
    default:
      return TGRS_REDUCE_SUM;
  }
}

/* ArgMax / ArgMin: one axis, float32 or int8 in, int64 (ONNX) or int32 (TFLite) indices out. */
static tgrs_status arg_extreme(tgrs_op_call* call, uint32_t rank, const tgrs_i32s axes) {
  const tgrs_dtype in = call->in[0].tensor.dtype;
  const int int8 = TGRS_WITH_INT8 && in == TGRS_DTYPE_INT8;
  tgrs_dims dims;
  tgrs_status st;
  const tgrs_dtype out = call->out[0].tensor.dtype;
  if (axes.count != 1 || axes.data[0] < 0 || (uint32_t)axes.data[0] >= rank ||
      (out != TGRS_DTYPE_INT64 && out != TGRS_DTYPE_INT32)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (!int8 && !(TGRS_WITH_FLOAT32 && in == TGRS_DTYPE_FLOAT32)) return TGRS_ERR_UNSUPPORTED_OP;
  if ((st = tgrs_operand_dims(&call->in[0], 0, &dims)) != TGRS_OK) return st;
  {
    /* One index per position of the other dims. */
    const int32_t d[4] = {dims.n, dims.h, dims.w, dims.c};
    const int32_t axis = axes.data[0] + (int32_t)(4 - rank);
    if (tgrs_operand_count(&call->out[0]) * (size_t)d[axis] != tgrs_operand_count(&call->in[0])) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    return tgrs_kernel_result(
        call, tgrs_arg_extreme(call->op.code == TGRS_OP_ARG_MAX,
                               tgrs_str_is(tgrs_read_string_(call->attrs, FB_ATTRS_MODE), "last"),
                               int8, axis, &dims, call->in[0].data, out == TGRS_DTYPE_INT32,
                               call->out[0].data));
  }
}

tgrs_status tgrs_op_reduce(tgrs_op_call* call) {
  const tgrs_reduce_kind kind = reduce_kind(call->op.code);
  const uint32_t rank = call->in[0].tensor.shape.count;
  const tgrs_i32s axes = tgrs_read_i32s_(call->attrs, FB_ATTRS_AXES);
  uint32_t mask = 0, i;
  tgrs_dims in;
  tgrs_status st;
  if (call->tiled || rank == 0 || rank > 4) return TGRS_ERR_UNSUPPORTED_OP;
  if (call->op.code == TGRS_OP_ARG_MAX || call->op.code == TGRS_OP_ARG_MIN) {
    return arg_extreme(call, rank, axes);
  }
  for (i = 0; i < axes.count; ++i) {
    const int32_t a = axes.data[i];
    if (a < 0 || (uint32_t)a >= rank) return TGRS_ERR_INCONSISTENT_PLAN;
    mask |= 1u << (uint32_t)(a + (int32_t)(4 - rank));
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK) return st;
  {
    /* The kernels write the values the reduction leaves: the kept axes' product. */
    const int32_t d[4] = {in.n, in.h, in.w, in.c};
    size_t kept = 1;
    for (i = 0; i < 4; ++i) {
      if (!(mask & (1u << i))) kept *= (size_t)d[i];
    }
    if (tgrs_operand_count(&call->out[0]) != kept) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_f32(call)) {
    return tgrs_kernel_result(call, tgrs_reduce_f32(kind, mask, &in, (const float*)call->in[0].data,
                                                    (float*)call->out[0].data));
  }
  if (tgrs_call_is_s8(call)) {
    /* int8 SUM, MEAN, MAX and MIN (tgrs_reduce_s8 refuses the others; the compiler does
     * first, passes/runtime_forms.cc). The one s_in / s_out requantization the emitter stores
     * (docs/plan-format.md "int8 fields"). Without it the plan is inconsistent: computing it here
     * would link soft double arithmetic into every Cortex-M4 build, and the identity would be
     * silently wrong. A mean over H, W is the global average pool (tgrs_kernels.h op map), whose
     * loop runs along channels; both round once, the same way. */
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    const int8_t* x = (const int8_t*)call->in[0].data;
    int8_t* y = (int8_t*)call->out[0].data;
    tgrs_requant rq;
    if (call->op.output_multiplier.count != 1 || call->op.output_shift.count != 1) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    rq = tgrs_call_requant(call);
    /* TFLite's MEAN is not its average pool: tgrs_reduce_s8 applies the requantization the
     * compiler folded 1/count into. */
    return tgrs_kernel_result(call, kind == TGRS_REDUCE_MEAN && rank == 4 && mask == 6u &&
                                            q.rounding != TGRS_ROUNDING_TFLITE
                                        ? tgrs_global_avg_pool_s8(&q, &rq, &in, x, y)
                                        : tgrs_reduce_s8(kind, mask, &q, &rq, &in, x, y));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
