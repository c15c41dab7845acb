/*
 * ops_shape.c: Concat, Reshape, Transpose, Slice, Gather (byte movement), Pad and Resize
 * (row-windowed).
 * Axis and permutation attributes are in the runtime layout already (docs/plan-format.md);
 * tensors of rank < 4 are right-aligned into [N, H, W, C], so their axes and permutations
 * shift by 4 - rank.
 */
#include "ops_internal.h"

/* perm (rank r <= 4) padded by the identity in front (tgrs_transpose's convention). */
static tgrs_status perm4(tgrs_i32s perm, int32_t out[4]) {
  const uint32_t r = perm.count;
  uint32_t i, seen = 0;
  if (r == 0 || r > 4) return TGRS_ERR_UNSUPPORTED_OP;
  for (i = 0; i < 4 - r; ++i) out[i] = (int32_t)i;
  for (i = 0; i < r; ++i) {
    const int32_t p = perm.data[i];
    if (p < 0 || (uint32_t)p >= r || (seen & (1u << p))) return TGRS_ERR_INCONSISTENT_PLAN;
    seen |= 1u << p;
    out[4 - r + i] = p + (int32_t)(4 - r);
  }
  return TGRS_OK;
}

static tgrs_dims dims_of(tgrs_i32s shape) {
  int32_t d[4] = {1, 1, 1, 1};
  uint32_t i;
  tgrs_dims out;
  for (i = 0; i < shape.count && i < 4; ++i) d[4 - shape.count + i] = shape.data[i];
  out.n = d[0];
  out.h = d[1];
  out.w = d[2];
  out.c = d[3];
  return out;
}

tgrs_status tgrs_op_concat(tgrs_op_call* call) {
  tgrs_dims dims[TGRS_EXEC_MAX_OPERANDS];
  const tgrs_dims* dim_ptrs[TGRS_EXEC_MAX_OPERANDS];
  const void* data[TGRS_EXEC_MAX_OPERANDS];
  const uint32_t rank = call->out[0].tensor.shape.count;
  const size_t elem = tgrs_dtype_size(call->out[0].tensor.dtype);
  const int32_t axis = tgrs_read_i32_(call->attrs, FB_ATTRS_AXIS, 0);
  size_t total = 0;
  uint32_t i;
  tgrs_status st;
  if (rank == 0 || rank > 4 || axis < 0 || (uint32_t)axis >= rank) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* A row tile holds the same rows of every operand, a 2-D tile the same columns too: a
   * join along H (or, on columns, along W) would place them wrongly (the planner's rule,
   * analysis/tileability.cc). */
  if ((call->tiled && axis + (int32_t)(4 - rank) == 1) ||
      (call->columns && axis + (int32_t)(4 - rank) == 2)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  for (i = 0; i < call->num_inputs; ++i) {
    if (call->in[i].data == NULL || call->in[i].tensor.dtype != call->out[0].tensor.dtype) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    if ((st = tgrs_operand_dims(&call->in[i], 1, &dims[i])) != TGRS_OK) return st;
    dim_ptrs[i] = &dims[i];
    data[i] = call->in[i].data;
    total += tgrs_operand_count(&call->in[i]);
  }
  /* The kernels write every input element once: the output must hold them all. */
  if (total != tgrs_operand_count(&call->out[0])) return TGRS_ERR_INCONSISTENT_PLAN;
  if (tgrs_read_i32s_(call->table, FB_OP_INPUT_MULTIPLIER).count != 0) {
    /* int8 inputs of other quantizations (the emitter lists a multiplier per input, as
     * docs/plan-format.md says); the kernel requantizes from the tensors' own scales and
     * zero points, exactly as DequantizeLinear + QuantizeLinear compute. */
    tgrs_concat_quant_s8 quant[TGRS_EXEC_MAX_OPERANDS];
    tgrs_concat_quant_s8 out_quant;
    const int8_t* bytes[TGRS_EXEC_MAX_OPERANDS];
    if (!tgrs_call_is_s8(call) ||
        tgrs_read_i32s_(call->table, FB_OP_INPUT_MULTIPLIER).count != call->num_inputs) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    for (i = 0; i < call->num_inputs; ++i) {
      quant[i].scale = tgrs_tensor_scale(&call->in[i].tensor);
      quant[i].zero_point = tgrs_tensor_zero_point(&call->in[i].tensor);
      bytes[i] = (const int8_t*)data[i];
    }
    out_quant.scale = tgrs_tensor_scale(&call->out[0].tensor);
    out_quant.zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
    return tgrs_kernel_result(
        call, tgrs_concat_s8(axis + (int32_t)(4 - rank), (int32_t)call->num_inputs, dim_ptrs, bytes,
                             quant, out_quant, (int8_t*)call->out[0].data));
  }
  return tgrs_kernel_result(
      call, tgrs_concat(elem, axis + (int32_t)(4 - rank), (int32_t)call->num_inputs, dim_ptrs, data,
                        call->out[0].data));
}

tgrs_status tgrs_op_reshape(tgrs_op_call* call) {
  const tgrs_i32s perm = tgrs_read_i32s_(call->attrs, FB_ATTRS_PERM);
  const tgrs_i32s view_shape = tgrs_read_i32s_(call->attrs, FB_ATTRS_VIEW_SHAPE);
  const size_t bytes =
      tgrs_operand_count(&call->out[0]) * tgrs_dtype_size(call->out[0].tensor.dtype);
  if (call->in[0].data == NULL ||
      tgrs_operand_count(&call->in[0]) * tgrs_dtype_size(call->in[0].tensor.dtype) != bytes) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (perm.count == 0) {
    tgrs_reshape(bytes, call->in[0].data, call->out[0].data);
    return TGRS_OK;
  }
  {
    /* Across layouts: one transpose of the input viewed as view_shape (plan-format.md). */
    int32_t p[4];
    tgrs_dims view;
    const tgrs_status st = perm4(perm, p);
    if (st != TGRS_OK) return st;
    if (view_shape.count != perm.count) return TGRS_ERR_UNSUPPORTED_OP;
    view = dims_of(view_shape);
    if (call->tiled) {
      /* Only a permutation within each pixel's channels runs on a strip or a column view:
       * view [N, pixels, G, C/G], perm [0, 1, 3, 2] (a channel shuffle, op_attrs.cc). The
       * view's pixels become the ones the strip holds. */
      const tgrs_i32s out_shape = call->out[0].tensor.shape;
      if (view_shape.count != 4 || p[0] != 0 || p[1] != 1 || out_shape.count != 4 || view.w < 1 ||
          view.c < 1 || view.n < 1 || (int64_t)view.w * view.c != out_shape.data[3]) {
        return TGRS_ERR_UNSUPPORTED_OP;
      }
      view.h = (int32_t)(tgrs_operand_count(&call->in[0]) /
                         ((size_t)view.n * (size_t)view.w * (size_t)view.c));
    }
    if ((size_t)view.n * view.h * view.w * view.c != tgrs_operand_count(&call->in[0])) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    return tgrs_kernel_result(call, tgrs_transpose(tgrs_dtype_size(call->in[0].tensor.dtype), p,
                                                   &view, call->in[0].data, call->out[0].data));
  }
}

tgrs_status tgrs_op_transpose(tgrs_op_call* call) {
  const tgrs_i32s perm = tgrs_read_i32s_(call->attrs, FB_ATTRS_PERM);
  int32_t p[4];
  tgrs_dims in;
  tgrs_status st;
  if (call->tiled || perm.count != call->in[0].tensor.shape.count) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* Every input element lands in the output: the same count of the same size. */
  if (call->in[0].data == NULL ||
      tgrs_operand_count(&call->out[0]) != tgrs_operand_count(&call->in[0]) ||
      tgrs_dtype_size(call->out[0].tensor.dtype) != tgrs_dtype_size(call->in[0].tensor.dtype)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = perm4(perm, p)) != TGRS_OK) return st;
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK) return st;
  return tgrs_kernel_result(call, tgrs_transpose(tgrs_dtype_size(call->in[0].tensor.dtype), p, &in,
                                                 call->in[0].data, call->out[0].data));
}

tgrs_status tgrs_op_slice(tgrs_op_call* call) {
  const tgrs_i32s starts = tgrs_read_i32s_(call->attrs, FB_ATTRS_STARTS);
  const tgrs_i32s steps = tgrs_read_i32s_(call->attrs, FB_ATTRS_STRIDES);
  const uint32_t rank = call->in[0].tensor.shape.count;
  int32_t start[4] = {0, 0, 0, 0}, step[4] = {1, 1, 1, 1};
  tgrs_dims in, out;
  uint32_t i;
  tgrs_status st;
  if (rank == 0 || rank > 4) return TGRS_ERR_UNSUPPORTED_OP;
  if (starts.count != rank || steps.count != rank || call->out[0].tensor.shape.count != rank ||
      call->in[0].tensor.dtype != call->out[0].tensor.dtype || call->in[0].data == NULL) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  for (i = 0; i < rank; ++i) {
    start[4 - rank + i] = starts.data[i];
    step[4 - rank + i] = steps.data[i];
  }
  /* A row tile holds the same rows of input and output: only a slice that keeps H whole
   * is tiled (the planner's rule, analysis/tileability.cc). */
  if (call->tiled && (start[1] != 0 || step[1] != 1)) return TGRS_ERR_INCONSISTENT_PLAN;
  if ((st = tgrs_operand_dims(&call->in[0], 1, &in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 1, &out)) != TGRS_OK) {
    return st;
  }
  return tgrs_kernel_result(call, tgrs_slice(tgrs_dtype_size(call->in[0].tensor.dtype), start, step,
                                             &in, call->in[0].data, &out, call->out[0].data));
}

/* GATHER's row form (the planner's embedding-as-rows, docs/planning.md "Rewrites"): indices
 * [N, H, W, 1] and output [N, H, W, D] in the runtime layout, whole or a strip of rows in
 * a tile loop; each index's table row lands contiguously, in index order. */
static tgrs_status gather_rows(tgrs_op_call* call) {
  const tgrs_plan_tensor* table = &call->in[0].tensor;
  const tgrs_plan_tensor* idx = &call->in[1].tensor;
  tgrs_dims ids, out;
  tgrs_gather_params p;
  tgrs_kernel_status ks;
  tgrs_status st;
  int64_t count;
  if (table->shape.count != 2 || call->out[0].tensor.shape.count != 4) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((st = tgrs_operand_dims(&call->in[1], 1, &ids)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 1, &out)) != TGRS_OK) {
    return st;
  }
  if (ids.c != 1 || ids.n != out.n || ids.h != out.h || ids.w != out.w ||
      out.c != table->shape.data[1]) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  count = (int64_t)ids.n * ids.h * ids.w;
  if (count < 1 || count * out.c > INT32_MAX) return TGRS_ERR_UNSUPPORTED_OP;
  p.elem_size = tgrs_dtype_size(table->dtype);
  p.rows = table->shape.data[0];
  p.row_len = out.c;
  p.index_size = (int32_t)tgrs_dtype_size(idx->dtype);
  p.outer = 1;
  p.inner = (int32_t)count;
  p.stride_outer = 0;
  p.stride_inner = out.c;
  p.stride_elem = 1;
  ks = tgrs_gather(&p, call->in[0].data, call->in[1].data, call->out[0].data);
  return ks == TGRS_KERNEL_INDEX_OUT_OF_RANGE ? TGRS_ERR_INDEX_OUT_OF_RANGE
                                              : tgrs_kernel_result(call, ks);
}

/* GATHER (docs/plan-format.md "Attributes"): table = input 0 (a weight of rank 1 or 2, in
 * ONNX order), indices = input 1 (int32 or int64, rank <= 2, in ONNX order as every rank
 * <= 2 tensor is); the output (ONNX shape: the indices' then the table's row extents)
 * is stored in its runtime layout, which attrs.perm states (runtime axis i holds ONNX axis
 * perm[i]). Every extent is checked against the output's shape, so the strides derived
 * here address only elements the output holds. */
tgrs_status tgrs_op_gather(tgrs_op_call* call) {
  const tgrs_plan_tensor* table = &call->in[0].tensor;
  const tgrs_plan_tensor* idx = &call->in[1].tensor;
  const tgrs_plan_tensor* out = &call->out[0].tensor;
  const tgrs_i32s perm = tgrs_read_i32s_(call->attrs, FB_ATTRS_PERM);
  const uint32_t ri = idx->shape.count, rt = table->shape.count, ro = out->shape.count;
  int32_t onnx_extent[3], onnx_stride[3];
  int64_t stride = 1;
  uint32_t i, seen = 0;
  tgrs_gather_params p;
  tgrs_kernel_status ks;
  if (call->num_inputs != 2) return TGRS_ERR_UNSUPPORTED_OP;
  if (call->in[0].data == NULL || call->in[1].data == NULL || table->dtype != out->dtype ||
      (idx->dtype != TGRS_DTYPE_INT32 && idx->dtype != TGRS_DTYPE_INT64) || perm.count != ro) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (ri == 4) return gather_rows(call);
  if (call->tiled || ri > 2 || rt < 1 || rt > 2 || ro != ri + rt - 1) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* ONNX extents and strides from the runtime shape, walking it from its innermost axis. */
  for (i = ro; i-- > 0;) {
    const int32_t a = perm.data[i];
    if (a < 0 || (uint32_t)a >= ro || (seen & (1u << a))) return TGRS_ERR_INCONSISTENT_PLAN;
    seen |= 1u << a;
    onnx_extent[a] = out->shape.data[i];
    onnx_stride[a] = (int32_t)stride;
    stride *= out->shape.data[i];
    if (stride > INT32_MAX) return TGRS_ERR_UNSUPPORTED_OP; /* the kernel's int32 strides */
  }
  for (i = 0; i < ri; ++i) {
    if (idx->shape.data[i] != onnx_extent[i]) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (rt == 2 && table->shape.data[1] != onnx_extent[ri]) return TGRS_ERR_INCONSISTENT_PLAN;
  p.elem_size = tgrs_dtype_size(table->dtype);
  p.rows = table->shape.data[0];
  p.row_len = rt == 2 ? table->shape.data[1] : 1;
  p.index_size = (int32_t)tgrs_dtype_size(idx->dtype);
  p.outer = ri == 2 ? onnx_extent[0] : 1;
  p.inner = ri >= 1 ? onnx_extent[ri - 1] : 1;
  p.stride_outer = ri == 2 ? onnx_stride[0] : 0;
  p.stride_inner = ri >= 1 ? onnx_stride[ri - 1] : 0;
  p.stride_elem = rt == 2 ? onnx_stride[ri] : 1;
  ks = tgrs_gather(&p, call->in[0].data, call->in[1].data, call->out[0].data);
  return ks == TGRS_KERNEL_INDEX_OUT_OF_RANGE ? TGRS_ERR_INDEX_OUT_OF_RANGE
                                              : tgrs_kernel_result(call, ks);
}

/* GATHER_ELEMENTS: data = input 0, indices = input 1 (int32 or int64, the output's shape),
 * both in the output's runtime layout; attrs.axis in that layout. Whole tensors. */
tgrs_status tgrs_op_gather_elements(tgrs_op_call* call) {
  const tgrs_plan_tensor* data = &call->in[0].tensor;
  const tgrs_plan_tensor* idx = &call->in[1].tensor;
  const tgrs_plan_tensor* out = &call->out[0].tensor;
  const int32_t axis = tgrs_read_i32_(call->attrs, FB_ATTRS_AXIS, 0);
  const uint32_t rank = data->shape.count;
  tgrs_dims in_dims, out_dims;
  tgrs_kernel_status ks;
  tgrs_status st;
  uint32_t i;
  if (call->tiled || call->num_inputs != 2 || call->in[1].data == NULL ||
      data->dtype != out->dtype ||
      (idx->dtype != TGRS_DTYPE_INT32 && idx->dtype != TGRS_DTYPE_INT64) || rank == 0 || rank > 4 ||
      idx->shape.count != rank || out->shape.count != rank || axis < 0 || (uint32_t)axis >= rank) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  for (i = 0; i < rank; ++i) {
    if (idx->shape.data[i] != out->shape.data[i]) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in_dims)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &out_dims)) != TGRS_OK) {
    return st;
  }
  ks = tgrs_gather_elements(tgrs_dtype_size(data->dtype), axis + (int32_t)(4 - rank),
                            (int32_t)tgrs_dtype_size(idx->dtype), &in_dims, call->in[0].data,
                            &out_dims, call->in[1].data, call->out[0].data);
  return ks == TGRS_KERNEL_INDEX_OUT_OF_RANGE ? TGRS_ERR_INDEX_OUT_OF_RANGE
                                              : tgrs_kernel_result(call, ks);
}

tgrs_status tgrs_op_pad(tgrs_op_call* call) {
  const tgrs_i32s pads = tgrs_read_i32s_(call->attrs, FB_ATTRS_PADS);
  const char* mode = tgrs_read_string_(call->attrs, FB_ATTRS_MODE);
  const float pad_value = tgrs_read_f32_(call->attrs, FB_ATTRS_PAD_VALUE, 0.0f);
  tgrs_pad_params p;
  tgrs_dims in, out;
  tgrs_status st;
  /* Rank 4 only: pads [n, h, w, c] begins then ends; N is never padded. */
  if (call->in[0].tensor.shape.count != 4 || pads.count != 8 || pads.data[0] != 0 ||
      pads.data[4] != 0) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  p.pad_top = pads.data[1];
  p.pad_left = pads.data[2];
  p.pad_c_begin = pads.data[3];
  p.pad_bottom = pads.data[5];
  p.pad_right = pads.data[6];
  p.pad_c_end = pads.data[7];
  if (mode[0] == '\0' || tgrs_str_is(mode, "constant")) {
    p.mode = TGRS_PAD_CONSTANT;
  } else if (tgrs_str_is(mode, "reflect")) {
    p.mode = TGRS_PAD_REFLECT;
  } else if (tgrs_str_is(mode, "edge")) {
    p.mode = TGRS_PAD_EDGE;
  } else {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &out)) != TGRS_OK) {
    return st;
  }
  if (tgrs_call_is_s8(call)) {
    int8_t value;
    tgrs_quantize_f32_s8(tgrs_tensor_scale(&call->out[0].tensor),
                         tgrs_tensor_zero_point(&call->out[0].tensor), 1, &pad_value, &value);
    return tgrs_kernel_result(
        call, tgrs_pad_s8(&p, &call->window, value, &in, (const int8_t*)call->in[0].data, &out,
                          (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    return tgrs_kernel_result(
        call, tgrs_pad_f32(&p, &call->window, pad_value, &in, (const float*)call->in[0].data, &out,
                           (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}

static int resize_params(const uint8_t* a, tgrs_f32s scales, tgrs_resize_params* p) {
  const char* mode = tgrs_read_string_(a, FB_ATTRS_MODE);
  const char* ctm = tgrs_read_string_(a, FB_ATTRS_COORDINATE_TRANSFORMATION_MODE);
  const char* nm = tgrs_read_string_(a, FB_ATTRS_NEAREST_MODE);
  if (scales.count != 4) return 0;
  p->scale_h = scales.data[1];
  p->scale_w = scales.data[2];
  if (tgrs_str_is(mode, "nearest") || mode[0] == '\0') {
    p->mode = TGRS_RESIZE_NEAREST;
  } else if (tgrs_str_is(mode, "linear")) {
    p->mode = TGRS_RESIZE_LINEAR;
  } else {
    return 0;
  }
  if (ctm[0] == '\0' || tgrs_str_is(ctm, "half_pixel")) {
    p->coord = TGRS_COORD_HALF_PIXEL;
  } else if (tgrs_str_is(ctm, "asymmetric")) {
    p->coord = TGRS_COORD_ASYMMETRIC;
  } else if (tgrs_str_is(ctm, "align_corners")) {
    p->coord = TGRS_COORD_ALIGN_CORNERS;
  } else if (tgrs_str_is(ctm, "pytorch_half_pixel")) {
    p->coord = TGRS_COORD_PYTORCH_HALF_PIXEL;
  } else {
    return 0;
  }
  if (nm[0] == '\0' || tgrs_str_is(nm, "round_prefer_floor")) {
    p->nearest = TGRS_NEAREST_ROUND_PREFER_FLOOR;
  } else if (tgrs_str_is(nm, "round_prefer_ceil")) {
    p->nearest = TGRS_NEAREST_ROUND_PREFER_CEIL;
  } else if (tgrs_str_is(nm, "floor")) {
    p->nearest = TGRS_NEAREST_FLOOR;
  } else if (tgrs_str_is(nm, "ceil")) {
    p->nearest = TGRS_NEAREST_CEIL;
  } else {
    return 0;
  }
  return 1;
}

tgrs_status tgrs_op_resize(tgrs_op_call* call) {
  const tgrs_f32s scales = tgrs_read_f32s_(call->attrs, FB_ATTRS_SCALES);
  tgrs_resize_params p;
  tgrs_dims in, out;
  tgrs_status st;
  if (call->in[0].tensor.shape.count != 4 || !resize_params(call->attrs, scales, &p) ||
      scales.data[0] != 1.0f || scales.data[3] != 1.0f) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 0, &in)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 0, &out)) != TGRS_OK) {
    return st;
  }
  if (tgrs_call_is_s8(call)) {
    p.input_scale = tgrs_tensor_scale(&call->in[0].tensor);
    p.input_zero_point = tgrs_tensor_zero_point(&call->in[0].tensor);
    p.output_scale = tgrs_tensor_scale(&call->out[0].tensor);
    p.output_zero_point = tgrs_tensor_zero_point(&call->out[0].tensor);
    return tgrs_kernel_result(
        call, tgrs_resize_s8(&p, &call->window, &in, (const int8_t*)call->in[0].data, &out,
                             (int8_t*)call->out[0].data));
  }
  if (tgrs_call_is_f32(call)) {
    return tgrs_kernel_result(
        call, tgrs_resize_f32(&p, &call->window, &in, (const float*)call->in[0].data, &out,
                              (float*)call->out[0].data));
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
