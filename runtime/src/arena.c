/*
 * arena.c: the only way the executor reaches arena bytes. Every range is bounds-checked
 * against the caller's arena and raises the high-water mark to its end, so
 * tgrs_run_stats reports the exact extent touched (docs/memory-model.md: the runtime's
 * measured high-water mark must match the plan's peak).
 */
#include "exec_internal.h"

static uint8_t* arena_range(uint8_t* base, size_t size, size_t* hwm, size_t offset, size_t bytes) {
  if (base == NULL || offset > size || bytes > size - offset) return NULL;
  if (offset + bytes > *hwm) *hwm = offset + bytes;
  return base + offset;
}

uint8_t* tgrs_exec_fast(tgrs_exec* ex, size_t offset, size_t bytes) {
  return arena_range(ex->fast, ex->fast_size, &ex->stats->fast_hwm_bytes, offset, bytes);
}

uint8_t* tgrs_exec_slow(tgrs_exec* ex, size_t offset, size_t bytes) {
  return arena_range(ex->slow, ex->slow_size, &ex->stats->slow_hwm_bytes, offset, bytes);
}

uint8_t* tgrs_exec_home(tgrs_exec* ex, const tgrs_home* home, size_t bytes) {
  switch (home->region) {
    case TGRS_REGION_FAST:
      return tgrs_exec_fast(ex, home->offset, bytes);
    case TGRS_REGION_SLOW:
      return tgrs_exec_slow(ex, home->offset, bytes);
#if TGRS_WITH_PINNED /* else the verifier refused PINNED homes */
    case TGRS_REGION_PINNED:
      return arena_range(ex->pinned, ex->pinned_size, &ex->stats->pinned_hwm_bytes, home->offset,
                         bytes);
#endif
    default:
      return NULL;
  }
}

int tgrs_same_home(const tgrs_home* a, const tgrs_home* b) {
  return a->region == b->region && a->offset == b->offset;
}
