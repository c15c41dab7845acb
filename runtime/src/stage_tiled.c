/*
 * stage_tiled.c: a tile loop, for a TILED stage (one loop over its ops) and for a chain (one
 * fused loop over every op of its stages). tigris-tiling.txt "Spatial tiling" and "Chain
 * tiling"; docs/memory-model.md "Tiled and chain stages".
 *
 * Per tile, per op k of the loop, the plan's TileRegion gives the input rows with halo
 * [in_begin, in_end), the output rows [out_begin, out_end) and the border padding; they
 * map one to one onto the kernels' tgrs_row_window, so the executor computes no geometry.
 * A 2-D loop (TilePlan.columns) adds a column region per tile and op: strips then hold
 * [N, rows, cols, C] boxes, and the kernels run on that column view as if it were the
 * whole width, with the left padding shifted (tgrs_call_pad_left).
 * One buffer layout (TilePlan.buffers) serves every tile:
 *  - a data input not produced by op k - 1 comes from outside the loop: its rows are loaded
 *    into its strip at op k (from the slow arena, or from the caller for graph inputs);
 *  - op k's output strip holds its output rows; op k + 1 reads it in place (its input rows
 *    are exactly op k's output rows, TileRows walks them back that way);
 *  - the last op's rows are written to the tensor's slow home and/or the caller.
 * Only the first input and the last output of a chain touch slow memory.
 *
 * A streamed loop (tile->streamed, docs/runtime-executor.md "Streamed tile loops") computes
 * each row once: op k < last writes only the rows its reader's window gains in this tile.
 * Its output strip holds the reader's window [R.begin, R.end): before op k writes, the rows
 * [R.begin, P.end) kept from the previous tile's window P move to the strip's top, and op k
 * appends [max(P.end, R.begin), R.end) after them. The regions say all of it; the executor
 * checks each relation before it moves a byte.
 */
#include <string.h>

#include "exec_internal.h"
#include "plan_internal.h"
#include "tgrs_op_table.h"

/* The loop's ROW_STRIP buffer of `tensor` (or SCRATCH of op `op`) live at op `op`. */
static int find_strip(const tgrs_plan_tile* tile, tgrs_buffer_kind kind, int32_t tensor, int32_t op,
                      tgrs_plan_buffer* out) {
  return tgrs_find_buffer_(tile->buffers_, (int32_t)kind, kind == TGRS_BUFFER_SCRATCH ? op : tensor,
                           op, 1u << TGRS_REGION_FAST, out);
}

/* Points `operand` at box `b` of its tensor in its strip ([N, rows, cols, chans]). */
static tgrs_status place_box(tgrs_exec* ex, const tgrs_plan_tile* tile, int32_t op,
                             tgrs_operand* operand, const tgrs_box* b) {
  tgrs_plan_buffer buf;
  size_t payload;
  const int32_t n = operand->tensor.shape.count == 4 ? operand->tensor.shape.data[0] : 0;
  const int32_t width = tgrs_tensor_cols(&operand->tensor);
  const int32_t depth = tgrs_tensor_chans(&operand->tensor);
  if (n <= 0 || width <= 0 || depth <= 0) {
    return TGRS_ERR_UNSUPPORTED_OP; /* only NHWC tensors are tiled */
  }
  if (b->row_begin < 0 || b->row_end < b->row_begin ||
      b->row_end > tgrs_tensor_rows(&operand->tensor) || b->col_begin < 0 ||
      b->col_end < b->col_begin || b->col_end > width || b->chan_begin < 0 ||
      b->chan_end < b->chan_begin || b->chan_end > depth ||
      !find_strip(tile, TGRS_BUFFER_ROW_STRIP, operand->index, op, &buf)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  payload = (size_t)n * (size_t)(b->row_end - b->row_begin) *
            (tgrs_row_bytes(&operand->tensor) / (size_t)width / (size_t)depth) *
            (size_t)(b->col_end - b->col_begin) * (size_t)(b->chan_end - b->chan_begin);
  if (payload > buf.bytes) return TGRS_ERR_INCONSISTENT_PLAN;
  operand->data = tgrs_exec_fast(ex, buf.home.offset, payload);
  operand->row_begin = b->row_begin;
  operand->rows = b->row_end - b->row_begin;
  operand->col_begin = b->col_begin;
  operand->cols = b->col_end - b->col_begin;
  operand->chan_begin = b->chan_begin;
  operand->chans = b->chan_end - b->chan_begin;
  return operand->data != NULL ? TGRS_OK : TGRS_ERR_INCONSISTENT_PLAN;
}

static tgrs_status load_box(tgrs_exec* ex, const tgrs_operand* operand) {
  const int32_t input = tgrs_exec_graph_input(ex, operand->index);
  const tgrs_box b = tgrs_operand_box(operand);
  tgrs_home home;
  uint8_t* src;
  if (input >= 0) {
    return tgrs_host_to_runtime(&operand->tensor, (const uint8_t*)ex->inputs[input].data,
                                (uint8_t*)operand->data, &b);
  }
  if (!tgrs_exec_slow_home(ex, operand->index, &home)) return TGRS_ERR_INCONSISTENT_PLAN;
  src = tgrs_exec_home(ex, &home, tgrs_plan_tensor_bytes(&operand->tensor));
  if (src == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  tgrs_copy_box(&operand->tensor, src, (uint8_t*)operand->data, &b, 1);
  return TGRS_OK;
}

static tgrs_status store_box(tgrs_exec* ex, const tgrs_operand* operand) {
  const int32_t output = tgrs_exec_graph_output(ex, operand->index);
  const tgrs_box b = tgrs_operand_box(operand);
  tgrs_home home;
  if (tgrs_exec_slow_home(ex, operand->index, &home)) {
    uint8_t* dst = tgrs_exec_home(ex, &home, tgrs_plan_tensor_bytes(&operand->tensor));
    if (dst == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
    tgrs_copy_box(&operand->tensor, dst, (uint8_t*)operand->data, &b, 0);
  }
  if (output >= 0) {
    return tgrs_runtime_to_host(&operand->tensor, (const uint8_t*)operand->data,
                                (uint8_t*)ex->outputs[output].data, &b);
  }
  return TGRS_OK;
}

/* The widest tile each op's kernel computes exactly: the op table's TILES column by code
 * (tgrs_ops.def, tgrs_op_table.h), the same column the planner's column and channel
 * tiling consult first (analysis/tileability.cc). Windowed ops run on a column view
 * through their shifted left padding (tgrs_call_pad_left), global pools and a Gemm's
 * banded reduction box by box; a concat along W and any reshape but a channel shuffle
 * refuse a column view in their own op function. Bit 4 marks the BINARY kind (below). */
#define OP_BROADCASTS 0x10u
static const uint8_t op_tiles[TGRS_OP_CODE_COUNT] = {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) \
  [CODE] =                                       \
      TGRS_OP_TILES_##TILES | (TGRS_OP_KIND_##KIND == TGRS_OP_KIND_BINARY ? OP_BROADCASTS : 0u),
#include "tgrs_ops.def"
#undef TGRS_OP
};

static tgrs_op_tiles tiles_of(tgrs_op_code code) {
  return (unsigned)code < TGRS_OP_CODE_COUNT ? (tgrs_op_tiles)(op_tiles[code] & 0x0Fu)
                                             : TGRS_OP_TILES_ROWS;
}

/* An input of a BINARY-kind op (Add ... PRelu, the comparisons, Where) with one row where
 * its output has several: the rule the planner tiles by (BroadcastsAlongRows). */
static int broadcast_row(const tgrs_op_call* call, const tgrs_operand* in) {
  const tgrs_op_code code = call->op.code;
  return (unsigned)code < TGRS_OP_CODE_COUNT && (op_tiles[code] & OP_BROADCASTS) != 0 &&
         in->tensor.shape.count == 4 && tgrs_tensor_rows(&in->tensor) == 1 &&
         tgrs_tensor_rows(&call->out[0].tensor) > 1;
}

/* memmove(dst, src, n) for dst < src, as memcpy calls of at most src - dst bytes front to
 * back: no call's ranges overlap, and each writes only below the bytes still to be read.
 * memmove itself is 254 more bytes of newlib-nano; the kept rows are one call, or a few. */
static void move_down(uint8_t* dst, const uint8_t* src, size_t n) {
  const size_t step = (size_t)(src - dst);
  size_t done;
  for (done = 0; done < n; done += step) {
    memcpy(dst + done, src + done, n - done < step ? n - done : step);
  }
}

/* Streamed loops: moves the rows op slot k + 1 keeps from tile t - 1 to the top of op k's
 * output strip and points `out` at the rows op k writes in tile t (region r). */
static tgrs_status stream_output(tgrs_exec* ex, const tgrs_plan_tile* tile, uint32_t t, uint32_t k,
                                 const tgrs_tile_region* r, tgrs_operand* out) {
  const tgrs_tile_region* next = tgrs_plan_tile_region(tile, t, k + 1);
  const tgrs_tile_region* before = t > 0 ? tgrs_plan_tile_region(tile, t - 1, k + 1) : NULL;
  const int32_t kept_to = before != NULL ? before->in_end : (next != NULL ? next->in_begin : 0);
  tgrs_plan_buffer b;
  size_t row, window;
  uint8_t* strip;
  if (next == NULL || (t > 0 && before == NULL)) return TGRS_ERR_INCONSISTENT_PLAN;
  /* Batch 1 only: a strip keeps its rows as [rows, W, C]. */
  if (out->tensor.shape.count != 4 || out->tensor.shape.data[0] != 1 || next->in_begin < 0 ||
      next->in_end < next->in_begin || next->in_end > tgrs_tensor_rows(&out->tensor) ||
      (before != NULL && (next->in_begin < before->in_begin || before->in_end > next->in_end)) ||
      r->out_begin != (kept_to > next->in_begin ? kept_to : next->in_begin) ||
      r->out_end != next->in_end ||
      !find_strip(tile, TGRS_BUFFER_ROW_STRIP, out->index, tile->ops.data[k], &b)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  row = tgrs_row_bytes(&out->tensor);
  window = (size_t)(next->in_end - next->in_begin) * row;
  if (before != NULL && (size_t)(before->in_end - before->in_begin) * row > window) {
    window = (size_t)(before->in_end - before->in_begin) * row;
  }
  if (window > b.bytes) return TGRS_ERR_INCONSISTENT_PLAN;
  strip = tgrs_exec_fast(ex, b.home.offset, window > 0 ? window : 1);
  if (strip == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  if (before != NULL && next->in_begin > before->in_begin && before->in_end > next->in_begin) {
    move_down(strip, strip + (size_t)(next->in_begin - before->in_begin) * row,
              (size_t)(before->in_end - next->in_begin) * row);
  }
  out->data = strip + (size_t)(r->out_begin - next->in_begin) * row;
  out->row_begin = r->out_begin;
  out->rows = r->out_end - r->out_begin;
  return TGRS_OK;
}

/* The box an operand of op slot k reads or writes in tile t: rows from the region, columns
 * from the column region (the full width without one), channels from the channel region
 * (every channel without one). */
static tgrs_box tile_box(const tgrs_operand* o, int32_t row_begin, int32_t row_end,
                         const tgrs_tile_region* cols, const tgrs_tile_region* chans, int output) {
  tgrs_box b;
  b.row_begin = row_begin;
  b.row_end = row_end;
  b.col_begin = cols == NULL ? 0 : (output ? cols->out_begin : cols->in_begin);
  b.col_end = cols == NULL ? tgrs_tensor_cols(&o->tensor) : (output ? cols->out_end : cols->in_end);
  b.chan_begin = chans == NULL ? 0 : (output ? chans->out_begin : chans->in_begin);
  b.chan_end =
      chans == NULL ? tgrs_tensor_chans(&o->tensor) : (output ? chans->out_end : chans->in_end);
  return b;
}

/* Op slot k of tile t. prev_out: the tensor op k - 1 produced (-1 for k = 0). */
static tgrs_status run_tile_op(tgrs_exec* ex, const tgrs_plan_tile* tile, uint32_t t, uint32_t k,
                               int32_t* prev_out, const tgrs_tile_region** prev,
                               const tgrs_tile_region** prev_cols,
                               const tgrs_tile_region** prev_chans) {
  const int32_t op = tile->ops.data[k];
  const tgrs_tile_region* r = tgrs_plan_tile_region(tile, t, k);
  /* NULL constants in a build without 2-D tiles or channel groups: their code drops out. */
  const tgrs_tile_region* cols = TGRS_WITH_TILE_COLUMNS ? tgrs_plan_tile_columns(tile, t, k) : NULL;
  const tgrs_tile_region* chans =
      TGRS_WITH_TILE_CHANNELS ? tgrs_plan_tile_channels(tile, t, k) : NULL;
  /* The last op's rows leave the loop; every other op of a streamed loop streams. */
  const int streamed = tile->streamed && k + 1 < tile->ops.count;
  tgrs_op_call call;
  tgrs_plan_buffer scratch;
  tgrs_box box;
  uint32_t i;
  tgrs_status st;
  if (r == NULL || (tile->column_count != 0 && cols == NULL) ||
      (tile->channel_count != 0 &&
       (chans == NULL || (k > 0 && *prev_chans != NULL &&
                          ((*prev_chans)->out_begin != chans->in_begin ||
                           (*prev_chans)->out_end != chans->in_end))))) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  st = tgrs_op_call_begin(ex, (uint32_t)op, &call);
  if (st != TGRS_OK) return st;
  if (call.num_outputs != 1) return TGRS_ERR_UNSUPPORTED_OP;
  if ((cols != NULL && tiles_of(call.op.code) < TGRS_OP_TILES_COLUMNS) ||
      (chans != NULL && tiles_of(call.op.code) < TGRS_OP_TILES_CHANNELS)) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* A channel-wise op reads the channels it writes (a convolution checks its own input:
   * every channel, ops_conv.c). */
  if (chans != NULL && tiles_of(call.op.code) != TGRS_OP_TILES_OUT_CHANNELS &&
      (chans->in_begin != chans->out_begin || chans->in_end != chans->out_end)) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (tgrs_op_call_constant(&call, &call.out[0], call.op.outputs.data[0]) != 0) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (streamed) {
    st = stream_output(ex, tile, t, k, r, &call.out[0]);
    if (st != TGRS_OK) return st;
    if (call.out[0].rows == 0) { /* nothing new in this tile; the strip keeps its rows */
      *prev_out = call.out[0].index;
      *prev = r;
      return TGRS_OK;
    }
  }
  for (i = 0; i < call.num_inputs; ++i) {
    tgrs_operand* in = &call.in[i];
    const int c = tgrs_op_call_constant(&call, in, call.op.inputs.data[i]);
    if (c < 0) return TGRS_ERR_INCONSISTENT_PLAN;
    if (c > 0) continue;
    if (broadcast_row(&call, in)) {
      /* One row (a squeeze-excite scale) under an output of several: every tile reads it
       * whole and the kernel broadcasts it (the planner's BroadcastsAlongRows); under a
       * column view it must be one column too. */
      box = tile_box(in, 0, 1, NULL, NULL, 0);
      if ((cols != NULL && box.col_end != 1) || chans != NULL) return TGRS_ERR_INCONSISTENT_PLAN;
    } else {
      box = tile_box(in, r->in_begin, r->in_end, cols, chans, 0);
    }
    st = place_box(ex, tile, op, in, &box);
    if (st != TGRS_OK) return st;
    if (in->index == *prev_out) {
      /* Produced by op k - 1 in this tile: its output box must be this box (streamed:
       * stream_output checked that they complete the rows its strip kept). */
      if (!tile->streamed && ((*prev)->out_begin != r->in_begin || (*prev)->out_end != r->in_end)) {
        return TGRS_ERR_INCONSISTENT_PLAN;
      }
      if (cols != NULL &&
          ((*prev_cols)->out_begin != cols->in_begin || (*prev_cols)->out_end != cols->in_end)) {
        return TGRS_ERR_INCONSISTENT_PLAN;
      }
    } else if ((st = load_box(ex, in)) != TGRS_OK) {
      return st;
    }
  }
  if (!streamed) {
    box = tile_box(&call.out[0], r->out_begin, r->out_end, cols, chans, 1);
    st = place_box(ex, tile, op, &call.out[0], &box);
    if (st != TGRS_OK) return st;
  }
  if (find_strip(tile, TGRS_BUFFER_SCRATCH, -1, op, &scratch)) {
    call.scratch = tgrs_exec_fast(ex, scratch.home.offset, scratch.bytes);
    call.scratch_bytes = scratch.bytes;
    if (call.scratch == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  call.tiled = 1;
  call.window.in_row_begin = r->in_begin;
  call.window.in_rows = r->in_end - r->in_begin;
  call.window.out_row_begin = r->out_begin;
  call.window.out_row_end = r->out_end;
  if (cols != NULL) {
    call.columns = 1;
    call.in_col_begin = cols->in_begin;
    call.out_col_begin = cols->out_begin;
  }
  st = tgrs_exec_op(&call);
  ex->stats->ops_run++;
  if (st != TGRS_OK) return st;
  tgrs_exec_report(&call);
  if (k + 1 == tile->ops.count) {
    st = store_box(ex, &call.out[0]);
    if (st != TGRS_OK) return st;
  }
  *prev_out = call.out[0].index;
  *prev = r;
  *prev_cols = cols;
  *prev_chans = chans;
  return TGRS_OK;
}

tgrs_status tgrs_run_tile_loop(tgrs_exec* ex, const tgrs_plan_tile* tile) {
  uint32_t t, k;
  if ((!TGRS_WITH_TILE_COLUMNS && tile->column_count != 0) ||
      (!TGRS_WITH_TILE_CHANNELS && tile->channel_count != 0)) {
    return TGRS_ERR_UNSUPPORTED_OP;
  }
  if (tile->dim != TGRS_TILE_DIM_HEIGHT || tile->count <= 0 || tile->ops.count == 0 ||
      tile->region_count != (uint32_t)tile->count * tile->ops.count ||
      (tile->column_count != 0 && (tile->column_count != tile->region_count || tile->streamed)) ||
      (tile->channel_count != 0 && (tile->channel_count != tile->region_count || tile->streamed))) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  for (t = 0; t < (uint32_t)tile->count; ++t) {
    int32_t prev_out = -1;
    const tgrs_tile_region* prev = NULL;
    const tgrs_tile_region* prev_cols = NULL;
    const tgrs_tile_region* prev_chans = NULL;
    for (k = 0; k < tile->ops.count; ++k) {
      const tgrs_status st = run_tile_op(ex, tile, t, k, &prev_out, &prev, &prev_cols, &prev_chans);
      if (st != TGRS_OK) return tgrs_exec_fail(ex, st, tile->ops.data[k]);
    }
    ex->stats->tiles_run++;
  }
  return TGRS_OK;
}
