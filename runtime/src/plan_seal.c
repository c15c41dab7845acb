/*
 * plan_seal.c: tgrs_plan_seal, which the compiler calls on the plan it wrote (and the
 * fuzzers on hostile bytes): every weight's and block's CRC-32C, then the tables'
 * (docs/integrity.md). It reads the plan through tgrs_plan_init_with, so it sits above the
 * reader, the verifier and the checks rather than in plan_integrity.c, which they call.
 */
#include <string.h>

#include "fb_read.h"
#include "plan_internal.h"
#include "verify_internal.h"

tgrs_status tgrs_plan_seal(void* bytes, size_t size) {
  uint8_t* base = (uint8_t*)bytes;
  tgrs_verify_error error;
  tgrs_plan plan;
  vctx ctx;
  vtab root;
  tgrs_crc_layout l;
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
  TRY(tgrs_find_crc_layout_(&ctx, &root, &l));
  if (l.integrity == 0 || l.crc_at == 0) return TGRS_ERR_NO_CHECKSUM;
  /* The per-weight checksums first (they lie in the tables the last one covers), and only
   * on a plan that verifies: its offsets are then known to be inside the buffer. */
  if (tgrs_plan_init_with(&plan, base, size, TGRS_INTEGRITY_NONE) == TGRS_OK) {
    const tgrs_u8s weights = tgrs_plan_crcs_(&plan, FB_INTEGRITY_WEIGHT_CRCS);
    const tgrs_u8s blocks = tgrs_plan_crcs_(&plan, FB_INTEGRITY_BLOCK_CRCS);
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
  crc = tgrs_tables_crc_(base, (uint32_t)size, &l);
  memcpy(base + l.crc_at, &crc, 4);
  return TGRS_OK;
}
