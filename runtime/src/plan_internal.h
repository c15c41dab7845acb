/*
 * plan_internal.h: what plan_reader.c and plan_verify.c share (not installed).
 */
#ifndef TIGRIS_RUNTIME_PLAN_INTERNAL_H_
#define TIGRIS_RUNTIME_PLAN_INTERNAL_H_

#include <stdint.h>

#include "tgrs_op_select.h"
#include "tigris_runtime.h"

/* A rule's message: `text`, or NULL without messages (TGRS_WITH_MESSAGES 0), where `text`
 * is not even evaluated, so no sentence reaches the object files. */
#if TGRS_WITH_MESSAGES
#define TGRS_MESSAGE(text) (text)
#else
#define TGRS_MESSAGE(text) ((const char*)0)
#endif

/* Highest tensor rank the reader accepts (the runtime's kernels use rank <= 4). */
#define TGRS_MAX_RANK 8u

/* Verifies base[0, size) (size <= FB_MAX_BUFFER, base 16-aligned, checked by the caller)
 * as a Plan, its tables' checksum first unless `mode` is TGRS_INTEGRITY_NONE (the weights'
 * checksums are the caller's, on the verified view). On success stores the root table in
 * *root and returns TGRS_OK; otherwise fills *error. */
tgrs_status tgrs_verify_plan_(const uint8_t* base, uint32_t size, tgrs_integrity_mode mode,
                              tgrs_verify_error* error, const uint8_t** root);

/* Table `index` of a verified vector of tables (plan->ops_, stages_, chains_, ...), or
 * NULL when out of range. */
const uint8_t* tgrs_vec_table_(const uint8_t* vec, uint32_t index);
/* A verified TilePlan table (Stage.tile, Chain.tile) into *out, zeroed first;
 * TGRS_ERR_MISSING_FIELD for NULL. */
tgrs_status tgrs_read_tile_(const uint8_t* tile, tgrs_plan_tile* out);
/* The fields of a verified Op table that every op function reads (code, inputs, outputs,
 * activation, output requantization and clamp) into `out`, leaving the others as they are:
 * the executor's decode per op run; tgrs_plan_get_op adds the rest. */
void tgrs_read_op_core_(const uint8_t* op, tgrs_plan_op* out);
/* Field `id` (FB_OP_*, FB_ATTRS_*, ... in fb_read.h) of a verified table, NULL for an
 * absent table (every field then absent), with the defaults the getters give. The executor
 * reads an op's rarer fields and its attributes through these where its op function needs
 * one, so nothing is decoded per tile that the op does not read, and a firmware links the
 * reads of its own ops only. */
tgrs_i32s tgrs_read_i32s_(const uint8_t* table, unsigned id);
tgrs_f32s tgrs_read_f32s_(const uint8_t* table, unsigned id);
tgrs_i8s tgrs_read_i8s_(const uint8_t* table, unsigned id);
const uint8_t* tgrs_read_table_(const uint8_t* table, unsigned id);
int32_t tgrs_read_i32_(const uint8_t* table, unsigned id, int32_t fallback);
float tgrs_read_f32_(const uint8_t* table, unsigned id, float fallback);
int tgrs_read_flag_(const uint8_t* table, unsigned id, int fallback);
const char* tgrs_read_string_(const uint8_t* table, unsigned id);

/* Searches a verified vector of Buffer tables (TilePlan.buffers, Stage.buffers,
 * Plan.slow_buffers; NULL: empty) for the first buffer of `kind` (TGRS_BUFFER_*, -1: any)
 * whose key is `key` (its op when `kind` is SCRATCH, else its tensor), with a home in one of
 * `regions` (a mask of 1 << TGRS_REGION_*) and live at op step `step` (first_op <= step <=
 * last_op; TGRS_ANY_STEP: any), and reads it into *out: 1, or 0 when none is. Of the
 * other buffers it reads only the fields it compares: the executor searches per operand
 * and per tile. */
#define TGRS_ANY_STEP INT32_MIN
int tgrs_find_buffer_(const uint8_t* buffers, int32_t kind, int32_t key, int32_t step,
                      uint32_t regions, tgrs_plan_buffer* out);
/* Buffer `index` (below the vector's length) of a verified vector of Buffer tables. */
void tgrs_read_buffer_(const uint8_t* buffers, uint32_t index, tgrs_plan_buffer* out);
/* Stage `stage`'s Buffer vector, NULL when it has none (or the index is out of range). */
const uint8_t* tgrs_plan_stage_buffers_(const tgrs_plan* plan, uint32_t stage);

/* Bytes of a verified Tensor table: product(shape) * dtype size. */
uint32_t tgrs_tensor_table_bytes_(const uint8_t* tensor);

/* --- plan_integrity.c, on a verified plan -------------------------------------------- */
/* Checks weight `w`'s bytes (at `bytes`, NULL: in the plan) or block `b` against the
 * checksums the plan was sealed with; *err (may be NULL) names the region. */
tgrs_status tgrs_check_weight_(const tgrs_plan* plan, uint32_t w, const uint8_t* bytes,
                               tgrs_verify_error* err);
tgrs_status tgrs_check_block_(const tgrs_plan* plan, uint32_t b, tgrs_verify_error* err);
/* Every weight and block of the plan. */
tgrs_status tgrs_check_all_weights_(const tgrs_plan* plan, tgrs_verify_error* err);
/* Integrity.weight_crcs or block_crcs (field `id`) of a plan read without the weights'
 * checks: the sealer fills them in (plan_seal.c). */
tgrs_u8s tgrs_plan_crcs_(const tgrs_plan* plan, unsigned id);

#endif /* TIGRIS_RUNTIME_PLAN_INTERNAL_H_ */
