/*
 * plan_verify.c: verifies a .tgrs buffer before anything reads it (TFLite's rule,
 * STYLE.md: "readers verify the buffer before trusting it, then read it in place").
 *
 * Two layers, checked together in one walk from the root:
 *  1. the FlatBuffers wire format (fb_read.h): every uoffset, vtable, vector and string
 *     inside the buffer and aligned, every field inside its table;
 *  2. the plan's own rules (format/tgrs.fbs comments, docs/memory-model.md): enum values
 *     known, index cross-references in range, 16-aligned weights and homes, consistent
 *     sizes, tile regions inside their tensors.
 * Order matters only for cross-references: weight_data, weight blocks and weights come
 * first, then tensors (whose weights they name), ops, stages, chains, graph inputs and
 * outputs, slow buffers. Counts of every top-level vector are known before any element is
 * checked, so an index can be range-checked wherever it appears.
 *
 * Work is bounded: each table visit and each element check costs one unit out of a budget
 * proportional to the buffer size, so a malicious buffer that shares one big table from
 * many places (FlatBuffers' DAG problem, its max_tables guard) fails with
 * TGRS_ERR_TOO_COMPLEX instead of taking quadratic time on the MCU.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fb_read.h"
#include "plan_internal.h"
#include "tigris_executor.h" /* tgrs_op_select.h: TGRS_WITH_STATE, ... */
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

/* A vector whose header and extent have been checked (pos == 0: absent). */
typedef struct vvec {
  uint32_t pos; /* position of the length prefix */
  uint32_t len;
} vvec;

typedef struct vctx {
  const uint8_t* base;
  uint32_t size;
  uint64_t budget;
  tgrs_verify_error* err;
  tgrs_verify_step path[TGRS_VERIFY_PATH_DEPTH];
  uint32_t depth;
  /* Facts collected from the root before elements are checked. */
  vvec tensors, ops, stages, chains, weights, blocks;
  uint32_t weight_data_len;
  uint32_t version; /* Plan.schema_version */
  uint32_t fast_arena, slow_arena;
  uint32_t next_stage_op; /* stages must continue at this op (they partition the ops) */
  uint8_t compression;
  /* Schema 3: state slots, the STATE arena's size (Plan.memories[STATE]) and the staged
   * constants' bytes. */
  uint32_t state_count, state_arena, staged_bytes;
  /* Schema 4: the PINNED arena's size (Plan.memories[PINNED], read before any home), whether
   * the plan lists it, and whether a home lies in it. */
  uint32_t pinned_arena;
  int pinned_listed, pinned_homes;
  /* Buffer.first_op/last_op are op steps, except in slow_buffers (stage indices). */
  uint32_t step_count;
  const char* step_message;
  /* While a stage's own buffers are checked: its activations lie in the fast arena
   * after the reserved weight prefix, [fast_reserved_bytes, + peak_bytes), because fast
   * homes are absolute offsets (docs/plan-format.md, "Stages, buffers, tiles"). */
  int window;
  uint32_t window_begin;
  uint64_t window_end;
} vctx;

/* --- error path ------------------------------------------------------------------------ */

static void push(vctx* c, const char* field, int32_t index) {
  if (c->depth < TGRS_VERIFY_PATH_DEPTH) {
    c->path[c->depth].field = field;
    c->path[c->depth].index = index;
  }
  c->depth++;
}
static void set_index(vctx* c, uint32_t index) {
  if (c->depth && c->depth <= TGRS_VERIFY_PATH_DEPTH) c->path[c->depth - 1].index = (int32_t)index;
}
static void pop(vctx* c) { c->depth--; }

static tgrs_status fail(vctx* c, tgrs_status status, const char* message, int64_t value,
                        int64_t limit) {
  uint32_t n = c->depth < TGRS_VERIFY_PATH_DEPTH ? c->depth : TGRS_VERIFY_PATH_DEPTH;
  c->err->status = status;
  c->err->depth = n;
  memcpy(c->err->path, c->path, sizeof(c->path[0]) * n);
  c->err->message = message;
  c->err->value = value;
  c->err->limit = limit;
  return status;
}

static tgrs_status spend(vctx* c, uint32_t units) {
  if (c->budget < units) {
    return fail(c, TGRS_ERR_TOO_COMPLEX, "verification work exceeds {l} units (shared tables?)", 0,
                (int64_t)c->budget);
  }
  c->budget -= units;
  return TGRS_OK;
}

/* --- wire format ------------------------------------------------------------------------ */

static tgrs_status check_table(vctx* c, uint32_t pos, vtab* t) {
  int64_t vt;
  TRY(spend(c, 1));
  if (pos % 4u != 0 || (uint64_t)pos + 4u > c->size) {
    return fail(c, TGRS_ERR_BAD_OFFSET, "table at {v} outside the buffer or misaligned", pos,
                c->size);
  }
  vt = (int64_t)pos - (int64_t)fb_i32(c->base + pos);
  if (vt < 0 || vt % 2 != 0 || vt + 4 > (int64_t)c->size) {
    return fail(c, TGRS_ERR_BAD_VTABLE, "vtable at {v} outside the buffer (size {l})", vt, c->size);
  }
  t->pos = pos;
  t->vt = (uint32_t)vt;
  t->vsize = fb_u16(c->base + t->vt);
  t->tsize = fb_u16(c->base + t->vt + 2);
  if (t->vsize < 4u || t->vsize % 2u != 0 || (uint64_t)t->vt + t->vsize > c->size) {
    return fail(c, TGRS_ERR_BAD_VTABLE, "vtable of {v} bytes runs outside the buffer", t->vsize,
                c->size);
  }
  if (t->tsize < 4u || (uint64_t)pos + t->tsize > c->size) {
    return fail(c, TGRS_ERR_BAD_VTABLE, "table of {v} bytes runs outside the buffer", t->tsize,
                c->size);
  }
  return TGRS_OK;
}

/* Checks field `id` of `bytes` (alignment `align`) lies inside its table; *out = its
 * position, 0 when absent. */
static tgrs_status check_field(vctx* c, const vtab* t, unsigned id, uint32_t bytes, uint32_t align,
                               const char* name, uint32_t* out) {
  uint32_t slot = 4u + 2u * id;
  uint32_t off = slot < t->vsize ? fb_u16(c->base + t->vt + slot) : 0u;
  *out = 0;
  if (off == 0) return TGRS_OK;
  if (off < 4u || off + bytes > t->tsize || (t->pos + off) % align != 0) {
    push(c, name, -1);
    return fail(c, TGRS_ERR_BAD_VTABLE,
                "field at table offset {v} outside the table ({l} bytes) or misaligned", off,
                t->tsize);
  }
  *out = t->pos + off;
  return TGRS_OK;
}

static tgrs_status get_u8(vctx* c, const vtab* t, unsigned id, const char* name, uint8_t dflt,
                          uint8_t* out) {
  uint32_t at;
  TRY(check_field(c, t, id, 1, 1, name, &at));
  *out = at ? c->base[at] : dflt;
  return TGRS_OK;
}
static tgrs_status get_u16(vctx* c, const vtab* t, unsigned id, const char* name, uint16_t dflt,
                           uint16_t* out) {
  uint32_t at;
  TRY(check_field(c, t, id, 2, 2, name, &at));
  *out = at ? fb_u16(c->base + at) : dflt;
  return TGRS_OK;
}
static tgrs_status get_u32(vctx* c, const vtab* t, unsigned id, const char* name, uint32_t dflt,
                           uint32_t* out) {
  uint32_t at;
  TRY(check_field(c, t, id, 4, 4, name, &at));
  *out = at ? fb_u32(c->base + at) : dflt;
  return TGRS_OK;
}
static tgrs_status get_i32(vctx* c, const vtab* t, unsigned id, const char* name, int32_t dflt,
                           int32_t* out) {
  uint32_t at;
  TRY(check_field(c, t, id, 4, 4, name, &at));
  *out = at ? fb_i32(c->base + at) : dflt;
  return TGRS_OK;
}
/* A float field only needs its bytes inside the table (any bit pattern is a float). */
static tgrs_status check_f32(vctx* c, const vtab* t, unsigned id, const char* name) {
  uint32_t at;
  return check_field(c, t, id, 4, 4, name, &at);
}

/* Follows uoffset field `id`; *target = the object's position, *present = 0 if absent. */
static tgrs_status get_ref(vctx* c, const vtab* t, unsigned id, const char* name, uint32_t* target,
                           int* present) {
  uint32_t at;
  uint64_t to;
  TRY(check_field(c, t, id, 4, 4, name, &at));
  *present = at != 0;
  *target = 0;
  if (!at) return TGRS_OK;
  to = (uint64_t)at + fb_u32(c->base + at);
  if (to >= c->size) {
    push(c, name, -1);
    return fail(c, TGRS_ERR_BAD_OFFSET, "offset to {v} points outside the buffer (size {l})",
                (int64_t)to, c->size);
  }
  *target = (uint32_t)to;
  return TGRS_OK;
}

static tgrs_status check_vector_at(vctx* c, uint32_t pos, uint32_t elem_bytes, vvec* v) {
  uint64_t end;
  if (pos % 4u != 0 || (uint64_t)pos + 4u > c->size) {
    return fail(c, TGRS_ERR_BAD_OFFSET, "vector at {v} outside the buffer or misaligned", pos,
                c->size);
  }
  v->pos = pos;
  v->len = fb_u32(c->base + pos);
  end = (uint64_t)pos + 4u + (uint64_t)v->len * elem_bytes;
  if (end > c->size) {
    return fail(c, TGRS_ERR_BAD_VECTOR, "vector of {v} elements runs past the buffer end ({l})",
                v->len, c->size);
  }
  return TGRS_OK;
}

/* Vector field `id`; v->pos == 0 and v->len == 0 when absent. The field stays on the path
 * (caller pops) so element errors read "inputs[3]". */
static tgrs_status get_vector(vctx* c, const vtab* t, unsigned id, const char* name,
                              uint32_t elem_bytes, vvec* v) {
  uint32_t pos;
  int present;
  v->pos = 0;
  v->len = 0;
  TRY(get_ref(c, t, id, name, &pos, &present));
  if (!present) return TGRS_OK;
  push(c, name, -1);
  TRY(check_vector_at(c, pos, elem_bytes, v));
  pop(c);
  return TGRS_OK;
}

static tgrs_status check_string(vctx* c, const vtab* t, unsigned id, const char* name) {
  uint32_t pos, len;
  int present;
  TRY(get_ref(c, t, id, name, &pos, &present));
  if (!present) return TGRS_OK;
  push(c, name, -1);
  if (pos % 4u != 0 || (uint64_t)pos + 4u > c->size) {
    return fail(c, TGRS_ERR_BAD_OFFSET, "string at {v} outside the buffer or misaligned", pos,
                c->size);
  }
  len = fb_u32(c->base + pos);
  if ((uint64_t)pos + 4u + len + 1u > c->size || c->base[pos + 4u + len] != 0) {
    return fail(c, TGRS_ERR_BAD_STRING,
                "string of {v} bytes not NUL-terminated inside the buffer (size {l})", len,
                c->size);
  }
  pop(c);
  return TGRS_OK;
}

static tgrs_status get_table(vctx* c, const vtab* t, unsigned id, const char* name, vtab* sub,
                             int* present) {
  uint32_t pos;
  TRY(get_ref(c, t, id, name, &pos, present));
  if (!*present) return TGRS_OK;
  push(c, name, -1);
  TRY(check_table(c, pos, sub));
  pop(c);
  return TGRS_OK;
}

/* Element i of a verified vector of tables. */
static tgrs_status element_table(vctx* c, const vvec* v, uint32_t i, vtab* t) {
  uint32_t slot = v->pos + 4u + 4u * i;
  uint64_t to = (uint64_t)slot + fb_u32(c->base + slot);
  if (to >= c->size) {
    return fail(c, TGRS_ERR_BAD_OFFSET, "offset to {v} points outside the buffer (size {l})",
                (int64_t)to, c->size);
  }
  return check_table(c, (uint32_t)to, t);
}

static int32_t vec_i32(const vctx* c, const vvec* v, uint32_t i) {
  return fb_i32(c->base + v->pos + 4u + 4u * i);
}

/* --- plan rules --------------------------------------------------------------------------- */

/* Every element of an int vector is an index into a vector of `count`, or -1 when
 * `allow_none`. The field is on the path (get_vector left it). */
static tgrs_status check_index_vector(vctx* c, const vtab* t, unsigned id, const char* name,
                                      uint32_t count, int allow_none, const char* message,
                                      vvec* out) {
  vvec v;
  uint32_t i;
  TRY(get_vector(c, t, id, name, 4, &v));
  TRY(spend(c, v.len));
  push(c, name, -1);
  for (i = 0; i < v.len; ++i) {
    int32_t x = vec_i32(c, &v, i);
    if ((x == -1 && allow_none) || (x >= 0 && (uint32_t)x < count)) continue;
    set_index(c, i);
    return fail(c, TGRS_ERR_BAD_INDEX, message, x, count);
  }
  pop(c);
  if (out) *out = v;
  return TGRS_OK;
}

static tgrs_status check_index(vctx* c, const char* name, int32_t x, uint32_t count, int allow_none,
                               const char* message) {
  if ((x == -1 && allow_none) || (x >= 0 && (uint32_t)x < count)) return TGRS_OK;
  push(c, name, -1);
  return fail(c, TGRS_ERR_BAD_INDEX, message, x, count);
}

/* Every element of a verified vector of 1- or 4-byte signed integers lies in [lo, hi]. The
 * kernels rely on these ranges for defined arithmetic (kernel_util.h, requantize.h), so a
 * plan that breaks one is rejected here rather than trusted (found by fuzz_plan). */
static tgrs_status check_vector_range(vctx* c, const vvec* v, uint32_t elem_bytes, const char* name,
                                      int32_t lo, int32_t hi, const char* message) {
  uint32_t i;
  for (i = 0; i < v->len; ++i) {
    const int32_t x =
        elem_bytes == 1u ? (int32_t)(int8_t)c->base[v->pos + 4u + i] : vec_i32(c, v, i);
    if (x >= lo && x <= hi) continue;
    push(c, name, (int32_t)i);
    return fail(c, TGRS_ERR_BAD_VALUE, message, x, x < lo ? lo : hi);
  }
  return TGRS_OK;
}

static tgrs_status check_enum(vctx* c, const char* name, uint32_t value, uint32_t count) {
  if (value < count) return TGRS_OK;
  push(c, name, -1);
  return fail(c, TGRS_ERR_BAD_ENUM, "unknown value {v} (known: 0..{l})", value, (int64_t)count - 1);
}

static tgrs_status require(vctx* c, int present, const char* name) {
  if (present) return TGRS_OK;
  push(c, name, -1);
  return fail(c, TGRS_ERR_MISSING_FIELD, "required field is absent", 0, 0);
}

static const uint8_t* vec_table_trusted(const vctx* c, const vvec* v, uint32_t i) {
  return fb_vec_table(c->base + v->pos, i);
}

uint32_t tgrs_tensor_table_bytes_(const uint8_t* tensor) {
  const uint8_t* shape = fb_get_ref(tensor, FB_TENSOR_SHAPE);
  uint32_t rank = fb_vec_len(shape), i;
  uint32_t bytes = (uint32_t)tgrs_dtype_size((tgrs_dtype)fb_get_u8(tensor, FB_TENSOR_DTYPE, 0));
  for (i = 0; i < rank; ++i) bytes *= (uint32_t)fb_i32(shape + 4u + 4u * i);
  return bytes;
}

/* Extent along a tiled axis: rows (axis 0, HEIGHT: shape[1] in NHWC / NWC), columns
 * (axis 1, W) or channels (axis 2, C) of a rank-4 NHWC tensor; -1 if unknown. */
static int64_t tensor_extent(const vctx* c, int32_t tensor, int axis) {
  const uint8_t* shape;
  uint32_t rank;
  if (tensor < 0) return -1;
  shape = fb_get_ref(vec_table_trusted(c, &c->tensors, (uint32_t)tensor), FB_TENSOR_SHAPE);
  rank = fb_vec_len(shape);
  if (axis > 0) return rank == 4u ? fb_i32(shape + 8u + 4u * (uint32_t)axis) : -1;
  return rank >= 2u ? fb_i32(shape + 8) : -1;
}

static tgrs_status verify_quant(vctx* c, const vtab* q, const vvec* shape, uint8_t dtype) {
  vvec scale, zero_point;
  int32_t axis;
  TRY(get_vector(c, q, FB_QUANT_SCALE, "scale", 4, &scale));
  TRY(get_vector(c, q, FB_QUANT_ZERO_POINT, "zero_point", 4, &zero_point));
  /* A zero point is a value of the tensor's own type; the int8 kernels form x - zero_point
   * and need it within 9 bits. */
  if (dtype == TGRS_DTYPE_INT8) {
    TRY(check_vector_range(c, &zero_point, 4, "zero_point", -128, 127,
                           "zero point {v} outside int8 (limit {l})"));
  } else if (dtype == TGRS_DTYPE_UINT8) {
    TRY(check_vector_range(c, &zero_point, 4, "zero_point", 0, 255,
                           "zero point {v} outside uint8 (limit {l})"));
  }
  TRY(get_i32(c, q, FB_QUANT_AXIS, "axis", -1, &axis));
  if (zero_point.len != scale.len) {
    push(c, "zero_point", -1);
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} zero points for {l} scales", zero_point.len, scale.len);
  }
  TRY(check_index(c, "axis", axis, shape->len, 1, "axis {v} outside the tensor's rank {l}"));
  if (scale.len > 1u) {
    int64_t channels = axis >= 0 ? vec_i32(c, shape, (uint32_t)axis) : -1;
    if (axis < 0 || channels != (int64_t)scale.len) {
      push(c, "scale", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} per-channel scales for {l} channels", scale.len,
                  channels);
    }
  }
  return TGRS_OK;
}

/* Element count of a verified shape vector with dims >= 0; fails beyond uint32. */
static tgrs_status shape_elements(vctx* c, const vvec* shape, const char* name, uint64_t* out) {
  uint64_t n = 1;
  uint32_t i;
  push(c, name, -1);
  if (shape->len > TGRS_MAX_RANK) {
    return fail(c, TGRS_ERR_BAD_VALUE, "rank {v} exceeds the reader's limit {l}", shape->len,
                TGRS_MAX_RANK);
  }
  for (i = 0; i < shape->len; ++i) {
    int32_t d = vec_i32(c, shape, i);
    set_index(c, i);
    if (d < 0) return fail(c, TGRS_ERR_BAD_VALUE, "negative dimension {v}", d, 0);
    n *= (uint64_t)d;
    if (n > 0xFFFFFFFFu) {
      return fail(c, TGRS_ERR_BAD_SIZE, "more than {l} elements", 0, 0xFFFFFFFFu);
    }
  }
  pop(c);
  *out = n;
  return TGRS_OK;
}

static tgrs_status verify_tensor(vctx* c, const vtab* t) {
  uint8_t dtype, host_dtype;
  vvec shape, perm, onnx_shape;
  vtab q;
  int has_quant;
  int32_t weight;
  uint64_t elements, onnx_elements, bytes;
  uint32_t i, seen = 0;
  TRY(check_string(c, t, FB_TENSOR_NAME, "name"));
  TRY(get_u8(c, t, FB_TENSOR_DTYPE, "dtype", 0, &dtype));
  if (dtype == TGRS_DTYPE_UNKNOWN || dtype > TGRS_DTYPE_INT16) {
    push(c, "dtype", -1);
    return fail(c, TGRS_ERR_BAD_ENUM, "unknown dtype {v} (known: 1..{l})", dtype, TGRS_DTYPE_INT16);
  }
  TRY(get_vector(c, t, FB_TENSOR_SHAPE, "shape", 4, &shape));
  TRY(spend(c, shape.len));
  TRY(shape_elements(c, &shape, "shape", &elements));
  bytes = elements * tgrs_dtype_size((tgrs_dtype)dtype);
  if (bytes > 0xFFFFFFFFu) {
    push(c, "shape", -1);
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} bytes exceed {l}", (int64_t)bytes, 0xFFFFFFFFu);
  }
  TRY(get_table(c, t, FB_TENSOR_QUANT, "quant", &q, &has_quant));
  if (has_quant) {
    push(c, "quant", -1);
    TRY(verify_quant(c, &q, &shape, dtype));
    pop(c);
  }
  TRY(get_i32(c, t, FB_TENSOR_WEIGHT, "weight", -1, &weight));
  TRY(check_index(c, "weight", weight, c->weights.len, 1,
                  "weight index {v} out of range (weights: {l})"));
  if (weight >= 0) {
    const uint8_t* w = vec_table_trusted(c, &c->weights, (uint32_t)weight);
    uint32_t size = fb_get_u32(w, FB_WEIGHT_SIZE, 0);
    if (size != bytes) {
      push(c, "weight", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "weight of {v} bytes for a tensor of {l} bytes", size,
                  (int64_t)bytes);
    }
  }
  TRY(get_vector(c, t, FB_TENSOR_HOST_PERMUTATION, "host_permutation", 4, &perm));
  if (perm.pos) {
    push(c, "host_permutation", -1);
    if (perm.len != shape.len) {
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} axes for a rank-{l} tensor", perm.len, shape.len);
    }
    for (i = 0; i < perm.len; ++i) {
      int32_t axis = vec_i32(c, &perm, i);
      set_index(c, i);
      if (axis < 0 || (uint32_t)axis >= perm.len) {
        return fail(c, TGRS_ERR_BAD_INDEX, "axis {v} out of range (rank {l})", axis, perm.len);
      }
      if (seen & (1u << axis)) return fail(c, TGRS_ERR_BAD_VALUE, "axis {v} repeated", axis, 0);
      seen |= 1u << axis;
    }
    pop(c);
  }
  TRY(get_u8(c, t, FB_TENSOR_HOST_DTYPE, "host_dtype", 0, &host_dtype));
  if (host_dtype != TGRS_DTYPE_UNKNOWN && host_dtype != dtype &&
      !(host_dtype == TGRS_DTYPE_UINT8 && dtype == TGRS_DTYPE_INT8)) {
    /* The runtime converts only uint8 <-> int8, by flipping the top bit (host_io.c). */
    push(c, "host_dtype", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "host dtype {v} for a tensor of dtype {l}", host_dtype,
                dtype);
  }
  TRY(get_vector(c, t, FB_TENSOR_ONNX_SHAPE, "onnx_shape", 4, &onnx_shape));
  if (onnx_shape.pos) {
    TRY(spend(c, onnx_shape.len));
    TRY(shape_elements(c, &onnx_shape, "onnx_shape", &onnx_elements));
    if (onnx_elements != elements) {
      push(c, "onnx_shape", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} elements, the runtime shape has {l}",
                  (int64_t)onnx_elements, (int64_t)elements);
    }
  }
  return TGRS_OK;
}

static tgrs_status verify_attrs(vctx* c, const vtab* a) {
  static const unsigned int_vectors[] = {
      FB_ATTRS_KERNEL,     FB_ATTRS_STRIDES, FB_ATTRS_PADS, FB_ATTRS_DILATIONS,
      FB_ATTRS_PERM,       FB_ATTRS_SHAPE,   FB_ATTRS_AXES, FB_ATTRS_OUTPUT_PADDING,
      FB_ATTRS_VIEW_SHAPE, FB_ATTRS_STARTS};
  static const char* const int_vector_names[] = {"kernel",     "strides", "pads", "dilations",
                                                 "perm",       "shape",   "axes", "output_padding",
                                                 "view_shape", "starts"};
  static const unsigned floats[] = {FB_ATTRS_ALPHA, FB_ATTRS_BETA, FB_ATTRS_GAMMA,
                                    FB_ATTRS_MIN,   FB_ATTRS_MAX,  FB_ATTRS_PAD_VALUE,
                                    FB_ATTRS_BIAS};
  static const char* const float_names[] = {"alpha", "beta",      "gamma", "min",
                                            "max",   "pad_value", "bias"};
  vvec v;
  int32_t i32;
  uint8_t b;
  size_t i;
  for (i = 0; i < sizeof int_vectors / sizeof int_vectors[0]; ++i) {
    TRY(get_vector(c, a, int_vectors[i], int_vector_names[i], 4, &v));
  }
  for (i = 0; i < sizeof floats / sizeof floats[0]; ++i) {
    TRY(check_f32(c, a, floats[i], float_names[i]));
  }
  TRY(get_i32(c, a, FB_ATTRS_GROUP, "group", 1, &i32));
  if (i32 < 1) {
    push(c, "group", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "group {v} < 1", i32, 1);
  }
  TRY(get_i32(c, a, FB_ATTRS_AXIS, "axis", 0, &i32));
  TRY(get_vector(c, a, FB_ATTRS_SCALES, "scales", 4, &v));
  TRY(check_string(c, a, FB_ATTRS_MODE, "mode"));
  TRY(check_string(c, a, FB_ATTRS_COORDINATE_TRANSFORMATION_MODE,
                   "coordinate_transformation_mode"));
  TRY(check_string(c, a, FB_ATTRS_NEAREST_MODE, "nearest_mode"));
  TRY(get_u8(c, a, FB_ATTRS_COUNT_INCLUDE_PAD, "count_include_pad", 0, &b));
  TRY(get_u8(c, a, FB_ATTRS_CEIL_MODE, "ceil_mode", 0, &b));
  TRY(get_u8(c, a, FB_ATTRS_KEEPDIMS, "keepdims", 1, &b));
  return TGRS_OK;
}

/* Two vectors that must have the same length (multiplier/shift pairs, ...). */
static tgrs_status check_pair(vctx* c, const vtab* t, unsigned id_a, const char* a,
                              uint32_t bytes_a, unsigned id_b, const char* b, uint32_t bytes_b) {
  vvec va, vb;
  TRY(get_vector(c, t, id_a, a, bytes_a, &va));
  TRY(get_vector(c, t, id_b, b, bytes_b, &vb));
  if (va.len == vb.len) return TGRS_OK;
  push(c, b, -1);
  return fail(c, TGRS_ERR_BAD_SIZE, "{v} entries, {l} expected (one per entry of the pair)", vb.len,
              va.len);
}

static tgrs_status verify_op(vctx* c, const vtab* t) {
  uint16_t code;
  uint8_t activation;
  int32_t act_min, act_max, left_shift;
  vtab attrs;
  int has_attrs;
  vvec lut, channel_offset;
  TRY(get_u16(c, t, FB_OP_CODE, "code", 0, &code));
  TRY(check_enum(c, "code", code, TGRS_OP_CODE_COUNT));
  TRY(check_string(c, t, FB_OP_NAME, "name"));
  TRY(check_index_vector(c, t, FB_OP_INPUTS, "inputs", c->tensors.len, 1,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  TRY(check_index_vector(c, t, FB_OP_OUTPUTS, "outputs", c->tensors.len, 0,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  TRY(get_table(c, t, FB_OP_ATTRS, "attrs", &attrs, &has_attrs));
  if (has_attrs) {
    push(c, "attrs", -1);
    TRY(verify_attrs(c, &attrs));
    pop(c);
  }
  TRY(get_u8(c, t, FB_OP_ACTIVATION, "activation", 0, &activation));
  TRY(check_enum(c, "activation", activation, TGRS_ACTIVATION_RELU6 + 1));
  TRY(check_pair(c, t, FB_OP_OUTPUT_MULTIPLIER, "output_multiplier", 4, FB_OP_OUTPUT_SHIFT,
                 "output_shift", 1));
  TRY(check_pair(c, t, FB_OP_INPUT_MULTIPLIER, "input_multiplier", 4, FB_OP_INPUT_SHIFT,
                 "input_shift", 1));
  TRY(check_pair(c, t, FB_OP_CHANNEL_SCALE, "channel_scale", 4, FB_OP_CHANNEL_SHIFT,
                 "channel_shift", 4));
  TRY(get_i32(c, t, FB_OP_ACT_MIN, "act_min", -128, &act_min));
  TRY(get_i32(c, t, FB_OP_ACT_MAX, "act_max", 127, &act_max));
  if (act_min > act_max) {
    push(c, "act_max", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "act_max {v} below act_min {l}", act_max, act_min);
  }
  {
    /* Shifts as tgrs_quantize_multiplier produces them: requantize.h shifts right by
     * 31 - shift, which must stay in [1, 62]. */
    vvec shifts;
    TRY(get_vector(c, t, FB_OP_OUTPUT_SHIFT, "output_shift", 1, &shifts));
    TRY(check_vector_range(c, &shifts, 1, "output_shift", -31, 30,
                           "shift {v} outside [-31, 30] (limit {l})"));
    TRY(get_vector(c, t, FB_OP_INPUT_SHIFT, "input_shift", 1, &shifts));
    TRY(check_vector_range(c, &shifts, 1, "input_shift", -31, 30,
                           "shift {v} outside [-31, 30] (limit {l})"));
  }
  TRY(get_i32(c, t, FB_OP_LEFT_SHIFT, "left_shift", 0, &left_shift));
  if (left_shift < 0 || left_shift > 22) {
    /* (x - zero_point) << left_shift must fit int32 with |x - zero_point| <= 255. */
    push(c, "left_shift", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "left shift {v} outside [0, 22] (limit {l})", left_shift,
                left_shift < 0 ? 0 : 22);
  }
  TRY(get_vector(c, t, FB_OP_CHANNEL_OFFSET, "channel_offset", 4, &channel_offset));
  TRY(get_vector(c, t, FB_OP_LUT, "lut", 1, &lut));
  if (lut.len != 0 && lut.len != 256u) {
    push(c, "lut", -1);
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} entries, a lookup table has {l}", lut.len, 256);
  }
  return TGRS_OK;
}

static uint32_t align16(uint32_t bytes) { return (uint32_t)(((uint64_t)bytes + 15u) / 16u * 16u); }

/* A home (tgrs.fbs, Home) of a buffer of `kind` holding `bytes`: a region a buffer may
 * live in (FAST, SLOW, FLASH, HOST; PINNED for whole tensors of a schema 4 plan that lists
 * it), and inside the arena it names. */
static tgrs_status verify_home(vctx* c, uint32_t at, uint32_t bytes, uint8_t kind) {
  uint32_t offset = fb_u32(c->base + at), size = fb_u32(c->base + at + 4);
  uint8_t region = c->base[at + 8];
  uint32_t arena;
  push(c, "home", -1);
  if (region > TGRS_REGION_HOST && (!TGRS_WITH_PINNED || region != TGRS_REGION_PINNED)) {
    return fail(c, TGRS_ERR_BAD_ENUM, "unknown region {v} (known: 0..{l}, 6)", region,
                TGRS_REGION_HOST);
  }
#if TGRS_WITH_PINNED
  if (region == TGRS_REGION_PINNED && (!c->pinned_listed || kind != TGRS_BUFFER_TENSOR)) {
    return fail(c, TGRS_ERR_BAD_ENUM,
                "region {v} (PINNED) holds whole tensors of a schema 4 plan listing its memory "
                "(schema {l})",
                region, c->version);
  }
  c->pinned_homes |= region == TGRS_REGION_PINNED;
#else
  (void)kind;
#endif
  if (region == TGRS_REGION_FAST || region == TGRS_REGION_SLOW || region == TGRS_REGION_PINNED) {
    arena = region == TGRS_REGION_FAST   ? c->fast_arena
            : region == TGRS_REGION_SLOW ? c->slow_arena
                                         : c->pinned_arena;
    /* Offsets and sizes in the arenas are multiples of 16 (docs/memory-model.md). */
    if (offset % 16u != 0) {
      return fail(c, TGRS_ERR_BAD_ALIGNMENT, "offset {v} is not a multiple of {l}", offset, 16);
    }
    if (size != align16(bytes)) {
      return fail(c, TGRS_ERR_BAD_SIZE, "size {v} is not the payload rounded up to 16 ({l})", size,
                  align16(bytes));
    }
    if ((uint64_t)offset + size > arena) {
      return fail(c, TGRS_ERR_BAD_SIZE, "home ends at {v}, past the arena's {l} bytes",
                  (int64_t)offset + size, arena);
    }
    if (region == TGRS_REGION_FAST && c->window && size != 0) {
      if (offset < c->window_begin) {
        return fail(c, TGRS_ERR_BAD_SIZE,
                    "home at {v} overlaps the stage's {l} reserved weight bytes", offset,
                    c->window_begin);
      }
      if ((uint64_t)offset + size > c->window_end) {
        return fail(c, TGRS_ERR_BAD_SIZE,
                    "home ends at {v}, past fast_reserved_bytes + peak_bytes = {l}",
                    (int64_t)offset + size, (int64_t)c->window_end);
      }
    }
  }
  pop(c);
  return TGRS_OK;
}

static tgrs_status verify_buffer(vctx* c, const vtab* t) {
  uint8_t kind;
  int32_t tensor, op, first_op, last_op;
  uint32_t bytes, home;
  TRY(get_u8(c, t, FB_BUFFER_KIND, "kind", 0, &kind));
  TRY(check_enum(c, "kind", kind, TGRS_BUFFER_SCRATCH + 1));
  TRY(get_i32(c, t, FB_BUFFER_TENSOR, "tensor", -1, &tensor));
  TRY(check_index(c, "tensor", tensor, c->tensors.len, kind == TGRS_BUFFER_SCRATCH,
                  "tensor index {v} out of range (tensors: {l})"));
  TRY(get_i32(c, t, FB_BUFFER_OP, "op", -1, &op));
  TRY(check_index(c, "op", op, c->ops.len, kind != TGRS_BUFFER_SCRATCH,
                  "op index {v} out of range (ops: {l})"));
  TRY(get_i32(c, t, FB_BUFFER_FIRST_OP, "first_op", 0, &first_op));
  TRY(get_i32(c, t, FB_BUFFER_LAST_OP, "last_op", 0, &last_op));
  TRY(check_index(c, "first_op", first_op, c->step_count, 0, c->step_message));
  TRY(check_index(c, "last_op", last_op, c->step_count, 0, c->step_message));
  if (last_op < first_op) {
    push(c, "last_op", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "last_op {v} before first_op {l}", last_op, first_op);
  }
  TRY(get_u32(c, t, FB_BUFFER_BYTES, "bytes", 0, &bytes));
  if (tensor >= 0) {
    uint32_t tensor_bytes =
        tgrs_tensor_table_bytes_(vec_table_trusted(c, &c->tensors, (uint32_t)tensor));
    /* A whole-tensor buffer holds the tensor; a row strip some of its rows. */
    if (kind == TGRS_BUFFER_TENSOR ? bytes != tensor_bytes : bytes > tensor_bytes) {
      push(c, "bytes", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} bytes for a tensor of {l} bytes", bytes, tensor_bytes);
    }
  }
  TRY(check_field(c, t, FB_BUFFER_HOME, FB_HOME_BYTES, FB_HOME_ALIGN, "home", &home));
  TRY(require(c, home != 0, "home"));
  return verify_home(c, home, bytes, kind);
}

/* Vector-of-Buffer field `id`. */
static tgrs_status verify_buffers(vctx* c, const vtab* t, unsigned id, const char* name,
                                  vvec* out) {
  vvec v;
  vtab b;
  uint32_t i;
  TRY(get_vector(c, t, id, name, 4, &v));
  push(c, name, -1);
  for (i = 0; i < v.len; ++i) {
    set_index(c, i);
    TRY(element_table(c, &v, i, &b));
    TRY(verify_buffer(c, &b));
  }
  pop(c);
  if (out) *out = v;
  return TGRS_OK;
}

/* The input a region's range indexes: the op's first that is not a weight (weights are
 * never cut; a row-form GATHER's table is input 0 and its ids input 1); -1 for none. */
static int32_t region_input(const vctx* c, const uint8_t* inputs) {
  uint32_t i;
  for (i = 0; i < fb_vec_len(inputs); ++i) {
    const int32_t t = fb_i32(inputs + 4u + 4u * i);
    if (t >= 0 &&
        fb_get_i32(vec_table_trusted(c, &c->tensors, (uint32_t)t), FB_TENSOR_WEIGHT, -1) < 0) {
      return t;
    }
  }
  return -1;
}

/* One TileRegion of op `op` along `axis`: rows (TilePlan.regions), columns or channels.
 * The messages name no axis: the path does ("regions", "columns", "channels"), and one set
 * of strings keeps the verifier's Cortex-M code small. */
static tgrs_status verify_region(vctx* c, const uint8_t* r, int32_t op, int axis) {
  int32_t in_begin = fb_i32(r), in_end = fb_i32(r + 4), out_begin = fb_i32(r + 8);
  int32_t out_end = fb_i32(r + 12), pad_before = fb_i32(r + 16), pad_after = fb_i32(r + 20);
  const uint8_t* op_table = vec_table_trusted(c, &c->ops, (uint32_t)op);
  const uint8_t* inputs = fb_get_ref(op_table, FB_OP_INPUTS);
  const uint8_t* outputs = fb_get_ref(op_table, FB_OP_OUTPUTS);
  int64_t in_extent = tensor_extent(c, region_input(c, inputs), axis);
  int64_t out_extent = fb_vec_len(outputs) ? tensor_extent(c, fb_i32(outputs + 4), axis) : -1;
  if (in_begin < 0 || in_end < in_begin) {
    return fail(c, TGRS_ERR_BAD_VALUE, "input [{v}, {l}) is not a range", in_begin, in_end);
  }
  if (out_begin < 0 || out_end < out_begin) {
    return fail(c, TGRS_ERR_BAD_VALUE, "output [{v}, {l}) is not a range", out_begin, out_end);
  }
  if (pad_before < 0 || pad_after < 0) {
    return fail(c, TGRS_ERR_BAD_VALUE, "negative padding {v}",
                pad_before < 0 ? pad_before : pad_after, 0);
  }
  /* Regions are full-tensor indices (TileRegion); the kernels index with them. */
  if (in_extent >= 0 && in_end > in_extent) {
    return fail(c, TGRS_ERR_BAD_INDEX, "input end {v} past the input's extent {l}", in_end,
                in_extent);
  }
  if (out_extent >= 0 && out_end > out_extent) {
    return fail(c, TGRS_ERR_BAD_INDEX, "output end {v} past the output's extent {l}", out_end,
                out_extent);
  }
  return TGRS_OK;
}

/* Vector-of-TileRegion field `id` along `axis` ("regions", "columns", "channels"):
 * count * len(ops) entries; the optional ones (columns, channels) need schema 2 and a
 * recomputing loop. */
static tgrs_status verify_regions(vctx* c, const vtab* t, unsigned id, const char* name,
                                  int32_t count, const vvec* ops, int axis, uint8_t streamed) {
  vvec regions;
  uint32_t i;
  TRY(get_vector(c, t, id, name, FB_TILE_REGION_BYTES, &regions));
  if (axis > 0 && regions.len == 0) return TGRS_OK; /* full width, every channel */
  if (axis > 0 && (streamed || c->version < 2u)) {
    /* A streamed loop keeps whole rows from tile to tile. */
    push(c, name, -1);
    return fail(c, TGRS_ERR_BAD_VALUE,
                "{v} regions in a streamed loop or a schema {l} plan (2-D tiles and channel "
                "groups are schema 2, recomputing loops only)",
                regions.len, c->version);
  }
  push(c, name, -1);
  if ((uint64_t)regions.len != (uint64_t)(uint32_t)count * ops->len) {
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} regions, count * len(ops) = {l}", regions.len,
                (int64_t)count * ops->len);
  }
  TRY(spend(c, regions.len));
  for (i = 0; i < regions.len; ++i) {
    set_index(c, i);
    TRY(verify_region(c, c->base + regions.pos + 4u + FB_TILE_REGION_BYTES * i,
                      vec_i32(c, ops, i % ops->len), axis));
  }
  pop(c);
  return TGRS_OK;
}

static tgrs_status verify_tile(vctx* c, const vtab* t) {
  uint8_t dim, streamed;
  int32_t tile_size, count, halo;
  uint32_t peak;
  vvec ops;
  TRY(get_u8(c, t, FB_TILE_DIM, "dim", 0, &dim));
  TRY(check_enum(c, "dim", dim, TGRS_TILE_DIM_HEIGHT + 1));
  TRY(get_i32(c, t, FB_TILE_TILE_SIZE, "tile_size", 0, &tile_size));
  TRY(get_i32(c, t, FB_TILE_COUNT, "count", 0, &count));
  TRY(get_i32(c, t, FB_TILE_HALO, "halo", 0, &halo));
  if (tile_size < 1 || count < 1 || halo < 0) {
    const char* name = tile_size < 1 ? "tile_size" : count < 1 ? "count" : "halo";
    int32_t value = tile_size < 1 ? tile_size : count < 1 ? count : halo;
    push(c, name, -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "{v} is below {l}", value, halo < 0 ? 0 : 1);
  }
  TRY(check_index_vector(c, t, FB_TILE_OPS, "ops", c->ops.len, 0,
                         "op index {v} out of range (ops: {l})", &ops));
  TRY(get_u8(c, t, FB_TILE_STREAMED, "streamed", 0, &streamed));
  TRY(verify_regions(c, t, FB_TILE_REGIONS, "regions", count, &ops, 0, streamed));
  TRY(verify_buffers(c, t, FB_TILE_BUFFERS, "buffers", NULL));
  if (streamed > 1) {
    push(c, "streamed", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "{v} is not a bool (0 or {l})", streamed, 1);
  }
  TRY(verify_regions(c, t, FB_TILE_COLUMNS, "columns", count, &ops, 1, streamed));
  TRY(verify_regions(c, t, FB_TILE_CHANNELS, "channels", count, &ops, 2, streamed));
  return get_u32(c, t, FB_TILE_PEAK_BYTES, "peak_bytes", 0, &peak);
}

static tgrs_status verify_stage(vctx* c, const vtab* t, uint32_t index) {
  uint8_t strategy;
  int32_t id, chain, weight_block;
  uint32_t peak, reserved, i;
  vvec ops;
  vtab tile;
  int has_tile;
  TRY(get_i32(c, t, FB_STAGE_ID, "id", 0, &id));
  TRY(get_u8(c, t, FB_STAGE_STRATEGY, "strategy", 0, &strategy));
  TRY(check_enum(c, "strategy", strategy, TGRS_STRATEGY_CHAIN + 1));
  TRY(check_index_vector(c, t, FB_STAGE_OPS, "ops", c->ops.len, 0,
                         "op index {v} out of range (ops: {l})", &ops));
  TRY(require(c, ops.len != 0, "ops"));
  /* Stages partition the ops in execution order, each a consecutive run (tgrs.fbs). */
  push(c, "ops", -1);
  for (i = 0; i < ops.len; ++i) {
    uint32_t expected = c->next_stage_op + i;
    set_index(c, i);
    if ((uint32_t)vec_i32(c, &ops, i) != expected) {
      return fail(c, TGRS_ERR_BAD_INDEX, "op {v} breaks the stages' consecutive run (expected {l})",
                  vec_i32(c, &ops, i), expected);
    }
  }
  pop(c);
  c->next_stage_op += ops.len;
  TRY(get_u32(c, t, FB_STAGE_PEAK_BYTES, "peak_bytes", 0, &peak));
  TRY(get_u32(c, t, FB_STAGE_FAST_RESERVED_BYTES, "fast_reserved_bytes", 0, &reserved));
  /* fast_arena_bytes = max(fast_reserved_bytes + peak_bytes) over stages (tgrs.fbs). */
  if ((uint64_t)reserved + peak > c->fast_arena) {
    push(c, "peak_bytes", -1);
    return fail(c, TGRS_ERR_BAD_SIZE, "reserved + peak = {v} bytes exceed fast_arena_bytes {l}",
                (int64_t)reserved + peak, c->fast_arena);
  }
  c->window = 1;
  c->window_begin = reserved;
  c->window_end = (uint64_t)reserved + peak;
  TRY(verify_buffers(c, t, FB_STAGE_BUFFERS, "buffers", NULL));
  TRY(get_table(c, t, FB_STAGE_TILE, "tile", &tile, &has_tile));
  if (strategy == TGRS_STRATEGY_TILED) TRY(require(c, has_tile, "tile"));
  if (has_tile) {
    push(c, "tile", -1);
    TRY(verify_tile(c, &tile));
    pop(c);
  }
  c->window = 0;
  TRY(get_i32(c, t, FB_STAGE_CHAIN, "chain", -1, &chain));
  TRY(check_index(c, "chain", chain, c->chains.len, 1,
                  "chain index {v} out of range (chains: {l})"));
  if (strategy == TGRS_STRATEGY_CHAIN) TRY(require(c, chain >= 0, "chain"));
  TRY(check_index_vector(c, t, FB_STAGE_SPILL_IN, "spill_in", c->tensors.len, 0,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  TRY(check_index_vector(c, t, FB_STAGE_SPILL_OUT, "spill_out", c->tensors.len, 0,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  TRY(get_i32(c, t, FB_STAGE_WEIGHT_BLOCK, "weight_block", -1, &weight_block));
  TRY(check_index(c, "weight_block", weight_block, c->blocks.len, 1,
                  "weight block index {v} out of range (weight blocks: {l})"));
  if (weight_block >= 0) {
    const uint8_t* b = vec_table_trusted(c, &c->blocks, (uint32_t)weight_block);
    int32_t owner = fb_get_i32(b, FB_BLOCK_STAGE, 0);
    uint32_t raw = fb_get_u32(b, FB_BLOCK_RAW_SIZE, 0);
    /* A block belongs to one residency unit: its stage, or every stage of a chain
     * (docs/plan-format.md, "Weights"); the owner is this stage or an earlier one. */
    int same_unit = (uint32_t)owner == index;
    if (!same_unit && (uint32_t)owner < index && strategy == TGRS_STRATEGY_CHAIN) {
      const uint8_t* owner_stage = vec_table_trusted(c, &c->stages, (uint32_t)owner);
      same_unit = fb_get_i32(owner_stage, FB_STAGE_CHAIN, -1) == chain;
    }
    if (!same_unit) {
      push(c, "weight_block", -1);
      return fail(c, TGRS_ERR_BAD_INDEX, "the block belongs to stage {v}, not {l}", owner, index);
    }
    if (raw > reserved) {
      push(c, "fast_reserved_bytes", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} decompressed weight bytes exceed the {l} reserved",
                  raw, reserved);
    }
  }
  return TGRS_OK;
}

static tgrs_status verify_chain(vctx* c, const vtab* t) {
  int32_t id;
  vtab tile;
  int has_tile;
  TRY(get_i32(c, t, FB_CHAIN_ID, "id", 0, &id));
  TRY(check_index_vector(c, t, FB_CHAIN_STAGES, "stages", c->stages.len, 0,
                         "stage index {v} out of range (stages: {l})", NULL));
  TRY(get_table(c, t, FB_CHAIN_TILE, "tile", &tile, &has_tile));
  TRY(require(c, has_tile, "tile"));
  push(c, "tile", -1);
  TRY(verify_tile(c, &tile));
  pop(c);
  return TGRS_OK;
}

static tgrs_status verify_block(vctx* c, const vtab* t) {
  int32_t stage;
  uint32_t offset, compressed, raw;
  TRY(get_i32(c, t, FB_BLOCK_STAGE, "stage", 0, &stage));
  TRY(check_index(c, "stage", stage, c->stages.len, 0,
                  "stage index {v} out of range (stages: {l})"));
  TRY(get_u32(c, t, FB_BLOCK_OFFSET, "offset", 0, &offset));
  TRY(get_u32(c, t, FB_BLOCK_COMPRESSED_SIZE, "compressed_size", 0, &compressed));
  TRY(get_u32(c, t, FB_BLOCK_RAW_SIZE, "raw_size", 0, &raw));
  /* compressed_size == raw_size is a plain copy; smaller is an LZ4 block; larger never. */
  if (compressed > raw) {
    push(c, "compressed_size", -1);
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} stored bytes for a block of {l}", compressed, raw);
  }
  if (compressed != raw && c->compression != TGRS_COMPRESSION_LZ4) {
    push(c, "compressed_size", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "{v} bytes for {l} raw, in a plan without compression",
                compressed, raw);
  }
  if ((uint64_t)offset + compressed > c->weight_data_len) {
    push(c, "compressed_size", -1);
    return fail(c, TGRS_ERR_BAD_OFFSET, "block ends at {v}, past weight_data's {l} bytes",
                (int64_t)offset + compressed, c->weight_data_len);
  }
  return TGRS_OK;
}

static tgrs_status verify_weight(vctx* c, const vtab* t) {
  uint32_t offset, size, limit;
  int32_t block;
  TRY(get_u32(c, t, FB_WEIGHT_OFFSET, "offset", 0, &offset));
  TRY(get_u32(c, t, FB_WEIGHT_SIZE, "size", 0, &size));
  TRY(get_i32(c, t, FB_WEIGHT_BLOCK, "block", -1, &block));
  TRY(check_index(c, "block", block, c->blocks.len, 1,
                  "weight block index {v} out of range (weight blocks: {l})"));
  /* Every Weight.offset is a multiple of 16 so kernels read blobs in place (tgrs.fbs). */
  if (offset % 16u != 0) {
    push(c, "offset", -1);
    return fail(c, TGRS_ERR_BAD_ALIGNMENT, "offset {v} is not a multiple of {l}", offset, 16);
  }
  limit = block < 0
              ? c->weight_data_len
              : fb_get_u32(vec_table_trusted(c, &c->blocks, (uint32_t)block), FB_BLOCK_RAW_SIZE, 0);
  if ((uint64_t)offset + size > limit) {
    push(c, "size", -1);
    return fail(c, TGRS_ERR_BAD_OFFSET, "weight ends at {v}, past its {l} source bytes",
                (int64_t)offset + size, limit);
  }
  return TGRS_OK;
}

typedef tgrs_status (*element_verifier)(vctx* c, const vtab* t);

static tgrs_status verify_tables(vctx* c, const vvec* v, const char* name, element_verifier f) {
  vtab t;
  uint32_t i;
  push(c, name, -1);
  for (i = 0; i < v->len; ++i) {
    set_index(c, i);
    TRY(element_table(c, v, i, &t));
    TRY(f(c, &t));
  }
  pop(c);
  return TGRS_OK;
}

/* Plan.memories (tgrs.fbs, Memory): absent in older plans; else one entry per region
 * (FAST, SLOW, FLASH, HOST, then any named memory), each alignment a power of two, and
 * the arenas' entries stating the sizes and the 16-byte alignment the homes were checked
 * against. */
static tgrs_status verify_memories(vctx* c, const vtab* root) {
  vvec memories;
  vtab t;
  uint32_t i, size, alignment, arena;
  /* A plan with state or staged constants lists their arenas too (tgrs.fbs, Memory). */
  const uint32_t needed = c->pinned_homes                     ? TGRS_REGION_PINNED + 1u
                          : c->state_count || c->staged_bytes ? TGRS_REGION_CONSTANTS + 1u
                                                              : TGRS_REGION_HOST + 1u;
  TRY(get_vector(c, root, FB_PLAN_MEMORIES, "memories", 4, &memories));
  if (!memories.pos && needed == TGRS_REGION_HOST + 1u) return TGRS_OK;
  push(c, "memories", -1);
  if (memories.len < needed) {
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} memories, one per region needs {l}", memories.len,
                needed);
  }
  for (i = 0; i < memories.len; ++i) {
    /* The arenas a caller binds: FAST, SLOW and, when listed, STATE, CONSTANTS and PINNED
     * (a schema 4 plan's entry 6). */
    const int is_arena = i <= TGRS_REGION_SLOW ||
                         (i >= TGRS_REGION_STATE && i <= TGRS_REGION_CONSTANTS && needed > 4u) ||
                         (i == TGRS_REGION_PINNED && c->pinned_listed);
    set_index(c, i);
    TRY(element_table(c, &memories, i, &t));
    TRY(check_string(c, &t, FB_MEMORY_NAME, "name"));
    TRY(get_u32(c, &t, FB_MEMORY_SIZE, "size", 0, &size));
    /* The STATE arena's size is the entry's; verify_state then holds the slots to it. */
    if (i == TGRS_REGION_STATE && is_arena) c->state_arena = size;
    arena = i == TGRS_REGION_FAST     ? c->fast_arena
            : i == TGRS_REGION_SLOW   ? c->slow_arena
            : i == TGRS_REGION_STATE  ? c->state_arena
            : i == TGRS_REGION_PINNED ? c->pinned_arena
                                      : c->staged_bytes;
    TRY(get_u32(c, &t, FB_MEMORY_ALIGNMENT, "alignment", 0, &alignment));
    if (alignment == 0 || (alignment & (alignment - 1u)) != 0 || (is_arena && alignment != 16u)) {
      push(c, "alignment", -1);
      return fail(c, TGRS_ERR_BAD_ALIGNMENT, "{v}: not a power of two, or not an arena's {l}",
                  alignment, 16);
    }
    if (is_arena && size != arena) {
      push(c, "size", -1);
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} bytes, the plan's arena is {l}", size, arena);
    }
  }
  pop(c);
  return TGRS_OK;
}

#if TGRS_WITH_STATE
/* Plan.state (tgrs.fbs, StateSlot): each slot pairs a graph input with a graph output of
 * the same bytes, slots sorted by input (so an input is state once), each 16-aligned
 * inside the STATE arena (c->state_arena, from Plan.memories). */
static tgrs_status verify_state(vctx* c, const vtab* root) {
  vvec state, inputs, outputs;
  uint32_t i, previous = 0;
  TRY(get_vector(c, root, FB_PLAN_STATE, "state", FB_STATE_SLOT_BYTES, &state));
  TRY(get_vector(c, root, FB_PLAN_INPUTS, "inputs", 4, &inputs));
  TRY(get_vector(c, root, FB_PLAN_OUTPUTS, "outputs", 4, &outputs));
  TRY(spend(c, state.len));
  push(c, "state", -1);
  if (state.len && c->state_arena == 0) {
    return fail(c, TGRS_ERR_BAD_SIZE, "{v} state slots in a state arena of {l} bytes", state.len,
                0);
  }
  for (i = 0; i < state.len; ++i) {
    const uint8_t* s = c->base + state.pos + 4u + FB_STATE_SLOT_BYTES * i;
    const uint32_t input = fb_u32(s), output = fb_u32(s + 4), offset = fb_u32(s + 8);
    const uint32_t size = fb_u32(s + 12);
    uint32_t in_bytes, out_bytes;
    set_index(c, i);
    if (input >= inputs.len || output >= outputs.len) {
      return fail(c, TGRS_ERR_BAD_INDEX, "input {v} or output out of range (inputs: {l})",
                  (int64_t)input, inputs.len);
    }
    /* Sorted by input, so no input is the state of two slots (and the check is linear). */
    if (i > 0 && input <= previous) {
      return fail(c, TGRS_ERR_BAD_VALUE, "input {v} does not follow the previous slot's {l}", input,
                  previous);
    }
    previous = input;
    in_bytes = tgrs_tensor_table_bytes_(
        vec_table_trusted(c, &c->tensors, (uint32_t)vec_i32(c, &inputs, input)));
    out_bytes = tgrs_tensor_table_bytes_(
        vec_table_trusted(c, &c->tensors, (uint32_t)vec_i32(c, &outputs, output)));
    if (size != in_bytes || size != out_bytes) {
      return fail(c, TGRS_ERR_BAD_SIZE, "{v} bytes for an input of {l} bytes (and the output)",
                  size, in_bytes);
    }
    if (offset % 16u != 0) {
      return fail(c, TGRS_ERR_BAD_ALIGNMENT, "offset {v} is not a multiple of {l}", offset, 16);
    }
    if ((uint64_t)offset + align16(size) > c->state_arena) {
      return fail(c, TGRS_ERR_BAD_SIZE, "slot ends at {v}, past the state arena's {l} bytes",
                  (int64_t)offset + align16(size), c->state_arena);
    }
  }
  pop(c);
  return TGRS_OK;
}

#endif /* TGRS_WITH_STATE */

/* Schema 4: the PINNED arena's size, from its Memory entry, before any home is checked
 * against it (verify_memories checks the whole list at the end). */
static tgrs_status read_pinned_arena(vctx* c, const vtab* root) {
  vvec memories;
  vtab t;
  if (c->version < 4u) return TGRS_OK;
  TRY(get_vector(c, root, FB_PLAN_MEMORIES, "memories", 4, &memories));
  if (memories.len <= TGRS_REGION_PINNED) return TGRS_OK;
  push(c, "memories", TGRS_REGION_PINNED);
#if !TGRS_WITH_PINNED
  (void)t;
  return fail(c, TGRS_ERR_UNSUPPORTED_OP,
              "a pinned arena: this runtime was built without pinned tensors ({v} memories)",
              memories.len, 0);
#endif
  TRY(element_table(c, &memories, TGRS_REGION_PINNED, &t));
  TRY(get_u32(c, &t, FB_MEMORY_SIZE, "size", 0, &c->pinned_arena));
  pop(c);
  c->pinned_listed = 1;
  return TGRS_OK;
}

static tgrs_status verify_root(vctx* c, const vtab* root) {
  uint32_t version, scheduled_peak, i, staged_offset;
  uint8_t xip, compression;
  vvec weight_data, slow_buffers, state;
  vtab t;
  TRY(get_u32(c, root, FB_PLAN_SCHEMA_VERSION, "schema_version", 0, &version));
  TRY(require(c, version != 0, "schema_version"));
  c->version = version;
  if (version > TGRS_SCHEMA_VERSION) {
    push(c, "schema_version", -1);
    return fail(c, TGRS_ERR_UNSUPPORTED_VERSION, "plan schema {v} is newer than this reader's {l}",
                version, TGRS_SCHEMA_VERSION);
  }
  TRY(read_pinned_arena(c, root));
  TRY(check_string(c, root, FB_PLAN_GENERATOR, "generator"));
  TRY(check_string(c, root, FB_PLAN_MODEL_NAME, "model_name"));
  TRY(get_u32(c, root, FB_PLAN_FAST_ARENA_BYTES, "fast_arena_bytes", 0, &c->fast_arena));
  TRY(get_u32(c, root, FB_PLAN_SLOW_ARENA_BYTES, "slow_arena_bytes", 0, &c->slow_arena));
  TRY(get_u32(c, root, FB_PLAN_SCHEDULED_PEAK_BYTES, "scheduled_peak_bytes", 0, &scheduled_peak));
  TRY(get_u8(c, root, FB_PLAN_XIP, "xip", 0, &xip));
  TRY(get_u8(c, root, FB_PLAN_COMPRESSION, "compression", 0, &compression));
  TRY(check_enum(c, "compression", compression, TGRS_COMPRESSION_LZ4 + 1));
  if (xip && compression != TGRS_COMPRESSION_NONE) {
    push(c, "xip", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "weights cannot be read in place and compressed ({l})", 1,
                compression);
  }

  TRY(get_vector(c, root, FB_PLAN_TENSORS, "tensors", 4, &c->tensors));
  TRY(require(c, c->tensors.pos != 0, "tensors"));
  TRY(get_vector(c, root, FB_PLAN_OPS, "ops", 4, &c->ops));
  TRY(require(c, c->ops.pos != 0, "ops"));
  TRY(get_vector(c, root, FB_PLAN_STAGES, "stages", 4, &c->stages));
  TRY(require(c, c->stages.pos != 0, "stages"));
  TRY(get_vector(c, root, FB_PLAN_CHAINS, "chains", 4, &c->chains));
  TRY(get_vector(c, root, FB_PLAN_WEIGHTS, "weights", 4, &c->weights));
  TRY(get_vector(c, root, FB_PLAN_WEIGHT_BLOCKS, "weight_blocks", 4, &c->blocks));
  c->compression = compression;
  c->step_count = c->ops.len;
  c->step_message = "op index {v} out of range (ops: {l})";
  TRY(get_vector(c, root, FB_PLAN_WEIGHT_DATA, "weight_data", 1, &weight_data));
  c->weight_data_len = weight_data.len;
  /* force_align: 16 on weight_data: the blob start is 16-aligned from the buffer start
   * (and the buffer itself is 16-aligned), so Weight.offset % 16 == 0 means in memory.
   * An empty blob (a model without weights) is never read, and FlatBuffers writers do not
   * pad a zero-length vector to its forced alignment, so only a non-empty one must be. */
  if (weight_data.pos && weight_data.len > 0 && (weight_data.pos + 4u) % 16u != 0) {
    push(c, "weight_data", -1);
    return fail(c, TGRS_ERR_BAD_ALIGNMENT, "blob starts at {v}, not a multiple of {l}",
                weight_data.pos + 4u, 16);
  }

  TRY(verify_tables(c, &c->blocks, "weight_blocks", verify_block));
  TRY(verify_tables(c, &c->weights, "weights", verify_weight));
  TRY(verify_tables(c, &c->tensors, "tensors", verify_tensor));
  TRY(verify_tables(c, &c->ops, "ops", verify_op));
  push(c, "stages", -1);
  for (i = 0; i < c->stages.len; ++i) {
    set_index(c, i);
    TRY(element_table(c, &c->stages, i, &t));
    TRY(verify_stage(c, &t, i));
  }
  pop(c);
  if (c->next_stage_op != c->ops.len) {
    push(c, "stages", -1);
    return fail(c, TGRS_ERR_BAD_INDEX, "stages run ops [0, {v}) of {l}", c->next_stage_op,
                c->ops.len);
  }
  TRY(verify_tables(c, &c->chains, "chains", verify_chain));
  TRY(check_index_vector(c, root, FB_PLAN_INPUTS, "inputs", c->tensors.len, 0,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  TRY(check_index_vector(c, root, FB_PLAN_OUTPUTS, "outputs", c->tensors.len, 0,
                         "tensor index {v} out of range (tensors: {l})", NULL));
  /* Slow homes are live over stages: first_op / last_op hold stage indices there. */
  c->step_count = c->stages.len;
  c->step_message = "stage index {v} out of range (stages: {l})";
  TRY(verify_buffers(c, root, FB_PLAN_SLOW_BUFFERS, "slow_buffers", &slow_buffers));

  /* Schema 3: persistent state and staged constants. */
  TRY(get_u32(c, root, FB_PLAN_STAGED_OFFSET, "staged_offset", 0, &staged_offset));
  TRY(get_u32(c, root, FB_PLAN_STAGED_BYTES, "staged_bytes", 0, &c->staged_bytes));
  TRY(get_vector(c, root, FB_PLAN_STATE, "state", FB_STATE_SLOT_BYTES, &state));
  if ((state.len || c->staged_bytes) && version < 3u) {
    push(c, state.len ? "state" : "staged_bytes", -1);
    return fail(c, TGRS_ERR_BAD_VALUE, "persistent state or staged constants in a schema {l} plan",
                0, version);
  }
#if TGRS_WITH_STAGED_CONSTANTS
  if (staged_offset % 16u != 0 || (uint64_t)staged_offset + c->staged_bytes > c->weight_data_len) {
    push(c, "staged_bytes", -1);
    return fail(c, TGRS_ERR_BAD_OFFSET,
                "staged constants end at {v}, past weight_data's {l} bytes (or start unaligned)",
                (int64_t)staged_offset + c->staged_bytes, c->weight_data_len);
  }
#else
  (void)staged_offset;
  if (c->staged_bytes) {
    push(c, "staged_bytes", -1);
    return fail(c, TGRS_ERR_UNSUPPORTED_OP,
                "{v} staged bytes: this runtime was built without staged constants",
                c->staged_bytes, 0);
  }
#endif
  c->state_count = state.len;
  TRY(verify_memories(c, root));
#if TGRS_WITH_STATE
  return verify_state(c, root);
#else
  if (state.len) {
    push(c, "state", -1);
    return fail(c, TGRS_ERR_UNSUPPORTED_OP,
                "{v} state slots: this runtime was built without persistent state", state.len, 0);
  }
  return TGRS_OK;
#endif
}

tgrs_status tgrs_verify_plan_(const uint8_t* base, uint32_t size, tgrs_verify_error* error,
                              const uint8_t** root) {
  vctx c;
  vtab t;
  memset(&c, 0, sizeof c);
  c.base = base;
  c.size = size;
  c.err = error;
  /* Legitimate plans spend about size / 2 units (a table or an int per 4 bytes). */
  c.budget = 2u * (uint64_t)size + 4096u;
  if (size < FB_HEADER_BYTES) {
    return fail(&c, TGRS_ERR_PLAN_TOO_SMALL, "{v} bytes, a plan header needs {l}", size,
                FB_HEADER_BYTES);
  }
  if (memcmp(base + 4, FB_FILE_IDENTIFIER, 4) != 0) {
    return fail(&c, TGRS_ERR_BAD_IDENTIFIER, "bytes 4..7 are not the file identifier \"TGRS\"", 0,
                0);
  }
  TRY(check_table(&c, fb_u32(base), &t));
  TRY(verify_root(&c, &t));
  *root = base + t.pos;
  return TGRS_OK;
}
