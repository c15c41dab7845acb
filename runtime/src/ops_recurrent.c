/*
 * ops_recurrent.c: RNN, GRU and LSTM (tgrs_ops.def) on whole sequences, float32
 * (kernels/recurrent.c). The plan keeps ONNX's inputs in ONNX's order (X, W, R, B,
 * sequence_lens, initial_h, initial_c, P); attrs.axes says where each ONNX axis of the
 * activations sits in their runtime layout, from which the kernel's strides follow.
 */
#include <string.h>

#include "ops_internal.h"

enum { IN_X = 0, IN_W, IN_R, IN_B, IN_SEQUENCE_LENS, IN_INITIAL_H, IN_INITIAL_C, IN_P, IN_COUNT };
enum { ROLE_Y = 0, ROLE_Y_H, ROLE_Y_C, ROLE_COUNT };
/* attrs.axes: X's (sequence, batch, input), Y's (sequence, direction, batch, hidden), the
 * states' (direction, batch, hidden), each a runtime axis of its tensor. */
enum { AXES_X = 0, AXES_Y = 3, AXES_STATE = 7, AXES_COUNT = 10 };

/* The extent and element stride of runtime axis `axis` of a row-major tensor. */
static int axis_of(const tgrs_plan_tensor* t, int32_t axis, int32_t* extent, int32_t* stride) {
  uint32_t k;
  int32_t s = 1;
  if (axis < 0 || (uint32_t)axis >= t->shape.count) return 0;
  for (k = t->shape.count; k-- > (uint32_t)axis + 1;) s *= t->shape.data[k];
  *extent = t->shape.data[axis];
  *stride = s;
  return 1;
}

/* Strides of `count` ONNX axes from `axes`, each axis's extent checked against `want`. */
static int strides_of(const tgrs_plan_tensor* t, uint32_t rank, const int32_t* axes,
                      const int32_t* want, uint32_t count, int32_t* strides) {
  uint32_t k;
  if (t->shape.count != rank) return 0;
  for (k = 0; k < count; ++k) {
    int32_t extent;
    if (!axis_of(t, axes[k], &extent, &strides[k]) || extent != want[k]) return 0;
  }
  return 1;
}

static const float* f32_or_null(const tgrs_op_call* call, uint32_t i) {
  if (i >= call->num_inputs || call->in[i].data == NULL) return NULL;
  return (const float*)call->in[i].data;
}

/* An optional input is absent, or float32 with `count` elements. */
static int optional_f32(const tgrs_op_call* call, uint32_t i, size_t count) {
  if (i >= call->num_inputs || call->in[i].data == NULL) return 1;
  return call->in[i].tensor.dtype == TGRS_DTYPE_FLOAT32 &&
         tgrs_operand_count(&call->in[i]) == count;
}

static tgrs_status read_functions(const tgrs_op_call* call, int32_t per_direction,
                                  tgrs_recurrent_params* p) {
  const tgrs_i32s kinds = tgrs_read_i32s_(call->attrs, FB_ATTRS_ACTIVATIONS);
  const tgrs_f32s alpha = tgrs_read_f32s_(call->attrs, FB_ATTRS_ACTIVATION_ALPHA);
  const tgrs_f32s beta = tgrs_read_f32s_(call->attrs, FB_ATTRS_ACTIVATION_BETA);
  const uint32_t count = (uint32_t)(per_direction * p->directions);
  uint32_t k;
  if (kinds.count != count || alpha.count != count || beta.count != count) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  for (k = 0; k < count; ++k) {
    tgrs_recurrent_fn* fn = &p->fn[k / (uint32_t)per_direction][k % (uint32_t)per_direction];
    fn->kind = kinds.data[k];
    fn->alpha = alpha.data[k];
    fn->beta = beta.data[k];
  }
  return TGRS_OK;
}

tgrs_status tgrs_op_recurrent(tgrs_op_call* call) {
  const tgrs_plan_tensor* x = &call->in[IN_X].tensor;
  const tgrs_i32s axes = tgrs_read_i32s_(call->attrs, FB_ATTRS_AXES);
  const tgrs_i32s roles = tgrs_read_i32s_(call->attrs, FB_ATTRS_OUTPUT_ROLES);
  const char* direction = tgrs_read_string_(call->attrs, FB_ATTRS_MODE);
  float* outputs[ROLE_COUNT] = {NULL, NULL, NULL};
  tgrs_recurrent_params p;
  int32_t want[4], gates;
  uint32_t k;
  tgrs_kernel_status ks;
  tgrs_status st;
  if (!TGRS_WITH_FLOAT32) return TGRS_ERR_UNSUPPORTED_OP;
  if (call->tiled || call->num_inputs < IN_B || call->num_inputs > IN_COUNT ||
      axes.count != AXES_COUNT || roles.count != call->num_outputs || call->in[IN_W].data == NULL ||
      call->in[IN_R].data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  memset(&p, 0, sizeof p);
  p.cell = call->op.code == TGRS_OP_GRU    ? TGRS_CELL_GRU
           : call->op.code == TGRS_OP_LSTM ? TGRS_CELL_LSTM
                                           : TGRS_CELL_RNN;
  gates = p.cell == TGRS_CELL_LSTM ? 4 : p.cell == TGRS_CELL_GRU ? 3 : 1;
  /* R is [D, G H, H] and W [D, G H, I] in ONNX's layout; X gives S, B and I. */
  {
    const tgrs_plan_tensor* w = &call->in[IN_W].tensor;
    const tgrs_plan_tensor* r = &call->in[IN_R].tensor;
    if (x->dtype != TGRS_DTYPE_FLOAT32 || w->dtype != TGRS_DTYPE_FLOAT32 ||
        r->dtype != TGRS_DTYPE_FLOAT32 || r->shape.count != 3 || w->shape.count != 3 ||
        !axis_of(x, axes.data[AXES_X], &p.seq_length, &p.x_stride[0]) ||
        !axis_of(x, axes.data[AXES_X + 1], &p.batch, &p.x_stride[1]) ||
        !axis_of(x, axes.data[AXES_X + 2], &p.input_size, &p.x_stride[2]) || x->shape.count != 3) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    p.directions = r->shape.data[0];
    p.hidden_size = r->shape.data[2];
    if (r->shape.data[1] != gates * p.hidden_size || w->shape.data[0] != p.directions ||
        w->shape.data[1] != gates * p.hidden_size || w->shape.data[2] != p.input_size) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
  }
  if (tgrs_str_is(direction, "bidirectional") ? p.directions != 2 : p.directions != 1) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  p.reverse = tgrs_str_is(direction, "reverse");
  p.linear_before_reset = tgrs_read_flag_(call->attrs, FB_ATTRS_LINEAR_BEFORE_RESET, 0);
  p.clip = tgrs_read_f32_(call->attrs, FB_ATTRS_MAX, 0.0f);
  if ((st = read_functions(call,
                           p.cell == TGRS_CELL_LSTM  ? 3
                           : p.cell == TGRS_CELL_GRU ? 2
                                                     : 1,
                           &p)) != TGRS_OK) {
    return st;
  }
  {
    const size_t states = (size_t)p.directions * (size_t)p.batch * (size_t)p.hidden_size;
    const size_t bias = (size_t)p.directions * 2u * (size_t)gates * (size_t)p.hidden_size;
    const size_t peepholes = (size_t)p.directions * 3u * (size_t)p.hidden_size;
    if (!optional_f32(call, IN_B, bias) || !optional_f32(call, IN_INITIAL_H, states) ||
        !optional_f32(call, IN_INITIAL_C, states) || !optional_f32(call, IN_P, peepholes) ||
        (p.cell != TGRS_CELL_LSTM && call->num_inputs > IN_INITIAL_C)) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    if (call->num_inputs > IN_SEQUENCE_LENS && call->in[IN_SEQUENCE_LENS].data != NULL &&
        (call->in[IN_SEQUENCE_LENS].tensor.dtype != TGRS_DTYPE_INT32 ||
         tgrs_operand_count(&call->in[IN_SEQUENCE_LENS]) != (size_t)p.batch)) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
  }
  /* The states (initial_h, initial_c, Y_h, Y_c) share one geometry; an initial state given
   * as data is placed as the outputs are. */
  want[0] = p.directions;
  want[1] = p.batch;
  want[2] = p.hidden_size;
  for (k = IN_INITIAL_H; k <= IN_INITIAL_C && k < call->num_inputs; ++k) {
    if (call->in[k].data != NULL &&
        !strides_of(&call->in[k].tensor, 3, axes.data + AXES_STATE, want, 3, p.state_stride)) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
  }
  for (k = 0; k < call->num_outputs; ++k) {
    const int32_t role = roles.data[k];
    const tgrs_plan_tensor* t = &call->out[k].tensor;
    int ok;
    if (role < 0 || role >= ROLE_COUNT || outputs[role] != NULL ||
        (role == ROLE_Y_C && p.cell != TGRS_CELL_LSTM) || t->dtype != TGRS_DTYPE_FLOAT32) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    if (role == ROLE_Y) {
      const int32_t y_want[4] = {p.seq_length, p.directions, p.batch, p.hidden_size};
      ok = strides_of(t, 4, axes.data + AXES_Y, y_want, 4, p.y_stride);
    } else {
      ok = strides_of(t, 3, axes.data + AXES_STATE, want, 3, p.state_stride);
    }
    if (!ok) return TGRS_ERR_INCONSISTENT_PLAN;
    outputs[role] = (float*)call->out[k].data;
  }
  ks = tgrs_recurrent_f32(
      call->scratch, call->scratch_bytes, &p, (const float*)call->in[IN_X].data,
      f32_or_null(call, IN_W), f32_or_null(call, IN_R), f32_or_null(call, IN_B),
      call->num_inputs > IN_SEQUENCE_LENS ? (const int32_t*)call->in[IN_SEQUENCE_LENS].data : NULL,
      f32_or_null(call, IN_INITIAL_H), f32_or_null(call, IN_INITIAL_C), f32_or_null(call, IN_P),
      outputs[ROLE_Y], outputs[ROLE_Y_H], outputs[ROLE_Y_C]);
  /* A sequence length outside [1, S] is run-time data, as a Gather's index is. */
  return ks == TGRS_KERNEL_INDEX_OUT_OF_RANGE ? TGRS_ERR_INDEX_OUT_OF_RANGE
                                              : tgrs_kernel_result(call, ks);
}
