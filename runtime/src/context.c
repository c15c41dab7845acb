/*
 * context.c: tgrs_context, arena binding, the hydration latch and tgrs_invoke
 * (tigris_context.h). The run itself is tgrs_run_observed's: a context only decides which
 * buffers it gets and whether it may start.
 */
#include "tigris_context.h"

#include <string.h>

#define TGRS_CONTEXT_MAGIC 0x54474358u /* "TGCX" */

static int ready(const tgrs_context* ctx) {
  return ctx != NULL && ctx->magic_ == TGRS_CONTEXT_MAGIC && ctx->plan_ != NULL;
}

tgrs_status tgrs_context_init(tgrs_context* ctx, const tgrs_plan* plan) {
  if (ctx == NULL || plan == NULL) return TGRS_ERR_NULL_ARGUMENT;
  memset(ctx, 0, sizeof *ctx);
  if (plan->root_ == NULL || plan->error.status != TGRS_OK) return TGRS_ERR_PLAN_NOT_VERIFIED;
  ctx->plan_ = plan;
  ctx->magic_ = TGRS_CONTEXT_MAGIC;
  return TGRS_OK;
}

size_t tgrs_context_arena_bytes(const tgrs_context* ctx, uint32_t memory) {
  if (!ready(ctx)) return 0;
  switch (memory) {
    case TGRS_REGION_FAST:
      return tgrs_plan_fast_arena_bytes(ctx->plan_);
    case TGRS_REGION_SLOW:
      return tgrs_plan_slow_arena_bytes(ctx->plan_);
    default:
      return 0;
  }
}

/* An arena's alignment: the plan's Memory entry, or the executor's 16 for plans written
 * before Plan.memories (the verifier holds both arenas' entries to 16). */
static uint32_t arena_alignment(const tgrs_plan* plan, uint32_t memory) {
  tgrs_plan_memory m;
  if (tgrs_plan_get_memory(plan, memory, &m) == TGRS_OK && m.alignment != 0) return m.alignment;
  return TGRS_ARENA_ALIGNMENT;
}

tgrs_status tgrs_bind_arena(tgrs_context* ctx, uint32_t memory, void* base, size_t size) {
  uint32_t alignment;
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  if (memory >= TGRS_CONTEXT_ARENAS) return TGRS_ERR_UNKNOWN_MEMORY;
  if (base == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (size < tgrs_context_arena_bytes(ctx, memory)) return TGRS_ERR_ARENA_TOO_SMALL;
  alignment = arena_alignment(ctx->plan_, memory);
  if ((uintptr_t)base % alignment != 0) return TGRS_ERR_ARENA_MISALIGNED;
  ctx->base_[memory] = base;
  ctx->size_[memory] = size;
  return TGRS_OK;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((weak))
#endif
tgrs_status
tgrs_hydrate_constants(tgrs_context* ctx) {
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  /* No plan format version stages constants yet (tigris_context.h): nothing to copy. */
  tgrs_mark_hydrated(ctx);
  return TGRS_OK;
}

void tgrs_mark_hydrated(tgrs_context* ctx) {
  if (ctx != NULL) ctx->hydrated_ = 1u;
}

void tgrs_clear_hydrated(tgrs_context* ctx) {
  if (ctx != NULL) ctx->hydrated_ = 0u;
}

tgrs_status tgrs_invoke(tgrs_context* ctx, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                        const tgrs_output_buffer* outputs, uint32_t num_outputs,
                        tgrs_run_stats* stats) {
  tgrs_arenas arenas;
  uint32_t m;
  if (stats != NULL) {
    memset(stats, 0, sizeof *stats);
    stats->failed_stage = -1;
    stats->failed_op = -1;
  }
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  if (!ctx->hydrated_) return TGRS_ERR_HYDRATION_REQUIRED;
  for (m = 0; m < TGRS_CONTEXT_ARENAS; ++m) {
    if (ctx->base_[m] == NULL && tgrs_context_arena_bytes(ctx, m) > 0) {
      return TGRS_ERR_ARENA_NOT_BOUND;
    }
  }
  arenas.fast = ctx->base_[TGRS_REGION_FAST];
  arenas.fast_size = ctx->size_[TGRS_REGION_FAST];
  arenas.slow = ctx->base_[TGRS_REGION_SLOW];
  arenas.slow_size = ctx->size_[TGRS_REGION_SLOW];
  return tgrs_run_observed(ctx->plan_, &arenas, inputs, num_inputs, outputs, num_outputs, stats,
                           NULL, NULL);
}
