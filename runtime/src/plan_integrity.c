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

/* --- which bytes the tables checksum covers --------------------------------------------- */

/* Where the checksums live in a buffer that has not been verified yet: every position
 * found through the schema walker's bounds checks. 0 for what is absent. */
typedef struct crc_layout {
  uint32_t integrity;  /* the Integrity table */
  uint32_t checksum;   /* Integrity.checksum */
  uint32_t crc_at;     /* Integrity.tables_crc, the four bytes read as zero */
  uint32_t data_begin; /* weight_data's payload, left to the per-weight checksums */
  uint32_t data_end;
} crc_layout;

static tgrs_status find_layout(vctx* c, const vtab* root, crc_layout* l) {
  uint32_t at, to, len;
  vtab integrity;
  memset(l, 0, sizeof *l);
  TRY(tgrs_table_field_(c, root, TGRS_TABLE_PLAN, FB_PLAN_WEIGHT_DATA, &at, &to, &len));
  l->data_begin = l->data_end = c->size;
  if (at) {
    l->data_begin = to + 4u;
    l->data_end = to + 4u + len;
  }
  TRY(tgrs_table_field_(c, root, TGRS_TABLE_PLAN, FB_PLAN_INTEGRITY, &at, &to, NULL));
  if (!at) return TGRS_OK;
  l->integrity = to;
  tgrs_verify_push_(c, FB_FIELD(PLAN, INTEGRITY), -1);
  TRY(tgrs_check_table_(c, to, &integrity));
  TRY(tgrs_table_field_(c, &integrity, TGRS_TABLE_INTEGRITY, FB_INTEGRITY_CHECKSUM, &at, NULL,
                        NULL));
  l->checksum = at ? c->base[at] : TGRS_CHECKSUM_NONE;
  TRY(tgrs_table_field_(c, &integrity, TGRS_TABLE_INTEGRITY, FB_INTEGRITY_TABLES_CRC, &l->crc_at,
                        NULL, NULL));
  tgrs_verify_pop_(c);
  return TGRS_OK;
}

/* The CRC continued over base[from, to) with the four bytes at `hole` read as zero. */
static uint32_t crc_with_hole(uint32_t crc, const uint8_t* base, uint32_t from, uint32_t to,
                              uint32_t hole) {
  static const uint8_t zeros[4] = {0, 0, 0, 0};
  uint32_t p = from;
  if (hole + 4u > from && hole < to) {
    const uint32_t zero_begin = hole > from ? hole : from;
    const uint32_t zero_end = hole + 4u < to ? hole + 4u : to;
    crc = tgrs_crc32c(crc, base + from, zero_begin - from);
    crc = tgrs_crc32c(crc, zeros, zero_end - zero_begin);
    p = zero_end;
  }
  return tgrs_crc32c(crc, base + p, to - p);
}

static uint32_t tables_crc(const uint8_t* base, uint32_t size, const crc_layout* l) {
  const uint32_t crc = crc_with_hole(0, base, 0, l->data_begin, l->crc_at);
  return crc_with_hole(crc, base, l->data_end, size, l->crc_at);
}

tgrs_status tgrs_check_tables_crc_(vctx* c, const vtab* root, uint32_t* integrity) {
  crc_layout l;
  uint32_t actual;
  *integrity = 0;
  TRY(find_layout(c, root, &l));
  if (l.integrity == 0 || l.crc_at == 0 || l.checksum == TGRS_CHECKSUM_NONE) {
    return TGRS_VERIFY_FAIL(c, FB_FIELD(PLAN, INTEGRITY), TGRS_ERR_NO_CHECKSUM,
                            "the plan carries no checksum: compiled before 0.4, or this "
                            "field is damaged; recompile it, or init with TGRS_INTEGRITY_NONE",
                            0, 0);
  }
  tgrs_verify_push_(c, FB_FIELD(PLAN, INTEGRITY), -1);
  if (l.checksum != TGRS_CHECKSUM_CRC32C) {
    return TGRS_VERIFY_FAIL(c, FB_FIELD(INTEGRITY, CHECKSUM), TGRS_ERR_BAD_ENUM,
                            "unknown checksum function {v}", l.checksum, 0);
  }
  /* Spend as for the bytes read: the budget bounds work by the plan's size. */
  TRY(tgrs_verify_spend_(c, c->size / 64u));
  actual = tables_crc(c->base, c->size, &l);
  if (actual != fb_u32(c->base + l.crc_at)) {
    return TGRS_VERIFY_FAIL(c, FB_FIELD(INTEGRITY, TABLES_CRC), TGRS_ERR_PLAN_CORRUPT,
                            "the plan's tables are damaged: CRC-32C {v}, sealed as {l}", actual,
                            fb_u32(c->base + l.crc_at));
  }
  tgrs_verify_pop_(c);
  *integrity = l.integrity;
  return TGRS_OK;
}

/* --- weights and blocks (on a verified plan) --------------------------------------------- */

static tgrs_status fail(tgrs_verify_error* err, tgrs_status status, unsigned field, int32_t index,
                        const char* message, uint32_t value, uint32_t limit) {
  if (err != NULL) {
    memset(err, 0, sizeof *err);
    err->status = status;
    err->depth = 1;
    err->path[0].field = fb_field_name(field);
    err->path[0].index = index;
    err->message = message;
    err->value = value;
    err->limit = limit;
  }
  (void)message;
  return status;
}

static tgrs_u8s crcs_of(const tgrs_plan* plan, unsigned id) {
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
  const tgrs_u8s crcs = crcs_of(plan, id);
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

/* --- sealing (tools) ---------------------------------------------------------------------- */

tgrs_status tgrs_plan_seal(void* bytes, size_t size) {
  uint8_t* base = (uint8_t*)bytes;
  tgrs_verify_error error;
  tgrs_plan plan;
  vctx ctx;
  vtab root;
  crc_layout l;
  uint32_t i, crc;
  if (base == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (size < FB_HEADER_BYTES) return TGRS_ERR_PLAN_TOO_SMALL;
  if (size > FB_MAX_BUFFER) return TGRS_ERR_PLAN_TOO_LARGE;
  if ((uintptr_t)base % TGRS_PLAN_ALIGNMENT != 0) return TGRS_ERR_PLAN_MISALIGNED;
  memset(&ctx, 0, sizeof ctx);
  ctx.base = base;
  ctx.size = (uint32_t)size;
  ctx.err = &error;
  ctx.budget = 2u * (uint64_t)size + 4096u;
  TRY(tgrs_check_table_(&ctx, fb_u32(base), &root));
  TRY(find_layout(&ctx, &root, &l));
  if (l.integrity == 0 || l.crc_at == 0) return TGRS_ERR_NO_CHECKSUM;
  /* The per-weight checksums first (they lie in the tables the last one covers), and only
   * on a plan that verifies: its offsets are then known to be inside the buffer. */
  if (tgrs_plan_init_with(&plan, base, size, TGRS_INTEGRITY_NONE) == TGRS_OK) {
    const tgrs_u8s weights = crcs_of(&plan, FB_INTEGRITY_WEIGHT_CRCS);
    const tgrs_u8s blocks = crcs_of(&plan, FB_INTEGRITY_BLOCK_CRCS);
    const uint8_t* data = tgrs_plan_weight_data(&plan).data;
    for (i = 0; i < weights.count && i < tgrs_plan_weight_count(&plan); ++i) {
      tgrs_plan_weight w;
      crc = 0;
      if (tgrs_plan_get_weight(&plan, i, &w) == TGRS_OK && w.block < 0) {
        crc = tgrs_crc32c(0, data + w.offset, w.size);
      }
      memcpy(base + (weights.data - plan.base_) + 4u * i, &crc, 4);
    }
    for (i = 0; i < blocks.count && i < tgrs_plan_weight_block_count(&plan); ++i) {
      tgrs_plan_weight_block b;
      crc = 0;
      if (tgrs_plan_get_weight_block(&plan, i, &b) == TGRS_OK) {
        crc = tgrs_crc32c(0, data + b.offset, b.compressed_size);
      }
      memcpy(base + (blocks.data - plan.base_) + 4u * i, &crc, 4);
    }
  }
  crc = tables_crc(base, (uint32_t)size, &l);
  memcpy(base + l.crc_at, &crc, 4);
  return TGRS_OK;
}
