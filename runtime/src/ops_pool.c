/*
 * ops_pool.c: MaxPool / AveragePool (row-windowed) and the global pools. int8 pools carry
 * one requantization s_in / s_out ({2^30, 1} when equal, docs/plan-format.md).
 */
#include "ops_internal.h"

/* Which of a pair of pool ops a call is. op_dispatch.c calls these functions only for the
 * codes the build selected (tgrs_op_select.h), so with one of the pair left out every call
 * is the other: a constant, and --gc-sections drops the left-out kernels. */
#if TGRS_OP_ON(MAX_POOL) && TGRS_OP_ON(AVERAGE_POOL)
#define IS_MAX_POOL(call) ((call)->op.code == TGRS_OP_MAX_POOL)
#else
#define IS_MAX_POOL(call) TGRS_OP_ON(MAX_POOL)
#endif
#if TGRS_OP_ON(GLOBAL_MAX_POOL) && TGRS_OP_ON(GLOBAL_AVERAGE_POOL)
#define IS_GLOBAL_MAX_POOL(call) ((call)->op.code == TGRS_OP_GLOBAL_MAX_POOL)
#else
#define IS_GLOBAL_MAX_POOL(call) TGRS_OP_ON(GLOBAL_MAX_POOL)
#endif

static int32_t attr_at(tgrs_i32s v, uint32_t i, int32_t fallback) {
  return i < v.count ? v.data[i] : fallback;
}

tgrs_status tgrs_op_pool(tgrs_op_call* call) {
  const tgrs_i32s kernel = tgrs_read_i32s_(call->attrs, FB_ATTRS_KERNEL);
  const tgrs_i32s strides = tgrs_read_i32s_(call->attrs, FB_ATTRS_STRIDES);
  const tgrs_i32s dilations = tgrs_read_i32s_(call->attrs, FB_ATTRS_DILATIONS);
  const tgrs_i32s pads = tgrs_read_i32s_(call->attrs, FB_ATTRS_PADS);
  const int is_max = IS_MAX_POOL(call);
  tgrs_pool_params p;
  tgrs_dims in, out;
  tgrs_status st;
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &out)) != TGRS_OK) {
    return st;
  }
  if (call->in[0].tensor.shape.count != 4 || kernel.count != 2) return TGRS_ERR_UNSUPPORTED_OP;
  p.kernel_h = kernel.data[0];
  p.kernel_w = kernel.data[1];
  p.stride_h = attr_at(strides, 0, 1);
  p.stride_w = attr_at(strides, 1, 1);
  p.dilation_h = attr_at(dilations, 0, 1);
  p.dilation_w = attr_at(dilations, 1, 1);
  p.pad_top = attr_at(pads, 0, 0);
  p.pad_left = attr_at(pads, 1, 0);
  p.pad_bottom = attr_at(pads, 2, 0);
  p.pad_right = attr_at(pads, 3, 0);
  p.count_include_pad = tgrs_read_flag_(call->attrs, FB_ATTRS_COUNT_INCLUDE_PAD, 0);
  if (call->columns) {
    /* A 2-D tile's column view: the left padding shifts with it, and only a view that
     * ends at the tensor's last column has the right padding after it. */
    p.pad_left = tgrs_call_pad_left(call, p.pad_left, p.stride_w);
    if (p.pad_left < 0) return TGRS_ERR_INCONSISTENT_PLAN;
    if ((int64_t)call->in[0].col_begin + in.w != tgrs_tensor_cols(&call->in[0].tensor)) {
      p.pad_right = 0;
    }
  }
  if (tgrs_call_is_s8(call)) {
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    const tgrs_requant rq = tgrs_call_requant(call);
    const int8_t* x = (const int8_t*)call->in[0].data;
    int8_t* y = (int8_t*)call->out[0].data;
    return tgrs_kernel_result(
        call, is_max ? tgrs_max_pool_s8(&p, &call->window, &q, &rq, &in, x, &out, y)
                     : tgrs_avg_pool_s8(&p, &call->window, &q, &rq, &in, x, &out, y));
  }
  if (tgrs_call_is_f32(call)) {
    const float* x = (const float*)call->in[0].data;
    float* y = (float*)call->out[0].data;
    st = tgrs_kernel_result(call, is_max ? tgrs_max_pool_f32(&p, &call->window, &in, x, &out, y)
                                         : tgrs_avg_pool_f32(&p, &call->window, &in, x, &out, y));
    if (st == TGRS_OK) tgrs_apply_act_f32(call, y, tgrs_operand_count(&call->out[0]));
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

/* A band of rows (a box of a 2-D loop) in a tile loop (docs/planning.md, "Banded
 * reductions"): the op's scratch, live for the whole loop, holds the per-channel
 * accumulators; the output row exists only in the box that ends at (H, W). */
static tgrs_status global_pool_band(tgrs_op_call* call, int is_max) {
  const tgrs_row_window* w = &call->window;
  const tgrs_operand* x = &call->in[0];
  tgrs_dims in;
  tgrs_pool_box box;
  tgrs_status st;
  int last;
  if ((st = tgrs_operand_dims(x, 0, &in)) != TGRS_OK) return st;
  in.w = tgrs_tensor_cols(&x->tensor); /* the whole tensor; the box says what is held */
  box.row_begin = w->in_row_begin;
  box.rows = w->in_rows;
  box.col_begin = x->col_begin;
  box.cols = x->cols;
  last = box.row_begin + box.rows == in.h && box.col_begin + box.cols == in.w;
  /* The output row comes with the last box, and only with it. */
  if (w->out_row_begin != 0 || w->out_row_end != (last ? 1 : 0) ||
      call->scratch_bytes < (size_t)in.n * (size_t)in.c * 4u || x->rows != w->in_rows ||
      tgrs_operand_count(&call->out[0]) != (last ? (size_t)in.n * (size_t)in.c : 0u)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    const tgrs_requant rq = tgrs_call_requant(call);
    return tgrs_kernel_result(
        call, tgrs_global_pool_band_s8(is_max, &q, &rq, &in, &box, (const int8_t*)x->data,
                                       (int32_t*)call->scratch, (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    float* y = (float*)call->out[0].data;
    st =
        tgrs_kernel_result(call, tgrs_global_pool_band_f32(is_max, &in, &box, (const float*)x->data,
                                                           (float*)call->scratch, y));
    if (st == TGRS_OK && last) tgrs_apply_act_f32(call, y, (size_t)in.n * (size_t)in.c);
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_global_pool(tgrs_op_call* call) {
  const int is_max = IS_GLOBAL_MAX_POOL(call);
  tgrs_dims in;
  tgrs_status st;
  if (call->tiled) return global_pool_band(call, is_max);
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK) return st;
  if (tgrs_operand_count(&call->out[0]) != (size_t)in.n * (size_t)in.c) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    const tgrs_requant rq = tgrs_call_requant(call);
    const int8_t* x = (const int8_t*)call->in[0].data;
    int8_t* y = (int8_t*)call->out[0].data;
    return tgrs_kernel_result(call, is_max ? tgrs_global_max_pool_s8(&q, &rq, &in, x, y)
                                           : tgrs_global_avg_pool_s8(&q, &rq, &in, x, y));
  }
  if (tgrs_call_is_f32(call)) {
    const float* x = (const float*)call->in[0].data;
    float* y = (float*)call->out[0].data;
    st = tgrs_kernel_result(
        call, is_max ? tgrs_global_max_pool_f32(&in, x, y) : tgrs_global_avg_pool_f32(&in, x, y));
    if (st == TGRS_OK) tgrs_apply_act_f32(call, y, tgrs_operand_count(&call->out[0]));
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
