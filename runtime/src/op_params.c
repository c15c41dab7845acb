/*
 * op_params.c: plan fields -> kernel parameter structs, shared by the ops_*.c files.
 */
#include <float.h>
#include <math.h>

#include "ops_internal.h"

tgrs_status tgrs_operand_dims(const tgrs_operand* o, int held, tgrs_dims* out) {
  int32_t d[4] = {1, 1, 1, 1};
  const uint32_t rank = o->tensor.shape.count;
  uint32_t i;
  if (rank > 4) return TGRS_ERR_UNSUPPORTED_OP;
  for (i = 0; i < rank; ++i) d[4 - rank + i] = o->tensor.shape.data[i];
  if (held && rank == 4) d[1] = o->rows;
  if (rank == 4) {
    d[2] = o->cols;  /* a 2-D tile's column view, held and full alike */
    d[3] = o->chans; /* a channel group */
  }
  out->n = d[0];
  out->h = d[1];
  out->w = d[2];
  out->c = d[3];
  return TGRS_OK;
}

size_t tgrs_operand_count(const tgrs_operand* o) {
  tgrs_dims d;
  if (tgrs_operand_dims(o, 1, &d) != TGRS_OK) return 0;
  return (size_t)d.n * (size_t)d.h * (size_t)d.w * (size_t)d.c;
}

int32_t tgrs_call_pad_left(const tgrs_op_call* call, int32_t pad_left, int32_t stride_w) {
  int64_t shifted;
  if (!TGRS_WITH_TILE_COLUMNS || !call->columns) return pad_left;
  shifted = (int64_t)pad_left + call->in_col_begin - (int64_t)call->out_col_begin * stride_w;
  return shifted >= 0 && shifted <= INT32_MAX ? (int32_t)shifted : -1;
}

int32_t tgrs_tensor_zero_point(const tgrs_plan_tensor* t) {
  return t->has_quant && t->zero_point.count > 0 ? t->zero_point.data[0] : 0;
}

float tgrs_tensor_scale(const tgrs_plan_tensor* t) {
  return t->has_quant && t->scale.count > 0 ? t->scale.data[0] : 1.0f;
}

int tgrs_call_dtype_is(const tgrs_op_call* call, tgrs_dtype dtype) {
  return call->num_inputs > 0 && call->in[0].tensor.dtype == dtype &&
         call->out[0].tensor.dtype == dtype;
}

tgrs_quant_s8 tgrs_call_quant_s8(const tgrs_op_call* call) {
  tgrs_quant_s8 q;
  q.input_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
  q.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
  q.act_min = call->op.act_min;
  q.act_max = call->op.act_max;
  q.rounding = call->op.rounding;
  return q;
}

tgrs_requant tgrs_call_requant(const tgrs_op_call* call) {
  tgrs_requant rq;
  if (call->op.output_multiplier.count == 0 || call->op.output_shift.count == 0) {
    rq.multiplier = 1 << 30; /* {2^30, 1} is the exact identity (tgrs_kernels.h) */
    rq.shift = 1;
  } else {
    rq.multiplier = call->op.output_multiplier.data[0];
    rq.shift = call->op.output_shift.data[0];
  }
  return rq;
}

tgrs_status tgrs_call_pcq(const tgrs_op_call* call, int32_t channels, tgrs_per_channel_quant* out) {
  const tgrs_i32s m = call->op.output_multiplier;
  const tgrs_i8s s = call->op.output_shift;
  if (channels <= 0) return TGRS_ERR_UNSUPPORTED_OP;
  /* The kernel would reject these too (TGRS_ERR_KERNEL_REJECTED); checking here names the
   * plan as the culprit. */
  if (m.count != s.count || (m.count != 1 && m.count != (uint32_t)channels)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  out->multiplier = m.data;
  out->shift = s.data;
  out->count = m.count;
  out->filter_zero_point = NULL;
  out->filter_zero_point_count = 0;
  return TGRS_OK;
}

tgrs_status tgrs_call_filter_zp(const tgrs_op_call* call, int32_t channels,
                                tgrs_per_channel_quant* pcq) {
  const tgrs_plan_tensor* w;
  uint32_t i;
  if (call->num_inputs < 2) return TGRS_ERR_INCONSISTENT_PLAN;
  w = &call->in[1].tensor;
  if (!w->has_quant) return TGRS_OK;
  for (i = 0; i < w->zero_point.count; ++i) {
    if (w->zero_point.data[i] != 0) break;
  }
  if (i == w->zero_point.count) return TGRS_OK; /* symmetric: the kernels' fast case */
  if (w->zero_point.count != 1u && w->zero_point.count != (uint32_t)channels) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  pcq->filter_zero_point = w->zero_point.data;
  pcq->filter_zero_point_count = w->zero_point.count;
  return TGRS_OK;
}

const tgrs_act_f32* tgrs_call_act_f32(const tgrs_op_call* call, tgrs_act_f32* storage) {
  switch (call->op.activation) {
    case TGRS_ACTIVATION_RELU:
      storage->min = 0.0f;
      storage->max = HUGE_VALF;
      return storage;
    case TGRS_ACTIVATION_RELU6:
      storage->min = 0.0f;
      storage->max = 6.0f;
      return storage;
    default:
      return NULL;
  }
}

void tgrs_apply_act_f32(const tgrs_op_call* call, float* data, size_t count) {
  tgrs_act_f32 act;
  size_t i;
  if (tgrs_call_act_f32(call, &act) == NULL) return;
  for (i = 0; i < count; ++i) {
    if (data[i] < act.min) data[i] = act.min;
    if (data[i] > act.max) data[i] = act.max;
  }
}

tgrs_status tgrs_kernel_result(const tgrs_op_call* call, tgrs_kernel_status status) {
  if (status == TGRS_KERNEL_OK) return TGRS_OK;
  call->ex->stats->kernel_status = (int32_t)status;
  return TGRS_ERR_KERNEL_REJECTED;
}
