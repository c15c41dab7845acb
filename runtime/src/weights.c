/*
 * weights.c: where a constant's bytes are when an op reads them (docs/plan-format.md,
 * "Weights"). With xip every weight is read in place from the plan (16-aligned in the
 * file). Otherwise each residency unit (a stage, or all stages of a chain) has one block
 * that fills fast[0, raw_size) before the unit's first stage: a plain copy when
 * compressed_size == raw_size, else an LZ4 block decoded to exactly raw_size bytes.
 * Staged constants (schema 3) are in-place weights a context copied into its CONSTANTS
 * arena before the first invoke; they are read from there when it did.
 */
#include <string.h>

#include "exec_internal.h"

tgrs_status tgrs_exec_load_weights(tgrs_exec* ex, const tgrs_plan_stage* stage) {
  tgrs_plan_weight_block block;
  uint8_t* prefix;
  size_t written = 0;
  tgrs_status st;
  if (stage->weight_block < 0) return TGRS_OK; /* xip, or a unit without constants */
  if (!TGRS_WITH_WEIGHT_BLOCKS) return TGRS_ERR_UNSUPPORTED_OP; /* tgrs_op_select.h */
  /* Consecutive stages of one unit share the block; anything in between overwrote it. */
  if (stage->weight_block == ex->loaded_block) return TGRS_OK;
  ex->loaded_block = -1;
  if (tgrs_plan_get_weight_block(ex->plan, (uint32_t)stage->weight_block, &block) != TGRS_OK ||
      block.raw_size != stage->fast_reserved_bytes || block.compressed_size > block.raw_size) {
    return TGRS_ERR_INCONSISTENT_PLAN;
  }
  prefix = tgrs_exec_fast(ex, 0, block.raw_size);
  if (prefix == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  if (block.compressed_size == block.raw_size) {
    memcpy(prefix, block.compressed, block.raw_size);
  } else {
#if TGRS_WITH_LZ4
    st = tgrs_lz4_decode(prefix, block.raw_size, block.compressed, block.compressed_size, &written);
    if (st != TGRS_OK) return st;
    if (written != block.raw_size) return TGRS_ERR_LZ4_CORRUPT;
#else
    (void)st;
    (void)written;
    return TGRS_ERR_UNSUPPORTED_OP; /* a firmware built without the decoder (tgrs_op_select.h) */
#endif
  }
  ex->loaded_block = stage->weight_block;
  return TGRS_OK;
}

const void* tgrs_exec_weight(tgrs_exec* ex, const tgrs_plan_tensor* tensor) {
  tgrs_plan_weight w;
  tgrs_plan_weight_block block;
  if (tensor->weight < 0 ||
      tgrs_plan_get_weight(ex->plan, (uint32_t)tensor->weight, &w) != TGRS_OK) {
    return NULL;
  }
  if (w.block < 0) {
    /* A staged constant, read from the arena its context hydrated (tgrs.fbs, Plan). */
    if (TGRS_WITH_STAGED_CONSTANTS && ex->staged != NULL && w.offset >= ex->staged_begin &&
        w.offset - ex->staged_begin < ex->staged_bytes &&
        w.size <= ex->staged_bytes - (w.offset - ex->staged_begin)) {
      return ex->staged + (w.offset - ex->staged_begin);
    }
    return w.data;
  }
  if (!TGRS_WITH_WEIGHT_BLOCKS || w.block != ex->loaded_block ||
      tgrs_plan_get_weight_block(ex->plan, (uint32_t)w.block, &block) != TGRS_OK ||
      w.offset > block.raw_size || w.size > block.raw_size - w.offset) {
    return NULL;
  }
  /* Inside the prefix loaded above: the high-water mark already covers it. */
  return ex->fast + w.offset;
}
