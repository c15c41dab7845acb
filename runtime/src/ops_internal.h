/*
 * ops_internal.h: the op functions (one per op family, ops_*.c) and the helpers that map
 * plan fields onto the kernels' parameter structs (op_params.c). The mapping follows the
 * table at the top of runtime/kernels/tgrs_kernels.h and docs/plan-format.md "Ops".
 */
#ifndef TIGRIS_RUNTIME_OPS_INTERNAL_H_
#define TIGRIS_RUNTIME_OPS_INTERNAL_H_

#include "exec_internal.h"
#include "fb_read.h"       /* FB_ATTRS_*: the attribute fields an op reads */
#include "plan_internal.h" /* tgrs_read_*_ */

/* Rank <= 4 shapes right-aligned into [N, H, W, C]; `held` uses the rows the buffer holds
 * (a tile's strip), `full` the whole tensor (spatial kernels take full dims + a window).
 * W is always the columns the operand holds: a 2-D tile's kernels see its column view as
 * the whole width (with the left padding shifted, tgrs_call_pad_left). */
tgrs_status tgrs_operand_dims(const tgrs_operand* o, int held, tgrs_dims* out);
/* Elements the operand's buffer holds. */
size_t tgrs_operand_count(const tgrs_operand* o);

int32_t tgrs_tensor_zero_point(const tgrs_plan_tensor* t); /* 0 when not quantized */
float tgrs_tensor_scale(const tgrs_plan_tensor* t);        /* 1 when not quantized */

/* 1 when the op's first input and its output both have `dtype`. */
int tgrs_call_dtype_is(const tgrs_op_call* call, tgrs_dtype dtype);
/* 1 when the op's first input and its output are int8 (docs/plan-format.md "int8 fields").
 * Inline, and constant 0 when TGRS_WITH_INT8 is 0 (tigris_executor.h): every op function
 * branches on these two, so the compiler drops the left-out dtype's branches and with them
 * the only references to its kernels, which --gc-sections then removes. The test itself
 * stays out of line: inlined at every call site it cost 200 bytes of Cortex-M4 code. */
static inline int tgrs_call_is_s8(const tgrs_op_call* call) {
  return TGRS_WITH_INT8 && tgrs_call_dtype_is(call, TGRS_DTYPE_INT8);
}
/* 1 when the op's first input and its output are float32; constant 0 without float32. */
static inline int tgrs_call_is_f32(const tgrs_op_call* call) {
  return TGRS_WITH_FLOAT32 && tgrs_call_dtype_is(call, TGRS_DTYPE_FLOAT32);
}
/* 1 when `dtype` is one this build left out (constant 0 in a build with both). */
static inline int tgrs_dtype_left_out(tgrs_dtype dtype) {
  return (!TGRS_WITH_FLOAT32 && dtype == TGRS_DTYPE_FLOAT32) ||
         (!TGRS_WITH_INT8 && dtype == TGRS_DTYPE_INT8);
}

/* 1 when the plan string s is exactly lit. The plan spells Pad / Resize modes and
 * ArgMax's tie rule as strings (format/tgrs.fbs has no enum for them); this byte loop is
 * the whole cost of reading them, where libc's word-at-a-time strcmp links ~730 bytes on
 * Cortex-M (newlib-nano). */
static inline int tgrs_str_is(const char* s, const char* lit) {
  while (*lit != '\0' && *s == *lit) {
    ++s;
    ++lit;
  }
  return *s == *lit;
}

/* The left padding a spatial op's kernel applies: `pad_left` for the whole width; on a
 * 2-D tile's column view, pad_left + in_col_begin - out_col_begin * stride_w, so that
 * output column j of the view reads the input columns whole-tensor column
 * out_col_begin + j reads. -1 when the plan's columns make that negative (the view lacks
 * a column the window needs). */
int32_t tgrs_call_pad_left(const tgrs_op_call* call, int32_t pad_left, int32_t stride_w);

tgrs_quant_s8 tgrs_call_quant_s8(const tgrs_op_call* call);
/* The first output_multiplier/shift, or the identity {2^30, 1} when absent. */
tgrs_requant tgrs_call_requant(const tgrs_op_call* call);

/* The op's per-channel requantization as the kernels take it: pointers into the plan (no
 * copy, no stack buffer), one entry per channel or one for all (the kernel broadcasts it).
 * TGRS_ERR_INCONSISTENT_PLAN when the multiplier and shift counts differ or are neither 1
 * nor `channels`. */
tgrs_status tgrs_call_pcq(const tgrs_op_call* call, int32_t channels, tgrs_per_channel_quant* out);
/* Adds the filter's (input 1's) zero points to `pcq` when any is non-zero (asymmetric
 * weights); TGRS_ERR_INCONSISTENT_PLAN when their count is neither 1 nor `channels`. */
tgrs_status tgrs_call_filter_zp(const tgrs_op_call* call, int32_t channels,
                                tgrs_per_channel_quant* pcq);

/* The fused activation as a float clamp: NULL for none. */
const tgrs_act_f32* tgrs_call_act_f32(const tgrs_op_call* call, tgrs_act_f32* storage);
/* Applies the fused activation in place to a float result (kernels without an act). */
void tgrs_apply_act_f32(const tgrs_op_call* call, float* data, size_t count);

/* TGRS_OK, or TGRS_ERR_KERNEL_REJECTED with the kernel status recorded in the stats. */
tgrs_status tgrs_kernel_result(const tgrs_op_call* call, tgrs_kernel_status status);

/* The op functions, one per op family, named by the op table's FN column (tgrs_ops.def);
 * op_dispatch.c calls them by code. */
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) tgrs_status FN(tgrs_op_call* call);
#include "tgrs_ops.def"
#undef TGRS_OP

#endif /* TIGRIS_RUNTIME_OPS_INTERNAL_H_ */
