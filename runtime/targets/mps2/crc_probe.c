/*
 * crc_probe.c: the cost of the plan checksum's function on the core (docs/integrity.md).
 * Fills 16 KiB with a pattern the host recomputes, times tgrs_crc32c and tgrs_sha256 over
 * it, and prints the checksum and the digest (which tests/cortex-m/run_crc_probe.py
 * compares with its own) and the SysTick ticks. Built once per TGRS_CRC32C_SLICES
 * (runtime/targets/mps2/CMakeLists.txt).
 */
#include <stdint.h>

#include "harness.h"
#include "semihost.h"
#include "tigris_runtime.h"

#define PROBE_BYTES 16384u

static uint8_t data[PROBE_BYTES] __attribute__((aligned(16)));

int main(void);

int main(void) {
  uint32_t state = 1u, i, crc;
  uint8_t digest[32];
  uint64_t ticks;
  for (i = 0; i < PROBE_BYTES; ++i) {
    state = state * 1664525u + 1013904223u; /* Numerical Recipes' LCG; the host's too */
    data[i] = (uint8_t)(state >> 24);
  }
  cycle_counter_start();
  crc = tgrs_crc32c(0, data, PROBE_BYTES);
  ticks = cycle_counter_read();
  semihost_put_u32("tgrs.crc_bytes=", PROBE_BYTES);
  semihost_put_hex("tgrs.crc=", crc);
  semihost_put_u32("tgrs.crc_ticks=", (uint32_t)ticks);
  semihost_put_u32("tgrs.crc_slices=", TGRS_CRC32C_SLICES);
  cycle_counter_start();
  tgrs_sha256(data, PROBE_BYTES, digest);
  ticks = cycle_counter_read();
  semihost_put_u32("tgrs.sha256_ticks=", (uint32_t)ticks);
  for (i = 0; i < 32; i += 4) {
    semihost_put_hex("tgrs.sha256_word=", (uint32_t)digest[i] << 24 |
                                              (uint32_t)digest[i + 1] << 16 |
                                              (uint32_t)digest[i + 2] << 8 | digest[i + 3]);
  }
  return HARNESS_EXIT_OK;
}
