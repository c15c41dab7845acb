/*
 * verify_internal.h: what the verifier's two layers share (not installed).
 *
 * schema_walk.c checks the FlatBuffers wire format of the whole buffer against
 * plan_schema.c's descriptions, with the rules a single field carries; plan_verify.c then
 * checks the rules that relate fields, on a buffer whose every offset is known good. Both
 * report through one context: the error path ("stages[3].tile.buffers[1].home"), the work
 * budget, and the counts of the plan's vectors that index rules need.
 */
#ifndef TIGRIS_RUNTIME_VERIFY_INTERNAL_H_
#define TIGRIS_RUNTIME_VERIFY_INTERNAL_H_

#include <stdint.h>

#include "plan_internal.h"
#include "plan_schema.h"
#include "tigris_runtime.h"

#define TRY(expr)                                   \
  do {                                              \
    tgrs_status try_status_ = (expr);               \
    if (try_status_ != TGRS_OK) return try_status_; \
  } while (0)

/* A table whose vtable has been checked. */
typedef struct vtab {
  uint32_t pos;   /* table start */
  uint32_t vt;    /* vtable start */
  uint16_t vsize; /* vtable bytes */
  uint16_t tsize; /* table inline bytes */
} vtab;

typedef struct vctx {
  const uint8_t* base;
  uint32_t size;
  uint64_t budget;
  tgrs_verify_error* err;
  tgrs_verify_step path[TGRS_VERIFY_PATH_DEPTH];
  uint32_t depth;
  /* Lengths of Plan.tensors, ops, stages, chains, weights, weight_blocks
   * (TGRS_COLLECTION_*), known before any element is checked. */
  uint32_t count[TGRS_COLLECTION_COUNT];
} vctx;

/* --- error path (schema_walk.c) ---------------------------------------------------------- */

void tgrs_verify_push_(vctx* c, const char* field, int32_t index);
/* Sets the index of the innermost path step ("inputs" -> "inputs[3]"). */
void tgrs_verify_index_(vctx* c, uint32_t index);
void tgrs_verify_pop_(vctx* c);
/* Records status, message, value and limit with the current path; returns status. */
tgrs_status tgrs_verify_fail_(vctx* c, tgrs_status status, const char* message, int64_t value,
                              int64_t limit);
/* Takes `units` of work from the budget; TGRS_ERR_TOO_COMPLEX when it runs out. */
tgrs_status tgrs_verify_spend_(vctx* c, uint64_t units);

/* --- wire format (schema_walk.c) --------------------------------------------------------- */

/* Checks the table at `pos`: aligned, inside the buffer, its vtable too. */
tgrs_status tgrs_check_table_(vctx* c, uint32_t pos, vtab* t);
/* Position of field `id` of a checked `table` (0 when absent), checked to lie inside it. */
tgrs_status tgrs_schema_field_(vctx* c, const vtab* t, unsigned table, unsigned id, uint32_t* at);
/* Length of the vector field `id` of a checked table (0 when absent), its header and
 * extent checked as table `table`'s description says. */
tgrs_status tgrs_schema_vector_len_(vctx* c, const vtab* t, unsigned table, unsigned id,
                                    uint32_t* len);
/* Checks the table at `t` as a `table` (TGRS_TABLE_*) and, recursively, everything it
 * points at: every field inside its table and aligned, every offset inside the buffer,
 * strings NUL-terminated, vectors inside the buffer, and each field's own rule. */
tgrs_status tgrs_walk_table_(vctx* c, const vtab* t, unsigned table);

#endif /* TIGRIS_RUNTIME_VERIFY_INTERNAL_H_ */
