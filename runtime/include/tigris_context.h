/*
 * tigris_context.h: running a plan through a caller-allocated context whose arenas are
 * bound one memory at a time (issue 15; tensor-memory-attributes.txt, "Application wiring
 * with caller-supplied arenas" and "Hydration contract"). C99, no heap, no global state.
 *
 *   tgrs_context ctx;
 *   tgrs_context_init(&ctx, &plan);                       // clears binds and the latch
 *   tgrs_bind_arena(&ctx, TGRS_REGION_FAST, sram, sizeof sram);
 *   tgrs_bind_arena(&ctx, TGRS_REGION_SLOW, psram, sizeof psram);   // when the plan has one
 *   tgrs_hydrate_constants(&ctx);                         // weak: override for DMA
 *   tgrs_invoke(&ctx, inputs, 1, outputs, 1, &stats);     // as often as needed
 *
 * Memories are the plan's (tgrs_plan_memory_count / tgrs_plan_get_memory, indexed like
 * tgrs_memory_region). The caller binds every arena memory the plan uses (size > 0):
 * FAST (scratch: activations, strips, and each stage's copied weights), SLOW (spilled
 * tensors), STATE (persistent state, `tigris compile --state IN=OUT`) and CONSTANTS
 * (staged constants, `--weights staged`). FLASH is the plan itself and HOST the caller's
 * input and output buffers: they are never bound.
 *
 * Sharing: scratch holds nothing from one invoke to the next, so two contexts (two models,
 * or one model twice) may bind the same scratch buffer, sized for the larger plan, as long
 * as their invokes do not overlap in time. State is the context's own: two contexts never
 * share a STATE buffer. Each context only touches the buffers bound to it and the
 * caller's inputs and outputs.
 *
 * Hydration latch: tgrs_invoke refuses to run (TGRS_ERR_HYDRATION_REQUIRED) until the
 * context has been hydrated since tgrs_context_init: by tgrs_hydrate_constants, or by
 * tgrs_mark_hydrated when the caller put the staged constants in place itself (a DMA
 * transfer, a preloaded RAM image). Staged constants are constants copied once into a
 * writable arena before the first invoke; the default tgrs_hydrate_constants copies them
 * from their source in the plan (one contiguous range), then marks the context hydrated.
 * A plan without staged constants has nothing to copy, and the same sequence works for
 * it unchanged.
 */
#ifndef TIGRIS_CONTEXT_H_
#define TIGRIS_CONTEXT_H_

#include <stddef.h>
#include <stdint.h>

#include "tigris_executor.h"
#include "tigris_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arena slots of a context, indexed by tgrs_memory_region: FAST, SLOW, STATE, CONSTANTS
 * and PINNED are bound by the caller; the FLASH and HOST slots stay empty. */
#define TGRS_CONTEXT_ARENAS 7u
/* Graph inputs of a plan with persistent state that tgrs_invoke can assemble (on its stack,
 * 8 bytes each); a plan without state has no limit. */
#ifndef TGRS_CONTEXT_MAX_INPUTS
#define TGRS_CONTEXT_MAX_INPUTS 16u
#endif

/* Caller-allocated (static, stack or inside the caller's own struct); the fields are
 * private: set them only through the functions below. */
typedef struct tgrs_context {
  const tgrs_plan* plan_;
  void* base_[TGRS_CONTEXT_ARENAS];
  size_t size_[TGRS_CONTEXT_ARENAS];
  uint32_t hydrated_;
  uint32_t checked_ops_; /* TGRS_INTEGRITY_TABLES: ops whose weights were checked */
  uint32_t magic_;       /* TGRS_CONTEXT_MAGIC once tgrs_context_init succeeded */
} tgrs_context;

/* Starts `ctx` for `plan` (verified by tgrs_plan_init; it must outlive the context):
 * no arena bound, hydration latch clear.
 * @return TGRS_OK, TGRS_ERR_NULL_ARGUMENT, TGRS_ERR_PLAN_NOT_VERIFIED. */
tgrs_status tgrs_context_init(tgrs_context* ctx, const tgrs_plan* plan);

/* The bytes and alignment the plan needs of arena memory `memory` (a tgrs_memory_region);
 * 0 bytes for a memory that is not a bindable arena. */
size_t tgrs_context_arena_bytes(const tgrs_context* ctx, uint32_t memory);

/* Binds `size` bytes at `base` as memory `memory` of ctx's plan; binding again replaces
 * the earlier buffer. Binding STATE zero-fills the state (the first invoke reads zeros);
 * binding CONSTANTS clears the hydration latch (the new buffer holds no constants yet).
 * @return TGRS_OK;
 *   TGRS_ERR_UNKNOWN_MEMORY: `memory` is not an arena of the plan (FLASH, HOST, or past
 *     the plan's memories);
 *   TGRS_ERR_NULL_ARGUMENT: ctx or base is NULL, or ctx was never initialised;
 *   TGRS_ERR_ARENA_TOO_SMALL: size is below what the plan needs of the memory;
 *   TGRS_ERR_ARENA_MISALIGNED: base is not a multiple of the memory's alignment;
 *   TGRS_ERR_ARENA_OVERLAP: the bytes the plan uses of it, [base, base +
 *     tgrs_context_arena_bytes), overlap the plan's bytes, another bound arena of ctx, or
 *     the stack frame of this call (an arena placed where the stack grows; stack below
 *     the current stack pointer is not seen: keep arenas out of the stack's section). */
tgrs_status tgrs_bind_arena(tgrs_context* ctx, uint32_t memory, void* base, size_t size);

/* Zero-fills the persistent state (the STATE arena), as binding it does: the next invoke
 * reads zeros for every state input, as on the first. No-op when none is bound. */
void tgrs_reset_state(tgrs_context* ctx);

/* Copies the staged constants from their source in the plan into the bound CONSTANTS
 * arena (idempotent: the bytes are the same each time), checks the copy against the
 * plan's checksums (tgrs_check_constants), then marks ctx hydrated.
 * Weak where the compiler supports it: a firmware may define its own (DMA, decompression,
 * a model swap) and must then call tgrs_check_constants and tgrs_mark_hydrated.
 * @return TGRS_OK, TGRS_ERR_NULL_ARGUMENT (ctx NULL or never initialised),
 *   TGRS_ERR_ARENA_NOT_BOUND (the plan stages constants and CONSTANTS is unbound),
 *   TGRS_ERR_PLAN_CORRUPT (the copy differs from what the compiler sealed; the latch stays
 *   clear). */
tgrs_status tgrs_hydrate_constants(tgrs_context* ctx);

/* Checks the staged constants in the bound CONSTANTS arena against the plan's per-weight
 * checksums (docs/integrity.md): after a firmware's own hydration, or periodically, since
 * RAM can be disturbed too. TGRS_OK also for a plan without staged constants, or one
 * initialised with TGRS_INTEGRITY_NONE; TGRS_ERR_PLAN_CORRUPT naming the weight in *error
 * (may be NULL); TGRS_ERR_NULL_ARGUMENT; TGRS_ERR_ARENA_NOT_BOUND. */
tgrs_status tgrs_check_constants(const tgrs_context* ctx, tgrs_verify_error* error);

/* tgrs_plan_check_integrity on ctx's plan, then tgrs_check_constants: every byte a run
 * reads that the compiler sealed, checked now. */
tgrs_status tgrs_context_check_integrity(const tgrs_context* ctx, tgrs_verify_error* error);

/* Sets / clears the hydration latch (NULL is ignored). */
void tgrs_mark_hydrated(tgrs_context* ctx);
void tgrs_clear_hydrated(tgrs_context* ctx);

/* Runs ctx's plan once with its bound arenas: tgrs_run's contract (tigris_executor.h),
 * same buffers, statuses and stats, except that a plan with persistent state
 * (tgrs_plan_get_state) takes its state inputs from the STATE arena: `inputs` lists the
 * other graph inputs, in plan order. After a successful run each state slot holds its
 * paired output, which the next invoke reads; a failed run leaves the state unchanged.
 * Staged constants are read from the bound CONSTANTS arena.
 * @return additionally TGRS_ERR_NULL_ARGUMENT (ctx NULL or never initialised),
 *   TGRS_ERR_HYDRATION_REQUIRED (latch clear), TGRS_ERR_ARENA_NOT_BOUND (an arena the plan
 *   uses was never bound). */
tgrs_status tgrs_invoke(tgrs_context* ctx, const tgrs_input_buffer* inputs, uint32_t num_inputs,
                        const tgrs_output_buffer* outputs, uint32_t num_outputs,
                        tgrs_run_stats* stats);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_CONTEXT_H_ */
