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
/* Built without text for people (TGRS_WITH_MESSAGES 0): the names are 868 bytes of
 * Cortex-M flash. Callers print the number (tigris_runtime.h names it). */
const char* tgrs_status_name(tgrs_status status) {
  (void)status;
  return TGRS_STATUS_UNNAMED;
}
#endif

/* Op names in code order (TGRS_OP_CONV = 0, ...), each ending in a NUL. */
static const char op_code_names[] =
    "CONV\0"
    "DEPTHWISE_CONV\0"
    "CONV1D\0"
    "CONV_TRANSPOSE\0"
    "MAX_POOL\0"
    "AVERAGE_POOL\0"
    "GLOBAL_AVERAGE_POOL\0"
    "GLOBAL_MAX_POOL\0"
    "ADD\0"
    "SUB\0"
    "MUL\0"
    "DIV\0"
    "RELU\0"
    "RELU6\0"
    "LEAKY_RELU\0"
    "SELU\0"
    "SIGMOID\0"
    "HARD_SIGMOID\0"
    "HARD_SWISH\0"
    "TANH\0"
    "CLIP\0"
    "CONCAT\0"
    "PAD\0"
    "RESIZE\0"
    "RESHAPE\0"
    "TRANSPOSE\0"
    "GEMM\0"
    "MATMUL\0"
    "SOFTMAX\0"
    "LOG_SOFTMAX\0"
    "REDUCE_MEAN\0"
    "BATCH_NORMALIZATION\0"
    "QUANTIZE\0"
    "DEQUANTIZE\0"
    "SPLIT\0"
    "LRN\0"
    "SLICE\0"
    "GATHER\0";

const char* tgrs_op_code_name(tgrs_op_code code) {
  const char* p = op_code_names;
  unsigned i;
  if ((unsigned)code >= TGRS_OP_CODE_COUNT) return "?";
  for (i = 0; i < (unsigned)code; ++i) p = next_name(p);
  return p;
}

const char* tgrs_dtype_name(tgrs_dtype dtype) {
  static const char* const names[] = {"UNKNOWN", "FLOAT32", "INT8", "INT32",
                                      "INT64",   "UINT8",   "INT16"};
  return (unsigned)dtype <= TGRS_DTYPE_INT16 ? names[dtype] : "?";
}

size_t tgrs_dtype_size(tgrs_dtype dtype) {
  static const size_t sizes[] = {0, 4, 1, 4, 8, 1, 2};
  return (unsigned)dtype <= TGRS_DTYPE_INT16 ? sizes[dtype] : 0;
}

/* --- init ------------------------------------------------------------------------------- */

tgrs_status tgrs_plan_init(tgrs_plan* plan, const void* bytes, size_t size) {
  const uint8_t* base = (const uint8_t*)bytes;
  const uint8_t* root = NULL;
  tgrs_status status;
  if (!plan) return TGRS_ERR_NULL_ARGUMENT;
  memset(plan, 0, sizeof *plan);
  plan->error.status = TGRS_ERR_NULL_ARGUMENT;
  plan->error.message = TGRS_MESSAGE("plan bytes are NULL");
  if (!bytes) return TGRS_ERR_NULL_ARGUMENT;
  plan->error.message = NULL;
  if (size > FB_MAX_BUFFER) {
    plan->error.status = TGRS_ERR_PLAN_TOO_LARGE;
    plan->error.message = TGRS_MESSAGE("{v} bytes exceed FlatBuffers' limit of {l}");
    plan->error.value = (int64_t)size;
    plan->error.limit = FB_MAX_BUFFER;
    return TGRS_ERR_PLAN_TOO_LARGE;
  }
  if ((uintptr_t)base % TGRS_PLAN_ALIGNMENT != 0) {
    plan->error.status = TGRS_ERR_PLAN_MISALIGNED;
    plan->error.message =
        TGRS_MESSAGE("plan bytes at address % {l} = {v}; weights need 16-byte alignment");
    plan->error.value = (int64_t)((uintptr_t)base % TGRS_PLAN_ALIGNMENT);
    plan->error.limit = TGRS_PLAN_ALIGNMENT;
    return TGRS_ERR_PLAN_MISALIGNED;
  }
  status = tgrs_verify_plan_(base, (uint32_t)size, &plan->error, &root);
  if (status != TGRS_OK) return status;
  plan->error.status = TGRS_OK;
  plan->base_ = base;
  plan->size_ = (uint32_t)size;
  plan->root_ = root;
  plan->tensors_ = fb_get_ref(root, FB_PLAN_TENSORS);
  plan->ops_ = fb_get_ref(root, FB_PLAN_OPS);
  plan->stages_ = fb_get_ref(root, FB_PLAN_STAGES);
  plan->chains_ = fb_get_ref(root, FB_PLAN_CHAINS);
  plan->slow_buffers_ = fb_get_ref(root, FB_PLAN_SLOW_BUFFERS);
  plan->weights_ = fb_get_ref(root, FB_PLAN_WEIGHTS);
  plan->weight_blocks_ = fb_get_ref(root, FB_PLAN_WEIGHT_BLOCKS);
  return TGRS_OK;
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

tgrs_status tgrs_plan_get_tensor(const tgrs_plan* plan, uint32_t index, tgrs_plan_tensor* out) {
  const uint8_t *t, *q;
  tgrs_status st = element(plan, plan ? plan->tensors_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  out->name = string_or_empty(fb_get_ref(t, FB_TENSOR_NAME));
  out->dtype = (tgrs_dtype)fb_get_u8(t, FB_TENSOR_DTYPE, 0);
  out->shape = i32s(fb_get_ref(t, FB_TENSOR_SHAPE));
  q = fb_get_ref(t, FB_TENSOR_QUANT);
  out->has_quant = q != NULL;
  out->scale = f32s(fb_get_ref(q, FB_QUANT_SCALE));
  out->zero_point = i32s(fb_get_ref(q, FB_QUANT_ZERO_POINT));
  out->quant_axis = fb_get_i32(q, FB_QUANT_AXIS, -1);
  out->weight = fb_get_i32(t, FB_TENSOR_WEIGHT, -1);
  out->host_permutation = i32s(fb_get_ref(t, FB_TENSOR_HOST_PERMUTATION));
  out->onnx_shape = i32s(fb_get_ref(t, FB_TENSOR_ONNX_SHAPE));
  out->host_dtype = (tgrs_dtype)fb_get_u8(t, FB_TENSOR_HOST_DTYPE, 0);
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

void tgrs_read_op_core_(const uint8_t* t, tgrs_plan_op* out) {
  out->code = (tgrs_op_code)fb_get_u16(t, FB_OP_CODE, 0);
  out->inputs = i32s(fb_get_ref(t, FB_OP_INPUTS));
  out->outputs = i32s(fb_get_ref(t, FB_OP_OUTPUTS));
  out->activation = (tgrs_activation)fb_get_u8(t, FB_OP_ACTIVATION, 0);
  out->output_multiplier = i32s(fb_get_ref(t, FB_OP_OUTPUT_MULTIPLIER));
  out->output_shift = i8s(fb_get_ref(t, FB_OP_OUTPUT_SHIFT));
  out->act_min = fb_get_i32(t, FB_OP_ACT_MIN, -128);
  out->act_max = fb_get_i32(t, FB_OP_ACT_MAX, 127);
}

tgrs_status tgrs_plan_get_op(const tgrs_plan* plan, uint32_t index, tgrs_plan_op* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->ops_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  tgrs_read_op_core_(t, out);
  out->name = string_or_empty(fb_get_ref(t, FB_OP_NAME));
  out->has_attrs = fb_get_ref(t, FB_OP_ATTRS) != NULL;
  out->input_multiplier = i32s(fb_get_ref(t, FB_OP_INPUT_MULTIPLIER));
  out->input_shift = i8s(fb_get_ref(t, FB_OP_INPUT_SHIFT));
  out->left_shift = fb_get_i32(t, FB_OP_LEFT_SHIFT, 0);
  out->lut = i8s(fb_get_ref(t, FB_OP_LUT));
  out->channel_scale = f32s(fb_get_ref(t, FB_OP_CHANNEL_SCALE));
  out->channel_shift = f32s(fb_get_ref(t, FB_OP_CHANNEL_SHIFT));
  out->channel_offset = i32s(fb_get_ref(t, FB_OP_CHANNEL_OFFSET));
  return TGRS_OK;
}

const uint8_t* tgrs_plan_op_table_(const tgrs_plan* plan, uint32_t index) {
  return plan && index < fb_vec_len(plan->ops_) ? fb_vec_table(plan->ops_, index) : NULL;
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
  a = fb_get_ref(op, FB_OP_ATTRS); /* NULL: every getter below yields the default */
  out->kernel = tgrs_read_i32s_(a, FB_ATTRS_KERNEL);
  out->strides = tgrs_read_i32s_(a, FB_ATTRS_STRIDES);
  out->pads = tgrs_read_i32s_(a, FB_ATTRS_PADS);
  out->dilations = tgrs_read_i32s_(a, FB_ATTRS_DILATIONS);
  out->group = tgrs_read_i32_(a, FB_ATTRS_GROUP, 1);
  out->axis = tgrs_read_i32_(a, FB_ATTRS_AXIS, 0);
  out->perm = tgrs_read_i32s_(a, FB_ATTRS_PERM);
  out->shape = tgrs_read_i32s_(a, FB_ATTRS_SHAPE);
  out->alpha = tgrs_read_f32_(a, FB_ATTRS_ALPHA, 0.0f);
  out->beta = tgrs_read_f32_(a, FB_ATTRS_BETA, 0.0f);
  out->gamma = tgrs_read_f32_(a, FB_ATTRS_GAMMA, 0.0f);
  out->min = tgrs_read_f32_(a, FB_ATTRS_MIN, 0.0f);
  out->max = tgrs_read_f32_(a, FB_ATTRS_MAX, 0.0f);
  out->scales = tgrs_read_f32s_(a, FB_ATTRS_SCALES);
  out->mode = tgrs_read_string_(a, FB_ATTRS_MODE);
  out->coordinate_transformation_mode =
      tgrs_read_string_(a, FB_ATTRS_COORDINATE_TRANSFORMATION_MODE);
  out->nearest_mode = tgrs_read_string_(a, FB_ATTRS_NEAREST_MODE);
  out->count_include_pad = tgrs_read_flag_(a, FB_ATTRS_COUNT_INCLUDE_PAD, 0);
  out->ceil_mode = tgrs_read_flag_(a, FB_ATTRS_CEIL_MODE, 0);
  out->axes = tgrs_read_i32s_(a, FB_ATTRS_AXES);
  out->keepdims = tgrs_read_flag_(a, FB_ATTRS_KEEPDIMS, 1);
  out->output_padding = tgrs_read_i32s_(a, FB_ATTRS_OUTPUT_PADDING);
  out->pad_value = tgrs_read_f32_(a, FB_ATTRS_PAD_VALUE, 0.0f);
  out->view_shape = tgrs_read_i32s_(a, FB_ATTRS_VIEW_SHAPE);
  out->bias = tgrs_read_f32_(a, FB_ATTRS_BIAS, 0.0f);
  out->starts = tgrs_read_i32s_(a, FB_ATTRS_STARTS);
  return TGRS_OK;
}

static void read_buffer(const uint8_t* t, tgrs_plan_buffer* out) {
  const uint8_t* home = fb_field(t, FB_BUFFER_HOME);
  out->kind = (tgrs_buffer_kind)fb_get_u8(t, FB_BUFFER_KIND, 0);
  out->tensor = fb_get_i32(t, FB_BUFFER_TENSOR, -1);
  out->op = fb_get_i32(t, FB_BUFFER_OP, -1);
  out->first_op = fb_get_i32(t, FB_BUFFER_FIRST_OP, 0);
  out->last_op = fb_get_i32(t, FB_BUFFER_LAST_OP, 0);
  out->bytes = fb_get_u32(t, FB_BUFFER_BYTES, 0);
  out->has_home = home != NULL;
  if (home) {
    out->home.offset = fb_u32(home);
    out->home.size = fb_u32(home + 4);
    out->home.region = (tgrs_memory_region)home[8];
  }
}

static void read_tile(const uint8_t* t, tgrs_plan_tile* out) {
  const uint8_t* regions = fb_get_ref(t, FB_TILE_REGIONS);
  const uint8_t* columns;
  out->dim = (tgrs_tile_dim)fb_get_u8(t, FB_TILE_DIM, 0);
  out->tile_size = fb_get_i32(t, FB_TILE_TILE_SIZE, 0);
  out->count = fb_get_i32(t, FB_TILE_COUNT, 0);
  out->halo = fb_get_i32(t, FB_TILE_HALO, 0);
  out->ops = i32s(fb_get_ref(t, FB_TILE_OPS));
  out->region_count = fb_vec_len(regions);
  /* TileRegion is six int32 on the wire, exactly tgrs_tile_region's layout. */
  out->regions =
      out->region_count ? (const tgrs_tile_region*)(const void*)fb_vec_data(regions) : NULL;
  out->peak_bytes = fb_get_u32(t, FB_TILE_PEAK_BYTES, 0);
  out->buffers_ = fb_get_ref(t, FB_TILE_BUFFERS);
  out->buffer_count = fb_vec_len(out->buffers_);
  out->streamed = fb_get_u8(t, FB_TILE_STREAMED, 0) != 0;
  columns = fb_get_ref(t, FB_TILE_COLUMNS);
  out->column_count = fb_vec_len(columns);
  out->columns =
      out->column_count ? (const tgrs_tile_region*)(const void*)fb_vec_data(columns) : NULL;
  columns = fb_get_ref(t, FB_TILE_CHANNELS);
  out->channel_count = fb_vec_len(columns);
  out->channels =
      out->channel_count ? (const tgrs_tile_region*)(const void*)fb_vec_data(columns) : NULL;
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
  read_buffer(fb_vec_table(tile->buffers_, index), out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_stage(const tgrs_plan* plan, uint32_t index, tgrs_plan_stage* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->stages_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  out->id = fb_get_i32(t, FB_STAGE_ID, 0);
  out->strategy = (tgrs_stage_strategy)fb_get_u8(t, FB_STAGE_STRATEGY, 0);
  out->ops = i32s(fb_get_ref(t, FB_STAGE_OPS));
  out->has_tile = fb_get_ref(t, FB_STAGE_TILE) != NULL;
  out->chain = fb_get_i32(t, FB_STAGE_CHAIN, -1);
  out->peak_bytes = fb_get_u32(t, FB_STAGE_PEAK_BYTES, 0);
  out->spill_in = i32s(fb_get_ref(t, FB_STAGE_SPILL_IN));
  out->spill_out = i32s(fb_get_ref(t, FB_STAGE_SPILL_OUT));
  out->weight_block = fb_get_i32(t, FB_STAGE_WEIGHT_BLOCK, -1);
  out->fast_reserved_bytes = fb_get_u32(t, FB_STAGE_FAST_RESERVED_BYTES, 0);
  out->buffer_count = fb_vec_len(fb_get_ref(t, FB_STAGE_BUFFERS));
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
  const uint8_t *t, *tile;
  tgrs_status st = element(plan, plan ? plan->stages_ : NULL, stage, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  tile = fb_get_ref(t, FB_STAGE_TILE);
  if (!tile) return TGRS_ERR_MISSING_FIELD;
  read_tile(tile, out);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_chain(const tgrs_plan* plan, uint32_t index, tgrs_plan_chain* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->chains_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  out->id = fb_get_i32(t, FB_CHAIN_ID, 0);
  out->stages = i32s(fb_get_ref(t, FB_CHAIN_STAGES));
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_chain_tile(const tgrs_plan* plan, uint32_t chain, tgrs_plan_tile* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->chains_ : NULL, chain, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  read_tile(fb_get_ref(t, FB_CHAIN_TILE), out); /* required: the verifier checked it */
  return TGRS_OK;
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
  out->offset = fb_get_u32(t, FB_WEIGHT_OFFSET, 0);
  out->size = fb_get_u32(t, FB_WEIGHT_SIZE, 0);
  out->block = fb_get_i32(t, FB_WEIGHT_BLOCK, -1);
  if (out->block < 0) out->data = at_offset(plan, out->offset);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_memory(const tgrs_plan* plan, uint32_t index, tgrs_plan_memory* out) {
  const uint8_t* t;
  const uint8_t* memories = plan && plan->root_ ? fb_get_ref(plan->root_, FB_PLAN_MEMORIES) : NULL;
  tgrs_status st = element(plan, memories, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  out->name = string_or_empty(fb_get_ref(t, FB_MEMORY_NAME));
  out->size = fb_get_u32(t, FB_MEMORY_SIZE, 0);
  out->alignment = fb_get_u32(t, FB_MEMORY_ALIGNMENT, 0);
  return TGRS_OK;
}

tgrs_status tgrs_plan_get_weight_block(const tgrs_plan* plan, uint32_t index,
                                       tgrs_plan_weight_block* out) {
  const uint8_t* t;
  tgrs_status st = element(plan, plan ? plan->weight_blocks_ : NULL, index, out, sizeof *out, &t);
  if (st != TGRS_OK) return st;
  out->stage = fb_get_i32(t, FB_BLOCK_STAGE, 0);
  out->offset = fb_get_u32(t, FB_BLOCK_OFFSET, 0);
  out->compressed_size = fb_get_u32(t, FB_BLOCK_COMPRESSED_SIZE, 0);
  out->raw_size = fb_get_u32(t, FB_BLOCK_RAW_SIZE, 0);
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
