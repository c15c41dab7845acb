/*
 * ops_conv.c: Conv, DepthwiseConv, Conv1D and ConvTranspose. Window attributes are
 * ONNX's per spatial dim (H, W), pads begins then ends (docs/plan-format.md "Attributes");
 * filters are stored OHWI, [KH, KW, C] (depthwise), [O, K, I] (1-D) and OHWI for
 * ConvTranspose, which is exactly what the kernels read.
 */
#include "ops_internal.h"
#include "tgrs_op_select.h"

static int32_t attr_at(tgrs_i32s v, uint32_t i, int32_t fallback) {
  return i < v.count ? v.data[i] : fallback;
}

/* (stride, dilation, pad begin) of spatial dim `d` of a `rank`-D window, into h or w. */
static tgrs_conv_params conv_params(const tgrs_op_call* call, uint32_t spatial) {
  const tgrs_i32s strides = tgrs_read_i32s_(call->attrs, FB_ATTRS_STRIDES);
  const tgrs_i32s dilations = tgrs_read_i32s_(call->attrs, FB_ATTRS_DILATIONS);
  const tgrs_i32s pads = tgrs_read_i32s_(call->attrs, FB_ATTRS_PADS);
  tgrs_conv_params p;
  p.filter_channels = 0;
  if (spatial == 2) {
    p.stride_h = attr_at(strides, 0, 1);
    p.stride_w = attr_at(strides, 1, 1);
    p.dilation_h = attr_at(dilations, 0, 1);
    p.dilation_w = attr_at(dilations, 1, 1);
    p.pad_top = attr_at(pads, 0, 0);
    p.pad_left = attr_at(pads, 1, 0);
  } else { /* 1-D: the window runs along W of [N, 1, L, C] */
    p.stride_h = 1;
    p.dilation_h = 1;
    p.pad_top = 0;
    p.stride_w = attr_at(strides, 0, 1);
    p.dilation_w = attr_at(dilations, 0, 1);
    p.pad_left = attr_at(pads, 0, 0);
  }
  return p;
}

typedef struct conv_operands {
  tgrs_dims in, filter, out;
  tgrs_conv_params params;
} conv_operands;

static tgrs_status conv_operands_read(const tgrs_op_call* call, uint32_t spatial,
                                      conv_operands* o) {
  tgrs_status st;
  if (call->num_inputs < 2 || call->in[1].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  if ((st = tgrs_operand_dims(&call->in[0], 0, &o->in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->in[1], 0, &o->filter)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &o->out)) != TGRS_OK) {
    return st;
  }
  if (spatial == 1) {
    /* NWC [N, L, C] -> [N, 1, L, C]; filter [O, K, I] -> [O, 1, K, I] (right-aligned dims
     * would put N or O into h). */
    if (call->in[0].tensor.shape.count != 3 || call->in[1].tensor.shape.count != 3 ||
        call->out[0].tensor.shape.count != 3) {
      return TGRS_ERR_UNSUPPORTED_OP;
    }
    o->in.n = o->in.h;
    o->in.h = 1;
    o->filter.n = o->filter.h;
    o->filter.h = 1;
    o->out.n = o->out.h;
    o->out.h = 1;
  }
  /* One bias value per output channel of the whole tensor (channels-last: its last
   * extent); the kernels index it by output channel, a channel group from its first. */
  if (call->num_inputs > 2 && call->in[2].data != NULL) {
    const tgrs_i32s y = call->out[0].tensor.shape;
    if (y.count == 0 || tgrs_operand_count(&call->in[2]) != (size_t)y.data[y.count - 1]) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
  }
  o->params = conv_params(call, spatial);
  /* A 2-D tile: the kernel runs on the column view (taps right of it are padding). */
  o->params.pad_left = tgrs_call_pad_left(call, o->params.pad_left, o->params.stride_w);
  return o->params.pad_left >= 0 ? TGRS_OK : TGRS_ERR_INCONSISTENT_PLAN;
}

/* The kernels infer groups from the filter (C_IN / filter C); the attribute must agree. */
static int groups_agree(const tgrs_op_call* call, const conv_operands* o) {
  return o->filter.c > 0 && o->in.c % o->filter.c == 0 &&
         tgrs_read_i32_(call->attrs, FB_ATTRS_GROUP, 1) == o->in.c / o->filter.c;
}

static const void* bias_of(const tgrs_op_call* call) {
  return call->num_inputs > 2 ? call->in[2].data : NULL;
}

/* A depthwise convolution on a channel group of a tile loop (docs/runtime-executor.md,
 * "Channel groups"): input channel c makes output channel c (multiplier 1); the filter
 * keeps its whole-tensor tap stride (tgrs_conv_params.filter_channels) and starts, like the
 * bias and the per-channel requantization, at the group's first channel. Returns that
 * channel (0 without a group) or -1 when the operands are not one channel-wise group. */
static int32_t depthwise_group(const tgrs_op_call* call, conv_operands* o) {
  const tgrs_operand* x = &call->in[0];
  const tgrs_operand* y = &call->out[0];
  const int32_t channels = tgrs_tensor_chans(&y->tensor);
  if (!TGRS_WITH_TILE_CHANNELS || (y->chan_begin == 0 && y->chans == channels)) return 0;
  if (tgrs_tensor_chans(&x->tensor) != channels || x->chan_begin != y->chan_begin ||
      x->chans != y->chans || o->filter.c != channels) {
    return -1;
  }
  o->params.filter_channels = channels;
  o->filter.c = y->chans;
  return y->chan_begin;
}

/* A convolution on a group of output channels of a channel loop (docs/runtime-executor.md,
 * "Channel groups"): it reads every input channel, and its filter (OHWI: one output
 * channel after another), bias and per-channel requantization start at the group's first
 * channel. Returns that channel (0 without a group) or -1 when the input is not whole or
 * the convolution has groups of its own. */
static int32_t output_channel_group(const tgrs_op_call* call, conv_operands* o) {
  const tgrs_operand* x = &call->in[0];
  const tgrs_operand* y = &call->out[0];
  if (!TGRS_WITH_TILE_CHANNELS ||
      (y->chan_begin == 0 && y->chans == tgrs_tensor_chans(&y->tensor))) {
    return 0;
  }
  /* The whole filter has one output channel per channel of the whole output (the group's
   * filter rows start `first` rows in), and every input channel is read. */
  if (x->chan_begin != 0 || x->chans != tgrs_tensor_chans(&x->tensor) || o->filter.c != o->in.c ||
      o->filter.n != tgrs_tensor_chans(&y->tensor)) {
    return -1;
  }
  o->filter.n = y->chans;
  return y->chan_begin;
}

/* Points the requantization and filter zero points at channel `first` of a group. */
static void pcq_from(tgrs_per_channel_quant* pcq, int32_t first, int32_t group) {
  if (pcq->count > 1u) {
    pcq->multiplier += first;
    pcq->shift += first;
    pcq->count = (uint32_t)group;
  }
  if (pcq->filter_zero_point_count > 1u) {
    pcq->filter_zero_point += first;
    pcq->filter_zero_point_count = (uint32_t)group;
  }
}

tgrs_status tgrs_op_conv(tgrs_op_call* call) {
  conv_operands o;
  /* Constant 0 in a runtime built without DEPTHWISE_CONV (op selection, docs/runtime.md),
   * so the linker drops its kernels: the dispatcher never passes the code then. */
  const int depthwise = TGRS_OP_ON(DEPTHWISE_CONV) && call->op.code == TGRS_OP_DEPTHWISE_CONV;
  int32_t first = 0; /* a channel group's first channel */
  size_t filter_elems;
  tgrs_status st = conv_operands_read(call, 2, &o);
  if (st != TGRS_OK) return st;
  if (!depthwise && !groups_agree(call, &o)) return TGRS_ERR_INCONSISTENT_PLAN;
  first = depthwise ? depthwise_group(call, &o) : output_channel_group(call, &o);
  if (first < 0) return TGRS_ERR_INCONSISTENT_PLAN;
  /* a convolution's output-channel group starts this many filter elements in */
  filter_elems = depthwise ? 0 : (size_t)o.filter.h * (size_t)o.filter.w * (size_t)o.filter.c;
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    /* per-channel parameters are the whole tensor's, offset to a group below */
    const int32_t channels = tgrs_tensor_chans(&call->out[0].tensor);
    const int32_t* bias = (const int32_t*)bias_of(call);
    st = tgrs_call_pcq(call, channels, &pcq);
    if (st == TGRS_OK) st = tgrs_call_filter_zp(call, channels, &pcq);
    if (st != TGRS_OK) return st;
    pcq_from(&pcq, first, o.out.c);
    if (depthwise) {
      return tgrs_kernel_result(
          call, tgrs_depthwise_conv2d_s8(
                    &o.params, &call->window, &q, &pcq, &o.in, (const int8_t*)call->in[0].data,
                    &o.filter, (const int8_t*)call->in[1].data + first,
                    bias != NULL ? bias + first : NULL, &o.out, (int8_t*)call->out[0].data));
    }
    return tgrs_kernel_result(
        call,
        tgrs_conv2d_s8(&o.params, &call->window, &q, &pcq, &o.in, (const int8_t*)call->in[0].data,
                       &o.filter, (const int8_t*)call->in[1].data + first * filter_elems,
                       bias != NULL ? bias + first : NULL, &o.out, (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    tgrs_act_f32 storage;
    const tgrs_act_f32* act = tgrs_call_act_f32(call, &storage);
    const float* bias = (const float*)bias_of(call);
    if (depthwise) {
      return tgrs_kernel_result(
          call, tgrs_depthwise_conv2d_f32(
                    &o.params, &call->window, act, &o.in, (const float*)call->in[0].data, &o.filter,
                    (const float*)call->in[1].data + first, bias != NULL ? bias + first : NULL,
                    &o.out, (float*)call->out[0].data));
    }
    return tgrs_kernel_result(
        call,
        tgrs_conv2d_f32(&o.params, &call->window, act, &o.in, (const float*)call->in[0].data,
                        &o.filter, (const float*)call->in[1].data + first * filter_elems,
                        bias != NULL ? bias + first : NULL, &o.out, (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_conv1d(tgrs_op_call* call) {
  conv_operands o;
  tgrs_status st;
  if (call->tiled) return TGRS_ERR_UNSUPPORTED_OP;
  st = conv_operands_read(call, 1, &o);
  if (st != TGRS_OK) return st;
  if (!groups_agree(call, &o)) return TGRS_ERR_INCONSISTENT_PLAN;
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    st = tgrs_call_pcq(call, o.out.c, &pcq);
    if (st == TGRS_OK) st = tgrs_call_filter_zp(call, o.out.c, &pcq);
    if (st != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_conv1d_s8(&o.params, &q, &pcq, &o.in, (const int8_t*)call->in[0].data, &o.filter,
                             (const int8_t*)call->in[1].data, (const int32_t*)bias_of(call), &o.out,
                             (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    tgrs_act_f32 storage;
    return tgrs_kernel_result(
        call,
        tgrs_conv1d_f32(&o.params, tgrs_call_act_f32(call, &storage), &o.in,
                        (const float*)call->in[0].data, &o.filter, (const float*)call->in[1].data,
                        (const float*)bias_of(call), &o.out, (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

tgrs_status tgrs_op_conv_transpose(tgrs_op_call* call) {
  conv_operands o;
  tgrs_status st;
  if (call->tiled || tgrs_read_i32_(call->attrs, FB_ATTRS_GROUP, 1) != 1) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  st = conv_operands_read(call, 2, &o);
  if (st != TGRS_OK) return st;
  if (tgrs_call_is_s8(call)) {
    tgrs_per_channel_quant pcq;
    const tgrs_quant_s8 q = tgrs_call_quant_s8(call);
    st = tgrs_call_pcq(call, o.out.c, &pcq);
    if (st != TGRS_OK) return st;
    return tgrs_kernel_result(
        call, tgrs_conv_transpose2d_s8(&o.params, &q, &pcq, &o.in, (const int8_t*)call->in[0].data,
                                       &o.filter, (const int8_t*)call->in[1].data,
                                       (const int32_t*)bias_of(call), &o.out,
                                       (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    tgrs_act_f32 storage;
    return tgrs_kernel_result(
        call, tgrs_conv_transpose2d_f32(&o.params, tgrs_call_act_f32(call, &storage), &o.in,
                                        (const float*)call->in[0].data, &o.filter,
                                        (const float*)call->in[1].data, (const float*)bias_of(call),
                                        &o.out, (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
