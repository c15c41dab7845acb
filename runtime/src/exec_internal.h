/*
 * exec_internal.h: what the executor's files share (not installed). One tgrs_exec lives on
 * tgrs_run()'s stack for the duration of a run; nothing is global.
 */
#ifndef TIGRIS_RUNTIME_EXEC_INTERNAL_H_
#define TIGRIS_RUNTIME_EXEC_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

#include "tgrs_kernels.h"
#include "tgrs_op_select.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

typedef struct tgrs_exec {
  const tgrs_plan* plan;
  uint8_t* fast;
  size_t fast_size;
  uint8_t* slow;
  size_t slow_size;
  uint8_t* pinned; /* the PINNED arena (schema 4), NULL when the plan has none */
  size_t pinned_size;
  const tgrs_input_buffer* inputs;
  const tgrs_output_buffer* outputs;
  int32_t loaded_block; /* weight block now in the fast prefix, -1 when none */
  /* The CONSTANTS arena a context hydrated (NULL: staged constants are read in place from
   * weight_data[staged_begin, + staged_bytes), the same bytes). */
  const uint8_t* staged;
  uint32_t staged_begin, staged_bytes;
  /* TGRS_INTEGRITY_TABLES: ops below *checked_ops had their weights checked (by this run
   * or, through a context, an earlier one); NULL for a plan checked at init. */
  uint32_t* checked_ops;
  tgrs_run_stats* stats;
  const struct tgrs_exec_observer* observer; /* NULL unless tgrs_run_observed() has one */
} tgrs_exec;

struct tgrs_op_call;
/* A run's observer and the function that reports to it (executor.c's observe). Only
 * tgrs_run_observed() names that function, so a firmware that runs through tgrs_invoke()
 * links neither it nor the reporting. */
typedef struct tgrs_exec_observer {
  void (*report)(const struct tgrs_op_call* call);
  tgrs_run_observer observer;
  void* user;
} tgrs_exec_observer;

/* tgrs_run_observed with the CONSTANTS arena a context hydrated (tgrs_invoke), or NULL. */
tgrs_status tgrs_run_staged_(const tgrs_plan* plan, const tgrs_arenas* arenas,
                             const uint8_t* staged, const tgrs_input_buffer* inputs,
                             uint32_t num_inputs, const tgrs_output_buffer* outputs,
                             uint32_t num_outputs, tgrs_run_stats* stats,
                             const tgrs_exec_observer* observer, uint32_t* checked_ops);

/* --- plan_integrity.c: under TGRS_INTEGRITY_TABLES, checks the weights ops
 * [*ex->checked_ops, op_end) read (a staged constant in its CONSTANTS copy) and advances
 * *ex->checked_ops; TGRS_ERR_PLAN_CORRUPT with stats->failed_op on a damaged one. */
tgrs_status tgrs_exec_check_weights_(tgrs_exec* ex, uint32_t op_end);

/* --- arena.c: every arena pointer the executor hands out goes through these, so the
 * high-water marks are the exact extent of what kernels and copies touch. NULL when
 * [offset, offset + bytes) leaves the arena. */
uint8_t* tgrs_exec_fast(tgrs_exec* ex, size_t offset, size_t bytes);
uint8_t* tgrs_exec_slow(tgrs_exec* ex, size_t offset, size_t bytes);
/* `bytes` at `home` in its arena (FAST, SLOW or PINNED); NULL for any other region. */
uint8_t* tgrs_exec_home(tgrs_exec* ex, const tgrs_home* home, size_t bytes);
/* Whether two homes are the same bytes: a pinned tensor's stage buffer is its whole home,
 * so its reload and spill are no copy at all. */
int tgrs_same_home(const tgrs_home* a, const tgrs_home* b);

/* --- weights.c ----------------------------------------------------------------------- */
/* Fills the fast prefix with the stage's weight block unless it is already there. */
tgrs_status tgrs_exec_load_weights(tgrs_exec* ex, const tgrs_plan_stage* stage);
/* Bytes of constant tensor `tensor` (in place with xip, else in the loaded block); NULL
 * when the weight is in a block that is not loaded. */
const void* tgrs_exec_weight(tgrs_exec* ex, const tgrs_plan_tensor* tensor);

/* --- host_io.c: caller buffers (ONNX layout) <-> runtime layout ----------------------- */
/* Bytes of one row (H step) of a rank-4 runtime tensor [N, H, W, C]: W * C * elem; the
 * whole tensor for other ranks (they are never row-tiled). */
size_t tgrs_row_bytes(const tgrs_plan_tensor* t);
/* Rows of the tensor: H for rank 4, else 1. */
int32_t tgrs_tensor_rows(const tgrs_plan_tensor* t);
/* Columns (W) and channels (C) of a rank-4 runtime tensor; 1 for other ranks. */
int32_t tgrs_tensor_cols(const tgrs_plan_tensor* t);
int32_t tgrs_tensor_chans(const tgrs_plan_tensor* t);

/* A box of a rank-4 runtime tensor: rows [row_begin, row_end) x columns [col_begin,
 * col_end) x channels [chan_begin, chan_end), every batch; a strip holding it is laid out
 * [N, rows, cols, chans]. Other ranks are always whole (one row, column and channel). */
typedef struct tgrs_box {
  int32_t row_begin, row_end;
  int32_t col_begin, col_end;
  int32_t chan_begin, chan_end;
} tgrs_box;
/* The whole tensor as a box. */
tgrs_box tgrs_whole_box(const tgrs_plan_tensor* t);

/* Copies box `b` of graph input `t` from the caller's ONNX-layout buffer into `dst` (layout
 * [N, rows, cols, C]): runtime = transpose(onnx, host_permutation).
 * TGRS_ERR_INCONSISTENT_PLAN when onnx_shape / host_permutation disagree with the shape. */
tgrs_status tgrs_host_to_runtime(const tgrs_plan_tensor* t, const uint8_t* host, uint8_t* dst,
                                 const tgrs_box* b);
/* The reverse for graph outputs: onnx = transpose(runtime, host_permutation). */
tgrs_status tgrs_runtime_to_host(const tgrs_plan_tensor* t, const uint8_t* src, uint8_t* host,
                                 const tgrs_box* b);
/* Copies box `b` between a whole runtime-layout tensor `whole` (slow home) and a strip
 * [N, rows, cols, C]. to_strip selects the direction. */
void tgrs_copy_box(const tgrs_plan_tensor* t, uint8_t* whole, uint8_t* strip, const tgrs_box* b,
                   int to_strip);

/* --- lookups (executor.c) ------------------------------------------------------------ */
/* Index into the plan's inputs / outputs of tensor `tensor`, or -1. */
int32_t tgrs_exec_graph_input(const tgrs_exec* ex, int32_t tensor);
int32_t tgrs_exec_graph_output(const tgrs_exec* ex, int32_t tensor);
/* The whole-tensor home of `tensor` between stages (Plan.slow_buffers: in the SLOW arena,
 * or the PINNED one for a tensor rules pinned): 1 and *out, or 0 when it has none. */
int tgrs_exec_slow_home(const tgrs_exec* ex, int32_t tensor, tgrs_home* out);
/* Records where a failure happened and returns `status`. */
tgrs_status tgrs_exec_fail(tgrs_exec* ex, tgrs_status status, int32_t op);

/* --- one op -------------------------------------------------------------------------- */

/* An operand as the stage runner resolved it. */
typedef struct tgrs_operand {
  int32_t index; /* tensor index, -1 when absent */
  tgrs_plan_tensor tensor;
  void* data;        /* arena, weight or NULL */
  int32_t row_begin; /* first row held (rank-4 H); 0 for whole tensors */
  int32_t rows;      /* rows held; the full height for whole tensors */
  /* Columns held (rank-4 W): [col_begin, col_begin + cols). A 2-D tile's strip holds a
   * narrower [N, rows, cols, C] view; the kernels see it as a tensor of width cols. */
  int32_t col_begin;
  int32_t cols;
  /* Channels held (rank-4 C): [chan_begin, chan_begin + chans); a channel group's strip
   * holds [N, rows, cols, chans] and the kernels see chans channels. */
  int32_t chan_begin;
  int32_t chans;
} tgrs_operand;

/* The box of an operand: the rows and columns its buffer holds. */
tgrs_box tgrs_operand_box(const tgrs_operand* o);

/* Outputs of one op: one, except the recurrent ops (Y, Y_h and LSTM's Y_c). An operand
 * embeds its tgrs_plan_tensor (136 bytes on x86-64, 76 on a 32-bit MCU), and a tgrs_op_call
 * lives on the stack of every op run: sizing out[] like in[] cost 1.2 KB of MCU stack for
 * nothing, so a build pays for more outputs only when it selects an op that has them. */
#define TGRS_EXEC_MAX_OUTPUTS (TGRS_OP_ON(LSTM) ? 3 : TGRS_OP_ON(GRU) || TGRS_OP_ON(RNN) ? 2 : 1)

typedef struct tgrs_op_call {
  tgrs_exec* ex;
  uint32_t index;
  /* The fields every op function reads (tgrs_read_op_core_); the op's other fields are
   * read from its table, and its attributes from its OpAttrs table (NULL without one),
   * where an op function needs them (tgrs_read_*_, plan_internal.h): nothing per tile is
   * decoded that the op does not read. */
  tgrs_plan_op op;
  const uint8_t* table;
  const uint8_t* attrs;
  uint32_t num_inputs, num_outputs;
  tgrs_operand in[TGRS_EXEC_MAX_OPERANDS];
  tgrs_operand out[TGRS_EXEC_MAX_OUTPUTS];
  tgrs_row_window window; /* the tile's rows, or the full window */
  int tiled;              /* 1 inside a tile loop */
  /* 2-D tiles: the first input column held (in[0]) and the first output column computed;
   * spatial ops shift their left padding by in_col_begin - out_col_begin * stride_w so a
   * kernel run on the column view reads exactly the taps it reads on the whole tensor. */
  int columns;
  int32_t in_col_begin, out_col_begin;
  void* scratch;
  size_t scratch_bytes;
} tgrs_op_call;

/* stage_normal.c / stage_tiled.c / op_call.c */
tgrs_status tgrs_run_normal_stage(tgrs_exec* ex, uint32_t index, const tgrs_plan_stage* stage);
tgrs_status tgrs_run_tile_loop(tgrs_exec* ex, const tgrs_plan_tile* tile);
/* Reads op `index` and its attributes into call (operands left for the caller). */
tgrs_status tgrs_op_call_begin(tgrs_exec* ex, uint32_t index, tgrs_op_call* call);
/* Resolves a constant operand (weight) or marks an absent one; returns 1 when handled, 0
 * when the operand is an activation the stage runner must place, -1 on failure. */
int tgrs_op_call_constant(tgrs_op_call* call, tgrs_operand* operand, int32_t tensor);

/* op_dispatch.c: runs the kernel for call->op.code. */
tgrs_status tgrs_exec_op(tgrs_op_call* call);

/* executor.c: reports the rows call->out[0] holds to the run's observer, if it has one. */
void tgrs_exec_report(const tgrs_op_call* call);

#endif /* TIGRIS_RUNTIME_EXEC_INTERNAL_H_ */
