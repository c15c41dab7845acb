/*
 * plan_schema.c: the descriptions plan_schema.h declares, one entry per field of
 * format/tgrs.fbs at its FB_FIELD number, table after table (designated initialisers keep
 * the entries and the field ids in step; schema_descriptor_test.cc holds both to flatc's
 * reflection of the schema).
 */
#include "plan_schema.h"

#include "fb_read.h"
#include "tgrs_kernels.h" /* tgrs_rounding */
#include "tgrs_op_select.h"
#include "tigris_runtime.h"

/* A field's name is text for people: a build without messages keeps only its id in its
 * table, which tgrs_fb_field_name() prints instead. */
#if TGRS_WITH_MESSAGES
#define NAMED(name) name,
#else
#define NAMED(name)
#endif
#define SCALAR(name, bytes) \
  { NAMED(name) FB_FORM(FB_KIND_SCALAR, FB_RULE_NONE), bytes, 0 }
#define ENUM(name, bytes, count) \
  { NAMED(name) FB_FORM(FB_KIND_SCALAR, FB_RULE_ENUM), bytes, count }
#define INDEX(name, collection) \
  { NAMED(name) FB_FORM(FB_KIND_SCALAR, FB_RULE_INDEX), 4, TGRS_COLLECTION_##collection }
#define INDEX_OR_NONE(name, collection) \
  { NAMED(name) FB_FORM(FB_KIND_SCALAR, FB_RULE_INDEX_OR_NONE), 4, TGRS_COLLECTION_##collection }
#define STRING(name) \
  { NAMED(name) FB_FORM(FB_KIND_STRING, FB_RULE_NONE), 1, 0 }
#define VECTOR(name, element_bytes) \
  { NAMED(name) FB_FORM(FB_KIND_VECTOR, FB_RULE_NONE), element_bytes, 0 }
#define INDICES(name, rule, collection) \
  { NAMED(name) FB_FORM(FB_KIND_VECTOR, FB_RULE_##rule), 4, TGRS_COLLECTION_##collection }
#define TABLE(name, table, rule) \
  { NAMED(name) FB_FORM(FB_KIND_TABLE, rule), TGRS_TABLE_##table, 0 }
#define TABLES(name, table, rule) \
  { NAMED(name) FB_FORM(FB_KIND_TABLES, rule), TGRS_TABLE_##table, 0 }
#define STRUCT(name, bytes, rule) \
  { NAMED(name) FB_FORM(FB_KIND_STRUCT, rule), bytes, 0 }

const fb_field_schema tgrs_fb_schema_fields[FB_FIELD_COUNT] = {
    /* Plan */
    [FB_FIELD(PLAN, SCHEMA_VERSION)] = SCALAR("schema_version", 4),
    [FB_FIELD(PLAN, GENERATOR)] = STRING("generator"),
    [FB_FIELD(PLAN, MODEL_NAME)] = STRING("model_name"),
    [FB_FIELD(PLAN, TENSORS)] = TABLES("tensors", TENSOR, FB_REQUIRED),
    [FB_FIELD(PLAN, OPS)] = TABLES("ops", OP, FB_REQUIRED),
    [FB_FIELD(PLAN, STAGES)] = TABLES("stages", STAGE, FB_REQUIRED),
    [FB_FIELD(PLAN, CHAINS)] = TABLES("chains", CHAIN, 0),
    [FB_FIELD(PLAN, INPUTS)] = INDICES("inputs", INDEX, TENSORS),
    [FB_FIELD(PLAN, OUTPUTS)] = INDICES("outputs", INDEX, TENSORS),
    [FB_FIELD(PLAN, SLOW_BUFFERS)] = TABLES("slow_buffers", BUFFER, 0),
    [FB_FIELD(PLAN, FAST_ARENA_BYTES)] = SCALAR("fast_arena_bytes", 4),
    [FB_FIELD(PLAN, SLOW_ARENA_BYTES)] = SCALAR("slow_arena_bytes", 4),
    [FB_FIELD(PLAN, SCHEDULED_PEAK_BYTES)] = SCALAR("scheduled_peak_bytes", 4),
    [FB_FIELD(PLAN, XIP)] = SCALAR("xip", 1),
    [FB_FIELD(PLAN, COMPRESSION)] = ENUM("compression", 1, TGRS_COMPRESSION_LZ4 + 1),
    [FB_FIELD(PLAN, WEIGHTS)] = TABLES("weights", WEIGHT, 0),
    [FB_FIELD(PLAN, WEIGHT_BLOCKS)] = TABLES("weight_blocks", WEIGHT_BLOCK, 0),
    [FB_FIELD(PLAN, WEIGHT_DATA)] = VECTOR("weight_data", 1),
    [FB_FIELD(PLAN, MEMORIES)] = TABLES("memories", MEMORY, 0),
    [FB_FIELD(PLAN, STATE)] = VECTOR("state", FB_STATE_SLOT_BYTES),
    [FB_FIELD(PLAN, STAGED_OFFSET)] = SCALAR("staged_offset", 4),
    [FB_FIELD(PLAN, STAGED_BYTES)] = SCALAR("staged_bytes", 4),
    [FB_FIELD(PLAN, INTEGRITY)] = TABLE("integrity", INTEGRITY, 0),
    /* Tensor */
    [FB_FIELD(TENSOR, NAME)] = STRING("name"),
    /* 0 (UNKNOWN) is not a dtype either: plan_verify.c checks the range. */
    [FB_FIELD(TENSOR, DTYPE)] = SCALAR("dtype", 1),
    [FB_FIELD(TENSOR, SHAPE)] = VECTOR("shape", 4),
    [FB_FIELD(TENSOR, QUANT)] = TABLE("quant", QUANTIZATION, 0),
    [FB_FIELD(TENSOR, WEIGHT)] = INDEX_OR_NONE("weight", WEIGHTS),
    [FB_FIELD(TENSOR, HOST_PERMUTATION)] = VECTOR("host_permutation", 4),
    [FB_FIELD(TENSOR, ONNX_SHAPE)] = VECTOR("onnx_shape", 4),
    [FB_FIELD(TENSOR, HOST_DTYPE)] = SCALAR("host_dtype", 1),
    /* Quantization */
    [FB_FIELD(QUANT, SCALE)] = VECTOR("scale", 4),
    [FB_FIELD(QUANT, ZERO_POINT)] = VECTOR("zero_point", 4),
    [FB_FIELD(QUANT, AXIS)] = SCALAR("axis", 4),
    /* Weight */
    [FB_FIELD(WEIGHT, OFFSET)] = SCALAR("offset", 4),
    [FB_FIELD(WEIGHT, SIZE)] = SCALAR("size", 4),
    [FB_FIELD(WEIGHT, BLOCK)] = INDEX_OR_NONE("block", WEIGHT_BLOCKS),
    /* WeightBlock */
    [FB_FIELD(BLOCK, STAGE)] = INDEX("stage", STAGES),
    [FB_FIELD(BLOCK, OFFSET)] = SCALAR("offset", 4),
    [FB_FIELD(BLOCK, COMPRESSED_SIZE)] = SCALAR("compressed_size", 4),
    [FB_FIELD(BLOCK, RAW_SIZE)] = SCALAR("raw_size", 4),
    /* OpAttrs */
    [FB_FIELD(ATTRS, KERNEL)] = VECTOR("kernel", 4),
    [FB_FIELD(ATTRS, STRIDES)] = VECTOR("strides", 4),
    [FB_FIELD(ATTRS, PADS)] = VECTOR("pads", 4),
    [FB_FIELD(ATTRS, DILATIONS)] = VECTOR("dilations", 4),
    [FB_FIELD(ATTRS, GROUP)] = SCALAR("group", 4),
    [FB_FIELD(ATTRS, AXIS)] = SCALAR("axis", 4),
    [FB_FIELD(ATTRS, PERM)] = VECTOR("perm", 4),
    [FB_FIELD(ATTRS, SHAPE)] = VECTOR("shape", 4),
    [FB_FIELD(ATTRS, ALPHA)] = SCALAR("alpha", 4),
    [FB_FIELD(ATTRS, BETA)] = SCALAR("beta", 4),
    [FB_FIELD(ATTRS, GAMMA)] = SCALAR("gamma", 4),
    [FB_FIELD(ATTRS, MIN)] = SCALAR("min", 4),
    [FB_FIELD(ATTRS, MAX)] = SCALAR("max", 4),
    [FB_FIELD(ATTRS, SCALES)] = VECTOR("scales", 4),
    [FB_FIELD(ATTRS, MODE)] = STRING("mode"),
    [FB_FIELD(ATTRS, COORDINATE_TRANSFORMATION_MODE)] = STRING("coordinate_transformation_mode"),
    [FB_FIELD(ATTRS, NEAREST_MODE)] = STRING("nearest_mode"),
    [FB_FIELD(ATTRS, COUNT_INCLUDE_PAD)] = SCALAR("count_include_pad", 1),
    [FB_FIELD(ATTRS, CEIL_MODE)] = SCALAR("ceil_mode", 1),
    [FB_FIELD(ATTRS, AXES)] = VECTOR("axes", 4),
    [FB_FIELD(ATTRS, KEEPDIMS)] = SCALAR("keepdims", 1),
    [FB_FIELD(ATTRS, OUTPUT_PADDING)] = VECTOR("output_padding", 4),
    [FB_FIELD(ATTRS, PAD_VALUE)] = SCALAR("pad_value", 4),
    [FB_FIELD(ATTRS, VIEW_SHAPE)] = VECTOR("view_shape", 4),
    [FB_FIELD(ATTRS, BIAS)] = SCALAR("bias", 4),
    [FB_FIELD(ATTRS, STARTS)] = VECTOR("starts", 4),
    [FB_FIELD(ATTRS, ACTIVATIONS)] = VECTOR("activations", 4),
    [FB_FIELD(ATTRS, ACTIVATION_ALPHA)] = VECTOR("activation_alpha", 4),
    [FB_FIELD(ATTRS, ACTIVATION_BETA)] = VECTOR("activation_beta", 4),
    [FB_FIELD(ATTRS, LINEAR_BEFORE_RESET)] = SCALAR("linear_before_reset", 1),
    [FB_FIELD(ATTRS, OUTPUT_ROLES)] = VECTOR("output_roles", 4),
    /* Op */
    [FB_FIELD(OP, CODE)] = ENUM("code", 2, TGRS_OP_CODE_COUNT),
    [FB_FIELD(OP, NAME)] = STRING("name"),
    [FB_FIELD(OP, INPUTS)] = INDICES("inputs", INDEX_OR_NONE, TENSORS),
    [FB_FIELD(OP, OUTPUTS)] = INDICES("outputs", INDEX, TENSORS),
    [FB_FIELD(OP, ATTRS)] = TABLE("attrs", OP_ATTRS, 0),
    [FB_FIELD(OP, ACTIVATION)] = ENUM("activation", 1, TGRS_ACTIVATION_RELU6 + 1),
    [FB_FIELD(OP, OUTPUT_MULTIPLIER)] = VECTOR("output_multiplier", 4),
    [FB_FIELD(OP, OUTPUT_SHIFT)] = VECTOR("output_shift", 1),
    [FB_FIELD(OP, ACT_MIN)] = SCALAR("act_min", 4),
    [FB_FIELD(OP, ACT_MAX)] = SCALAR("act_max", 4),
    [FB_FIELD(OP, INPUT_MULTIPLIER)] = VECTOR("input_multiplier", 4),
    [FB_FIELD(OP, INPUT_SHIFT)] = VECTOR("input_shift", 1),
    [FB_FIELD(OP, LEFT_SHIFT)] = SCALAR("left_shift", 4),
    [FB_FIELD(OP, LUT)] = VECTOR("lut", 1),
    [FB_FIELD(OP, CHANNEL_SCALE)] = VECTOR("channel_scale", 4),
    [FB_FIELD(OP, CHANNEL_SHIFT)] = VECTOR("channel_shift", 4),
    [FB_FIELD(OP, CHANNEL_OFFSET)] = VECTOR("channel_offset", 4),
    [FB_FIELD(OP, ROUNDING)] = ENUM("rounding", 1, TGRS_ROUNDING_TFLITE + 1),
    /* Buffer */
    /* tensor and op are indices whose "none" depends on the kind, first_op/last_op on where
     * the buffer is listed: plan_verify.c checks them. */
    [FB_FIELD(BUFFER, KIND)] = ENUM("kind", 1, TGRS_BUFFER_SCRATCH + 1),
    [FB_FIELD(BUFFER, TENSOR)] = SCALAR("tensor", 4),
    [FB_FIELD(BUFFER, OP)] = SCALAR("op", 4),
    [FB_FIELD(BUFFER, FIRST_OP)] = SCALAR("first_op", 4),
    [FB_FIELD(BUFFER, LAST_OP)] = SCALAR("last_op", 4),
    [FB_FIELD(BUFFER, BYTES)] = SCALAR("bytes", 4),
    [FB_FIELD(BUFFER, HOME)] = STRUCT("home", FB_HOME_BYTES, FB_REQUIRED),
    /* TilePlan */
    [FB_FIELD(TILE, DIM)] = ENUM("dim", 1, TGRS_TILE_DIM_HEIGHT + 1),
    [FB_FIELD(TILE, TILE_SIZE)] = SCALAR("tile_size", 4),
    [FB_FIELD(TILE, COUNT)] = SCALAR("count", 4),
    [FB_FIELD(TILE, HALO)] = SCALAR("halo", 4),
    [FB_FIELD(TILE, OPS)] = INDICES("ops", INDEX, OPS),
    [FB_FIELD(TILE, REGIONS)] = VECTOR("regions", FB_TILE_REGION_BYTES),
    [FB_FIELD(TILE, BUFFERS)] = TABLES("buffers", BUFFER, 0),
    [FB_FIELD(TILE, PEAK_BYTES)] = SCALAR("peak_bytes", 4),
    [FB_FIELD(TILE, STREAMED)] = SCALAR("streamed", 1),
    [FB_FIELD(TILE, COLUMNS)] = VECTOR("columns", FB_TILE_REGION_BYTES),
    [FB_FIELD(TILE, CHANNELS)] = VECTOR("channels", FB_TILE_REGION_BYTES),
    /* Stage */
    [FB_FIELD(STAGE, ID)] = SCALAR("id", 4),
    [FB_FIELD(STAGE, STRATEGY)] = ENUM("strategy", 1, TGRS_STRATEGY_CHAIN + 1),
    [FB_FIELD(STAGE, OPS)] = INDICES("ops", INDEX, OPS),
    [FB_FIELD(STAGE, BUFFERS)] = TABLES("buffers", BUFFER, 0),
    [FB_FIELD(STAGE, TILE)] = TABLE("tile", TILE_PLAN, 0),
    [FB_FIELD(STAGE, CHAIN)] = INDEX_OR_NONE("chain", CHAINS),
    [FB_FIELD(STAGE, PEAK_BYTES)] = SCALAR("peak_bytes", 4),
    [FB_FIELD(STAGE, SPILL_IN)] = INDICES("spill_in", INDEX, TENSORS),
    [FB_FIELD(STAGE, SPILL_OUT)] = INDICES("spill_out", INDEX, TENSORS),
    [FB_FIELD(STAGE, WEIGHT_BLOCK)] = INDEX_OR_NONE("weight_block", WEIGHT_BLOCKS),
    [FB_FIELD(STAGE, FAST_RESERVED_BYTES)] = SCALAR("fast_reserved_bytes", 4),
    /* Chain */
    [FB_FIELD(CHAIN, ID)] = SCALAR("id", 4),
    [FB_FIELD(CHAIN, STAGES)] = INDICES("stages", INDEX, STAGES),
    [FB_FIELD(CHAIN, TILE)] = TABLE("tile", TILE_PLAN, FB_REQUIRED),
    /* Memory */
    [FB_FIELD(MEMORY, NAME)] = STRING("name"),
    [FB_FIELD(MEMORY, SIZE)] = SCALAR("size", 4),
    [FB_FIELD(MEMORY, ALIGNMENT)] = SCALAR("alignment", 4),
    /* Integrity */
    [FB_FIELD(INTEGRITY, CHECKSUM)] = ENUM("checksum", 1, TGRS_CHECKSUM_CRC32C + 1),
    [FB_FIELD(INTEGRITY, TABLES_CRC)] = SCALAR("tables_crc", 4),
    [FB_FIELD(INTEGRITY, WEIGHT_CRCS)] = VECTOR("weight_crcs", 4),
    [FB_FIELD(INTEGRITY, BLOCK_CRCS)] = VECTOR("block_crcs", 4),
};
const fb_table_schema tgrs_fb_schema_tables[TGRS_TABLE_COUNT] = {
    [TGRS_TABLE_PLAN] = {FB_FIRST_PLAN, FB_PLAN_FIELDS},
    [TGRS_TABLE_TENSOR] = {FB_FIRST_TENSOR, FB_TENSOR_FIELDS},
    [TGRS_TABLE_QUANTIZATION] = {FB_FIRST_QUANT, FB_QUANT_FIELDS},
    [TGRS_TABLE_WEIGHT] = {FB_FIRST_WEIGHT, FB_WEIGHT_FIELDS},
    [TGRS_TABLE_WEIGHT_BLOCK] = {FB_FIRST_BLOCK, FB_BLOCK_FIELDS},
    [TGRS_TABLE_OP_ATTRS] = {FB_FIRST_ATTRS, FB_ATTRS_FIELDS},
    [TGRS_TABLE_OP] = {FB_FIRST_OP, FB_OP_FIELDS},
    [TGRS_TABLE_BUFFER] = {FB_FIRST_BUFFER, FB_BUFFER_FIELDS},
    [TGRS_TABLE_TILE_PLAN] = {FB_FIRST_TILE, FB_TILE_FIELDS},
    [TGRS_TABLE_STAGE] = {FB_FIRST_STAGE, FB_STAGE_FIELDS},
    [TGRS_TABLE_CHAIN] = {FB_FIRST_CHAIN, FB_CHAIN_FIELDS},
    [TGRS_TABLE_MEMORY] = {FB_FIRST_MEMORY, FB_MEMORY_FIELDS},
    [TGRS_TABLE_INTEGRITY] = {FB_FIRST_INTEGRITY, FB_INTEGRITY_FIELDS},
};
#if TGRS_WITH_MESSAGES
const char* const tgrs_fb_collection_messages[TGRS_COLLECTION_COUNT] = {
    [TGRS_COLLECTION_TENSORS] = "tensor index {v} out of range (tensors: {l})",
    [TGRS_COLLECTION_OPS] = "op index {v} out of range (ops: {l})",
    [TGRS_COLLECTION_STAGES] = "stage index {v} out of range (stages: {l})",
    [TGRS_COLLECTION_CHAINS] = "chain index {v} out of range (chains: {l})",
    [TGRS_COLLECTION_WEIGHTS] = "weight index {v} out of range (weights: {l})",
    [TGRS_COLLECTION_WEIGHT_BLOCKS] = "weight block index {v} out of range (weight blocks: {l})",
};
#endif

/* Compile-time checks (C99 has no static_assert: a negative array size fails the build).
 * Field numbers fit the byte FB_NO_FIELD ends, and every id has a "#<id>" below. */
typedef char fb_field_numbers_fit_a_byte[FB_FIELD_COUNT <= FB_NO_FIELD ? 1 : -1];
#define FB_IDS_NAMED(fields) ((fields) <= 31)
typedef char
    fb_ids_have_names[FB_IDS_NAMED(FB_PLAN_FIELDS) && FB_IDS_NAMED(FB_TENSOR_FIELDS) &&
                              FB_IDS_NAMED(FB_QUANT_FIELDS) && FB_IDS_NAMED(FB_WEIGHT_FIELDS) &&
                              FB_IDS_NAMED(FB_BLOCK_FIELDS) && FB_IDS_NAMED(FB_ATTRS_FIELDS) &&
                              FB_IDS_NAMED(FB_OP_FIELDS) && FB_IDS_NAMED(FB_BUFFER_FIELDS) &&
                              FB_IDS_NAMED(FB_TILE_FIELDS) && FB_IDS_NAMED(FB_STAGE_FIELDS) &&
                              FB_IDS_NAMED(FB_CHAIN_FIELDS) && FB_IDS_NAMED(FB_MEMORY_FIELDS) &&
                              FB_IDS_NAMED(FB_INTEGRITY_FIELDS)
                          ? 1
                          : -1];

#if !TGRS_WITH_MESSAGES
/* "#0" .. "#30" (OpAttrs, the largest table, has 31 fields), NUL-separated: three bytes
 * each below 10, four from 10. */
static const char id_names[] =
    "#0\0#1\0#2\0#3\0#4\0#5\0#6\0#7\0#8\0#9\0#10\0#11\0#12\0#13\0#14\0#15\0#16\0#17\0#18\0#19\0"
    "#20\0#21\0#22\0#23\0#24\0#25\0#26\0#27\0#28\0#29\0#30";

const char* fb_id_name(unsigned id) { return id_names + (id < 10u ? 3u * id : 4u * id - 10u); }
#endif

const char* tgrs_fb_field_name(unsigned field) {
#if TGRS_WITH_MESSAGES
  return field < FB_FIELD_COUNT ? tgrs_fb_schema_fields[field].name : "?";
#else
  unsigned table;
  for (table = 0; table < TGRS_TABLE_COUNT; ++table) {
    const unsigned id = field - tgrs_fb_schema_tables[table].first; /* wraps below first */
    if (id < tgrs_fb_schema_tables[table].count) return fb_id_name(id);
  }
  return "?";
#endif
}
