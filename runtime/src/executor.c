/*
 * executor.c: tgrs_run(), argument validation and the stage loop (docs/runtime-executor.md).
 * Each stage has the fast arena to itself (docs/memory-model.md "Stages and spills"), so
 * the loop only dispatches: normal stages to stage_normal.c, tiled stages and chains to
 * stage_tiled.c.
 */
#include <string.h>

#include "exec_internal.h"
#include "fb_read.h"
#include "plan_internal.h"

const char* tgrs_executor_status_name(tgrs_status status) { return tgrs_status_name(status); }

static int misaligned(const void* p) { return ((uintptr_t)p % TGRS_ARENA_ALIGNMENT) != 0; }

/* Sizes, counts and alignment, before any byte is touched. */
static tgrs_status check_arguments(const tgrs_plan* plan, const tgrs_arenas* arenas,
                                   const tgrs_input_buffer* inputs, uint32_t num_inputs,
                                   const tgrs_output_buffer* outputs, uint32_t num_outputs) {
  const tgrs_i32s in = tgrs_plan_inputs(plan), out = tgrs_plan_outputs(plan);
  const uint32_t fast_needed = tgrs_plan_fast_arena_bytes(plan);
  const uint32_t slow_needed = tgrs_plan_slow_arena_bytes(plan);
  uint32_t i;
  if (fast_needed > 0) {
    if (arenas->fast == NULL || arenas->fast_size < fast_needed) return TGRS_ERR_ARENA_TOO_SMALL;
    if (misaligned(arenas->fast)) return TGRS_ERR_ARENA_MISALIGNED;
  }
  if (slow_needed > 0) {
    if (arenas->slow == NULL || arenas->slow_size < slow_needed) {
      return TGRS_ERR_SLOW_ARENA_TOO_SMALL;
    }
    if (misaligned(arenas->slow)) return TGRS_ERR_SLOW_ARENA_MISALIGNED;
  }
#if TGRS_WITH_PINNED
  {
    const uint32_t pinned_needed = tgrs_plan_pinned_arena_bytes(plan);
    if (pinned_needed > 0) {
      if (arenas->pinned == NULL || arenas->pinned_size < pinned_needed) {
        return TGRS_ERR_ARENA_TOO_SMALL;
      }
      if (misaligned(arenas->pinned)) return TGRS_ERR_ARENA_MISALIGNED;
    }
  }
#endif
  if (num_inputs != in.count) return TGRS_ERR_INPUT_COUNT;
  if (num_outputs != out.count) return TGRS_ERR_OUTPUT_COUNT;
  if (num_inputs > 0 && inputs == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (num_outputs > 0 && outputs == NULL) return TGRS_ERR_NULL_ARGUMENT;
  for (i = 0; i < in.count; ++i) {
    tgrs_plan_tensor t;
    if (tgrs_plan_get_tensor(plan, (uint32_t)in.data[i], &t) != TGRS_OK) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    if (inputs[i].data == NULL || inputs[i].size != tgrs_plan_tensor_bytes(&t)) {
      return TGRS_ERR_INPUT_SIZE;
    }
  }
  for (i = 0; i < out.count; ++i) {
    tgrs_plan_tensor t;
    if (tgrs_plan_get_tensor(plan, (uint32_t)out.data[i], &t) != TGRS_OK) {
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    if (outputs[i].data == NULL || outputs[i].size != tgrs_plan_tensor_bytes(&t)) {
      return TGRS_ERR_OUTPUT_SIZE;
    }
  }
  return TGRS_OK;
}

/* One past the last op stage `index` runs: its own, or a chain head's whole chain's. */
static uint32_t stage_op_end(const tgrs_exec* ex, uint32_t index, const tgrs_plan_stage* stage) {
  uint32_t end = 0, k;
  tgrs_i32s ops = stage->ops;
  if (stage->strategy == TGRS_STRATEGY_CHAIN && stage->chain >= 0) {
    const tgrs_i32s stages = tgrs_read_i32s_(
        tgrs_vec_table_(ex->plan->chains_, (uint32_t)stage->chain), FB_CHAIN_STAGES);
    if (stages.count == 0 || stages.data[0] != (int32_t)index) return 0; /* ran with the head */
    ops = tgrs_read_i32s_(
        tgrs_vec_table_(ex->plan->stages_, (uint32_t)stages.data[stages.count - 1]), FB_STAGE_OPS);
  }
  for (k = 0; k < ops.count; ++k) {
    if (ops.data[k] >= 0 && (uint32_t)ops.data[k] + 1u > end) end = (uint32_t)ops.data[k] + 1u;
  }
  return end;
}

/* TGRS_INTEGRITY_TABLES: the weights this stage reads, the first time they are read
 * (plan_integrity.c); its compressed block before it is decoded. */
static tgrs_status check_stage_weights(tgrs_exec* ex, uint32_t index,
                                       const tgrs_plan_stage* stage) {
  const uint32_t end = stage_op_end(ex, index, stage);
  if (end <= *ex->checked_ops) return TGRS_OK;
  if (stage->weight_block >= 0) {
    const tgrs_status st = tgrs_check_block_(ex->plan, (uint32_t)stage->weight_block, NULL);
    if (st != TGRS_OK) return st;
  }
  return tgrs_exec_check_weights_(ex, end);
}

/* A chain runs once, when its first stage comes up; its other stages are then done. */
static tgrs_status run_stage(tgrs_exec* ex, uint32_t index, const tgrs_plan_stage* stage) {
  tgrs_plan_tile tile;
  const uint8_t* chain;
  tgrs_i32s chain_stages;
  tgrs_status st = ex->checked_ops != NULL ? check_stage_weights(ex, index, stage) : TGRS_OK;
  if (st != TGRS_OK) return st;
  st = tgrs_exec_load_weights(ex, stage);
  if (st != TGRS_OK) return st;
  switch (stage->strategy) {
    case TGRS_STRATEGY_NORMAL:
      return tgrs_run_normal_stage(ex, index, stage);
    case TGRS_STRATEGY_TILED:
      st = tgrs_read_tile_(
          tgrs_read_table_(tgrs_vec_table_(ex->plan->stages_, index), FB_STAGE_TILE), &tile);
      return st != TGRS_OK ? TGRS_ERR_INCONSISTENT_PLAN : tgrs_run_tile_loop(ex, &tile);
    case TGRS_STRATEGY_CHAIN:
      chain = stage->chain >= 0 ? tgrs_vec_table_(ex->plan->chains_, (uint32_t)stage->chain) : NULL;
      chain_stages = tgrs_read_i32s_(chain, FB_CHAIN_STAGES);
      if (chain_stages.count == 0) return TGRS_ERR_INCONSISTENT_PLAN;
      if (chain_stages.data[0] != (int32_t)index) return TGRS_OK; /* ran with the first */
      st = tgrs_read_tile_(tgrs_read_table_(chain, FB_CHAIN_TILE), &tile);
      return st != TGRS_OK ? TGRS_ERR_INCONSISTENT_PLAN : tgrs_run_tile_loop(ex, &tile);
  }
  return TGRS_ERR_INCONSISTENT_PLAN;
}

/* The rows call->out[0] holds, to tgrs_run_observed's observer. */
static void observe(const tgrs_op_call* call) {
  const tgrs_operand* out = &call->out[0];
  tgrs_op_rows r;
  if (call->num_outputs == 0 || out->data == NULL || out->rows == 0) {
    return; /* a reduction's band that completes no output row reports nothing */
  }
  r.op = call->index;
  r.tensor = out->index;
  r.row_begin = out->row_begin;
  r.rows = out->rows;
  r.data = out->data;
  if (out->tensor.shape.count == 4) {
    const int32_t width = tgrs_tensor_cols(&out->tensor);
    const int32_t depth = tgrs_tensor_chans(&out->tensor);
    r.col_begin = out->col_begin;
    r.cols = out->cols;
    r.chan_begin = out->chan_begin;
    r.chans = out->chans;
    r.bytes = width > 0 && depth > 0
                  ? (size_t)out->tensor.shape.data[0] * (size_t)out->rows *
                        (tgrs_row_bytes(&out->tensor) / (size_t)width / (size_t)depth) *
                        (size_t)out->cols * (size_t)out->chans
                  : 0;
  } else {
    r.col_begin = r.chan_begin = 0;
    r.cols = r.chans = 1;
    r.bytes = (size_t)tgrs_plan_tensor_bytes(&out->tensor);
  }
  call->ex->observer->observer(call->ex->observer->user, &r);
}

tgrs_status tgrs_run(const tgrs_plan* plan, const tgrs_arenas* arenas,
                     const tgrs_input_buffer* inputs, uint32_t num_inputs,
                     const tgrs_output_buffer* outputs, uint32_t num_outputs,
                     tgrs_run_stats* stats) {
  return tgrs_run_observed(plan, arenas, inputs, num_inputs, outputs, num_outputs, stats, NULL,
                           NULL);
}

tgrs_status tgrs_run_observed(const tgrs_plan* plan, const tgrs_arenas* arenas,
                              const tgrs_input_buffer* inputs, uint32_t num_inputs,
                              const tgrs_output_buffer* outputs, uint32_t num_outputs,
                              tgrs_run_stats* stats, tgrs_run_observer observer, void* user) {
  tgrs_exec_observer hook;
  hook.report = observe;
  hook.observer = observer;
  hook.user = user;
  return tgrs_run_staged_(plan, arenas, NULL, inputs, num_inputs, outputs, num_outputs, stats,
                          observer != NULL ? &hook : NULL, NULL);
}

tgrs_status tgrs_run_staged_(const tgrs_plan* plan, const tgrs_arenas* arenas,
                             const uint8_t* staged, const tgrs_input_buffer* inputs,
                             uint32_t num_inputs, const tgrs_output_buffer* outputs,
                             uint32_t num_outputs, tgrs_run_stats* stats,
                             const tgrs_exec_observer* observer, uint32_t* checked_ops) {
  tgrs_run_stats local_stats;
  uint32_t run_checked_ops = 0; /* without a context: every run checks as it goes */
  tgrs_exec ex;
  tgrs_status st;
  uint32_t s, stage_count;
  if (stats == NULL) stats = &local_stats;
  memset(stats, 0, sizeof *stats);
  stats->failed_stage = -1;
  stats->failed_op = -1;
  if (plan == NULL || arenas == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (plan->root_ == NULL || plan->error.status != TGRS_OK) return TGRS_ERR_PLAN_NOT_VERIFIED;
  st = check_arguments(plan, arenas, inputs, num_inputs, outputs, num_outputs);
  if (st != TGRS_OK) return st;

  memset(&ex, 0, sizeof ex);
  ex.plan = plan;
  ex.fast = (uint8_t*)arenas->fast;
  ex.fast_size = arenas->fast_size;
  ex.slow = (uint8_t*)arenas->slow;
  ex.slow_size = arenas->slow_size;
#if TGRS_WITH_PINNED
  if (tgrs_plan_pinned_arena_bytes(plan) > 0) {
    ex.pinned = (uint8_t*)arenas->pinned;
    ex.pinned_size = arenas->pinned_size;
  }
#endif
  ex.inputs = inputs;
  ex.outputs = outputs;
  ex.loaded_block = -1;
#if TGRS_WITH_STAGED_CONSTANTS /* else the verifier refused plans that stage any */
  ex.staged = staged;
  ex.staged_begin = tgrs_plan_staged_offset(plan);
  ex.staged_bytes = (uint32_t)tgrs_plan_staged_constants(plan).count;
#else
  (void)staged;
#endif
  ex.stats = stats;
  ex.observer = observer;
  if (plan->integrity_mode_ == TGRS_INTEGRITY_TABLES) {
    ex.checked_ops = checked_ops != NULL ? checked_ops : &run_checked_ops;
  }
  stage_count = tgrs_plan_stage_count(plan);
  for (s = 0; s < stage_count; ++s) {
    tgrs_plan_stage stage;
    if (tgrs_plan_get_stage(plan, s, &stage) != TGRS_OK) {
      stats->failed_stage = (int32_t)s;
      return TGRS_ERR_INCONSISTENT_PLAN;
    }
    st = run_stage(&ex, s, &stage);
    if (st != TGRS_OK) {
      stats->failed_stage = (int32_t)s;
      return st;
    }
    stats->stages_run++;
  }
  return TGRS_OK;
}
