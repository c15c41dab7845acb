/*
 * context.c: tgrs_context, arena binding, persistent state, staged constants, the hydration
 * latch and tgrs_invoke (tigris_context.h). The run itself is the executor's: a context
 * decides which buffers it gets, whether it may start, and what it keeps for the next.
 */
#include "tigris_context.h"

#include <string.h>

#include "exec_internal.h"
#include "plan_internal.h"

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

/* The memories a caller binds: FAST and SLOW always (size 0 needs no buffer), STATE and
 * CONSTANTS (schema 3) and PINNED (schema 4) when the plan lists them. FLASH is the plan,
 * HOST the caller's. */
static int is_arena(const tgrs_context* ctx, uint32_t memory) {
  return memory == TGRS_REGION_FAST || memory == TGRS_REGION_SLOW ||
         ((memory == TGRS_REGION_STATE || memory == TGRS_REGION_CONSTANTS ||
           memory == TGRS_REGION_PINNED) &&
          memory < tgrs_plan_memory_count(ctx->plan_));
}

size_t tgrs_context_arena_bytes(const tgrs_context* ctx, uint32_t memory) {
  tgrs_plan_memory m;
  if (!ready(ctx) || !is_arena(ctx, memory)) return 0;
  switch (memory) {
    case TGRS_REGION_FAST:
      return tgrs_plan_fast_arena_bytes(ctx->plan_);
    case TGRS_REGION_SLOW:
      return tgrs_plan_slow_arena_bytes(ctx->plan_);
    case TGRS_REGION_CONSTANTS:
      /* 0 without staged constants: the verifier refused plans that stage any. */
      return TGRS_WITH_STAGED_CONSTANTS ? tgrs_plan_staged_constants(ctx->plan_).count : 0u;
    default: /* STATE and PINNED: their Memory entries, which the verifier holds homes to */
      return tgrs_plan_get_memory(ctx->plan_, memory, &m) == TGRS_OK ? m.size : 0;
  }
}

/* An arena's alignment: the plan's Memory entry, or the executor's 16 for plans written
 * before Plan.memories (the verifier holds both arenas' entries to 16). */
static uint32_t arena_alignment(const tgrs_plan* plan, uint32_t memory) {
  tgrs_plan_memory m;
  if (tgrs_plan_get_memory(plan, memory, &m) == TGRS_OK && m.alignment != 0) return m.alignment;
  return TGRS_ARENA_ALIGNMENT;
}

/* Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte (addresses as integers:
 * the ranges come from unrelated objects). */
static int overlaps(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return a_bytes > 0 && b_bytes > 0 && x < y + b_bytes && y < x + a_bytes;
}

/* The bytes a run will write in `memory` at `base` must be nobody else's: not the plan's,
 * not another arena's of this context, and not the stack this call runs on (an arena
 * placed where the stack grows; what is below the stack pointer now is not seen). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int
arena_overlaps(const tgrs_context* ctx, uint32_t memory, const void* base) {
  const size_t bytes = tgrs_context_arena_bytes(ctx, memory);
  volatile uint8_t frame = 0; /* an address inside this call's stack frame */
  uint32_t m;
  if (overlaps(base, bytes, ctx->plan_->base_, ctx->plan_->size_)) return 1;
  if (overlaps(base, bytes, (const void*)&frame, 1)) return 1;
  for (m = 0; m < TGRS_CONTEXT_ARENAS; ++m) {
    if (m != memory && ctx->base_[m] != NULL &&
        overlaps(base, bytes, ctx->base_[m], tgrs_context_arena_bytes(ctx, m))) {
      return 1;
    }
  }
  return 0;
}

tgrs_status tgrs_bind_arena(tgrs_context* ctx, uint32_t memory, void* base, size_t size) {
  uint32_t alignment;
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  if (memory >= TGRS_CONTEXT_ARENAS || !is_arena(ctx, memory)) return TGRS_ERR_UNKNOWN_MEMORY;
  if (base == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (size < tgrs_context_arena_bytes(ctx, memory)) return TGRS_ERR_ARENA_TOO_SMALL;
  alignment = arena_alignment(ctx->plan_, memory);
  if ((uintptr_t)base % alignment != 0) return TGRS_ERR_ARENA_MISALIGNED;
  if (arena_overlaps(ctx, memory, base)) return TGRS_ERR_ARENA_OVERLAP;
  ctx->base_[memory] = base;
  ctx->size_[memory] = size;
  /* READ_VARIABLE semantics: the first invoke reads zeros, and caller memory is not BSS. */
  if (memory == TGRS_REGION_STATE) tgrs_reset_state(ctx);
  /* New constants memory holds nothing yet. */
  if (memory == TGRS_REGION_CONSTANTS) ctx->hydrated_ = 0u;
  return TGRS_OK;
}

void tgrs_reset_state(tgrs_context* ctx) {
  if (ready(ctx) && ctx->base_[TGRS_REGION_STATE] != NULL) {
    memset(ctx->base_[TGRS_REGION_STATE], 0, tgrs_context_arena_bytes(ctx, TGRS_REGION_STATE));
  }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((weak))
#endif
tgrs_status
tgrs_hydrate_constants(tgrs_context* ctx) {
  tgrs_u8s source;
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
    /* One copy: the planner packs every staged constant into one contiguous source range
     * in destination-offset order (tensor-memory-attributes.txt, "Per-arena source
     * contiguity"). A plan without staged constants has nothing to copy. */
#if TGRS_WITH_STAGED_CONSTANTS
  source = tgrs_plan_staged_constants(ctx->plan_);
  if (source.count > 0) {
    if (ctx->base_[TGRS_REGION_CONSTANTS] == NULL) return TGRS_ERR_ARENA_NOT_BOUND;
    memcpy(ctx->base_[TGRS_REGION_CONSTANTS], source.data, source.count);
  }
#else
  (void)source; /* the verifier refused plans that stage constants */
#endif
  {
    const tgrs_status st = tgrs_check_constants(ctx, NULL);
    if (st != TGRS_OK) return st;
  }
  ctx->checked_ops_ = 0; /* a new copy: a lazily checked plan checks it again as it runs */
  tgrs_mark_hydrated(ctx);
  return TGRS_OK;
}

tgrs_status tgrs_check_constants(const tgrs_context* ctx, tgrs_verify_error* error) {
#if TGRS_WITH_STAGED_CONSTANTS
  const tgrs_plan* plan;
  tgrs_u8s source;
  uint32_t begin, w;
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  plan = ctx->plan_;
  source = tgrs_plan_staged_constants(plan);
  if (source.count == 0 || plan->integrity_mode_ == TGRS_INTEGRITY_NONE) return TGRS_OK;
  if (ctx->base_[TGRS_REGION_CONSTANTS] == NULL) return TGRS_ERR_ARENA_NOT_BOUND;
  begin = tgrs_plan_staged_offset(plan);
  for (w = 0; w < tgrs_plan_weight_count(plan); ++w) {
    tgrs_plan_weight weight;
    if (tgrs_plan_get_weight(plan, w, &weight) != TGRS_OK) return TGRS_ERR_INCONSISTENT_PLAN;
    if (weight.block < 0 && weight.offset >= begin && weight.offset - begin < source.count) {
      const tgrs_status st = tgrs_check_weight_(
          plan, w, (const uint8_t*)ctx->base_[TGRS_REGION_CONSTANTS] + (weight.offset - begin),
          error);
      if (st != TGRS_OK) return st;
    }
  }
#else
  (void)error;  /* the verifier refused plans that stage constants */
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
#endif
  return TGRS_OK;
}

tgrs_status tgrs_context_check_integrity(const tgrs_context* ctx, tgrs_verify_error* error) {
  tgrs_status st;
  if (!ready(ctx)) return TGRS_ERR_NULL_ARGUMENT;
  st = tgrs_plan_check_integrity(ctx->plan_, error);
  return st != TGRS_OK ? st : tgrs_check_constants(ctx, error);
}

void tgrs_mark_hydrated(tgrs_context* ctx) {
  if (ctx != NULL) ctx->hydrated_ = 1u;
}

void tgrs_clear_hydrated(tgrs_context* ctx) {
  if (ctx != NULL) ctx->hydrated_ = 0u;
}

/* One run of ctx's plan with its bound arenas and `inputs` (every graph input). */
static tgrs_status run(tgrs_context* ctx, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                       const tgrs_output_buffer* outputs, uint32_t num_outputs,
                       tgrs_run_stats* stats) {
  tgrs_arenas arenas;
  arenas.fast = ctx->base_[TGRS_REGION_FAST];
  arenas.fast_size = ctx->size_[TGRS_REGION_FAST];
  arenas.slow = ctx->base_[TGRS_REGION_SLOW];
  arenas.slow_size = ctx->size_[TGRS_REGION_SLOW];
  arenas.pinned = ctx->base_[TGRS_REGION_PINNED];
  arenas.pinned_size = ctx->size_[TGRS_REGION_PINNED];
  return tgrs_run_staged_(ctx->plan_, &arenas, (const uint8_t*)ctx->base_[TGRS_REGION_CONSTANTS],
                          inputs, num_inputs, outputs, num_outputs, stats, NULL,
                          &ctx->checked_ops_);
}

#if TGRS_WITH_STATE
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
/* A plan with persistent state: state inputs come from the STATE arena, the caller passes
 * the other inputs in plan order, and the full list is assembled here (slots are sorted by
 * input); after a successful run the paired outputs become the next invoke's state
 * (ASSIGN_VARIABLE). Not inlined: plans without state do not carry the list on the stack. */
static tgrs_status
invoke_with_state(tgrs_context* ctx, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                  const tgrs_output_buffer* outputs, uint32_t num_outputs, tgrs_run_stats* stats,
                  uint32_t state_count) {
  tgrs_input_buffer all[TGRS_CONTEXT_MAX_INPUTS];
  const uint32_t total = tgrs_plan_inputs(ctx->plan_).count;
  uint8_t* state = (uint8_t*)ctx->base_[TGRS_REGION_STATE];
  uint32_t i, next = 0, slot = 0;
  tgrs_plan_state_slot s;
  tgrs_status st;
  if (num_inputs + state_count != total || total > TGRS_CONTEXT_MAX_INPUTS) {
    return TGRS_ERR_INPUT_COUNT;
  }
  if (num_inputs > 0 && inputs == NULL) return TGRS_ERR_NULL_ARGUMENT;
  for (i = 0; i < total; ++i) {
    if (slot < state_count && tgrs_plan_get_state(ctx->plan_, slot, &s) == TGRS_OK &&
        s.input == i) {
      all[i].data = state + s.offset;
      all[i].size = s.size;
      ++slot;
    } else {
      all[i] = inputs[next++];
    }
  }
  st = run(ctx, all, total, outputs, num_outputs, stats);
  if (st != TGRS_OK) return st;
  for (slot = 0; slot < state_count; ++slot) {
    if (tgrs_plan_get_state(ctx->plan_, slot, &s) != TGRS_OK) return TGRS_ERR_INCONSISTENT_PLAN;
    memcpy(state + s.offset, outputs[s.output].data, s.size);
  }
  return TGRS_OK;
}
#endif

tgrs_status tgrs_invoke(tgrs_context* ctx, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                        const tgrs_output_buffer* outputs, uint32_t num_outputs,
                        tgrs_run_stats* stats) {
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
#if TGRS_WITH_STATE
  if (tgrs_plan_state_count(ctx->plan_) > 0) {
    return invoke_with_state(ctx, inputs, num_inputs, outputs, num_outputs, stats,
                             tgrs_plan_state_count(ctx->plan_));
  }
#endif
  /* Without TGRS_WITH_STATE the verifier refused plans with state. */
  return run(ctx, inputs, num_inputs, outputs, num_outputs, stats);
}
