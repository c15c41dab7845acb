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

/* Bytes of a verified Tensor table: product(shape) * dtype size. */
uint32_t tgrs_tensor_table_bytes_(const uint8_t* tensor);

#endif /* TIGRIS_RUNTIME_PLAN_INTERNAL_H_ */
