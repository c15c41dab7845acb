/*
 * crc32c.c: CRC-32C (Castagnoli), the function of the plan's checksums (plan_integrity.c,
 * docs/integrity.md). Slice-by-N table lookup (Kounavis and Berry, 2005; the tables are
 * crc32c_tables.h): a Cortex-M4 has no CRC instruction, and folding 4 bytes per step
 * costs 4.5 instructions per byte there against 8 a byte at a time (TGRS_CRC32C_SLICES in
 * tgrs_op_select.h trades speed for table flash).
 */
#include <string.h>

#include "crc32c_tables.h" /* TGRS_CRC32C_SLICES too */
#include "tigris_runtime.h"

#if TGRS_CRC32C_SLICES >= 4
static uint32_t load32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, sizeof v); /* little-endian (fb_read.h refuses big-endian builds) */
  return v;
}
#endif

/* The CRC register (already inverted) after n more bytes. */
static uint32_t crc_update(uint32_t crc, const uint8_t* p, size_t n) {
#if TGRS_CRC32C_SLICES >= 8
  while (n >= 8) {
    const uint32_t lo = crc ^ load32(p), hi = load32(p + 4);
    crc = tgrs_crc32c_t7[lo & 0xFFu] ^ tgrs_crc32c_t6[(lo >> 8) & 0xFFu] ^
          tgrs_crc32c_t5[(lo >> 16) & 0xFFu] ^ tgrs_crc32c_t4[lo >> 24] ^
          tgrs_crc32c_t3[hi & 0xFFu] ^ tgrs_crc32c_t2[(hi >> 8) & 0xFFu] ^
          tgrs_crc32c_t1[(hi >> 16) & 0xFFu] ^ tgrs_crc32c_t0[hi >> 24];
    p += 8;
    n -= 8;
  }
#elif TGRS_CRC32C_SLICES >= 4
  while (n >= 4) {
    const uint32_t w = crc ^ load32(p);
    crc = tgrs_crc32c_t3[w & 0xFFu] ^ tgrs_crc32c_t2[(w >> 8) & 0xFFu] ^
          tgrs_crc32c_t1[(w >> 16) & 0xFFu] ^ tgrs_crc32c_t0[w >> 24];
    p += 4;
    n -= 4;
  }
#endif
  while (n-- > 0) crc = (crc >> 8) ^ tgrs_crc32c_t0[(crc ^ *p++) & 0xFFu];
  return crc;
}

uint32_t tgrs_crc32c(uint32_t crc, const void* data, size_t n) {
  if (data == NULL) return crc;
  return ~crc_update(~crc, (const uint8_t*)data, n);
}
