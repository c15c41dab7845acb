/*
 * ops_math.c: the elementwise math ops of the op table (ABS ... MISH, ERF ... COS,
 * tgrs_ops.def), all of the UNARY kind. float32 by the formulas below; int8 by the 256-entry
 * table the compiler computed from the same formula in double precision (emit/lut.cc), as
 * for every unary op. Row-local: in a tile loop they run on the strip, or on a column view
 * or channel group.
 *
 * Every target computes the same bits: exp, log, tanh, sqrt, erf, sin and cos are the
 * runtime's own (tgrs_math.h; sqrt also because newlib's sqrtf sets errno, which links
 * .data into a firmware); fabsf, floorf, ceilf and rintf are exact by definition (C99
 * Annex F), so any libm gives the same result; the rest is + - * / in a fixed order
 * (-ffp-contract=off, cmake/TigrisRuntime.cmake).
 */
#include <math.h>

#include "ops_internal.h"
#include "tgrs_math.h"

/* log(1 + e^x) without overflowing e^x: x + log(1 + e^-x) for x > 0 (ONNX Softplus). */
static float softplus(float x) {
  return x > 0.0f ? x + tgrs_logf(1.0f + tgrs_expf(-x)) : tgrs_logf(1.0f + tgrs_expf(x));
}

/* ONNX Gelu: x Phi(x) = x (1 + erf(x / sqrt 2)) / 2, or with approximate = "tanh"
 * x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) / 2. */
static float gelu(float x, int tanh_form) {
  if (tanh_form) {
    /* sqrt(2 / pi) and 0.044715, rounded to float */
    const float u = 0x1.988454p-1f * (x + 0x1.6e4e26p-5f * (x * x * x));
    return 0.5f * x * (1.0f + tgrs_tanhf(u));
  }
  return 0.5f * x * (1.0f + tgrs_erff(x * 0x1.6a09e6p-1f)); /* 1 / sqrt 2 */
}

static void math_f32(tgrs_op_code code, float alpha, int tanh_form, size_t n, const float* x,
                     float* y) {
  size_t i;
  /* One loop per op, the formula inlined into it. */
#define TGRS_MAP(expr)      \
  for (i = 0; i < n; ++i) { \
    const float v = x[i];   \
    y[i] = (expr);          \
  }                         \
  break
  switch (code) {
    case TGRS_OP_ABS:
      TGRS_MAP(fabsf(v));
    case TGRS_OP_NEG:
      TGRS_MAP(-v);
    case TGRS_OP_EXP:
      TGRS_MAP(tgrs_expf(v));
    case TGRS_OP_LOG:
      TGRS_MAP(tgrs_logf(v));
    case TGRS_OP_SQRT:
      TGRS_MAP(tgrs_sqrtf(v));
    case TGRS_OP_RECIPROCAL:
      TGRS_MAP(1.0f / v);
    case TGRS_OP_FLOOR:
      TGRS_MAP(floorf(v));
    case TGRS_OP_CEIL:
      TGRS_MAP(ceilf(v));
    case TGRS_OP_ROUND: /* half to even: rintf in the default rounding mode */
      TGRS_MAP(rintf(v));
    case TGRS_OP_SIGN: /* NaN and +-0 pass through */
      TGRS_MAP(v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : v));
    case TGRS_OP_ELU:
      TGRS_MAP(v >= 0.0f ? v : alpha * (tgrs_expf(v) - 1.0f));
    case TGRS_OP_CELU: /* max(0, x) + min(0, alpha (e^(x / alpha) - 1)) */
      TGRS_MAP(v >= 0.0f ? v : alpha * (tgrs_expf(v / alpha) - 1.0f));
    case TGRS_OP_SOFTPLUS:
      TGRS_MAP(softplus(v));
    case TGRS_OP_SOFTSIGN:
      TGRS_MAP(v / (1.0f + fabsf(v)));
    case TGRS_OP_MISH: /* x tanh(softplus(x)) */
      TGRS_MAP(v * tgrs_tanhf(softplus(v)));
    case TGRS_OP_ERF:
      TGRS_MAP(tgrs_erff(v));
    case TGRS_OP_GELU:
      TGRS_MAP(gelu(v, tanh_form));
    case TGRS_OP_SIN:
      TGRS_MAP(tgrs_sinf(v));
    case TGRS_OP_COS:
      TGRS_MAP(tgrs_cosf(v));
    default:
      break;
  }
#undef TGRS_MAP
}

tgrs_status tgrs_op_math(tgrs_op_call* call) {
  const size_t count = tgrs_operand_count(&call->out[0]);
  if (call->in[0].data == NULL || tgrs_operand_count(&call->in[0]) != count) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_call_is_s8(call)) {
    const tgrs_i8s lut = tgrs_read_i8s_(call->table, FB_OP_LUT);
    if (lut.count != 256) return TGRS_ERR_INCONSISTENT_PLAN;
    tgrs_lut_s8(lut.data, count, (const int8_t*)call->in[0].data, (int8_t*)call->out[0].data);
    return TGRS_OK;
  }
  if (!tgrs_call_is_f32(call)) return TGRS_ERR_UNSUPPORTED_OP;
  math_f32(call->op.code, tgrs_read_f32_(call->attrs, FB_ATTRS_ALPHA, 1.0f),
           tgrs_str_is(tgrs_read_string_(call->attrs, FB_ATTRS_MODE), "tanh"), count,
           (const float*)call->in[0].data, (float*)call->out[0].data);
  tgrs_apply_act_f32(call, (float*)call->out[0].data, count);
  return TGRS_OK;
}
