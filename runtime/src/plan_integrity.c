/*
 * plan_integrity.c: the plan's checksums (docs/integrity.md, format/tgrs.fbs Integrity).
 *
 * The verifier proves that a plan cannot make the runtime read or write outside its
 * buffers; it cannot tell a damaged weight or requantization multiplier from a good one.
 * A bit flipped in flash, a torn update or a bad copy then gives a device that runs and
 * answers wrongly. The compiler seals every plan with CRC-32C checksums (tgrs_plan_seal):
 * one over the tables (every byte but weight_data's payload) and one per weight blob or
 * compressed block, so a firmware can check what it uses, when it uses it. The tables are
 * checked before the verifier walks them, so damage is reported as damage rather than as
 * whatever rule the damaged byte happens to break first.
 *
 * CRC-32C rather than CRC-32 (IEEE): the same cost, and a Hamming distance of 4 (every
 * 1-, 2- and 3-bit error detected) for any message up to 2^31 bits, where CRC-32 falls to
 * HD 3 beyond 91,607 bits (Koopman, "32-Bit Cyclic Redundancy Codes for Internet
 * Applications", DSN 2002); like every CRC of degree 32 it detects every burst of up to 32
 * bits. The function itself is crc32c.c.
 */
#include <string.h>

#include "exec_internal.h"
#include "fb_read.h"
#include "verify_internal.h"

/* --- weights and blocks (on a verified plan) --------------------------------------------- */

static tgrs_status fail(tgrs_verify_error* err, tgrs_status status, unsigned field, int32_t index,
                        const char* message, uint32_t value, uint32_t limit) {
  if (err != NULL) {
    memset(err, 0, sizeof *err);
    err->status = status;
    err->depth = 1;
    err->path[0].field = tgrs_fb_field_name(field);
    err->path[0].index = index;
    err->message = message;
    err->value = value;
    err->limit = limit;
  }
  (void)message;
  return status;
}

tgrs_u8s tgrs_plan_crcs_(const tgrs_plan* plan, unsigned id) {
  tgrs_u8s out = {NULL, 0};
  const uint8_t* v = plan->integrity_ ? fb_field(plan->integrity_, id) : NULL;
  if (v != NULL) {
    v += fb_u32(v);
    out.count = fb_u32(v);
    out.data = v + 4;
  }
  return out;
}

/* The checksum sealed for weight `w` (block -1) or block `b` (w < 0), after checking that
 * the Integrity vectors have one entry each. */
static tgrs_status sealed_crc(const tgrs_plan* plan, int32_t w, uint32_t b, uint32_t* crc,
                              tgrs_verify_error* err) {
  const unsigned id = w >= 0 ? FB_INTEGRITY_WEIGHT_CRCS : FB_INTEGRITY_BLOCK_CRCS;
  const uint32_t count = w >= 0 ? tgrs_plan_weight_count(plan) : tgrs_plan_weight_block_count(plan);
  const tgrs_u8s crcs = tgrs_plan_crcs_(plan, id);
  const uint32_t index = w >= 0 ? (uint32_t)w : b;
  if (plan->integrity_ == NULL) {
    return fail(err, TGRS_ERR_NO_CHECKSUM, FB_FIELD(PLAN, INTEGRITY), -1,
                TGRS_MESSAGE("the plan carries no checksum"), 0, 0);
  }
  if (crcs.count != count) {
    return fail(err, TGRS_ERR_BAD_SIZE,
                w >= 0 ? FB_FIELD(INTEGRITY, WEIGHT_CRCS) : FB_FIELD(INTEGRITY, BLOCK_CRCS), -1,
                TGRS_MESSAGE("{v} checksums for {l} entries"), crcs.count, count);
  }
  *crc = fb_u32(crcs.data + 4u * index);
  return TGRS_OK;
}

tgrs_status tgrs_check_weight_(const tgrs_plan* plan, uint32_t w, const uint8_t* bytes,
                               tgrs_verify_error* err) {
  tgrs_plan_weight weight;
  uint32_t sealed, actual;
  if (tgrs_plan_get_weight(plan, w, &weight) != TGRS_OK) return TGRS_ERR_INCONSISTENT_PLAN;
  if (weight.block >= 0) return TGRS_OK; /* its block's checksum covers it */
  TRY(sealed_crc(plan, (int32_t)w, 0, &sealed, err));
  if (bytes == NULL) bytes = tgrs_plan_weight_data(plan).data + weight.offset;
  actual = tgrs_crc32c(0, bytes, weight.size);
  if (actual != sealed) {
    return fail(err, TGRS_ERR_PLAN_CORRUPT, FB_FIELD(PLAN, WEIGHTS), (int32_t)w,
                TGRS_MESSAGE("the weight's bytes are damaged: CRC-32C {v}, sealed as {l}"), actual,
                sealed);
  }
  return TGRS_OK;
}

tgrs_status tgrs_check_block_(const tgrs_plan* plan, uint32_t b, tgrs_verify_error* err) {
  tgrs_plan_weight_block block;
  uint32_t sealed, actual;
  if (tgrs_plan_get_weight_block(plan, b, &block) != TGRS_OK) return TGRS_ERR_INCONSISTENT_PLAN;
  TRY(sealed_crc(plan, -1, b, &sealed, err));
  actual = tgrs_crc32c(0, tgrs_plan_weight_data(plan).data + block.offset, block.compressed_size);
  if (actual != sealed) {
    return fail(err, TGRS_ERR_PLAN_CORRUPT, FB_FIELD(PLAN, WEIGHT_BLOCKS), (int32_t)b,
                TGRS_MESSAGE("the block's bytes are damaged: CRC-32C {v}, sealed as {l}"), actual,
                sealed);
  }
  return TGRS_OK;
}

tgrs_status tgrs_check_all_weights_(const tgrs_plan* plan, tgrs_verify_error* err) {
  uint32_t i;
  for (i = 0; i < tgrs_plan_weight_count(plan); ++i) TRY(tgrs_check_weight_(plan, i, NULL, err));
  for (i = 0; i < tgrs_plan_weight_block_count(plan); ++i) TRY(tgrs_check_block_(plan, i, err));
  return TGRS_OK;
}

tgrs_status tgrs_plan_check_integrity(const tgrs_plan* plan, tgrs_verify_error* error) {
  tgrs_verify_error local;
  const uint8_t* root = NULL;
  tgrs_status st;
  if (error == NULL) error = &local;
  memset(error, 0, sizeof *error);
  if (plan == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (plan->root_ == NULL || plan->error.status != TGRS_OK) {
    error->status = TGRS_ERR_PLAN_NOT_VERIFIED;
    return TGRS_ERR_PLAN_NOT_VERIFIED;
  }
  /* The whole check again, tables first: bytes that changed since tgrs_plan_init may no
   * longer be safe to walk, so they go through the verifier, which reads nothing it has
   * not bounds-checked. */
  st = tgrs_verify_plan_(plan->base_, plan->size_, TGRS_INTEGRITY_ALL, error, &root);
  if (st != TGRS_OK) return st;
  if (root != plan->root_) {
    return fail(error, TGRS_ERR_PLAN_CORRUPT, FB_FIELD(PLAN, INTEGRITY), -1,
                TGRS_MESSAGE("the plan's root moved since it was initialised"), 0, 0);
  }
  return tgrs_check_all_weights_(plan, error);
}

tgrs_checksum tgrs_plan_checksum(const tgrs_plan* plan) {
  if (plan == NULL || plan->integrity_ == NULL) return TGRS_CHECKSUM_NONE;
  return (tgrs_checksum)fb_get_u8(plan->integrity_, FB_INTEGRITY_CHECKSUM, TGRS_CHECKSUM_NONE);
}

/* --- lazy checks (TGRS_INTEGRITY_TABLES) ------------------------------------------------- */

tgrs_status tgrs_exec_check_weights_(tgrs_exec* ex, uint32_t op_end) {
  const tgrs_plan* plan = ex->plan;
  uint32_t op;
  if (plan->integrity_mode_ != TGRS_INTEGRITY_TABLES || ex->checked_ops == NULL) return TGRS_OK;
  for (op = *ex->checked_ops; op < op_end; ++op) {
    const tgrs_i32s inputs = tgrs_read_i32s_(tgrs_vec_table_(plan->ops_, op), FB_OP_INPUTS);
    uint32_t k;
    for (k = 0; k < inputs.count; ++k) {
      tgrs_plan_tensor t;
      tgrs_status st;
      if (inputs.data[k] < 0 ||
          tgrs_plan_get_tensor(plan, (uint32_t)inputs.data[k], &t) != TGRS_OK || t.weight < 0) {
        continue;
      }
      /* The bytes the op will read (tgrs_exec_weight: a staged constant's CONSTANTS copy);
       * a weight inside a block is its block's to check. The region's detail:
       * tgrs_plan_check_integrity. */
      st = tgrs_check_weight_(plan, (uint32_t)t.weight, (const uint8_t*)tgrs_exec_weight(ex, &t),
                              NULL);
      if (st != TGRS_OK) {
        ex->stats->failed_op = (int32_t)op;
        return st;
      }
    }
  }
  if (op_end > *ex->checked_ops) *ex->checked_ops = op_end;
  return TGRS_OK;
}
