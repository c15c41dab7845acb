/*
 * stage_normal.c: a NORMAL stage (docs/memory-model.md, "Lifetimes"): whole tensors at the
 * fast offsets the plan stores. A buffer entering at op s that op s does not produce is a
 * graph input (copied from the caller, permuted to the runtime layout) or a spilled tensor
 * (reloaded from its slow home); it is loaded exactly at step s, because before s its bytes
 * may still belong to another live buffer. Spilled tensors and graph outputs are still live
 * at the end of the stage, where they are written out. A tensor placement rules pinned to
 * another memory (schema 4) has its buffers in the PINNED arena at its whole home: its
 * reload and spill are then no copy, and kernels read and write it there.
 */
#include "exec_internal.h"
#include "fb_read.h"
#include "plan_internal.h"

static int produced_by(const tgrs_plan_op* op, int32_t tensor) {
  uint32_t i;
  for (i = 0; i < op->outputs.count; ++i) {
    if (op->outputs.data[i] == tensor) return 1;
  }
  return 0;
}

/* The stage's TENSOR (or SCRATCH) buffer of `tensor` (or of op `op`) live at `step`: in the
 * fast arena, or a pinned tensor's in the PINNED one. */
static int find_buffer(const tgrs_exec* ex, uint32_t stage_index, tgrs_buffer_kind kind,
                       int32_t tensor, int32_t step, tgrs_plan_buffer* out) {
  const uint32_t regions =
      (1u << TGRS_REGION_FAST) |
      (TGRS_WITH_PINNED && kind == TGRS_BUFFER_TENSOR ? 1u << TGRS_REGION_PINNED : 0u);
  return tgrs_find_buffer_(tgrs_plan_stage_buffers_(ex->plan, stage_index), (int32_t)kind,
                           kind == TGRS_BUFFER_SCRATCH ? step : tensor, step, regions, out);
}

/* Loads one buffer entering at its first op from the caller or the slow arena. */
static tgrs_status load_buffer(tgrs_exec* ex, const tgrs_plan_buffer* b) {
  tgrs_plan_tensor t;
  uint8_t* dst;
  const int32_t input = tgrs_exec_graph_input(ex, b->tensor);
  tgrs_box whole;
  if (tgrs_plan_get_tensor(ex->plan, (uint32_t)b->tensor, &t) != TGRS_OK ||
      b->bytes != tgrs_plan_tensor_bytes(&t)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  whole = tgrs_whole_box(&t);
  dst = tgrs_exec_home(ex, &b->home, b->bytes);
  if (dst == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  if (input >= 0) {
    return tgrs_host_to_runtime(&t, (const uint8_t*)ex->inputs[input].data, dst, &whole);
  } else {
    tgrs_home home;
    uint8_t* src;
    if (!tgrs_exec_slow_home(ex, b->tensor, &home)) return TGRS_ERR_INCONSISTENT_PLAN;
    if (TGRS_WITH_PINNED && tgrs_same_home(&home, &b->home)) return TGRS_OK; /* pinned */
    src = tgrs_exec_home(ex, &home, b->bytes);
    if (src == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
    tgrs_copy_box(&t, src, dst, &whole, 1);
  }
  return TGRS_OK;
}

static tgrs_status place(tgrs_exec* ex, uint32_t si, int32_t step, tgrs_operand* operand) {
  tgrs_plan_buffer b;
  if (!find_buffer(ex, si, TGRS_BUFFER_TENSOR, operand->index, step, &b) ||
      b.bytes != tgrs_plan_tensor_bytes(&operand->tensor)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  operand->data = tgrs_exec_home(ex, &b.home, b.bytes);
  return operand->data != NULL ? TGRS_OK : TGRS_ERR_INCONSISTENT_PLAN;
}

static tgrs_status run_op(tgrs_exec* ex, const tgrs_plan_stage* stage, uint32_t si, int32_t step) {
  tgrs_op_call call;
  tgrs_plan_buffer b;
  uint32_t i;
  const uint8_t* buffers = tgrs_plan_stage_buffers_(ex->plan, si);
  tgrs_status st = tgrs_op_call_begin(ex, (uint32_t)step, &call);
  if (st != TGRS_OK) return st;
  /* Buffers entering at this step that the op does not produce are loaded now. */
  for (i = 0; i < stage->buffer_count; ++i) {
    tgrs_read_buffer_(buffers, i, &b);
    if (b.kind != TGRS_BUFFER_TENSOR || b.first_op != step || b.tensor < 0 ||
        produced_by(&call.op, b.tensor)) {
      continue;
    }
    st = load_buffer(ex, &b);
    if (st != TGRS_OK) return st;
  }
  for (i = 0; i < call.num_inputs; ++i) {
    const int r = tgrs_op_call_constant(&call, &call.in[i], call.op.inputs.data[i]);
    if (r < 0) return TGRS_ERR_INCONSISTENT_PLAN;
    if (r == 0 && (st = place(ex, si, step, &call.in[i])) != TGRS_OK) return st;
  }
  for (i = 0; i < call.num_outputs; ++i) {
    const int r = tgrs_op_call_constant(&call, &call.out[i], call.op.outputs.data[i]);
    if (r != 0) return TGRS_ERR_INCONSISTENT_PLAN; /* outputs are activations */
    if ((st = place(ex, si, step, &call.out[i])) != TGRS_OK) return st;
  }
  if (find_buffer(ex, si, TGRS_BUFFER_SCRATCH, -1, step, &b)) {
    call.scratch = tgrs_exec_fast(ex, b.home.offset, b.bytes);
    call.scratch_bytes = b.bytes;
    if (call.scratch == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  call.window = tgrs_row_window_full(call.in[0].rows, call.out[0].rows);
  st = tgrs_exec_op(&call);
  ex->stats->ops_run++;
  if (st == TGRS_OK) tgrs_exec_report(&call);
  return st;
}

/* Writes a tensor still live at the stage's last op to its slow home and/or the caller. */
static tgrs_status write_out(tgrs_exec* ex, const tgrs_plan_stage* stage, uint32_t si,
                             int32_t tensor, int to_slow) {
  const int32_t last = stage->ops.data[stage->ops.count - 1];
  tgrs_plan_buffer b;
  tgrs_plan_tensor t;
  tgrs_box whole;
  uint8_t* src;
  if (tgrs_plan_get_tensor(ex->plan, (uint32_t)tensor, &t) != TGRS_OK ||
      !find_buffer(ex, si, TGRS_BUFFER_TENSOR, tensor, last, &b) ||
      b.bytes != tgrs_plan_tensor_bytes(&t)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  src = tgrs_exec_home(ex, &b.home, b.bytes);
  if (src == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  whole = tgrs_whole_box(&t);
  if (to_slow) {
    tgrs_home home;
    uint8_t* dst;
    if (!tgrs_exec_slow_home(ex, tensor, &home)) return TGRS_ERR_INCONSISTENT_PLAN;
    if (TGRS_WITH_PINNED && tgrs_same_home(&home, &b.home)) return TGRS_OK; /* pinned */
    dst = tgrs_exec_home(ex, &home, b.bytes);
    if (dst == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
    tgrs_copy_box(&t, dst, src, &whole, 0);
    return TGRS_OK;
  }
  {
    const int32_t o = tgrs_exec_graph_output(ex, tensor);
    return tgrs_runtime_to_host(&t, src, (uint8_t*)ex->outputs[o].data, &whole);
  }
}

tgrs_status tgrs_run_normal_stage(tgrs_exec* ex, uint32_t si, const tgrs_plan_stage* stage) {
  uint32_t i, k;
  tgrs_status st;
  if (stage->ops.count == 0) return TGRS_OK;
  for (i = 0; i < stage->ops.count; ++i) {
    st = run_op(ex, stage, si, stage->ops.data[i]);
    if (st != TGRS_OK) return tgrs_exec_fail(ex, st, stage->ops.data[i]);
  }
  for (i = 0; i < stage->spill_out.count; ++i) {
    st = write_out(ex, stage, si, stage->spill_out.data[i], 1);
    if (st != TGRS_OK) return st;
  }
  /* Graph outputs produced by this stage's ops. */
  for (i = 0; i < stage->ops.count; ++i) {
    const tgrs_i32s outputs = tgrs_read_i32s_(
        tgrs_vec_table_(ex->plan->ops_, (uint32_t)stage->ops.data[i]), FB_OP_OUTPUTS);
    for (k = 0; k < outputs.count; ++k) {
      if (tgrs_exec_graph_output(ex, outputs.data[k]) < 0) continue;
      st = write_out(ex, stage, si, outputs.data[k], 0);
      if (st != TGRS_OK) return st;
    }
  }
  return TGRS_OK;
}
