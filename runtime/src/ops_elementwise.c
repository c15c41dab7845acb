/*
 * ops_elementwise.c: the binary ops (Add/Sub/Mul/Div/Max/Min/Pow/PRelu) with broadcasting, and the
 * unary activations. They are row-local, so in a tile loop they run on the strip as a tensor of
 * `rows` rows.
 */
#include "ops_internal.h"

tgrs_status tgrs_op_binary(tgrs_op_call* call) {
  const tgrs_op_code code = call->op.code;
  tgrs_dims a, b, y;
  tgrs_status st;
  if (call->num_inputs != 2 || call->in[0].data == NULL || call->in[1].data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 1, &a)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->in[1], 1, &b)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 1, &y)) != TGRS_OK) {
    return st;
  }
  if (tgrs_call_is_s8(call) && call->in[1].tensor.dtype == TGRS_DTYPE_INT8) {
    const int8_t* x1 = (const int8_t*)call->in[0].data;
    const int8_t* x2 = (const int8_t*)call->in[1].data;
    int8_t* out = (int8_t*)call->out[0].data;
    if (code == TGRS_OP_ADD || code == TGRS_OP_SUB || code == TGRS_OP_MAX || code == TGRS_OP_MIN) {
      const tgrs_i32s multiplier = tgrs_read_i32s_(call->table, FB_OP_INPUT_MULTIPLIER);
      const tgrs_i8s shift = tgrs_read_i8s_(call->table, FB_OP_INPUT_SHIFT);
      tgrs_add_s8_params p;
      if (multiplier.count != 2 || shift.count != 2) {
        return TGRS_ERR_INCONSISTENT_PLAN;
      }
      p.input1_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
      p.input2_zero_point = tgrs_tensor_zero_point(&call->in[1].tensor);
      p.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
      p.left_shift = tgrs_read_i32_(call->table, FB_OP_LEFT_SHIFT, 0);
      p.input1.multiplier = multiplier.data[0];
      p.input1.shift = shift.data[0];
      p.input2.multiplier = multiplier.data[1];
      p.input2.shift = shift.data[1];
      p.output = tgrs_call_requant(call);
      p.act_min = call->op.act_min;
      p.act_max = call->op.act_max;
      p.rounding = call->op.rounding;
      switch (code) {
        case TGRS_OP_ADD:
          return tgrs_kernel_result(call, tgrs_add_s8(&p, &a, x1, &b, x2, &y, out));
        case TGRS_OP_SUB:
          return tgrs_kernel_result(call, tgrs_sub_s8(&p, &a, x1, &b, x2, &y, out));
        /* Max and Min only when selected (tgrs_op_select.h): a firmware running Add alone
         * links neither. */
        case TGRS_OP_MAX:
          if (!TGRS_OP_ON(MAX)) return TGRS_ERR_UNSUPPORTED_OP;
          return tgrs_kernel_result(call, tgrs_max_s8(&p, &a, x1, &b, x2, &y, out));
        default:
          if (!TGRS_OP_ON(MIN)) return TGRS_ERR_UNSUPPORTED_OP;
          return tgrs_kernel_result(call, tgrs_min_s8(&p, &a, x1, &b, x2, &y, out));
      }
    }
    if (code == TGRS_OP_MUL) {
      tgrs_mul_s8_params p;
      p.input1_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
      p.input2_zero_point = tgrs_tensor_zero_point(&call->in[1].tensor);
      p.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
      p.rq = tgrs_call_requant(call);
      p.act_min = call->op.act_min;
      p.act_max = call->op.act_max;
      p.rounding = call->op.rounding;
      return tgrs_kernel_result(call, tgrs_mul_s8(&p, &a, x1, &b, x2, &y, out));
    }
    return TGRS_ERR_UNSUPPORTED_OP; /* no int8 Div, Pow, PRelu (the emitter rejects them) */
  }
  if (tgrs_call_is_f32(call) && call->in[1].tensor.dtype == TGRS_DTYPE_FLOAT32) {
    const float* x1 = (const float*)call->in[0].data;
    const float* x2 = (const float*)call->in[1].data;
    float* out = (float*)call->out[0].data;
    tgrs_kernel_status ks;
    switch (code) {
      case TGRS_OP_ADD:
        ks = tgrs_add_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_SUB:
        ks = tgrs_sub_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_MUL:
        ks = tgrs_mul_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_DIV:
        ks = tgrs_div_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_MAX:
        if (!TGRS_OP_ON(MAX)) return TGRS_ERR_UNSUPPORTED_OP;
        ks = tgrs_max_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_MIN:
        if (!TGRS_OP_ON(MIN)) return TGRS_ERR_UNSUPPORTED_OP;
        ks = tgrs_min_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_POW:
        if (!TGRS_OP_ON(POW)) return TGRS_ERR_UNSUPPORTED_OP;
        ks = tgrs_pow_f32(&a, x1, &b, x2, &y, out);
        break;
      case TGRS_OP_PRELU:
        if (!TGRS_OP_ON(PRELU)) return TGRS_ERR_UNSUPPORTED_OP;
        ks = tgrs_prelu_f32(&a, x1, &b, x2, &y, out);
        break;
      default:
        return TGRS_ERR_UNSUPPORTED_OP;
    }
    st = tgrs_kernel_result(call, ks);
    if (st == TGRS_OK) tgrs_apply_act_f32(call, out, tgrs_operand_count(&call->out[0]));
    return st;
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

static tgrs_status activation_f32(tgrs_op_call* call, size_t count) {
  const uint8_t* a = call->attrs;
  const float alpha = tgrs_read_f32_(a, FB_ATTRS_ALPHA, 0.0f);
  const float* x = (const float*)call->in[0].data;
  float* y = (float*)call->out[0].data;
  switch (call->op.code) {
    case TGRS_OP_RELU:
      tgrs_relu_f32(count, x, y);
      break;
    case TGRS_OP_RELU6:
      tgrs_relu6_f32(count, x, y);
      break;
    case TGRS_OP_LEAKY_RELU:
      tgrs_leaky_relu_f32(alpha, count, x, y);
      break;
    case TGRS_OP_SELU:
      tgrs_selu_f32(alpha, tgrs_read_f32_(a, FB_ATTRS_GAMMA, 0.0f), count, x, y);
      break;
    case TGRS_OP_SIGMOID:
      tgrs_sigmoid_f32(count, x, y);
      break;
    case TGRS_OP_HARD_SIGMOID:
      tgrs_hard_sigmoid_f32(alpha, tgrs_read_f32_(a, FB_ATTRS_BETA, 0.0f), count, x, y);
      break;
    case TGRS_OP_HARD_SWISH:
      tgrs_hard_swish_f32(count, x, y);
      break;
    case TGRS_OP_TANH:
      tgrs_tanh_f32(count, x, y);
      break;
    case TGRS_OP_CLIP:
      tgrs_clip_f32(tgrs_read_f32_(a, FB_ATTRS_MIN, 0.0f), tgrs_read_f32_(a, FB_ATTRS_MAX, 0.0f),
                    count, x, y);
      break;
    default:
      return TGRS_ERR_UNSUPPORTED_OP;
  }
  tgrs_apply_act_f32(call, y, count);
  return TGRS_OK;
}

tgrs_status tgrs_op_activation(tgrs_op_call* call) {
  const size_t count = tgrs_operand_count(&call->out[0]);
  if (call->in[0].data == NULL || tgrs_operand_count(&call->in[0]) != count) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    const int8_t* x = (const int8_t*)call->in[0].data;
    int8_t* y = (int8_t*)call->out[0].data;
    const tgrs_i8s lut = tgrs_read_i8s_(call->table, FB_OP_LUT);
    if (lut.count == 256) {
      tgrs_lut_s8(lut.data, count, x, y);
      return TGRS_OK;
    }
    if (lut.count == 0 && (call->op.code == TGRS_OP_RELU || call->op.code == TGRS_OP_RELU6 ||
                           call->op.code == TGRS_OP_CLIP)) {
      /* Same quantization in and out: the clamp to the quantized bounds. */
      tgrs_clip_s8(call->op.act_min, call->op.act_max, count, x, y);
      return TGRS_OK;
    }
    return lut.count == 0 ? TGRS_ERR_UNSUPPORTED_OP : TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_f32(call)) return activation_f32(call, count);
  return TGRS_ERR_UNSUPPORTED_OP;
}
