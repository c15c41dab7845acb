/*
 * ops_dense.c: Gemm and MatMul. Gemm and MatMul with a constant B are a fully connected
 * layer over B stored [N, K] (docs/plan-format.md "Weights"), a Gemm in a tile loop one
 * band of its input map at a time; MatMul of two activations (rank <= 2) is tgrs_matmul_*,
 * any other MatMul tgrs_matmul_strided_*.
 */
#include "ops_internal.h"

#if TGRS_WITH_GEMM_PARTS
/* One part of an int8 Gemm whose input dimension the planner split (fdt-fan-out-fan-in,
 * docs/planning.md): int8 in, and either int32 out (the part's raw sums) or, for the last
 * part, int8 out from an int32 C that holds the parts before (the Merge). */
static int is_gemm_part(const tgrs_op_call* call) {
  const int sums_in = call->num_inputs > 2 && call->in[2].data != NULL &&
                      call->in[2].tensor.weight < 0 && call->in[2].tensor.dtype == TGRS_DTYPE_INT32;
  return TGRS_WITH_INT8 && call->in[0].tensor.dtype == TGRS_DTYPE_INT8 &&
         (call->out[0].tensor.dtype == TGRS_DTYPE_INT32 ||
          (sums_in && call->out[0].tensor.dtype == TGRS_DTYPE_INT8));
}

/* C is the bias (a constant [N]) on the first part, the running int32 sums [batch, N] (an
 * activation) after it. */
static tgrs_status fully_connected_part(tgrs_op_call* call, int32_t batch, int32_t k,
                                        int32_t n_out) {
  const tgrs_operand* c = call->num_inputs > 2 && call->in[2].data != NULL ? &call->in[2] : NULL;
  const int c_is_sums = c != NULL && c->tensor.weight < 0;
  const int raw = call->out[0].tensor.dtype == TGRS_DTYPE_INT32;
  tgrs_per_channel_quant pcq = {NULL, NULL, 0u, NULL, 0u};
  const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
  tgrs_status st = TGRS_OK;
  if (c != NULL && (c->tensor.dtype != TGRS_DTYPE_INT32 ||
                    tgrs_operand_count(c) != (size_t)(c_is_sums ? batch : 1) * (size_t)n_out)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (!raw) st = tgrs_call_pcq(call, n_out, &pcq);
  if (st == TGRS_OK) st = tgrs_call_filter_zp(call, n_out, &pcq);
  if (st != TGRS_OK) return st;
  return tgrs_kernel_result(
      call, tgrs_fully_connected_part_s8(&q, &pcq, batch, k, n_out, (const int8_t*)call->in[0].data,
                                         (const int8_t*)call->in[1].data,
                                         c != NULL && !c_is_sums ? (const int32_t*)c->data : NULL,
                                         c_is_sums ? (const int32_t*)c->data : NULL,
                                         raw ? (int32_t*)call->out[0].data : NULL,
                                         raw ? NULL : (int8_t*)call->out[0].data));
}
#endif

static tgrs_status fully_connected(tgrs_op_call* call, const tgrs_operand* bias) {
  const tgrs_operand* x = &call->in[0];
  const tgrs_operand* w = &call->in[1];
  const size_t count = tgrs_operand_count(x);
  int32_t k, n_out, batch;
  if (x->tensor.shape.count == 0 || w->tensor.shape.count != 2 || w->data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  /* K from the weights: x is [batch, K], or a [batch, H, W, C] map whose Flatten
   * normalization folded into the Gemm (gemm-flatten-fold: B's columns are in the map's
   * H, W, C order), so each batch row is K contiguous values. */
  k = w->tensor.shape.data[1];
  n_out = w->tensor.shape.data[0];
  if (k <= 0 || count % (size_t)k != 0 ||
      (x->tensor.shape.data[x->tensor.shape.count - 1] != k &&
       (x->tensor.shape.count != 4 || count / (size_t)x->tensor.shape.data[0] != (size_t)k))) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  batch = (int32_t)(count / (size_t)k);
  if (tgrs_operand_count(&call->out[0]) != (size_t)batch * (size_t)n_out) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
#if TGRS_WITH_GEMM_PARTS
  if (is_gemm_part(call)) return fully_connected_part(call, batch, k, n_out);
#endif
  /* Without GEMM parts (tgrs_op_select.h), a part writing INT32 is neither int8 nor float32
   * below: TGRS_ERR_UNSUPPORTED_OP, so a split plan fails at its first part. */
  if (bias != NULL && tgrs_operand_count(bias) != (size_t)n_out) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    tgrs_status st = tgrs_call_pcq(call, n_out, &pcq);
    if (st == TGRS_OK) st = tgrs_call_filter_zp(call, n_out, &pcq);
    if (st != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_fully_connected_s8(
                  &q, &pcq, batch, k, n_out, (const int8_t*)x->data, (const int8_t*)w->data,
                  bias ? (const int32_t*)bias->data : NULL, (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    tgrs_act_f32 storage;
    return tgrs_kernel_result(
        call, tgrs_fully_connected_f32(tgrs_call_act_f32(call, &storage), batch, k, n_out,
                                       (const float*)x->data, (const float*)w->data,
                                       bias ? (const float*)bias->data : NULL,
                                       (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

#if TGRS_WITH_GEMM_BANDS
/* A band of a Gemm's input map in a tile loop (the planner's gemm-as-banded-reduction,
 * docs/planning.md "Banded reductions"): the op's scratch, live for the whole loop, holds
 * the [N, M] accumulators; the output row exists only in the box that ends at (H, W), as
 * for a global pool (ops_pool.c). */
static tgrs_status fully_connected_band(tgrs_op_call* call, const tgrs_operand* bias) {
  const tgrs_row_window* win = &call->window;
  const tgrs_operand* x = &call->in[0];
  const tgrs_operand* w = &call->in[1];
  tgrs_dims in;
  tgrs_pool_box box;
  tgrs_status st;
  int32_t n_out;
  int last;
  if (x->tensor.shape.count != 4 || w->tensor.shape.count != 2 || w->data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = tgrs_operand_dims(x, 0, &in)) != TGRS_OK) return st;
  in.w = tgrs_tensor_cols(&x->tensor); /* the whole map; the box says what is held */
  n_out = w->tensor.shape.data[0];
  box.row_begin = win->in_row_begin;
  box.rows = win->in_rows;
  box.col_begin = x->col_begin;
  box.cols = x->cols;
  last = box.row_begin + box.rows == in.h && box.col_begin + box.cols == in.w;
  if ((int64_t)in.h * in.w * in.c != w->tensor.shape.data[1] || win->out_row_begin != 0 ||
      win->out_row_end != (last ? 1 : 0) || x->rows != win->in_rows ||
      call->scratch_bytes < (size_t)in.n * (size_t)n_out * 4u ||
      tgrs_operand_count(&call->out[0]) != (last ? (size_t)in.n * (size_t)n_out : 0u) ||
      (bias != NULL && tgrs_operand_count(bias) != (size_t)n_out)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    st = tgrs_call_pcq(call, n_out, &pcq);
    if (st == TGRS_OK) st = tgrs_call_filter_zp(call, n_out, &pcq);
    if (st != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_fully_connected_band_s8(&q, &pcq, &in, &box, n_out, (const int8_t*)x->data,
                                           (const int8_t*)w->data,
                                           bias ? (const int32_t*)bias->data : NULL,
                                           (int32_t*)call->scratch, (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    tgrs_act_f32 storage;
    return tgrs_kernel_result(
        call, tgrs_fully_connected_band_f32(tgrs_call_act_f32(call, &storage), &in, &box, n_out,
                                            (const float*)x->data, (const float*)w->data,
                                            bias ? (const float*)bias->data : NULL,
                                            (float*)call->scratch, (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
#endif

static tgrs_status matmul_activations(tgrs_op_call* call) {
  const tgrs_operand* a = &call->in[0];
  const tgrs_operand* b = &call->in[1];
  int32_t m, k, n;
  if (a->tensor.shape.count != 2 || b->tensor.shape.count != 2) return TGRS_ERR_UNSUPPORTED_OP;
  m = a->tensor.shape.data[0];
  k = a->tensor.shape.data[1];
  n = b->tensor.shape.data[1];
  if (b->tensor.shape.data[0] != k) return TGRS_ERR_INCONSISTENT_PLAN;
  if (tgrs_call_is_s8(call) && b->tensor.dtype == TGRS_DTYPE_INT8) {
    tgrs_matmul_quant_s8 q;
    q.a_zero_point = tgrs_tensor_zero_point(&a->tensor);
    q.b_zero_point = tgrs_tensor_zero_point(&b->tensor);
    q.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
    q.act_min = call->op.act_min;
    q.act_max = call->op.act_max;
    q.rq = tgrs_call_requant(call);
    q.rounding = call->op.rounding;
    return tgrs_kernel_result(
        call, tgrs_matmul_s8(&q, 1, m, k, n, 1, (const int8_t*)a->data, (const int8_t*)b->data,
                             (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call) && b->tensor.dtype == TGRS_DTYPE_FLOAT32) {
    float* y = (float*)call->out[0].data;
    const tgrs_status st = tgrs_kernel_result(
        call, tgrs_matmul_f32(1, m, k, n, 1, (const float*)a->data, (const float*)b->data, y));
    if (st == TGRS_OK) tgrs_apply_act_f32(call, y, tgrs_operand_count(&call->out[0]));
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

/* A MatMul whose operands are not both matrices (docs/plan-format.md): attrs.shape
 * [batch0, batch1, M, K, N] and attrs.strides, A's, B's and the output's element strides
 * (batch 0, batch 1, rows, columns each), which the compiler derived from their layouts;
 * the kernel checks them against each operand's size. float32, or int8 requantized per
 * column of B (the op's multipliers: one, or one per column of a per-channel constant B). */
static tgrs_status matmul_strided(tgrs_op_call* call, const tgrs_i32s* shape) {
  const tgrs_i32s strides = tgrs_read_i32s_(call->attrs, FB_ATTRS_STRIDES);
  const size_t a_count = tgrs_operand_count(&call->in[0]);
  const size_t b_count = tgrs_operand_count(&call->in[1]);
  const size_t count = tgrs_operand_count(&call->out[0]);
  tgrs_matmul_geometry g;
  int d;
  if (strides.count != 12 || call->tiled) return TGRS_ERR_INCONSISTENT_PLAN;
  g.batch[0] = shape->data[0];
  g.batch[1] = shape->data[1];
  g.m = shape->data[2];
  g.k = shape->data[3];
  g.n = shape->data[4];
  for (d = 0; d < 4; ++d) {
    g.a_stride[d] = strides.data[d];
    g.b_stride[d] = strides.data[4 + d];
    g.y_stride[d] = strides.data[8 + d];
  }
  if (tgrs_call_is_s8(call) && call->in[1].tensor.dtype == TGRS_DTYPE_INT8) {
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    tgrs_per_channel_quant pcq;
    tgrs_status st = tgrs_call_pcq(call, g.n, &pcq);
    if (st == TGRS_OK) st = tgrs_call_filter_zp(call, g.n, &pcq);
    if (st != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_matmul_strided_s8(&g, &q, &pcq, (const int8_t*)call->in[0].data, a_count,
                                     (const int8_t*)call->in[1].data, b_count,
                                     (int8_t*)call->out[0].data, count));
  }
  if (tgrs_call_is_f32(call) && call->in[1].tensor.dtype == TGRS_DTYPE_FLOAT32) {
    float* y = (float*)call->out[0].data;
    const tgrs_status st = tgrs_kernel_result(
        call, tgrs_matmul_strided_f32(&g, (const float*)call->in[0].data, a_count,
                                      (const float*)call->in[1].data, b_count, y, count));
    if (st == TGRS_OK) tgrs_apply_act_f32(call, y, count);
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_gemm(tgrs_op_call* call) {
  const int has_bias = call->num_inputs > 2 && call->in[2].data != NULL;
  if (call->num_inputs < 2 || call->in[0].data == NULL || call->in[1].data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (call->op.code == TGRS_OP_GEMM) {
    /* Normalization makes Gemm canonical: alpha = beta = 1 (docs/plan-format.md). */
    if (tgrs_read_f32_(call->attrs, FB_ATTRS_ALPHA, 0.0f) != 1.0f ||
        (has_bias && tgrs_read_f32_(call->attrs, FB_ATTRS_BETA, 0.0f) != 1.0f)) {
      return TGRS_ERR_UNSUPPORTED_OP;
    }
#if TGRS_WITH_GEMM_BANDS
    if (call->tiled) return fully_connected_band(call, has_bias ? &call->in[2] : NULL);
#else
    if (call->tiled) return TGRS_ERR_UNSUPPORTED_OP; /* tgrs_op_select.h */
#endif
    return fully_connected(call, has_bias ? &call->in[2] : NULL);
  }
  if (TGRS_OP_ON(MATMUL)) { /* a build without MATMUL reads no MatMul geometry */
    const tgrs_i32s shape = tgrs_read_i32s_(call->attrs, FB_ATTRS_SHAPE);
    if (shape.count == 5) return matmul_strided(call, &shape);
  }
  if (call->in[1].tensor.weight >= 0) return fully_connected(call, NULL);
  /* A MatMul of two activations; a build without MATMUL links none of its kernels. */
  return TGRS_OP_ON(MATMUL) ? matmul_activations(call) : TGRS_ERR_UNSUPPORTED_OP;
}
