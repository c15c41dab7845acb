/*
 * plan_reader.c: tgrs_plan_init() and the zero-copy getters over a verified plan.
 *
 * Every getter trusts the buffer: tgrs_plan_init() ran plan_verify.c over all of it, so
 * a getter costs a vtable lookup and a few loads, and hands out pointers into the plan.
 * Getters on a plan that failed init see NULL vectors and return empty values.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fb_map.h"
#include "fb_read.h"
#include "plan_internal.h"
#include "tigris_runtime.h"

/* --- names ------------------------------------------------------------------------------ */

/* Names as one packed string each, not pointer tables: a firmware that never asks for a
 * name links none of them (a table of pointers to literals pulls every literal of the
 * file's merged string section in), and one that does pays for the text only. */

#if TGRS_WITH_MESSAGES
/* Per status: a byte holding its value + 1 (so OK is not a NUL), then its name; \xff ends. */
static const char status_names[] =
    "\x01"
    "TGRS_OK\0"
    "\x02"
    "TGRS_ERR_NULL_ARGUMENT\0"
    "\x03"
    "TGRS_ERR_PLAN_TOO_SMALL\0"
    "\x04"
    "TGRS_ERR_PLAN_MISALIGNED\0"
    "\x05"
    "TGRS_ERR_BAD_IDENTIFIER\0"
    "\x06"
    "TGRS_ERR_UNSUPPORTED_VERSION\0"
    "\x07"
    "TGRS_ERR_BAD_OFFSET\0"
    "\x08"
    "TGRS_ERR_BAD_VTABLE\0"
    "\x09"
    "TGRS_ERR_BAD_VECTOR\0"
    "\x0a"
    "TGRS_ERR_BAD_STRING\0"
    "\x0b"
    "TGRS_ERR_BAD_INDEX\0"
    "\x0c"
    "TGRS_ERR_BAD_ALIGNMENT\0"
    "\x0d"
    "TGRS_ERR_BAD_ENUM\0"
    "\x0e"
    "TGRS_ERR_BAD_SIZE\0"
    "\x0f"
    "TGRS_ERR_MISSING_FIELD\0"
    "\x10"
    "TGRS_ERR_BAD_VALUE\0"
    "\x11"
    "TGRS_ERR_PLAN_TOO_LARGE\0"
    "\x12"
    "TGRS_ERR_TOO_COMPLEX\0"
    "\x13"
    "TGRS_ERR_PLAN_CORRUPT\0"
    "\x14"
    "TGRS_ERR_NO_CHECKSUM\0"
    "\x21"
    "TGRS_ERR_LZ4_CORRUPT\0"
    "\x22"
    "TGRS_ERR_LZ4_DST_TOO_SMALL\0"
    "\x31"
    "TGRS_ERR_ARENA_TOO_SMALL\0"
    "\x32"
    "TGRS_ERR_ARENA_MISALIGNED\0"
    "\x33"
    "TGRS_ERR_SLOW_ARENA_TOO_SMALL\0"
    "\x34"
    "TGRS_ERR_SLOW_ARENA_MISALIGNED\0"
    "\x35"
    "TGRS_ERR_PLAN_NOT_VERIFIED\0"
    "\x36"
    "TGRS_ERR_INPUT_COUNT\0"
    "\x37"
    "TGRS_ERR_INPUT_SIZE\0"
    "\x38"
    "TGRS_ERR_OUTPUT_COUNT\0"
    "\x39"
    "TGRS_ERR_OUTPUT_SIZE\0"
    "\x3a"
    "TGRS_ERR_UNSUPPORTED_OP\0"
    "\x3b"
    "TGRS_ERR_INCONSISTENT_PLAN\0"
    "\x3c"
    "TGRS_ERR_KERNEL_REJECTED\0"
    "\x3d"
    "TGRS_ERR_INDEX_OUT_OF_RANGE\0"
    "\x3e"
    "TGRS_ERR_UNKNOWN_MEMORY\0"
    "\x3f"
    "TGRS_ERR_HYDRATION_REQUIRED\0"
    "\x40"
    "TGRS_ERR_ARENA_NOT_BOUND\0"
    "\x41"
    "TGRS_ERR_ARENA_OVERLAP\0"
    "\xff";
#endif

/* The string after the one at `p` in a packed list. A loop rather than strlen, which
 * newlib-nano implements in 220 bytes a firmware would link for this alone. */
static const char* next_name(const char* p) {
  while (*p != '\0') ++p;
  return p + 1;
}

#if TGRS_WITH_MESSAGES
const char* tgrs_status_name(tgrs_status status) {
  const char* p = status_names;
  while ((unsigned char)*p != 0xffu) {
    if ((unsigned char)*p == (unsigned)status + 1u) return p + 1;
    p = next_name(p + 1);
  }
  return "TGRS_ERR_UNKNOWN";
}
#else
/* Built without text for people (TGRS_WITH_MESSAGES 0): the names are 937 bytes of
 * Cortex-M flash. Callers print the number (tigris_runtime.h names it). */
const char* tgrs_status_name(tgrs_status status) {
  (void)status;
  return TGRS_STATUS_UNNAMED;
}
#endif

/* Op names in code order (TGRS_OP_CONV = 0, ...), each ending in a NUL: the op table's
 * (tgrs_ops.def) NAME column. */
static const char op_code_names[] =
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) #NAME "\0"
#include "tgrs_ops.def"
#undef TGRS_OP
    ;

const char* tgrs_op_code_name(tgrs_op_code code) {
  const char* p = op_code_names;
  unsigned i;
  if ((unsigned)code >= TGRS_OP_CODE_COUNT) return "?";
  for (i = 0; i < (unsigned)code; ++i) p = next_name(p);
  return p;
}

/* --- header ----------------------------------------------------------------------------- */

static const uint8_t* root_of(const tgrs_plan* plan) { return plan ? plan->root_ : NULL; }

static const char* string_or_empty(const uint8_t* s) { return s ? (const char*)(s + 4) : ""; }

uint32_t tgrs_plan_schema_version(const tgrs_plan* plan) {
  return fb_get_u32(root_of(plan), FB_PLAN_SCHEMA_VERSION, 0);
}
const char* tgrs_plan_generator(const tgrs_plan* plan) {
  return string_or_empty(fb_get_ref(root_of(plan), FB_PLAN_GENERATOR));
}
const char* tgrs_plan_model_name(const tgrs_plan* plan) {
  return string_or_empty(fb_get_ref(root_of(plan), FB_PLAN_MODEL_NAME));
}
uint32_t tgrs_plan_fast_arena_bytes(const tgrs_plan* plan) {
  return fb_get_u32(root_of(plan), FB_PLAN_FAST_ARENA_BYTES, 0);
}
uint32_t tgrs_plan_slow_arena_bytes(const tgrs_plan* plan) {
  return fb_get_u32(root_of(plan), FB_PLAN_SLOW_ARENA_BYTES, 0);
}
uint32_t tgrs_plan_scheduled_peak_bytes(const tgrs_plan* plan) {
  return fb_get_u32(root_of(plan), FB_PLAN_SCHEDULED_PEAK_BYTES, 0);
}
bool tgrs_plan_xip(const tgrs_plan* plan) { return fb_get_u8(root_of(plan), FB_PLAN_XIP, 0) != 0; }
tgrs_compression tgrs_plan_compression(const tgrs_plan* plan) {
  return (tgrs_compression)fb_get_u8(root_of(plan), FB_PLAN_COMPRESSION, 0);
}

/* --- spans ------------------------------------------------------------------------------ */

/* Verified vectors are 4-aligned (and int/float elements with them), so these casts
 * produce correctly aligned pointers. */
static tgrs_i32s i32s(const uint8_t* vec) {
  tgrs_i32s s;
  s.count = fb_vec_len(vec);
  s.data = s.count ? (const int32_t*)(const void*)fb_vec_data(vec) : NULL;
  return s;
}
static tgrs_f32s f32s(const uint8_t* vec) {
  tgrs_f32s s;
  s.count = fb_vec_len(vec);
  s.data = s.count ? (const float*)(const void*)fb_vec_data(vec) : NULL;
  return s;
}
static tgrs_i8s i8s(const uint8_t* vec) {
  tgrs_i8s s;
  s.count = fb_vec_len(vec);
  s.data = s.count ? (const int8_t*)(const void*)fb_vec_data(vec) : NULL;
  return s;
}

tgrs_i32s tgrs_plan_inputs(const tgrs_plan* plan) {
  return i32s(fb_get_ref(root_of(plan), FB_PLAN_INPUTS));
}
tgrs_i32s tgrs_plan_outputs(const tgrs_plan* plan) {
  return i32s(fb_get_ref(root_of(plan), FB_PLAN_OUTPUTS));
}
tgrs_u8s tgrs_plan_weight_data(const tgrs_plan* plan) {
  const uint8_t* vec = fb_get_ref(root_of(plan), FB_PLAN_WEIGHT_DATA);
  tgrs_u8s s;
  s.count = fb_vec_len(vec);
  s.data = s.count ? fb_vec_data(vec) : NULL;
  return s;
}

uint32_t tgrs_plan_tensor_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->tensors_) : 0;
}
uint32_t tgrs_plan_op_count(const tgrs_plan* plan) { return plan ? fb_vec_len(plan->ops_) : 0; }
uint32_t tgrs_plan_stage_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->stages_) : 0;
}
uint32_t tgrs_plan_chain_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->chains_) : 0;
}
uint32_t tgrs_plan_slow_buffer_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->slow_buffers_) : 0;
}
uint32_t tgrs_plan_weight_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->weights_) : 0;
}
uint32_t tgrs_plan_weight_block_count(const tgrs_plan* plan) {
  return plan ? fb_vec_len(plan->weight_blocks_) : 0;
}

uint32_t tgrs_plan_memory_count(const tgrs_plan* plan) {
  return plan && plan->root_ ? fb_vec_len(fb_get_ref(plan->root_, FB_PLAN_MEMORIES)) : 0;
}

uint32_t tgrs_plan_pinned_arena_bytes(const tgrs_plan* plan) {
  tgrs_plan_memory m;
  return tgrs_plan_get_memory(plan, TGRS_REGION_PINNED, &m) == TGRS_OK ? m.size : 0;
}

/* --- element views ---------------------------------------------------------------------- */

/* Table `index` of vector `vec`, after the NULL / range checks every getter shares. */
static tgrs_status element(const tgrs_plan* plan, const uint8_t* vec, uint32_t index, void* out,
                           size_t out_size, const uint8_t** table) {
  if (!out) return TGRS_ERR_NULL_ARGUMENT;
  memset(out, 0, out_size);
  if (!plan) return TGRS_ERR_NULL_ARGUMENT;
  if (index >= fb_vec_len(vec)) return TGRS_ERR_BAD_INDEX;
  *table = fb_vec_table(vec, index);
  return TGRS_OK;
}

#define READ(table, map, out) tgrs_fb_map_read(table, map, FB_MAP_COUNT(map), out)

/* --- the getters' field maps (fb_map.h), defaults as in tgrs.fbs ------------------------ */

#define TENSOR_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_tensor, member, FB_TENSOR_##id, FB_MAP_##how, fallback)
#define TENSOR_VIEW(member, id, how) FB_VIEW(tgrs_plan_tensor, member, FB_TENSOR_##id, FB_MAP_##how)
static const fb_map tensor_map[] = {
    TENSOR_VIEW(name, NAME, STRING),
    TENSOR_SCALAR(dtype, DTYPE, U8, 0),
    TENSOR_VIEW(shape, SHAPE, SPAN),
    TENSOR_VIEW(has_quant, QUANT, PRESENT),
    TENSOR_SCALAR(weight, WEIGHT, I32, -1),
    TENSOR_VIEW(host_permutation, HOST_PERMUTATION, SPAN),
    TENSOR_VIEW(onnx_shape, ONNX_SHAPE, SPAN),
    TENSOR_SCALAR(host_dtype, HOST_DTYPE, U8, 0),
};
/* The tensor's Quantization table. */
static const fb_map quant_map[] = {
    FB_VIEW(tgrs_plan_tensor, scale, FB_QUANT_SCALE, FB_MAP_SPAN),
    FB_VIEW(tgrs_plan_tensor, zero_point, FB_QUANT_ZERO_POINT, FB_MAP_SPAN),
    FB_SCALAR(tgrs_plan_tensor, quant_axis, FB_QUANT_AXIS, FB_MAP_I32, -1),
};

#define OP_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_op, member, FB_OP_##id, FB_MAP_##how, fallback)
#define OP_VIEW(member, id, how) FB_VIEW(tgrs_plan_op, member, FB_OP_##id, FB_MAP_##how)
/* What every op function reads (tgrs_read_op_core_). */
static const fb_map op_core_map[] = {
    OP_SCALAR(code, CODE, U16, 0),
    OP_VIEW(inputs, INPUTS, SPAN),
    OP_VIEW(outputs, OUTPUTS, SPAN),
    OP_SCALAR(activation, ACTIVATION, U8, 0),
    OP_VIEW(output_multiplier, OUTPUT_MULTIPLIER, SPAN),
    OP_VIEW(output_shift, OUTPUT_SHIFT, SPAN),
    OP_SCALAR(act_min, ACT_MIN, I32, -128),
    OP_SCALAR(act_max, ACT_MAX, I32, 127),
    OP_SCALAR(rounding, ROUNDING, U8, 0),
};
static const fb_map op_rest_map[] = {
    OP_VIEW(name, NAME, STRING),
    OP_VIEW(has_attrs, ATTRS, PRESENT),
    OP_VIEW(input_multiplier, INPUT_MULTIPLIER, SPAN),
    OP_VIEW(input_shift, INPUT_SHIFT, SPAN),
    OP_SCALAR(left_shift, LEFT_SHIFT, I32, 0),
    OP_VIEW(lut, LUT, SPAN),
    OP_VIEW(channel_scale, CHANNEL_SCALE, SPAN),
    OP_VIEW(channel_shift, CHANNEL_SHIFT, SPAN),
    OP_VIEW(channel_offset, CHANNEL_OFFSET, SPAN),
};

/* Floats default to 0.0f, whose bits are 0. */
#define ATTRS_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_op_attrs, member, FB_ATTRS_##id, FB_MAP_##how, fallback)
#define ATTRS_VIEW(member, id, how) FB_VIEW(tgrs_plan_op_attrs, member, FB_ATTRS_##id, FB_MAP_##how)
static const fb_map attrs_map[] = {
    ATTRS_VIEW(kernel, KERNEL, SPAN),
    ATTRS_VIEW(strides, STRIDES, SPAN),
    ATTRS_VIEW(pads, PADS, SPAN),
    ATTRS_VIEW(dilations, DILATIONS, SPAN),
    ATTRS_SCALAR(group, GROUP, I32, 1),
    ATTRS_SCALAR(axis, AXIS, I32, 0),
    ATTRS_VIEW(perm, PERM, SPAN),
    ATTRS_VIEW(shape, SHAPE, SPAN),
    ATTRS_SCALAR(alpha, ALPHA, I32, 0),
    ATTRS_SCALAR(beta, BETA, I32, 0),
    ATTRS_SCALAR(gamma, GAMMA, I32, 0),
    ATTRS_SCALAR(min, MIN, I32, 0),
    ATTRS_SCALAR(max, MAX, I32, 0),
    ATTRS_VIEW(scales, SCALES, SPAN),
    ATTRS_VIEW(mode, MODE, STRING),
    ATTRS_VIEW(coordinate_transformation_mode, COORDINATE_TRANSFORMATION_MODE, STRING),
    ATTRS_VIEW(nearest_mode, NEAREST_MODE, STRING),
    ATTRS_SCALAR(count_include_pad, COUNT_INCLUDE_PAD, FLAG, 0),
    ATTRS_SCALAR(ceil_mode, CEIL_MODE, FLAG, 0),
    ATTRS_VIEW(axes, AXES, SPAN),
    ATTRS_SCALAR(keepdims, KEEPDIMS, FLAG, 1),
    ATTRS_VIEW(output_padding, OUTPUT_PADDING, SPAN),
    ATTRS_SCALAR(pad_value, PAD_VALUE, I32, 0),
    ATTRS_VIEW(view_shape, VIEW_SHAPE, SPAN),
    ATTRS_SCALAR(bias, BIAS, I32, 0),
    ATTRS_VIEW(starts, STARTS, SPAN),
};

#define BUFFER_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_buffer, member, FB_BUFFER_##id, FB_MAP_##how, fallback)
static const fb_map buffer_map[] = {
    BUFFER_SCALAR(kind, KIND, U8, 0),
    BUFFER_SCALAR(tensor, TENSOR, I32, -1),
    BUFFER_SCALAR(op, OP, I32, -1),
    BUFFER_SCALAR(first_op, FIRST_OP, I32, 0),
    BUFFER_SCALAR(last_op, LAST_OP, I32, 0),
    BUFFER_SCALAR(bytes, BYTES, I32, 0),
    FB_VIEW(tgrs_plan_buffer, has_home, FB_BUFFER_HOME, FB_MAP_PRESENT),
};

#define TILE_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_tile, member, FB_TILE_##id, FB_MAP_##how, fallback)
#define TILE_VIEW(member, id, how) FB_VIEW(tgrs_plan_tile, member, FB_TILE_##id, FB_MAP_##how)
/* TileRegion is six int32 on the wire, exactly tgrs_tile_region's layout. */
static const fb_map tile_map[] = {
    TILE_SCALAR(dim, DIM, U8, 0),
    TILE_SCALAR(tile_size, TILE_SIZE, I32, 0),
    TILE_SCALAR(count, COUNT, I32, 0),
    TILE_SCALAR(halo, HALO, I32, 0),
    TILE_VIEW(ops, OPS, SPAN),
    TILE_VIEW(regions, REGIONS, DATA),
    TILE_VIEW(region_count, REGIONS, LENGTH),
    TILE_SCALAR(peak_bytes, PEAK_BYTES, I32, 0),
    TILE_VIEW(buffers_, BUFFERS, OBJECT),
    TILE_VIEW(buffer_count, BUFFERS, LENGTH),
    TILE_SCALAR(streamed, STREAMED, FLAG, 0),
    TILE_VIEW(columns, COLUMNS, DATA),
    TILE_VIEW(column_count, COLUMNS, LENGTH),
    TILE_VIEW(channels, CHANNELS, DATA),
    TILE_VIEW(channel_count, CHANNELS, LENGTH),
};

#define STAGE_SCALAR(member, id, how, fallback) \
  FB_SCALAR(tgrs_plan_stage, member, FB_STAGE_##id, FB_MAP_##how, fallback)
#define STAGE_VIEW(member, id, how) FB_VIEW(tgrs_plan_stage, member, FB_STAGE_##id, FB_MAP_##how)
static const fb_map stage_map[] = {
    STAGE_SCALAR(id, ID, I32, 0),
    STAGE_SCALAR(strategy, STRATEGY, U8, 0),
    STAGE_VIEW(ops, OPS, SPAN),
    STAGE_VIEW(has_tile, TILE, PRESENT),
    STAGE_SCALAR(chain, CHAIN, I32, -1),
    STAGE_SCALAR(peak_bytes, PEAK_BYTES, I32, 0),
    STAGE_VIEW(spill_in, SPILL_IN, SPAN),
    STAGE_VIEW(spill_out, SPILL_OUT, SPAN),
    STAGE_SCALAR(weight_block, WEIGHT_BLOCK, I32, -1),
    STAGE_SCALAR(fast_reserved_bytes, FAST_RESERVED_BYTES, I32, 0),
    STAGE_VIEW(buffer_count, BUFFERS, LENGTH),
};

static const fb_map chain_map[] = {
    FB_SCALAR(tgrs_plan_chain, id, FB_CHAIN_ID, FB_MAP_I32, 0),
    FB_VIEW(tgrs_plan_chain, stages, FB_CHAIN_STAGES, FB_MAP_SPAN),
};

static const fb_map weight_map[] = {
    FB_SCALAR(tgrs_plan_weight, offset, FB_WEIGHT_OFFSET, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_weight, size, FB_WEIGHT_SIZE, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_weight, block, FB_WEIGHT_BLOCK, FB_MAP_I32, -1),
};

static const fb_map block_map[] = {
    FB_SCALAR(tgrs_plan_weight_block, stage, FB_BLOCK_STAGE, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_weight_block, offset, FB_BLOCK_OFFSET, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_weight_block, compressed_size, FB_BLOCK_COMPRESSED_SIZE, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_weight_block, raw_size, FB_BLOCK_RAW_SIZE, FB_MAP_I32, 0),
};

static const fb_map memory_map[] = {
    FB_VIEW(tgrs_plan_memory, name, FB_MEMORY_NAME, FB_MAP_STRING),
    FB_SCALAR(tgrs_plan_memory, size, FB_MEMORY_SIZE, FB_MAP_I32, 0),
    FB_SCALAR(tgrs_plan_memory, alignment, FB_MEMORY_ALIGNMENT, FB_MAP_I32, 0),
};

tgrs_status tgrs_plan_get_tensor(const tgrs_plan* plan, uint32_t index, tgrs_plan_tensor* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->tensors_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, tensor_map, out);
  READ(fb_get_ref(t, FB_TENSOR_QUANT), quant_map, out);
  if (out->host_dtype == TGRS_DTYPE_UNKNOWN) out->host_dtype = out->dtype;
  return TGRS_OK;
}

uint32_t tgrs_plan_tensor_bytes(const tgrs_plan_tensor* tensor) {
  uint32_t bytes, i;
  if (!tensor) return 0;
  bytes = (uint32_t)tgrs_dtype_size(tensor->dtype);
  for (i = 0; i < tensor->shape.count; ++i) bytes *= (uint32_t)tensor->shape.data[i];
  return bytes;
}

void tgrs_read_op_core_(const uint8_t* t, tgrs_plan_op* out) { READ(t, op_core_map, out); }

tgrs_status tgrs_plan_get_op(const tgrs_plan* plan, uint32_t index, tgrs_plan_op* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->ops_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, op_core_map, out);
  READ(t, op_rest_map, out);
  return TGRS_OK;
}

const uint8_t* tgrs_vec_table_(const uint8_t* vec, uint32_t index) {
  return index < fb_vec_len(vec) ? fb_vec_table(vec, index) : NULL;
}

tgrs_i32s tgrs_read_i32s_(const uint8_t* table, unsigned id) { return i32s(fb_get_ref(table, id)); }
tgrs_f32s tgrs_read_f32s_(const uint8_t* table, unsigned id) { return f32s(fb_get_ref(table, id)); }
tgrs_i8s tgrs_read_i8s_(const uint8_t* table, unsigned id) { return i8s(fb_get_ref(table, id)); }
const uint8_t* tgrs_read_table_(const uint8_t* table, unsigned id) { return fb_get_ref(table, id); }
int32_t tgrs_read_i32_(const uint8_t* table, unsigned id, int32_t fallback) {
  return fb_get_i32(table, id, fallback);
}
float tgrs_read_f32_(const uint8_t* table, unsigned id, float fallback) {
  return fb_get_f32(table, id, fallback);
}
int tgrs_read_flag_(const uint8_t* table, unsigned id, int fallback) {
  return fb_get_u8(table, id, (uint8_t)(fallback != 0)) != 0;
}
const char* tgrs_read_string_(const uint8_t* table, unsigned id) {
  return string_or_empty(fb_get_ref(table, id));
}

tgrs_status tgrs_plan_get_op_attrs(const tgrs_plan* plan, uint32_t index, tgrs_plan_op_attrs* out) {
  const uint8_t *op, *a;
  tgrs_status st = element(plan, plan ? plan->ops_ : NULL, index, out, sizeof *out, &op);
  if (st != TGRS_OK) return st;
  a = fb_get_ref(op, FB_OP_ATTRS); /* NULL: every member gets its default */
  READ(a, attrs_map, out);
  return TGRS_OK;
}

static void read_buffer(const uint8_t* t, tgrs_plan_buffer* out) {
  const uint8_t* home = fb_field(t, FB_BUFFER_HOME);
  READ(t, buffer_map, out);
  if (home) {
    out->home.offset = fb_u32(home);
    out->home.size = fb_u32(home + 4);
    out->home.region = (tgrs_memory_region)home[8];
  }
}

int tgrs_find_buffer_(const uint8_t* buffers, int32_t kind, int32_t key, int32_t step,
                      uint32_t regions, tgrs_plan_buffer* out) {
  const unsigned key_id = kind == TGRS_BUFFER_SCRATCH ? FB_BUFFER_OP : FB_BUFFER_TENSOR;
  uint32_t i;
  for (i = 0; i < fb_vec_len(buffers); ++i) {
    const uint8_t* t = fb_vec_table(buffers, i);
    const uint8_t* vt = t - fb_i32(t);
    const uint32_t vtable_bytes = fb_u16(vt);
    const uint8_t* f = fb_field_in(t, vt, vtable_bytes, key_id);
    const uint8_t* home;
    /* The key first: it tells most buffers apart. Defaults as in tgrs.fbs. */
    if ((f ? fb_i32(f) : -1) != key) continue;
    f = fb_field_in(t, vt, vtable_bytes, FB_BUFFER_KIND);
    if (kind >= 0 && (f ? f[0] : 0) != kind) continue;
    /* Regions are 0..6 in a verified plan; the mask keeps any shift defined. */
    home = fb_field_in(t, vt, vtable_bytes, FB_BUFFER_HOME);
    if (home == NULL || ((regions >> (home[8] & 31u)) & 1u) == 0) continue;
    if (step != TGRS_ANY_STEP) {
      f = fb_field_in(t, vt, vtable_bytes, FB_BUFFER_FIRST_OP);
      if ((f ? fb_i32(f) : 0) > step) continue;
      f = fb_field_in(t, vt, vtable_bytes, FB_BUFFER_LAST_OP);
      if (step > (f ? fb_i32(f) : 0)) continue;
    }
    memset(out, 0, sizeof *out);
    read_buffer(t, out);
    return 1;
  }
  return 0;
}

void tgrs_read_buffer_(const uint8_t* buffers, uint32_t index, tgrs_plan_buffer* out) {
  memset(out, 0, sizeof *out);
  read_buffer(fb_vec_table(buffers, index), out);
}

const uint8_t* tgrs_plan_stage_buffers_(const tgrs_plan* plan, uint32_t stage) {
  return plan && stage < fb_vec_len(plan->stages_)
             ? fb_get_ref(fb_vec_table(plan->stages_, stage), FB_STAGE_BUFFERS)
             : NULL;
}

tgrs_status tgrs_read_tile_(const uint8_t* tile, tgrs_plan_tile* out) {
  memset(out, 0, sizeof *out);
  if (tile == NULL) return TGRS_ERR_MISSING_FIELD;
  READ(tile, tile_map, out);
  return TGRS_OK;
}

/* Element k of tile t of a tile-major region vector of `count` entries. */
static const tgrs_tile_region* tile_entry(const tgrs_plan_tile* tile, const tgrs_tile_region* v,
                                          uint32_t count, uint32_t t, uint32_t k) {
  uint64_t i;
  if (!tile || k >= tile->ops.count) return NULL;
  i = (uint64_t)t * tile->ops.count + k;
  return i < count ? &v[i] : NULL;
}

const tgrs_tile_region* tgrs_plan_tile_region(const tgrs_plan_tile* tile, uint32_t t, uint32_t k) {
  return tile ? tile_entry(tile, tile->regions, tile->region_count, t, k) : NULL;
}

const tgrs_tile_region* tgrs_plan_tile_columns(const tgrs_plan_tile* tile, uint32_t t, uint32_t k) {
  return tile ? tile_entry(tile, tile->columns, tile->column_count, t, k) : NULL;
}

const tgrs_tile_region* tgrs_plan_tile_channels(const tgrs_plan_tile* tile, uint32_t t,
                                                uint32_t k) {
  return tile ? tile_entry(tile, tile->channels, tile->channel_count, t, k) : NULL;
}

tgrs_status tgrs_plan_tile_buffer(const tgrs_plan_tile* tile, uint32_t index,
                                  tgrs_plan_buffer* out) {
  if (!out) return TGRS_ERR_NULL_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (!tile) return TGRS_ERR_NULL_ARGUMENT;
  if (index >= tile->buffer_count) return TGRS_ERR_BAD_INDEX;
  tgrs_read_buffer_(tile->buffers_, index, out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_stage(const tgrs_plan* plan, uint32_t index, tgrs_plan_stage* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->stages_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, stage_map, out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_stage_buffer(const tgrs_plan* plan, uint32_t stage, uint32_t index,
                                       tgrs_plan_buffer* out) {
  const uint8_t *t, *buffers;
  tgrs_status st = element(plan, plan ? plan->stages_ : NULL, stage, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  buffers = fb_get_ref(t, FB_STAGE_BUFFERS);
  if (index >= fb_vec_len(buffers)) return TGRS_ERR_BAD_INDEX;
  read_buffer(fb_vec_table(buffers, index), out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_stage_tile(const tgrs_plan* plan, uint32_t stage, tgrs_plan_tile* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->stages_ : NULL, stage, out, sizeof *out, &t);
  return st != TGRS_OK ? st : tgrs_read_tile_(fb_get_ref(t, FB_STAGE_TILE), out);
}

tgrs_status tgrs_plan_get_chain(const tgrs_plan* plan, uint32_t index, tgrs_plan_chain* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->chains_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, chain_map, out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_chain_tile(const tgrs_plan* plan, uint32_t chain, tgrs_plan_tile* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->chains_ : NULL, chain, out, sizeof *out, &t);
  /* Chain.tile is required: the verifier checked it. */
  return st != TGRS_OK ? st : tgrs_read_tile_(fb_get_ref(t, FB_CHAIN_TILE), out);
}

tgrs_status tgrs_plan_get_slow_buffer(const tgrs_plan* plan, uint32_t index,
                                      tgrs_plan_buffer* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->slow_buffers_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  read_buffer(t, out);
  return TGRS_OK;
}

/* weight_data + offset; the data of an empty weight_data is NULL (no NULL + 0). */
static const uint8_t* at_offset(const tgrs_plan* plan, uint32_t offset) {
  const uint8_t* data = tgrs_plan_weight_data(plan).data;
  return data ? data + offset : NULL;
}

tgrs_status tgrs_plan_get_weight(const tgrs_plan* plan, uint32_t index, tgrs_plan_weight* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->weights_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, weight_map, out);
  if (out->block < 0) out->data = at_offset(plan, out->offset);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_memory(const tgrs_plan* plan, uint32_t index, tgrs_plan_memory* out) {
  const uint8_t* t;
  const uint8_t* memories = plan && plan->root_ ? fb_get_ref(plan->root_, FB_PLAN_MEMORIES) : NULL;
  tgrs_status st = element(plan, memories, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, memory_map, out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_weight_block(const tgrs_plan* plan, uint32_t index,
                                       tgrs_plan_weight_block* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->weight_blocks_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  READ(t, block_map, out);
  out->compressed = at_offset(plan, out->offset);
  return TGRS_OK;
}

uint32_t tgrs_plan_state_count(const tgrs_plan* plan) {
  return plan && plan->root_ ? fb_vec_len(fb_get_ref(plan->root_, FB_PLAN_STATE)) : 0;
}

tgrs_status tgrs_plan_get_state(const tgrs_plan* plan, uint32_t index, tgrs_plan_state_slot* out) {
  const uint8_t* slot;
  if (out == NULL) return TGRS_ERR_NULL_ARGUMENT;
  memset(out, 0, sizeof *out);
  if (plan == NULL) return TGRS_ERR_NULL_ARGUMENT;
  if (index >= tgrs_plan_state_count(plan)) return TGRS_ERR_BAD_INDEX;
  slot = fb_get_ref(plan->root_, FB_PLAN_STATE) + 4u + FB_STATE_SLOT_BYTES * index;
  out->input = fb_u32(slot);
  out->output = fb_u32(slot + 4);
  out->offset = fb_u32(slot + 8);
  out->size = fb_u32(slot + 12);
  return TGRS_OK;
}

uint32_t tgrs_plan_staged_offset(const tgrs_plan* plan) {
  return fb_get_u32(root_of(plan), FB_PLAN_STAGED_OFFSET, 0);
}

tgrs_u8s tgrs_plan_staged_constants(const tgrs_plan* plan) {
  tgrs_u8s s;
  s.count = fb_get_u32(root_of(plan), FB_PLAN_STAGED_BYTES, 0);
  s.data = s.count ? at_offset(plan, tgrs_plan_staged_offset(plan)) : NULL;
  return s;
}
