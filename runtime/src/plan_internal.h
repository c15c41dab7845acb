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
 * as a Plan. On success stores the root table in *root and returns TGRS_OK; otherwise
 * fills *error. */
tgrs_status tgrs_verify_plan_(const uint8_t* base, uint32_t size, tgrs_verify_error* error,
                              const uint8_t** root);

/* Op `index`'s table in a verified plan, or NULL when out of range. */
const uint8_t* tgrs_plan_op_table_(const tgrs_plan* plan, uint32_t index);
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

/* Bytes of a verified Tensor table: product(shape) * dtype size. */
uint32_t tgrs_tensor_table_bytes_(const uint8_t* tensor);

#endif /* TIGRIS_RUNTIME_PLAN_INTERNAL_H_ */
