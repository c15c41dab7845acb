/*
 * tigris_executor.h: runs a verified .tgrs plan (issue 5). C99, libc (+ libm) only, no heap,
 * no global state: two plans (or the same plan twice) may run in one program, each call
 * working only in the arenas and buffers its caller passes.
 *
 * Ownership (DESIGN.md "Runtime API": the caller owns every byte):
 *  - the plan: a tgrs_plan that tgrs_plan_init() verified (tigris_runtime.h);
 *  - the fast arena (SRAM) of at least tgrs_plan_fast_arena_bytes() bytes and the slow arena
 *    (PSRAM) of at least tgrs_plan_slow_arena_bytes() bytes (none needed when that is 0),
 *    both TGRS_ARENA_ALIGNMENT-aligned. Their contents on entry do not matter; on return
 *    they hold scratch. Bytes at or beyond the reported high-water marks are never touched;
 *  - inputs: one buffer per graph input, in the ONNX layout and shape the user sees
 *    (tensor onnx_shape) and the plan tensor's dtype (int8 for a QDQ plan), exactly
 *    tgrs_plan_tensor_bytes() long; outputs likewise, written in the ONNX layout.
 *
 * Fast arena layout while a stage runs (docs/memory-model.md, docs/plan-format.md):
 *
 *   0                      fast_reserved_bytes               stage peak      arena end
 *   | weights of the unit  | activations, strips, scratch     | untouched ...  |
 *   | (copied / LZ4, not   | at the absolute offsets the plan |                |
 *   |  xip; empty for xip) | stores (no offset is computed)   |                |
 *
 * Every stage starts from whatever the previous one left: nothing is cleared, because
 * every buffer is written before it is read. The measured fast high-water mark is the end
 * of the highest byte range the executor gives a kernel or a copy; rounded up to 16 it
 * equals tgrs_plan_fast_arena_bytes() (max over stages of fast_reserved_bytes + peak_bytes,
 * docs/runtime-executor.md explains why it is the general statement).
 *
 * Stack: the executor keeps no per-channel or per-element array on the stack. Kernels read
 * per-channel requantization straight from the plan (int32 multipliers, int8 shifts, one
 * entry broadcast to every channel: tgrs_per_channel_quant), so the stack a run needs does
 * not grow with the widest layer (docs/runtime-executor.md "Limits and notes").
 */
#ifndef TIGRIS_EXECUTOR_H_
#define TIGRIS_EXECUTOR_H_

#include <stddef.h>
#include <stdint.h>

#include "tigris_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both arenas must start at a multiple of this (arena homes are 16-aligned offsets and
 * kernels read float32/int32 through them). */
#define TGRS_ARENA_ALIGNMENT 16u

/* Most inputs of one op the executor accepts (Concat); every op it runs has one output. Each
 * input is an operand of about 76 bytes (32-bit MCU) in the op call on the stack, so an MCU
 * build whose plans concatenate at most 4 tensors may define it as 4 to save ~900 bytes of
 * stack; an op with more inputs then fails with TGRS_ERR_UNSUPPORTED_OP. */
#ifndef TGRS_EXEC_MAX_OPERANDS
#define TGRS_EXEC_MAX_OPERANDS 16
#endif

/* The dtypes the executor dispatches. A firmware build for one model needs only that
 * model's dtype: defining TGRS_WITH_FLOAT32 as 0 (an int8 model) or TGRS_WITH_INT8 as 0 (a
 * float32 model) leaves every kernel of the other dtype unreferenced, so --gc-sections
 * drops it (docs/runtime.md "Leaving out a dtype"). An op that reads or writes a tensor of
 * a left-out dtype (QuantizeLinear / DequantizeLinear touch both) fails with
 * TGRS_ERR_UNSUPPORTED_OP, failed_op naming it. Byte movers (Reshape, Transpose, Concat)
 * have no per-dtype kernel and obey the same rule. The kernels themselves (tgrs_kernels.h)
 * are always compiled. Every translation unit of the runtime must see the same values. */
#include "tgrs_op_select.h" /* an ops header (TGRS_OPS_HEADER) may set the dtypes too */
#ifndef TGRS_WITH_FLOAT32
#define TGRS_WITH_FLOAT32 1
#endif
#ifndef TGRS_WITH_INT8
#define TGRS_WITH_INT8 1
#endif
#if !TGRS_WITH_FLOAT32 && !TGRS_WITH_INT8
#error "TGRS_WITH_FLOAT32 and TGRS_WITH_INT8 are both 0: the executor could run no op"
#endif

/* The executor's status codes (TGRS_ERR_ARENA_TOO_SMALL = 48 ... TGRS_ERR_KERNEL_REJECTED
 * = 59) are tgrs_status values in tigris_runtime.h. */

/* Same as tgrs_status_name() (which names every code, the executor's included); kept so
 * callers written before the codes joined the enum still compile. */
const char* tgrs_executor_status_name(tgrs_status status);

/* ======================================================================================
 * Running a plan
 * ====================================================================================== */

typedef struct tgrs_arenas {
  void* fast; /* SRAM arena, TGRS_ARENA_ALIGNMENT-aligned */
  size_t fast_size;
  void* slow; /* PSRAM arena; may be NULL when the plan's slow_arena_bytes is 0 */
  size_t slow_size;
  /* The PINNED arena (schema 4: whole tensors that placement rules put in a memory other
   * than the fast arena's); may be NULL when the plan has none (tgrs_plan_pinned_arena_bytes
   * is 0). Appended: an initializer that names only the four fields above leaves it NULL. */
  void* pinned;
  size_t pinned_size;
} tgrs_arenas;

typedef struct tgrs_input_buffer {
  const void* data;
  size_t size; /* bytes; must equal the tensor's bytes */
} tgrs_input_buffer;

typedef struct tgrs_output_buffer {
  void* data;
  size_t size;
} tgrs_output_buffer;

typedef struct tgrs_run_stats {
  /* End of the highest byte range the run touched in each arena (exact, not rounded). */
  size_t fast_hwm_bytes;
  size_t slow_hwm_bytes;
  uint32_t stages_run;     /* stages executed (a chain's stages count once each) */
  uint32_t tiles_run;      /* tile iterations over all tiled stages and chains */
  uint32_t ops_run;        /* kernel invocations (an op in a tile loop counts once per tile) */
  int32_t failed_stage;    /* stage index at fault, -1 when none */
  int32_t failed_op;       /* op index at fault, -1 when none */
  int32_t kernel_status;   /* tgrs_kernel_status of TGRS_ERR_KERNEL_REJECTED, else 0 */
  size_t pinned_hwm_bytes; /* as fast_hwm_bytes, in the PINNED arena (appended) */
} tgrs_run_stats;

/* Runs every stage of `plan` in order: for each stage it loads the unit's weights into the
 * reserved prefix (not xip: a copy or an LZ4 block), then
 *  - NORMAL: per op, reloads the buffers that enter at that op (graph inputs from the
 *    caller, spilled tensors from the slow arena), runs the kernel; at the end writes spilled
 *    tensors to their slow homes and graph outputs to the caller;
 *  - TILED / CHAIN: per tile, per op of the loop, loads the input rows (with halo) of
 *    tensors coming from outside the loop, runs the kernel over the tile's row window (the
 *    border padding is the kernel's virtual rows), and writes the last op's rows out.
 * inputs[i] / outputs[i] follow tgrs_plan_inputs() / tgrs_plan_outputs().
 * @return TGRS_OK, or the first failure: TGRS_ERR_NULL_ARGUMENT, TGRS_ERR_PLAN_NOT_VERIFIED,
 *   TGRS_ERR_ARENA_*, TGRS_ERR_SLOW_ARENA_*, TGRS_ERR_INPUT_*, TGRS_ERR_OUTPUT_*,
 *   TGRS_ERR_UNSUPPORTED_OP, TGRS_ERR_INCONSISTENT_PLAN, TGRS_ERR_KERNEL_REJECTED,
 *   TGRS_ERR_LZ4_* (a corrupt weight block). `stats` (may be NULL) is filled either way;
 *   failed_stage / failed_op locate the failure. Outputs are unspecified after a failure. */
tgrs_status tgrs_run(const tgrs_plan* plan, const tgrs_arenas* arenas,
                     const tgrs_input_buffer* inputs, uint32_t num_inputs,
                     const tgrs_output_buffer* outputs, uint32_t num_outputs,
                     tgrs_run_stats* stats);

/* ======================================================================================
 * Watching a run (debugging: `tigris run --dump-intermediates`, or a firmware streaming
 * intermediates over a UART to compare a plan layer by layer with a reference)
 * ====================================================================================== */

/* What one kernel call just wrote: rows [row_begin, row_begin + rows), columns
 * [col_begin, col_begin + cols) and channels [chan_begin, chan_begin + chans) of op `op`'s
 * output tensor `tensor`, in the runtime layout. For a rank-4 tensor [N, H, W, C] that is
 * a box [N, rows, cols, chans] of N * rows * cols * chans elements (cols = W except in a
 * 2-D tile loop, chans = C except with channel groups); other ranks are never tiled and
 * are reported whole (row_begin 0, rows 1, col_begin 0, cols 1, chan_begin 0, chans 1). An op of a
 * NORMAL stage reports its whole output once; an op inside a tile loop reports each tile's box, and
 * a chain's halo rows and columns, which neighbouring tiles recompute, more than once with the same
 * bytes. `data` points into the fast arena and is valid only during the call. */
typedef struct tgrs_op_rows {
  uint32_t op;    /* op index (tgrs_plan_get_op) */
  int32_t tensor; /* its output tensor (tgrs_plan_get_tensor) */
  int32_t row_begin;
  int32_t rows;
  const void* data;
  size_t bytes;
  int32_t col_begin; /* appended with 2-D tiles and channel groups (schema 2) */
  int32_t cols;
  int32_t chan_begin;
  int32_t chans;
} tgrs_op_rows;

typedef void (*tgrs_run_observer)(void* user, const tgrs_op_rows* rows);

/* tgrs_run(), calling observer(user, rows) after every kernel call that succeeded, in
 * execution order. With observer NULL it is tgrs_run(). The observer must not write to
 * the arenas or the outputs; the run's results, statuses and high-water marks are those of
 * tgrs_run(). */
tgrs_status tgrs_run_observed(const tgrs_plan* plan, const tgrs_arenas* arenas,
                              const tgrs_input_buffer* inputs, uint32_t num_inputs,
                              const tgrs_output_buffer* outputs, uint32_t num_outputs,
                              tgrs_run_stats* stats, tgrs_run_observer observer, void* user);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_EXECUTOR_H_ */
