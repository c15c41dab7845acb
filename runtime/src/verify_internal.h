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

/* Fields are FB_FIELD numbers (plan_schema.h), named when the path is recorded. */
void tgrs_verify_push_(vctx* c, unsigned field, int32_t index);
/* Sets the index of the innermost path step ("inputs" -> "inputs[3]"). */
void tgrs_verify_index_(vctx* c, uint32_t index);
void tgrs_verify_pop_(vctx* c);
/* A failing rule's message as an argument, in a build with messages only: without them
 * (TGRS_WITH_MESSAGES 0) no call passes a null pointer for nothing. */
#if TGRS_WITH_MESSAGES
#define TGRS_VERIFY_MESSAGE_ARG(message) message,
#else
#define TGRS_VERIFY_MESSAGE_ARG(message)
#endif
/* Records status, message, value and limit with the current path, extended by `field`
 * unless it is FB_NO_FIELD; returns status. */
tgrs_status tgrs_verify_fail_(vctx* c, unsigned field, tgrs_status status,
                              TGRS_VERIFY_MESSAGE_ARG(const char* message) int64_t value,
                              int64_t limit);
/* The same for a value and a limit of 32 bits or fewer. `status_signs` is the status
 * times 4, plus TGRS_VERIFY_*_SIGNED for each number to extend by its sign bit: one byte
 * for the statuses the verifier records (all below 64), a 2-byte Thumb move. */
tgrs_status tgrs_verify_fail32_(vctx* c, unsigned field, uint32_t status_signs,
                                TGRS_VERIFY_MESSAGE_ARG(const char* message) uint32_t value,
                                uint32_t limit);
#define TGRS_VERIFY_VALUE_SIGNED 1u
#define TGRS_VERIFY_LIMIT_SIGNED 2u

/* TGRS_VERIFY_FAIL(c, field, status, message, value, limit): fails a rule, the numbers it
 * compared passed in 32 bits when their C types allow it. Two 64-bit arguments go on the
 * Cortex-M stack, about 8 bytes more per rule, and most rules compare 32-bit fields. The
 * choice and the signs come from the arguments' types, at compile time: the numbers
 * recorded are the same either way. (0 ? (x) : 0) has x's type after the usual arithmetic
 * conversions, so minus 1 is negative exactly for a signed (or promoted) type. */
#define TGRS_VERIFY_WIDE_(x) (sizeof(x) > 4u)
#define TGRS_VERIFY_SIGNED_(x) ((0 ? (x) : 0) - 1 > 0 ? 0u : 1u)
#define TGRS_VERIFY_FAIL(c, field, status, message, value, limit)                                \
  (TGRS_VERIFY_WIDE_(value) || TGRS_VERIFY_WIDE_(limit)                                          \
       ? tgrs_verify_fail_(c, field, status, TGRS_VERIFY_MESSAGE_ARG(message)(int64_t)(value),   \
                           (int64_t)(limit))                                                     \
       : tgrs_verify_fail32_(                                                                    \
             c, field,                                                                           \
             4u * (uint32_t)(status) | (TGRS_VERIFY_SIGNED_(value) * TGRS_VERIFY_VALUE_SIGNED) | \
                 (TGRS_VERIFY_SIGNED_(limit) * TGRS_VERIFY_LIMIT_SIGNED),                        \
             TGRS_VERIFY_MESSAGE_ARG(message)(uint32_t)(value), (uint32_t)(limit)))
/* Takes `units` of work from the budget; TGRS_ERR_TOO_COMPLEX when it runs out. */
tgrs_status tgrs_verify_spend_(vctx* c, uint64_t units);

/* --- wire format (schema_walk.c) --------------------------------------------------------- */

/* Checks the table at `pos`: aligned, inside the buffer, its vtable too. */
tgrs_status tgrs_check_table_(vctx* c, uint32_t pos, vtab* t);
/* Field `id` of the checked root table (a Plan): its position in *at (0 when absent),
 * checked to lie inside the table, and with `len` the length of the vector it is (0 when
 * absent), its header and extent checked. What the rules need before the walk: the
 * schema version and the lengths index rules check against. */
tgrs_status tgrs_root_field_(vctx* c, const vtab* root, unsigned id, uint32_t* at, uint32_t* len);
/* The same for field `id` of a checked table `t` of type `table` (TGRS_TABLE_*), and with
 * `to` the position of what it points at (a table's, checked like tgrs_check_table_, or a
 * vector's length prefix; 0 when absent). */
tgrs_status tgrs_table_field_(vctx* c, const vtab* t, unsigned table, unsigned id, uint32_t* at,
                              uint32_t* to, uint32_t* len);
/* Checks the table at `t` as a `table` (TGRS_TABLE_*) and, recursively, everything it
 * points at: every field inside its table and aligned, every offset inside the buffer,
 * strings NUL-terminated, vectors inside the buffer, and each field's own rule. */
tgrs_status tgrs_walk_table_(vctx* c, const vtab* t, unsigned table);

/* --- integrity (plan_tables_crc.c, plan_integrity.c) -------------------------------------- */

/* Where the checksums live in a buffer that has not been verified yet: every position
 * found through the schema walker's bounds checks. 0 for what is absent. */
typedef struct crc_layout {
  uint32_t integrity;  /* the Integrity table */
  uint32_t checksum;   /* Integrity.checksum */
  uint32_t crc_at;     /* Integrity.tables_crc, the four bytes read as zero */
  uint32_t data_begin; /* weight_data's payload, left to the per-weight checksums */
  uint32_t data_end;
} tgrs_crc_layout;

/* Finds them through the walker's bounds checks (the plan need not verify yet). */
tgrs_status tgrs_find_crc_layout_(vctx* c, const vtab* root, tgrs_crc_layout* l);
/* The CRC-32C of the tables: the buffer without weight_data's payload, the four bytes of
 * tables_crc read as zero. */
uint32_t tgrs_tables_crc_(const uint8_t* base, uint32_t size, const tgrs_crc_layout* l);

/* Checks Integrity.tables_crc of the checked root table against the buffer; *integrity is
 * the Integrity table's position. TGRS_ERR_NO_CHECKSUM without one, TGRS_ERR_PLAN_CORRUPT
 * on a mismatch. */
tgrs_status tgrs_check_tables_crc_(vctx* c, const vtab* root, uint32_t* integrity);

#endif /* TIGRIS_RUNTIME_VERIFY_INTERNAL_H_ */
