/*
 * plan_verify.c: verifies a .tgrs buffer before anything reads it (TFLite's rule,
 * STYLE.md: "readers verify the buffer before trusting it, then read it in place").
 *
 * Two layers:
 *  1. schema_walk.c checks the FlatBuffers wire format of the whole buffer against the
 *     schema's descriptions (plan_schema.c), with the rules single fields declare: enum
 *     values known, indices into the plan's vectors in range, required fields present;
 *  2. this file checks the plan's rules that relate fields (format/tgrs.fbs comments,
 *     docs/memory-model.md): 16-aligned weights and homes, consistent sizes, homes inside
 *     their arenas and stage windows, tile regions inside their tensors, stages that
 *     partition the ops. It reads with fb_read.h's unchecked getters: after layer 1 every
 *     offset they follow is inside the buffer.
 * Order matters only for cross-references: weight blocks and weights come first, then
 * tensors (whose weights they name), ops, stages, chains, slow buffers, state, memories.
 *
 * Work is bounded: layer 1 charges each table visit and each 4 bytes of vector payload
 * to a budget proportional to the buffer size, so a malicious buffer that shares one big
 * table from many places (FlatBuffers' DAG problem, its max_tables guard) fails with
 * TGRS_ERR_TOO_COMPLEX instead of taking quadratic time on the MCU; layer 2 visits what
 * layer 1 paid for.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fb_read.h"
#include "plan_internal.h"
#include "tgrs_kernels.h"    /* tgrs_rounding */
#include "tigris_executor.h" /* tgrs_op_select.h: TGRS_WITH_STATE, ... */
#include "tigris_runtime.h"
#include "verify_internal.h"

/* The rules' context: layer 1's (path, budget, counts) and the plan's facts. */
typedef struct rctx {
  vctx w;
  const uint8_t* tensors; /* Plan.tensors, ops, stages, weight_blocks, weights */
  const uint8_t* ops;
  const uint8_t* stages;
  const uint8_t* blocks;
  const uint8_t* weights;
  uint32_t version; /* Plan.schema_version */
  uint32_t weight_data_len;
  uint32_t fast_arena, slow_arena;
  uint32_t stage;         /* the stage verify_stage checks next */
  uint32_t next_stage_op; /* stages must continue at this op (they partition the ops) */
  uint8_t compression;
  /* Schema 3: the STATE arena's size (Plan.memories[STATE]) and the staged constants'
   * bytes. */
  uint32_t state_arena, staged_bytes;
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
} rctx;

#define PUSH(field) tgrs_verify_push_(&r->w, field, -1)
#define POP() tgrs_verify_pop_(&r->w)
#define AT(i) tgrs_verify_index_(&r->w, i)
#define FAIL(status, message, value, limit) FAIL_AT(FB_NO_FIELD, status, message, value, limit)
/* FAIL at `field` (FB_FIELD) of the current path: one call where PUSH and FAIL would be two. */
#define FAIL_AT(field, status, message, value, limit) \
  TGRS_VERIFY_FAIL(&r->w, field, status, message, value, limit)
/* A message passed to a helper that FAILs with it. */
#define MSG(text) TGRS_MESSAGE(text)

/* Element i of a verified int32 vector. */
static int32_t elem_i32(const uint8_t* vec, uint32_t i) { return fb_i32(vec + 4u + 4u * i); }

static uint32_t align16(uint32_t bytes) { return (uint32_t)(((uint64_t)bytes + 15u) / 16u * 16u); }

/* An index whose "none" (-1) depends on context; the field is pushed here. */
static tgrs_status check_index(rctx* r, unsigned field, int32_t x, uint32_t count, int allow_none,
                               const char* message) {
  (void)message; /* unused without messages */
  if ((x == -1 && allow_none) || (x >= 0 && (uint32_t)x < count)) return TGRS_OK;
  return FAIL_AT(field, TGRS_ERR_BAD_INDEX, message, x, count);
}

/* Every element of a vector of 1- or 4-byte signed integers lies in [lo, hi]. The kernels
 * rely on these ranges for defined arithmetic (kernel_util.h, requantize.h), so a plan
 * that breaks one is rejected here rather than trusted (found by fuzz_plan). */
static tgrs_status check_range(rctx* r, const uint8_t* vec, uint32_t elem_bytes, unsigned field,
                               int32_t lo, int32_t hi, const char* message) {
  uint32_t i;
  (void)message; /* unused without messages */
  for (i = 0; i < fb_vec_len(vec); ++i) {
    const int32_t x = elem_bytes == 1u ? (int32_t)(int8_t)vec[4u + i] : elem_i32(vec, i);
    if (x >= lo && x <= hi) continue;
    tgrs_verify_push_(&r->w, field, (int32_t)i);
    return FAIL(TGRS_ERR_BAD_VALUE, message, x, x < lo ? lo : hi);
  }
  return TGRS_OK;
}

uint32_t tgrs_tensor_table_bytes_(const uint8_t* tensor) {
  const uint8_t* shape = fb_get_ref(tensor, FB_TENSOR_SHAPE);
  uint32_t rank = fb_vec_len(shape), i;
  uint32_t bytes = (uint32_t)tgrs_dtype_size((tgrs_dtype)fb_get_u8(tensor, FB_TENSOR_DTYPE, 0));
  for (i = 0; i < rank; ++i) bytes *= (uint32_t)fb_i32(shape + 4u + 4u * i);
  return bytes;
}

static const uint8_t* tensor_at(const rctx* r, int32_t tensor) {
  return fb_vec_table(r->tensors, (uint32_t)tensor);
}

/* Extent along a tiled axis: rows (axis 0, HEIGHT: shape[1] in NHWC / NWC), columns
 * (axis 1, W) or channels (axis 2, C) of a rank-4 NHWC tensor; -1 if unknown. */
static int64_t tensor_extent(const rctx* r, int32_t tensor, int axis) {
  const uint8_t* shape;
  uint32_t rank;
  if (tensor < 0) return -1;
  shape = fb_get_ref(tensor_at(r, tensor), FB_TENSOR_SHAPE);
  rank = fb_vec_len(shape);
  if (axis > 0) return rank == 4u ? fb_i32(shape + 8u + 4u * (uint32_t)axis) : -1;
  return rank >= 2u ? fb_i32(shape + 8) : -1;
}

/* --- tensors ------------------------------------------------------------------------------ */

static tgrs_status verify_quant(rctx* r, const uint8_t* q, const uint8_t* shape, uint8_t dtype) {
  const uint8_t* scale = fb_get_ref(q, FB_QUANT_SCALE);
  const uint8_t* zero_point = fb_get_ref(q, FB_QUANT_ZERO_POINT);
  const int32_t axis = fb_get_i32(q, FB_QUANT_AXIS, -1);
  const uint32_t scales = fb_vec_len(scale), zero_points = fb_vec_len(zero_point);
  /* A zero point is a value of the tensor's own type; the int8 kernels form x - zero_point
   * and need it within 9 bits. */
  if (dtype == TGRS_DTYPE_INT8) {
    TRY(check_range(r, zero_point, 4, FB_FIELD(QUANT, ZERO_POINT), -128, 127,
                    MSG("zero point {v} outside int8 (limit {l})")));
  } else if (dtype == TGRS_DTYPE_UINT8) {
    TRY(check_range(r, zero_point, 4, FB_FIELD(QUANT, ZERO_POINT), 0, 255,
                    MSG("zero point {v} outside uint8 (limit {l})")));
  }
  if (zero_points != scales) {
    return FAIL_AT(FB_FIELD(QUANT, ZERO_POINT), TGRS_ERR_BAD_SIZE, "{v} zero points for {l} scales",
                   zero_points, scales);
  }
  TRY(check_index(r, FB_FIELD(QUANT, AXIS), axis, fb_vec_len(shape), 1,
                  MSG("axis {v} outside the tensor's rank {l}")));
  if (scales > 1u) {
    const int64_t channels = axis >= 0 ? elem_i32(shape, (uint32_t)axis) : -1;
    if (axis < 0 || channels != (int64_t)scales) {
      return FAIL_AT(FB_FIELD(QUANT, SCALE), TGRS_ERR_BAD_SIZE,
                     "{v} per-channel scales for {l} channels", scales, channels);
    }
  }
  return TGRS_OK;
}

/* Element count of a shape vector with dims >= 0; fails beyond uint32. */
static tgrs_status shape_elements(rctx* r, const uint8_t* shape, unsigned field, uint64_t* out) {
  const uint32_t rank = fb_vec_len(shape);
  uint64_t n = 1;
  uint32_t i;
  PUSH(field);
  if (rank > TGRS_MAX_RANK) {
    return FAIL(TGRS_ERR_BAD_VALUE, "rank {v} exceeds the reader's limit {l}", rank, TGRS_MAX_RANK);
  }
  for (i = 0; i < rank; ++i) {
    const int32_t d = elem_i32(shape, i);
    AT(i);
    if (d < 0) return FAIL(TGRS_ERR_BAD_VALUE, "negative dimension {v}", d, 0);
    n *= (uint64_t)d;
    if (n > 0xFFFFFFFFu) return FAIL(TGRS_ERR_BAD_SIZE, "more than {l} elements", 0, 0xFFFFFFFFu);
  }
  POP();
  *out = n;
  return TGRS_OK;
}

static tgrs_status verify_tensor(rctx* r, const uint8_t* t) {
  const uint8_t dtype = fb_get_u8(t, FB_TENSOR_DTYPE, 0);
  const uint8_t host_dtype = fb_get_u8(t, FB_TENSOR_HOST_DTYPE, 0);
  const uint8_t* shape = fb_get_ref(t, FB_TENSOR_SHAPE);
  const uint8_t* quant = fb_get_ref(t, FB_TENSOR_QUANT);
  const uint8_t* perm = fb_get_ref(t, FB_TENSOR_HOST_PERMUTATION);
  const uint8_t* onnx_shape = fb_get_ref(t, FB_TENSOR_ONNX_SHAPE);
  const int32_t weight = fb_get_i32(t, FB_TENSOR_WEIGHT, -1);
  uint64_t elements, onnx_elements, bytes;
  uint32_t i, seen = 0;
  if (dtype == TGRS_DTYPE_UNKNOWN || dtype > TGRS_DTYPE_BOOL) {
    return FAIL_AT(FB_FIELD(TENSOR, DTYPE), TGRS_ERR_BAD_ENUM, "unknown dtype {v} (known: 1..{l})",
                   dtype, TGRS_DTYPE_BOOL);
  }
  TRY(shape_elements(r, shape, FB_FIELD(TENSOR, SHAPE), &elements));
  bytes = elements * tgrs_dtype_size((tgrs_dtype)dtype);
  if (bytes > 0xFFFFFFFFu) {
    return FAIL_AT(FB_FIELD(TENSOR, SHAPE), TGRS_ERR_BAD_SIZE, "{v} bytes exceed {l}", bytes,
                   0xFFFFFFFFu);
  }
  if (quant) {
    PUSH(FB_FIELD(TENSOR, QUANT));
    TRY(verify_quant(r, quant, shape, dtype));
    POP();
  }
  if (weight >= 0) {
    const uint32_t size = fb_get_u32(fb_vec_table(r->weights, (uint32_t)weight), FB_WEIGHT_SIZE, 0);
    if (size != bytes) {
      return FAIL_AT(FB_FIELD(TENSOR, WEIGHT), TGRS_ERR_BAD_SIZE,
                     "weight of {v} bytes for a tensor of {l} bytes", size, bytes);
    }
  }
  if (perm) {
    const uint32_t axes = fb_vec_len(perm);
    PUSH(FB_FIELD(TENSOR, HOST_PERMUTATION));
    if (axes != fb_vec_len(shape)) {
      return FAIL(TGRS_ERR_BAD_SIZE, "{v} axes for a rank-{l} tensor", axes, fb_vec_len(shape));
    }
    for (i = 0; i < axes; ++i) {
      const int32_t axis = elem_i32(perm, i);
      AT(i);
      if (axis < 0 || (uint32_t)axis >= axes) {
        return FAIL(TGRS_ERR_BAD_INDEX, "axis {v} out of range (rank {l})", axis, axes);
      }
      if (seen & (1u << axis)) return FAIL(TGRS_ERR_BAD_VALUE, "axis {v} repeated", axis, 0);
      seen |= 1u << axis;
    }
    POP();
  }
  if (host_dtype != TGRS_DTYPE_UNKNOWN && host_dtype != dtype &&
      !(host_dtype == TGRS_DTYPE_UINT8 && dtype == TGRS_DTYPE_INT8)) {
    /* The runtime converts only uint8 <-> int8, by flipping the top bit (host_io.c). */
    return FAIL_AT(FB_FIELD(TENSOR, HOST_DTYPE), TGRS_ERR_BAD_VALUE,
                   "host dtype {v} for a tensor of dtype {l}", host_dtype, dtype);
  }
  if (onnx_shape) {
    TRY(shape_elements(r, onnx_shape, FB_FIELD(TENSOR, ONNX_SHAPE), &onnx_elements));
    if (onnx_elements != elements) {
      return FAIL_AT(FB_FIELD(TENSOR, ONNX_SHAPE), TGRS_ERR_BAD_SIZE,
                     "{v} elements, the runtime shape has {l}", onnx_elements, elements);
    }
  }
  return TGRS_OK;
}

/* --- ops -------------------------------------------------------------------------------- */

/* Two vector fields of an Op that must have the same length (multiplier/shift pairs, ...). */
static tgrs_status check_pair(rctx* r, const uint8_t* t, unsigned id_a, unsigned id_b) {
  const uint32_t a_len = fb_vec_len(fb_get_ref(t, id_a)), b_len = fb_vec_len(fb_get_ref(t, id_b));
  if (a_len == b_len) return TGRS_OK;
  return FAIL_AT(FB_FIRST_OP + id_b, TGRS_ERR_BAD_SIZE,
                 "{v} entries, {l} expected (one per entry of the pair)", b_len, a_len);
}

static tgrs_status verify_op(rctx* r, const uint8_t* t) {
  const uint8_t* attrs = fb_get_ref(t, FB_OP_ATTRS);
  const int32_t act_min = fb_get_i32(t, FB_OP_ACT_MIN, -128),
                act_max = fb_get_i32(t, FB_OP_ACT_MAX, 127);
  const int32_t left_shift = fb_get_i32(t, FB_OP_LEFT_SHIFT, 0);
  const uint32_t lut = fb_vec_len(fb_get_ref(t, FB_OP_LUT));
  if (attrs) {
    const int32_t group = fb_get_i32(attrs, FB_ATTRS_GROUP, 1);
    if (group < 1) {
      PUSH(FB_FIELD(OP, ATTRS));
      return FAIL_AT(FB_FIELD(ATTRS, GROUP), TGRS_ERR_BAD_VALUE, "group {v} < 1", group, 1);
    }
  }
  TRY(check_pair(r, t, FB_OP_OUTPUT_MULTIPLIER, FB_OP_OUTPUT_SHIFT));
  TRY(check_pair(r, t, FB_OP_INPUT_MULTIPLIER, FB_OP_INPUT_SHIFT));
  TRY(check_pair(r, t, FB_OP_CHANNEL_SCALE, FB_OP_CHANNEL_SHIFT));
  if (act_min > act_max) {
    return FAIL_AT(FB_FIELD(OP, ACT_MAX), TGRS_ERR_BAD_VALUE, "act_max {v} below act_min {l}",
                   act_max, act_min);
  }
  /* Shifts as tgrs_quantize_multiplier produces them: requantize.h shifts right by
   * 31 - shift, which must stay in [1, 62]. */
  TRY(check_range(r, fb_get_ref(t, FB_OP_OUTPUT_SHIFT), 1, FB_FIELD(OP, OUTPUT_SHIFT), -31, 30,
                  MSG("shift {v} outside [-31, 30] (limit {l})")));
  TRY(check_range(r, fb_get_ref(t, FB_OP_INPUT_SHIFT), 1, FB_FIELD(OP, INPUT_SHIFT), -31, 30,
                  MSG("shift {v} outside [-31, 30] (limit {l})")));
  if (left_shift < 0 || left_shift > 22) {
    /* (x - zero_point) << left_shift must fit int32 with |x - zero_point| <= 255. */
    return FAIL_AT(FB_FIELD(OP, LEFT_SHIFT), TGRS_ERR_BAD_VALUE,
                   "left shift {v} outside [0, 22] (limit {l})", left_shift,
                   left_shift < 0 ? 0 : 22);
  }
  /* One table of 256 entries; an int8 WHERE holds two, X's and Y's (ops_logical.c). */
  if (lut != 0 && lut != 256u &&
      !(lut == 512u && fb_get_u16(t, FB_OP_CODE, 0) == (uint16_t)TGRS_OP_WHERE)) {
    return FAIL_AT(FB_FIELD(OP, LUT), TGRS_ERR_BAD_SIZE, "{v} entries, a lookup table has {l}", lut,
                   256);
  }
  /* Schema 5: a reader built before it would compute these ops in ONNX's arithmetic (and a
   * TFLite MEAN's folded multiplier wrongly), so the writer stamps 5 on such a plan. */
  if (fb_get_u8(t, FB_OP_ROUNDING, TGRS_ROUNDING_ONNX) == TGRS_ROUNDING_TFLITE && r->version < 5u) {
    return FAIL_AT(FB_FIELD(OP, ROUNDING), TGRS_ERR_BAD_VALUE,
                   "TFLite's arithmetic in a schema {v} plan (schema {l} and later)", r->version,
                   5);
  }
  return TGRS_OK;
}

/* --- buffers and homes ---------------------------------------------------------------------- */

/* A home (tgrs.fbs, Home) of a buffer of `kind` holding `bytes`: a region a buffer may
 * live in (FAST, SLOW, FLASH, HOST; PINNED for whole tensors of a schema 4 plan that lists
 * it), and inside the arena it names. */
static tgrs_status verify_home(rctx* r, const uint8_t* home, uint32_t bytes, uint8_t kind) {
  const uint32_t offset = fb_u32(home), size = fb_u32(home + 4);
  const uint8_t region = home[8];
  uint32_t arena;
  PUSH(FB_FIELD(BUFFER, HOME));
  if (region > TGRS_REGION_HOST && (!TGRS_WITH_PINNED || region != TGRS_REGION_PINNED)) {
    return FAIL(TGRS_ERR_BAD_ENUM, "unknown region {v} (known: 0..{l}, 6)", region,
                TGRS_REGION_HOST);
  }
#if TGRS_WITH_PINNED
  if (region == TGRS_REGION_PINNED && (!r->pinned_listed || kind != TGRS_BUFFER_TENSOR)) {
    return FAIL(TGRS_ERR_BAD_ENUM,
                "region {v} (PINNED) holds whole tensors of a schema 4 plan listing its memory "
                "(schema {l})",
                region, r->version);
  }
  r->pinned_homes |= region == TGRS_REGION_PINNED;
#else
  (void)kind;
#endif
  if (region == TGRS_REGION_FAST || region == TGRS_REGION_SLOW || region == TGRS_REGION_PINNED) {
    arena = region == TGRS_REGION_FAST   ? r->fast_arena
            : region == TGRS_REGION_SLOW ? r->slow_arena
                                         : r->pinned_arena;
    /* Offsets and sizes in the arenas are multiples of 16 (docs/memory-model.md). */
    if (offset % 16u != 0) {
      return FAIL(TGRS_ERR_BAD_ALIGNMENT, "offset {v} is not a multiple of {l}", offset, 16);
    }
    if (size != align16(bytes)) {
      return FAIL(TGRS_ERR_BAD_SIZE, "size {v} is not the payload rounded up to 16 ({l})", size,
                  align16(bytes));
    }
    if ((uint64_t)offset + size > arena) {
      return FAIL(TGRS_ERR_BAD_SIZE, "home ends at {v}, past the arena's {l} bytes",
                  (uint64_t)offset + size, arena);
    }
    if (region == TGRS_REGION_FAST && r->window && size != 0) {
      if (offset < r->window_begin) {
        return FAIL(TGRS_ERR_BAD_SIZE, "home at {v} overlaps the stage's {l} reserved weight bytes",
                    offset, r->window_begin);
      }
      if ((uint64_t)offset + size > r->window_end) {
        return FAIL(TGRS_ERR_BAD_SIZE,
                    "home ends at {v}, past fast_reserved_bytes + peak_bytes = {l}",
                    (uint64_t)offset + size, r->window_end);
      }
    }
  }
  POP();
  return TGRS_OK;
}

static tgrs_status verify_buffer(rctx* r, const uint8_t* t) {
  const uint8_t kind = fb_get_u8(t, FB_BUFFER_KIND, 0);
  const int32_t tensor = fb_get_i32(t, FB_BUFFER_TENSOR, -1), op = fb_get_i32(t, FB_BUFFER_OP, -1);
  const int32_t first_op = fb_get_i32(t, FB_BUFFER_FIRST_OP, 0);
  const int32_t last_op = fb_get_i32(t, FB_BUFFER_LAST_OP, 0);
  const uint32_t bytes = fb_get_u32(t, FB_BUFFER_BYTES, 0);
  TRY(check_index(r, FB_FIELD(BUFFER, TENSOR), tensor, r->w.count[TGRS_COLLECTION_TENSORS],
                  kind == TGRS_BUFFER_SCRATCH,
                  MSG(tgrs_fb_collection_messages[TGRS_COLLECTION_TENSORS])));
  TRY(check_index(r, FB_FIELD(BUFFER, OP), op, r->w.count[TGRS_COLLECTION_OPS],
                  kind != TGRS_BUFFER_SCRATCH,
                  MSG(tgrs_fb_collection_messages[TGRS_COLLECTION_OPS])));
  TRY(check_index(r, FB_FIELD(BUFFER, FIRST_OP), first_op, r->step_count, 0, r->step_message));
  TRY(check_index(r, FB_FIELD(BUFFER, LAST_OP), last_op, r->step_count, 0, r->step_message));
  if (last_op < first_op) {
    return FAIL_AT(FB_FIELD(BUFFER, LAST_OP), TGRS_ERR_BAD_VALUE, "last_op {v} before first_op {l}",
                   last_op, first_op);
  }
  if (tensor >= 0) {
    const uint32_t tensor_bytes = tgrs_tensor_table_bytes_(tensor_at(r, tensor));
    /* A whole-tensor buffer holds the tensor; a row strip some of its rows. */
    if (kind == TGRS_BUFFER_TENSOR ? bytes != tensor_bytes : bytes > tensor_bytes) {
      return FAIL_AT(FB_FIELD(BUFFER, BYTES), TGRS_ERR_BAD_SIZE,
                     "{v} bytes for a tensor of {l} bytes", bytes, tensor_bytes);
    }
  }
  return verify_home(r, fb_field(t, FB_BUFFER_HOME), bytes, kind);
}

typedef tgrs_status (*table_rule)(rctx* r, const uint8_t* t);

/* Applies `rule` to each table of the vector field `id` of `t`, a table whose fields are
 * numbered from `first` (FB_FIRST_*). */
static tgrs_status each_table(rctx* r, const uint8_t* t, unsigned first, unsigned id,
                              table_rule rule) {
  const uint8_t* vec = fb_get_ref(t, id);
  uint32_t i;
  PUSH(first + id);
  for (i = 0; i < fb_vec_len(vec); ++i) {
    AT(i);
    TRY(rule(r, fb_vec_table(vec, i)));
  }
  POP();
  return TGRS_OK;
}

/* --- tiles ------------------------------------------------------------------------------- */

/* The input a region's range indexes along `axis`: the op's first that is not a weight
 * (weights are never cut; a row-form GATHER's table is input 0 and its ids input 1) and
 * not broadcast along the axis (one position under an output of several: a squeeze-excite
 * scale, which every tile reads whole, stage_tiled.c), else its first that is not a
 * weight; -1 for none. */
static int32_t region_input(const rctx* r, const uint8_t* inputs, int axis, int64_t out_extent) {
  int32_t first = -1;
  uint32_t i;
  for (i = 0; i < fb_vec_len(inputs); ++i) {
    const int32_t t = elem_i32(inputs, i);
    if (t < 0 || fb_get_i32(tensor_at(r, t), FB_TENSOR_WEIGHT, -1) >= 0) continue;
    if (out_extent <= 1 || tensor_extent(r, t, axis) != 1) return t;
    if (first < 0) first = t;
  }
  return first;
}

/* One TileRegion of op `op` along `axis`: rows (TilePlan.regions), columns or channels.
 * The messages name no axis: the path does ("regions", "columns", "channels"), and one set
 * of strings keeps the verifier's Cortex-M code small. */
static tgrs_status verify_region(rctx* r, const uint8_t* region, int32_t op, int axis) {
  const int32_t in_begin = fb_i32(region), in_end = fb_i32(region + 4);
  const int32_t out_begin = fb_i32(region + 8), out_end = fb_i32(region + 12);
  const int32_t pad_before = fb_i32(region + 16), pad_after = fb_i32(region + 20);
  const uint8_t* op_table = fb_vec_table(r->ops, (uint32_t)op);
  const uint8_t* outputs = fb_get_ref(op_table, FB_OP_OUTPUTS);
  const int64_t out_extent =
      fb_vec_len(outputs) ? tensor_extent(r, elem_i32(outputs, 0), axis) : -1;
  const int64_t in_extent =
      tensor_extent(r, region_input(r, fb_get_ref(op_table, FB_OP_INPUTS), axis, out_extent), axis);
  if (in_begin < 0 || in_end < in_begin) {
    return FAIL(TGRS_ERR_BAD_VALUE, "input [{v}, {l}) is not a range", in_begin, in_end);
  }
  if (out_begin < 0 || out_end < out_begin) {
    return FAIL(TGRS_ERR_BAD_VALUE, "output [{v}, {l}) is not a range", out_begin, out_end);
  }
  if (pad_before < 0 || pad_after < 0) {
    return FAIL(TGRS_ERR_BAD_VALUE, "negative padding {v}", pad_before < 0 ? pad_before : pad_after,
                0);
  }
  /* Regions are full-tensor indices (TileRegion); the kernels index with them. */
  if (in_extent >= 0 && in_end > in_extent) {
    return FAIL(TGRS_ERR_BAD_INDEX, "input end {v} past the input's extent {l}", in_end, in_extent);
  }
  if (out_extent >= 0 && out_end > out_extent) {
    return FAIL(TGRS_ERR_BAD_INDEX, "output end {v} past the output's extent {l}", out_end,
                out_extent);
  }
  return TGRS_OK;
}

/* The TileRegion vector field `id` along `axis` ("regions", "columns", "channels"):
 * count * len(ops) entries; the optional ones (columns, channels) need schema 2 and a
 * recomputing loop. */
static tgrs_status verify_regions(rctx* r, const uint8_t* t, unsigned id, int32_t count,
                                  const uint8_t* ops, int axis, uint8_t streamed) {
  const uint8_t* regions = fb_get_ref(t, id);
  const uint32_t n = fb_vec_len(regions), op_count = fb_vec_len(ops);
  uint32_t i;
  if (axis > 0 && n == 0) return TGRS_OK; /* full width, every channel */
  PUSH(FB_FIRST_TILE + id);
  if ((axis == 1 && !TGRS_WITH_TILE_COLUMNS) || (axis == 2 && !TGRS_WITH_TILE_CHANNELS)) {
    return FAIL(TGRS_ERR_UNSUPPORTED_OP,
                "{v} regions: this runtime was built without 2-D tiles or channel groups", n, 0);
  }
  if (axis > 0 && (streamed || r->version < 2u)) {
    /* A streamed loop keeps whole rows from tile to tile. */
    return FAIL(TGRS_ERR_BAD_VALUE,
                "{v} regions in a streamed loop or a schema {l} plan (2-D tiles and channel "
                "groups are schema 2, recomputing loops only)",
                n, r->version);
  }
  if ((uint64_t)n != (uint64_t)(uint32_t)count * op_count) {
    return FAIL(TGRS_ERR_BAD_SIZE, "{v} regions, count * len(ops) = {l}", n,
                (int64_t)count * op_count);
  }
  for (i = 0; i < n; ++i) {
    AT(i);
    TRY(verify_region(r, regions + 4u + FB_TILE_REGION_BYTES * i, elem_i32(ops, i % op_count),
                      axis));
  }
  POP();
  return TGRS_OK;
}

/* The TilePlan `t` of a stage or a chain, named `field` on the path. */
static tgrs_status verify_tile(rctx* r, const uint8_t* t, unsigned field) {
  const int32_t tile_size = fb_get_i32(t, FB_TILE_TILE_SIZE, 0),
                count = fb_get_i32(t, FB_TILE_COUNT, 0);
  const int32_t halo = fb_get_i32(t, FB_TILE_HALO, 0);
  const uint8_t streamed = fb_get_u8(t, FB_TILE_STREAMED, 0);
  const uint8_t* ops = fb_get_ref(t, FB_TILE_OPS);
  PUSH(field);
  if (tile_size < 1 || count < 1 || halo < 0) {
    return FAIL_AT(tile_size < 1 ? FB_FIELD(TILE, TILE_SIZE)
                   : count < 1   ? FB_FIELD(TILE, COUNT)
                                 : FB_FIELD(TILE, HALO),
                   TGRS_ERR_BAD_VALUE, "{v} is below {l}",
                   tile_size < 1 ? tile_size
                   : count < 1   ? count
                                 : halo,
                   halo < 0 ? 0 : 1);
  }
  TRY(verify_regions(r, t, FB_TILE_REGIONS, count, ops, 0, streamed));
  TRY(each_table(r, t, FB_FIRST_TILE, FB_TILE_BUFFERS, verify_buffer));
  if (streamed > 1) {
    return FAIL_AT(FB_FIELD(TILE, STREAMED), TGRS_ERR_BAD_VALUE, "{v} is not a bool (0 or {l})",
                   streamed, 1);
  }
  TRY(verify_regions(r, t, FB_TILE_COLUMNS, count, ops, 1, streamed));
  TRY(verify_regions(r, t, FB_TILE_CHANNELS, count, ops, 2, streamed));
  POP();
  return TGRS_OK;
}

/* --- stages, chains, weights ----------------------------------------------------------------- */

static tgrs_status require(rctx* r, int present, unsigned field) {
  if (present) return TGRS_OK;
  return FAIL_AT(field, TGRS_ERR_MISSING_FIELD, "required field is absent", 0, 0);
}

static tgrs_status verify_stage(rctx* r, const uint8_t* t) {
  const uint32_t index = r->stage++; /* stages are verified in order */
  const uint8_t strategy = fb_get_u8(t, FB_STAGE_STRATEGY, 0);
  const uint8_t* ops = fb_get_ref(t, FB_STAGE_OPS);
  const uint8_t* tile = fb_get_ref(t, FB_STAGE_TILE);
  const int32_t chain = fb_get_i32(t, FB_STAGE_CHAIN, -1);
  const int32_t weight_block = fb_get_i32(t, FB_STAGE_WEIGHT_BLOCK, -1);
  const uint32_t peak = fb_get_u32(t, FB_STAGE_PEAK_BYTES, 0);
  const uint32_t reserved = fb_get_u32(t, FB_STAGE_FAST_RESERVED_BYTES, 0);
  const uint32_t op_count = fb_vec_len(ops);
  uint32_t i;
  TRY(require(r, op_count != 0, FB_FIELD(STAGE, OPS)));
  /* Stages partition the ops in execution order, each a consecutive run (tgrs.fbs). */
  PUSH(FB_FIELD(STAGE, OPS));
  for (i = 0; i < op_count; ++i) {
    const uint32_t expected = r->next_stage_op + i;
    AT(i);
    if ((uint32_t)elem_i32(ops, i) != expected) {
      return FAIL(TGRS_ERR_BAD_INDEX, "op {v} breaks the stages' consecutive run (expected {l})",
                  elem_i32(ops, i), expected);
    }
  }
  POP();
  r->next_stage_op += op_count;
  /* fast_arena_bytes = max(fast_reserved_bytes + peak_bytes) over stages (tgrs.fbs). */
  if ((uint64_t)reserved + peak > r->fast_arena) {
    return FAIL_AT(FB_FIELD(STAGE, PEAK_BYTES), TGRS_ERR_BAD_SIZE,
                   "reserved + peak = {v} bytes exceed fast_arena_bytes {l}",
                   (uint64_t)reserved + peak, r->fast_arena);
  }
  r->window = 1;
  r->window_begin = reserved;
  r->window_end = (uint64_t)reserved + peak;
  TRY(each_table(r, t, FB_FIRST_STAGE, FB_STAGE_BUFFERS, verify_buffer));
  if (strategy == TGRS_STRATEGY_TILED) TRY(require(r, tile != NULL, FB_FIELD(STAGE, TILE)));
  if (tile) TRY(verify_tile(r, tile, FB_FIELD(STAGE, TILE)));
  r->window = 0;
  if (strategy == TGRS_STRATEGY_CHAIN) TRY(require(r, chain >= 0, FB_FIELD(STAGE, CHAIN)));
  if (TGRS_WITH_WEIGHT_BLOCKS && weight_block >= 0) {
    const uint8_t* block = fb_vec_table(r->blocks, (uint32_t)weight_block);
    const int32_t owner = fb_get_i32(block, FB_BLOCK_STAGE, 0);
    const uint32_t raw = fb_get_u32(block, FB_BLOCK_RAW_SIZE, 0);
    /* A block belongs to one residency unit: its stage, or every stage of a chain
     * (docs/plan-format.md, "Weights"); the owner is this stage or an earlier one. */
    int same_unit = (uint32_t)owner == index;
    if (!same_unit && (uint32_t)owner < index && strategy == TGRS_STRATEGY_CHAIN) {
      same_unit = fb_get_i32(fb_vec_table(r->stages, (uint32_t)owner), FB_STAGE_CHAIN, -1) == chain;
    }
    if (!same_unit) {
      return FAIL_AT(FB_FIELD(STAGE, WEIGHT_BLOCK), TGRS_ERR_BAD_INDEX,
                     "the block belongs to stage {v}, not {l}", owner, index);
    }
    if (raw > reserved) {
      return FAIL_AT(FB_FIELD(STAGE, FAST_RESERVED_BYTES), TGRS_ERR_BAD_SIZE,
                     "{v} decompressed weight bytes exceed the {l} reserved", raw, reserved);
    }
  }
  return TGRS_OK;
}

static tgrs_status verify_chain(rctx* r, const uint8_t* t) {
  return verify_tile(r, fb_get_ref(t, FB_CHAIN_TILE), FB_FIELD(CHAIN, TILE));
}

#if TGRS_WITH_WEIGHT_BLOCKS
static tgrs_status verify_block(rctx* r, const uint8_t* t) {
  const uint32_t offset = fb_get_u32(t, FB_BLOCK_OFFSET, 0);
  const uint32_t compressed = fb_get_u32(t, FB_BLOCK_COMPRESSED_SIZE, 0);
  const uint32_t raw = fb_get_u32(t, FB_BLOCK_RAW_SIZE, 0);
  PUSH(FB_FIELD(BLOCK, COMPRESSED_SIZE));
  /* compressed_size == raw_size is a plain copy; smaller is an LZ4 block; larger never. */
  if (compressed > raw) {
    return FAIL(TGRS_ERR_BAD_SIZE, "{v} stored bytes for a block of {l}", compressed, raw);
  }
  if (compressed != raw && r->compression != TGRS_COMPRESSION_LZ4) {
    return FAIL(TGRS_ERR_BAD_VALUE, "{v} bytes for {l} raw, in a plan without compression",
                compressed, raw);
  }
  if ((uint64_t)offset + compressed > r->weight_data_len) {
    return FAIL(TGRS_ERR_BAD_OFFSET, "block ends at {v}, past weight_data's {l} bytes",
                (uint64_t)offset + compressed, r->weight_data_len);
  }
  POP();
  return TGRS_OK;
}
#endif

static tgrs_status verify_weight(rctx* r, const uint8_t* t) {
  const uint32_t offset = fb_get_u32(t, FB_WEIGHT_OFFSET, 0),
                 size = fb_get_u32(t, FB_WEIGHT_SIZE, 0);
  const int32_t block = fb_get_i32(t, FB_WEIGHT_BLOCK, -1);
  const uint32_t limit =
      block < 0 || !TGRS_WITH_WEIGHT_BLOCKS
          ? r->weight_data_len
          : fb_get_u32(fb_vec_table(r->blocks, (uint32_t)block), FB_BLOCK_RAW_SIZE, 0);
  /* Every Weight.offset is a multiple of 16 so kernels read blobs in place (tgrs.fbs). */
  if (offset % 16u != 0) {
    return FAIL_AT(FB_FIELD(WEIGHT, OFFSET), TGRS_ERR_BAD_ALIGNMENT,
                   "offset {v} is not a multiple of {l}", offset, 16);
  }
  if ((uint64_t)offset + size > limit) {
    return FAIL_AT(FB_FIELD(WEIGHT, SIZE), TGRS_ERR_BAD_OFFSET,
                   "weight ends at {v}, past its {l} source bytes", (uint64_t)offset + size, limit);
  }
  return TGRS_OK;
}

/* --- memories and state -------------------------------------------------------------------- */

/* Plan.memories (tgrs.fbs, Memory): absent in older plans; else one entry per region
 * (FAST, SLOW, FLASH, HOST, then any named memory), each alignment a power of two, and
 * the arenas' entries stating the sizes and the 16-byte alignment the homes were checked
 * against. */
static tgrs_status verify_memories(rctx* r, const uint8_t* root, uint32_t state_count) {
  const uint8_t* memories = fb_get_ref(root, FB_PLAN_MEMORIES);
  const uint32_t n = fb_vec_len(memories);
  uint32_t i;
  /* A plan with state or staged constants lists their arenas too (tgrs.fbs, Memory). */
  const uint32_t needed = r->pinned_homes                  ? TGRS_REGION_PINNED + 1u
                          : state_count || r->staged_bytes ? TGRS_REGION_CONSTANTS + 1u
                                                           : TGRS_REGION_HOST + 1u;
  if (!memories && needed == TGRS_REGION_HOST + 1u) return TGRS_OK;
  PUSH(FB_FIELD(PLAN, MEMORIES));
  if (n < needed) {
    return FAIL(TGRS_ERR_BAD_SIZE, "{v} memories, one per region needs {l}", n, needed);
  }
  for (i = 0; i < n; ++i) {
    const uint8_t* m = fb_vec_table(memories, i);
    const uint32_t size = fb_get_u32(m, FB_MEMORY_SIZE, 0);
    const uint32_t alignment = fb_get_u32(m, FB_MEMORY_ALIGNMENT, 0);
    /* The arenas a caller binds: FAST, SLOW and, when listed, STATE, CONSTANTS and PINNED
     * (a schema 4 plan's entry 6). */
    const int is_arena = i <= TGRS_REGION_SLOW ||
                         (i >= TGRS_REGION_STATE && i <= TGRS_REGION_CONSTANTS && needed > 4u) ||
                         (i == TGRS_REGION_PINNED && r->pinned_listed);
    uint32_t arena;
    AT(i);
    /* The STATE arena's size is the entry's; verify_state then holds the slots to it. */
    if (i == TGRS_REGION_STATE && is_arena) r->state_arena = size;
    arena = i == TGRS_REGION_FAST     ? r->fast_arena
            : i == TGRS_REGION_SLOW   ? r->slow_arena
            : i == TGRS_REGION_STATE  ? r->state_arena
            : i == TGRS_REGION_PINNED ? r->pinned_arena
                                      : r->staged_bytes;
    if (alignment == 0 || (alignment & (alignment - 1u)) != 0 || (is_arena && alignment != 16u)) {
      return FAIL_AT(FB_FIELD(MEMORY, ALIGNMENT), TGRS_ERR_BAD_ALIGNMENT,
                     "{v}: not a power of two, or not an arena's {l}", alignment, 16);
    }
    if (is_arena && size != arena) {
      return FAIL_AT(FB_FIELD(MEMORY, SIZE), TGRS_ERR_BAD_SIZE,
                     "{v} bytes, the plan's arena is {l}", size, arena);
    }
  }
  POP();
  return TGRS_OK;
}

#if TGRS_WITH_STATE
/* Plan.state (tgrs.fbs, StateSlot): each slot pairs a graph input with a graph output of
 * the same bytes, slots sorted by input (so an input is state once), each 16-aligned
 * inside the STATE arena (r->state_arena, from Plan.memories). */
static tgrs_status verify_state(rctx* r, const uint8_t* root) {
  const uint8_t* state = fb_get_ref(root, FB_PLAN_STATE);
  const uint8_t* inputs = fb_get_ref(root, FB_PLAN_INPUTS);
  const uint8_t* outputs = fb_get_ref(root, FB_PLAN_OUTPUTS);
  const uint32_t n = fb_vec_len(state);
  uint32_t i, previous = 0;
  PUSH(FB_FIELD(PLAN, STATE));
  if (n && r->state_arena == 0) {
    return FAIL(TGRS_ERR_BAD_SIZE, "{v} state slots in a state arena of {l} bytes", n, 0);
  }
  for (i = 0; i < n; ++i) {
    const uint8_t* s = state + 4u + FB_STATE_SLOT_BYTES * i;
    const uint32_t input = fb_u32(s), output = fb_u32(s + 4), offset = fb_u32(s + 8);
    const uint32_t size = fb_u32(s + 12);
    uint32_t in_bytes, out_bytes;
    AT(i);
    if (input >= fb_vec_len(inputs) || output >= fb_vec_len(outputs)) {
      return FAIL(TGRS_ERR_BAD_INDEX, "input {v} or output out of range (inputs: {l})", input,
                  fb_vec_len(inputs));
    }
    /* Sorted by input, so no input is the state of two slots (and the check is linear). */
    if (i > 0 && input <= previous) {
      return FAIL(TGRS_ERR_BAD_VALUE, "input {v} does not follow the previous slot's {l}", input,
                  previous);
    }
    previous = input;
    in_bytes = tgrs_tensor_table_bytes_(tensor_at(r, elem_i32(inputs, input)));
    out_bytes = tgrs_tensor_table_bytes_(tensor_at(r, elem_i32(outputs, output)));
    if (size != in_bytes || size != out_bytes) {
      return FAIL(TGRS_ERR_BAD_SIZE, "{v} bytes for an input of {l} bytes (and the output)", size,
                  in_bytes);
    }
    if (offset % 16u != 0) {
      return FAIL(TGRS_ERR_BAD_ALIGNMENT, "offset {v} is not a multiple of {l}", offset, 16);
    }
    if ((uint64_t)offset + align16(size) > r->state_arena) {
      return FAIL(TGRS_ERR_BAD_SIZE, "slot ends at {v}, past the state arena's {l} bytes",
                  (uint64_t)offset + align16(size), r->state_arena);
    }
  }
  POP();
  return TGRS_OK;
}
#endif /* TGRS_WITH_STATE */

/* --- the plan ---------------------------------------------------------------------------- */

/* Schema 4: the PINNED arena's size, from its Memory entry, before any home is checked
 * against it (verify_memories checks the whole list at the end). */
static tgrs_status read_pinned_arena(rctx* r, const uint8_t* root) {
  const uint8_t* memories = fb_get_ref(root, FB_PLAN_MEMORIES);
  if (r->version < 4u || fb_vec_len(memories) <= TGRS_REGION_PINNED) return TGRS_OK;
#if !TGRS_WITH_PINNED
  tgrs_verify_push_(&r->w, FB_FIELD(PLAN, MEMORIES), TGRS_REGION_PINNED);
  return FAIL(TGRS_ERR_UNSUPPORTED_OP,
              "a pinned arena: this runtime was built without pinned tensors ({v} memories)",
              fb_vec_len(memories), 0);
#else
  r->pinned_arena = fb_get_u32(fb_vec_table(memories, TGRS_REGION_PINNED), FB_MEMORY_SIZE, 0);
  r->pinned_listed = 1;
  return TGRS_OK;
#endif
}

/* The rules of a plan whose wire format layer 1 accepted. */
static tgrs_status verify_rules(rctx* r, const uint8_t* root) {
  const uint8_t* weight_data = fb_get_ref(root, FB_PLAN_WEIGHT_DATA);
  const uint8_t* state = fb_get_ref(root, FB_PLAN_STATE);
  const uint32_t staged_offset = fb_get_u32(root, FB_PLAN_STAGED_OFFSET, 0);
  const uint8_t xip = fb_get_u8(root, FB_PLAN_XIP, 0);
  r->tensors = fb_get_ref(root, FB_PLAN_TENSORS);
  r->ops = fb_get_ref(root, FB_PLAN_OPS);
  r->stages = fb_get_ref(root, FB_PLAN_STAGES);
  r->weights = fb_get_ref(root, FB_PLAN_WEIGHTS);
  r->blocks = fb_get_ref(root, FB_PLAN_WEIGHT_BLOCKS);
  r->fast_arena = fb_get_u32(root, FB_PLAN_FAST_ARENA_BYTES, 0);
  r->slow_arena = fb_get_u32(root, FB_PLAN_SLOW_ARENA_BYTES, 0);
  r->compression = fb_get_u8(root, FB_PLAN_COMPRESSION, 0);
  r->weight_data_len = fb_vec_len(weight_data);
  r->staged_bytes = fb_get_u32(root, FB_PLAN_STAGED_BYTES, 0);
  TRY(read_pinned_arena(r, root));
  if (xip && r->compression != TGRS_COMPRESSION_NONE) {
    return FAIL_AT(FB_FIELD(PLAN, XIP), TGRS_ERR_BAD_VALUE,
                   "weights cannot be read in place and compressed ({l})", 1, r->compression);
  }
  /* force_align: 16 on weight_data: the blob start is 16-aligned from the buffer start
   * (and the buffer itself is 16-aligned), so Weight.offset % 16 == 0 means in memory.
   * An empty blob (a model without weights) is never read, and FlatBuffers writers do not
   * pad a zero-length vector to its forced alignment, so only a non-empty one must be. */
  if (r->weight_data_len > 0 && (uint32_t)(weight_data + 4 - r->w.base) % 16u != 0) {
    return FAIL_AT(FB_FIELD(PLAN, WEIGHT_DATA), TGRS_ERR_BAD_ALIGNMENT,
                   "blob starts at {v}, not a multiple of {l}", weight_data + 4 - r->w.base, 16);
  }

#if TGRS_WITH_WEIGHT_BLOCKS
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_WEIGHT_BLOCKS, verify_block));
#else
  /* Every Weight.block and Stage.weight_block is then -1 (layer 1's index rule). */
  if (r->w.count[TGRS_COLLECTION_WEIGHT_BLOCKS] != 0) {
    return FAIL_AT(FB_FIELD(PLAN, WEIGHT_BLOCKS), TGRS_ERR_UNSUPPORTED_OP,
                   "{v} weight blocks: this runtime was built without them (an xip plan has none)",
                   r->w.count[TGRS_COLLECTION_WEIGHT_BLOCKS], 0);
  }
#endif
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_WEIGHTS, verify_weight));
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_TENSORS, verify_tensor));
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_OPS, verify_op));
  r->step_count = r->w.count[TGRS_COLLECTION_OPS];
  r->step_message = MSG(tgrs_fb_collection_messages[TGRS_COLLECTION_OPS]);
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_STAGES, verify_stage));
  if (r->next_stage_op != r->w.count[TGRS_COLLECTION_OPS]) {
    return FAIL_AT(FB_FIELD(PLAN, STAGES), TGRS_ERR_BAD_INDEX, "stages run ops [0, {v}) of {l}",
                   r->next_stage_op, r->w.count[TGRS_COLLECTION_OPS]);
  }
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_CHAINS, verify_chain));
  /* Slow homes are live over stages: first_op / last_op hold stage indices there. */
  r->step_count = r->w.count[TGRS_COLLECTION_STAGES];
  r->step_message = MSG(tgrs_fb_collection_messages[TGRS_COLLECTION_STAGES]);
  TRY(each_table(r, root, FB_FIRST_PLAN, FB_PLAN_SLOW_BUFFERS, verify_buffer));

  /* Schema 3: persistent state and staged constants. */
  if ((fb_vec_len(state) || r->staged_bytes) && r->version < 3u) {
    return FAIL_AT(fb_vec_len(state) ? FB_FIELD(PLAN, STATE) : FB_FIELD(PLAN, STAGED_BYTES),
                   TGRS_ERR_BAD_VALUE, "persistent state or staged constants in a schema {l} plan",
                   0, r->version);
  }
#if TGRS_WITH_STAGED_CONSTANTS
  if (staged_offset % 16u != 0 || (uint64_t)staged_offset + r->staged_bytes > r->weight_data_len) {
    return FAIL_AT(FB_FIELD(PLAN, STAGED_BYTES), TGRS_ERR_BAD_OFFSET,
                   "staged constants end at {v}, past weight_data's {l} bytes (or start unaligned)",
                   (uint64_t)staged_offset + r->staged_bytes, r->weight_data_len);
  }
#else
  (void)staged_offset;
  if (r->staged_bytes) {
    return FAIL_AT(FB_FIELD(PLAN, STAGED_BYTES), TGRS_ERR_UNSUPPORTED_OP,
                   "{v} staged bytes: this runtime was built without staged constants",
                   r->staged_bytes, 0);
  }
#endif
  TRY(verify_memories(r, root, fb_vec_len(state)));
#if TGRS_WITH_STATE
  return verify_state(r, root);
#else
  if (fb_vec_len(state)) {
    return FAIL_AT(FB_FIELD(PLAN, STATE), TGRS_ERR_UNSUPPORTED_OP,
                   "{v} state slots: this runtime was built without persistent state",
                   fb_vec_len(state), 0);
  }
  return TGRS_OK;
#endif
}

/* Plan fields whose lengths index rules need, per TGRS_COLLECTION_*. */
static const uint8_t collection_fields[TGRS_COLLECTION_COUNT] = {
    FB_PLAN_TENSORS, FB_PLAN_OPS,     FB_PLAN_STAGES,
    FB_PLAN_CHAINS,  FB_PLAN_WEIGHTS, FB_PLAN_WEIGHT_BLOCKS};

tgrs_status tgrs_verify_plan_(const uint8_t* base, uint32_t size, tgrs_integrity_mode mode,
                              tgrs_verify_error* error, const uint8_t** root_out) {
  rctx ctx;
  rctx* r = &ctx;
  vtab root;
  uint32_t at, i;
  memset(r, 0, sizeof *r);
  r->w.base = base;
  r->w.size = size;
  r->w.err = error;
  /* Legitimate plans spend under size / 2 units (a table or 4 payload bytes per unit). */
  r->w.budget = 2u * (uint64_t)size + 4096u;
  if (size < FB_HEADER_BYTES) {
    return FAIL(TGRS_ERR_PLAN_TOO_SMALL, "{v} bytes, a plan header needs {l}", size,
                FB_HEADER_BYTES);
  }
  /* Four compares, not memcmp (96 bytes of newlib-nano on Cortex-M). */
  if (base[4] != FB_FILE_IDENTIFIER[0] || base[5] != FB_FILE_IDENTIFIER[1] ||
      base[6] != FB_FILE_IDENTIFIER[2] || base[7] != FB_FILE_IDENTIFIER[3]) {
    return FAIL(TGRS_ERR_BAD_IDENTIFIER, "bytes 4..7 are not the file identifier \"TGRS\"", 0, 0);
  }
  TRY(tgrs_check_table_(&r->w, fb_u32(base), &root));
  /* The version first: a newer plan is refused as newer, whatever else changed. */
  TRY(tgrs_root_field_(&r->w, &root, FB_PLAN_SCHEMA_VERSION, &at, NULL));
  r->version = at ? fb_u32(base + at) : 0u;
  TRY(require(r, r->version != 0, FB_FIELD(PLAN, SCHEMA_VERSION)));
  if (r->version > TGRS_SCHEMA_VERSION) {
    return FAIL_AT(FB_FIELD(PLAN, SCHEMA_VERSION), TGRS_ERR_UNSUPPORTED_VERSION,
                   "plan schema {v} is newer than this reader's {l}", r->version,
                   TGRS_SCHEMA_VERSION);
  }
  /* Then the checksum of the tables, before any rule reads what it covers: a damaged plan
   * is reported as damaged (plan_tables_crc.c), not as the rule its damage breaks first. */
  if (mode != TGRS_INTEGRITY_NONE) {
    uint32_t integrity;
    TRY(tgrs_check_tables_crc_(&r->w, &root, &integrity));
  }
  for (i = 0; i < TGRS_COLLECTION_COUNT; ++i) {
    TRY(tgrs_root_field_(&r->w, &root, collection_fields[i], &at, &r->w.count[i]));
  }
  TRY(tgrs_walk_table_(&r->w, &root, TGRS_TABLE_PLAN));
  TRY(verify_rules(r, base + root.pos));
  *root_out = base + root.pos;
  return TGRS_OK;
}
