/*
 * ops_logical.c: the comparisons, logic ops, Where and Cast (EQUAL ... CAST, tgrs_ops.def)
 * over float32, int32, int64 and bool, and an int8 Where (kernels/logical.c). Elementwise with
 * Add's broadcasting, so in a tile loop they run on the strip, a column view or a channel group, as
 * the binary ops do. The compiler states the dtypes each accepts (runtime_forms.cc, CheckLogic);
 * these checks keep a plan that says otherwise from being read as another type.
 */
#include "ops_internal.h"

/* The kernels' element type of a plan dtype; 0 when the logic kernels do not take it (or
 * this build left it out). */
static int elem_type_of(tgrs_dtype dtype, tgrs_elem_type* out) {
  switch (dtype) {
    case TGRS_DTYPE_FLOAT32:
      *out = TGRS_ELEM_F32;
      return TGRS_WITH_FLOAT32;
    case TGRS_DTYPE_INT32:
      *out = TGRS_ELEM_I32;
      return 1;
    case TGRS_DTYPE_INT64:
      *out = TGRS_ELEM_I64;
      return 1;
    case TGRS_DTYPE_BOOL:
      *out = TGRS_ELEM_BOOL;
      return 1;
    default:
      return 0;
  }
}

static int is_bool(const tgrs_operand* o) { return o->tensor.dtype == TGRS_DTYPE_BOOL; }

static tgrs_status compare_or_logic(tgrs_op_call* call, const tgrs_dims* a, const tgrs_dims* b,
                                    const tgrs_dims* y) {
  const tgrs_op_code code = call->op.code;
  uint8_t* out = (uint8_t*)call->out[0].data;
  tgrs_elem_type type;
  if (!is_bool(&call->out[0]) || call->in[0].tensor.dtype != call->in[1].tensor.dtype ||
      !elem_type_of(call->in[0].tensor.dtype, &type)) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if (code == TGRS_OP_AND || code == TGRS_OP_OR || code == TGRS_OP_XOR) {
    if (type != TGRS_ELEM_BOOL) return TGRS_ERR_UNSUPPORTED_OP;
    return tgrs_kernel_result(call, tgrs_logic(code == TGRS_OP_AND  ? TGRS_LOGIC_AND
                                               : code == TGRS_OP_OR ? TGRS_LOGIC_OR
                                                                    : TGRS_LOGIC_XOR,
                                               a, (const uint8_t*)call->in[0].data, b,
                                               (const uint8_t*)call->in[1].data, y, out));
  }
  {
    const tgrs_compare_op op = code == TGRS_OP_EQUAL              ? TGRS_COMPARE_EQ
                               : code == TGRS_OP_GREATER          ? TGRS_COMPARE_GT
                               : code == TGRS_OP_LESS             ? TGRS_COMPARE_LT
                               : code == TGRS_OP_GREATER_OR_EQUAL ? TGRS_COMPARE_GE
                                                                  : TGRS_COMPARE_LE;
    if (type == TGRS_ELEM_BOOL && op != TGRS_COMPARE_EQ) return TGRS_ERR_UNSUPPORTED_OP;
    return tgrs_kernel_result(
        call, tgrs_compare(op, type, a, call->in[0].data, b, call->in[1].data, y, out));
  }
}

static tgrs_status where(tgrs_op_call* call) {
  const tgrs_dtype dtype = call->out[0].tensor.dtype;
  tgrs_dims c, x, y, out;
  tgrs_elem_type type;
  tgrs_status st;
  if (call->num_inputs != 3 || !is_bool(&call->in[0]) || call->in[1].tensor.dtype != dtype ||
      call->in[2].tensor.dtype != dtype) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if ((st = tgrs_operand_dims(&call->in[0], 1, &c)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->in[1], 1, &x)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->in[2], 1, &y)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 1, &out)) != TGRS_OK) {
    return st;
  }
  if (TGRS_WITH_INT8 && dtype == TGRS_DTYPE_INT8) {
    /* X's and Y's tables to the output's grid, or none when the three share it. */
    const tgrs_i8s lut = tgrs_read_i8s_(call->table, FB_OP_LUT);
    if (lut.count != 0 && lut.count != 512) return TGRS_ERR_INCONSISTENT_PLAN;
    return tgrs_kernel_result(
        call,
        tgrs_where_s8(&c, (const uint8_t*)call->in[0].data, &x, (const int8_t*)call->in[1].data, &y,
                      (const int8_t*)call->in[2].data, lut.count ? lut.data : NULL,
                      lut.count ? lut.data + 256 : NULL, &out, (int8_t*)call->out[0].data));
  }
  if (!elem_type_of(dtype, &type)) return TGRS_ERR_UNSUPPORTED_OP;
  return tgrs_kernel_result(
      call, tgrs_where(type, &c, (const uint8_t*)call->in[0].data, &x, call->in[1].data, &y,
                       call->in[2].data, &out, call->out[0].data));
}

tgrs_status tgrs_op_logical(tgrs_op_call* call) {
  const tgrs_op_code code = call->op.code;
  tgrs_elem_type from, to;
  tgrs_dims a, b, y;
  tgrs_status st;
  uint32_t i;
  if (call->num_inputs < 1 || call->out[0].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  for (i = 0; i < call->num_inputs; ++i) {
    if (call->in[i].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (code == TGRS_OP_WHERE) return where(call);
  if (code == TGRS_OP_NOT || code == TGRS_OP_CAST) {
    const size_t count = tgrs_operand_count(&call->out[0]);
    if (call->num_inputs != 1 || tgrs_operand_count(&call->in[0]) != count ||
        !elem_type_of(call->in[0].tensor.dtype, &from) ||
        !elem_type_of(call->out[0].tensor.dtype, &to) ||
        (code == TGRS_OP_NOT && (from != TGRS_ELEM_BOOL || to != TGRS_ELEM_BOOL))) {
      return TGRS_ERR_UNSUPPORTED_OP;
    }
    if (code == TGRS_OP_NOT) {
      return tgrs_kernel_result(
          call, tgrs_not(count, (const uint8_t*)call->in[0].data, (uint8_t*)call->out[0].data));
    }
    return tgrs_kernel_result(call,
                              tgrs_cast(from, to, count, call->in[0].data, call->out[0].data));
  }
  if (call->num_inputs != 2) return TGRS_ERR_INCONSISTENT_PLAN;
  if ((st = tgrs_operand_dims(&call->in[0], 1, &a)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->in[1], 1, &b)) != TGRS_OK ||
      (st = tgrs_operand_dims(&call->out[0], 1, &y)) != TGRS_OK) {
    return st;
  }
  return compare_or_logic(call, &a, &b, &y);
}
