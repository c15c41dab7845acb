/*
 * ops_misc.c: Softmax / LogSoftmax (with the planner's scratch), LRN, ReduceMean,
 * BatchNormalization, QuantizeLinear / DequantizeLinear.
 */
#include "ops_internal.h"

tgrs_status tgrs_op_softmax(tgrs_op_call* call) {
  const uint32_t rank = call->in[0].tensor.shape.count;
  /* Constant 0 in a build without LOG_SOFTMAX, which then links no log-softmax kernel. */
  const int log = TGRS_OP_ON(LOG_SOFTMAX) && call->op.code == TGRS_OP_LOG_SOFTMAX;
  const int32_t attr_axis = tgrs_read_i32_(call->attrs, FB_ATTRS_AXIS, 0);
  int32_t d[4];
  int32_t axis, outer = 1, inner = 1, i;
  tgrs_dims dims;
  tgrs_status st;
  if (rank == 0 || attr_axis < 0 || (uint32_t)attr_axis >= rank) return TGRS_ERR_UNSUPPORTED_OP;
  if ((st = tgrs_operand_dims(&call->in[0], 1, &dims)) != TGRS_OK) return st;
  /* The kernels write one value per input value. */
  if (tgrs_operand_count(&call->out[0]) != tgrs_operand_count(&call->in[0])) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  d[0] = dims.n;
  d[1] = dims.h;
  d[2] = dims.w;
  d[3] = dims.c;
  axis = attr_axis + (int32_t)(4 - rank);
  for (i = 0; i < axis; ++i) outer *= d[i];
  for (i = axis + 1; i < 4; ++i) inner *= d[i];
  /* The scratch the planner reserved: 4 * extent(axis) (docs/memory-model.md). */
  if (call->scratch == NULL || call->scratch_bytes < tgrs_softmax_scratch_bytes(d[axis])) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    tgrs_softmax_quant_s8 q;
    const int8_t* x = (const int8_t*)call->in[0].data;
    int8_t* y = (int8_t*)call->out[0].data;
    if (TGRS_WITH_TFLITE_ROUNDING && call->op.rounding == TGRS_ROUNDING_TFLITE) {
      /* TFLite's fixed-point softmax: the input scaling the compiler derived TFLite's way
       * (one entry of input_multiplier / input_shift), the output on TFLite's fixed grid
       * (scale 1/256, zero point -128, which the compiler checked). No TFLite log softmax. */
      const tgrs_i32s multiplier = tgrs_read_i32s_(call->table, FB_OP_INPUT_MULTIPLIER);
      const tgrs_i8s shift = tgrs_read_i8s_(call->table, FB_OP_INPUT_SHIFT);
      tgrs_softmax_tflite_s8 p;
      if (log) return TGRS_ERR_UNSUPPORTED_OP;
      if (multiplier.count != 1 || shift.count != 1 || shift.data[0] < 0) {
        return TGRS_ERR_INCONSISTENT_PLAN;
      }
      p.input_multiplier = multiplier.data[0];
      p.input_left_shift = shift.data[0];
      return tgrs_kernel_result(
          call, tgrs_softmax_s8_tflite(call->scratch, &p, outer, d[axis], inner, x, y));
    }
    q.input_scale = tgrs_tensor_scale(&call->in[0].tensor);
    q.input_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
    q.output_scale = tgrs_tensor_scale(&call->out[0].tensor);
    q.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
    return tgrs_kernel_result(
        call, log ? tgrs_log_softmax_s8(call->scratch, &q, outer, d[axis], inner, x, y)
                  : tgrs_softmax_s8(call->scratch, &q, outer, d[axis], inner, x, y));
  }
  if (tgrs_call_is_f32(call)) {
    const float* x = (const float*)call->in[0].data;
    float* y = (float*)call->out[0].data;
    return tgrs_kernel_result(call,
                              log ? tgrs_log_softmax_f32(call->scratch, outer, d[axis], inner, x, y)
                                  : tgrs_softmax_f32(call->scratch, outer, d[axis], inner, x, y));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_lrn(tgrs_op_call* call) {
  const tgrs_i32s kernel = tgrs_read_i32s_(call->attrs, FB_ATTRS_KERNEL);
  tgrs_lrn_params p;
  tgrs_dims in, out;
  tgrs_status st;
  /* Channels are the innermost runtime axis for rank 3 (NWC) and rank 4 (NHWC) only. */
  if (call->in[0].tensor.shape.count < 3 || kernel.count != 1) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 1, &in)) != TGRS_OK) return st;
  if ((st = tgrs_operand_dims(&call->out[0], 1, &out)) != TGRS_OK) return st;
  if (in.n != out.n || in.h != out.h || in.w != out.w || in.c != out.c) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  p.size = kernel.data[0];
  p.alpha = tgrs_read_f32_(call->attrs, FB_ATTRS_ALPHA, 0.0f);
  p.beta = tgrs_read_f32_(call->attrs, FB_ATTRS_BETA, 0.0f);
  p.bias = tgrs_read_f32_(call->attrs, FB_ATTRS_BIAS, 0.0f);
  if (tgrs_call_is_s8(call)) {
    tgrs_lrn_quant_s8 q;
    q.input_scale = tgrs_tensor_scale(&call->in[0].tensor);
    q.input_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
    q.output_scale = tgrs_tensor_scale(&call->out[0].tensor);
    q.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
    return tgrs_kernel_result(call, tgrs_lrn_s8(&p, &q, &in, (const int8_t*)call->in[0].data,
                                                (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    return tgrs_kernel_result(
        call, tgrs_lrn_f32(&p, &in, (const float*)call->in[0].data, (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_batch_norm(tgrs_op_call* call) {
  tgrs_dims dims;
  tgrs_status st;
  if ((st = tgrs_operand_dims(&call->in[0], 1, &dims)) != TGRS_OK) return st;
  /* The kernels write one value per input value. */
  if (tgrs_operand_count(&call->out[0]) != tgrs_operand_count(&call->in[0])) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    const tgrs_i32s offset = tgrs_read_i32s_(call->table, FB_OP_CHANNEL_OFFSET);
    if (offset.count != (uint32_t)dims.c) return TGRS_ERR_INCONSISTENT_PLAN;
    if ((st = tgrs_call_pcq(call, dims.c, &pcq)) != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_batch_norm_s8(&q, &pcq, offset.data, &dims, (const int8_t*)call->in[0].data,
                                 (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    float* y = (float*)call->out[0].data;
    const tgrs_f32s scale = tgrs_read_f32s_(call->table, FB_OP_CHANNEL_SCALE);
    const tgrs_f32s shift = tgrs_read_f32s_(call->table, FB_OP_CHANNEL_SHIFT);
    if (scale.count != (uint32_t)dims.c || shift.count != (uint32_t)dims.c) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    st = tgrs_kernel_result(call, tgrs_batch_norm_f32(&dims, scale.data, shift.data,
                                                      (const float*)call->in[0].data, y));
    if (st == TGRS_OK) tgrs_apply_act_f32(call, y, tgrs_operand_count(&call->out[0]));
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_quantize(tgrs_op_call* call) {
  const size_t count = tgrs_operand_count(&call->out[0]);
  const tgrs_plan_tensor* x = &call->in[0].tensor;
  const tgrs_plan_tensor* y = &call->out[0].tensor;
  /* Both dtypes are needed; a single-dtype build (TGRS_WITH_*) drops both converters. */
  if (!(TGRS_WITH_FLOAT32 && TGRS_WITH_INT8)) return TGRS_ERR_UNSUPPORTED_OP;
  if (tgrs_operand_count(&call->in[0]) != count) return TGRS_ERR_INCONSISTENT_PLAN;
  if (call->op.code == TGRS_OP_QUANTIZE && x->dtype == TGRS_DTYPE_FLOAT32 &&
      y->dtype == TGRS_DTYPE_INT8 && y->scale.count == 1) {
    tgrs_quantize_f32_s8(tgrs_tensor_scale(y), tgrs_tensor_zero_point(y), count,
                         (const float*)call->in[0].data, (int8_t*)call->out[0].data);
    return TGRS_OK;
  }
  if (call->op.code == TGRS_OP_DEQUANTIZE && x->dtype == TGRS_DTYPE_INT8 &&
      y->dtype == TGRS_DTYPE_FLOAT32 && x->scale.count == 1) {
    tgrs_dequantize_s8_f32(tgrs_tensor_scale(x), tgrs_tensor_zero_point(x), count,
                           (const int8_t*)call->in[0].data, (float*)call->out[0].data);
    return TGRS_OK;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
