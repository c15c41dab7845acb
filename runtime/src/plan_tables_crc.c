/*
 * plan_tables_crc.c: Integrity.tables_crc, the checksum over every byte of a plan but
 * weight_data's payload (docs/integrity.md; plan_integrity.c says why CRC-32C). The verifier
 * checks it before it walks the tables (plan_verify.c) and the sealer writes it
 * (plan_seal.c); apart from the weights' checksums (plan_integrity.c), which need a
 * verified plan, so that the verifier and the integrity checks do not depend on each other.
 */
#include <string.h>

#include "fb_read.h"
#include "verify_internal.h"

/* --- which bytes the tables checksum covers --------------------------------------------- */

tgrs_status tgrs_find_crc_layout_(vctx* c, const vtab* root, tgrs_crc_layout* l) {
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

uint32_t tgrs_tables_crc_(const uint8_t* base, uint32_t size, const tgrs_crc_layout* l) {
  const uint32_t crc = crc_with_hole(0, base, 0, l->data_begin, l->crc_at);
  return crc_with_hole(crc, base, l->data_end, size, l->crc_at);
}

tgrs_status tgrs_check_tables_crc_(vctx* c, const vtab* root, uint32_t* integrity) {
  tgrs_crc_layout l;
  uint32_t actual;
  *integrity = 0;
  TRY(tgrs_find_crc_layout_(c, root, &l));
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
  actual = tgrs_tables_crc_(c->base, c->size, &l);
  if (actual != fb_u32(c->base + l.crc_at)) {
    return TGRS_VERIFY_FAIL(c, FB_FIELD(INTEGRITY, TABLES_CRC), TGRS_ERR_PLAN_CORRUPT,
                            "the plan's tables are damaged: CRC-32C {v}, sealed as {l}", actual,
                            fb_u32(c->base + l.crc_at));
  }
  tgrs_verify_pop_(c);
  *integrity = l.integrity;
  return TGRS_OK;
}
