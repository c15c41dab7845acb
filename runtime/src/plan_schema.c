/*
 * plan_schema.c: the descriptions plan_schema.h declares, one array per table of
 * format/tgrs.fbs, each entry at its field id (designated initialisers keep the two in
 * step; schema_descriptor_test.cc holds both to flatc's reflection of the schema).
 */
#include "plan_schema.h"

#include "fb_read.h"
#include "tgrs_op_select.h"
#include "tigris_runtime.h"

#define SCALAR(name, bytes) \
  { name, FB_KIND_SCALAR, bytes, FB_RULE_NONE, 0 }
#define ENUM(name, bytes, count) \
  { name, FB_KIND_SCALAR, bytes, FB_RULE_ENUM, count }
#define INDEX(name, collection) \
  { name, FB_KIND_SCALAR, 4, FB_RULE_INDEX, TGRS_COLLECTION_##collection }
#define INDEX_OR_NONE(name, collection) \
  { name, FB_KIND_SCALAR, 4, FB_RULE_INDEX_OR_NONE, TGRS_COLLECTION_##collection }
#define STRING(name) \
  { name, FB_KIND_STRING, 1, FB_RULE_NONE, 0 }
#define VECTOR(name, element_bytes) \
  { name, FB_KIND_VECTOR, element_bytes, FB_RULE_NONE, 0 }
#define INDICES(name, rule, collection) \
  { name, FB_KIND_VECTOR, 4, FB_RULE_##rule, TGRS_COLLECTION_##collection }
#define TABLE(name, table, rule) \
  { name, FB_KIND_TABLE, TGRS_TABLE_##table, rule, 0 }
#define TABLES(name, table, rule) \
  { name, FB_KIND_TABLES, TGRS_TABLE_##table, rule, 0 }
#define COUNT(fields) (uint8_t)(sizeof fields / sizeof fields[0])

static const fb_field_schema quantization[] = {
    [FB_QUANT_SCALE] = VECTOR("scale", 4),
    [FB_QUANT_ZERO_POINT] = VECTOR("zero_point", 4),
    [FB_QUANT_AXIS] = SCALAR("axis", 4),
};

static const fb_field_schema tensor[] = {
    [FB_TENSOR_NAME] = STRING("name"),
    /* 0 (UNKNOWN) is not a dtype either: plan_verify.c checks the range. */
    [FB_TENSOR_DTYPE] = SCALAR("dtype", 1),
    [FB_TENSOR_SHAPE] = VECTOR("shape", 4),
    [FB_TENSOR_QUANT] = TABLE("quant", QUANTIZATION, 0),
    [FB_TENSOR_WEIGHT] = INDEX_OR_NONE("weight", WEIGHTS),
    [FB_TENSOR_HOST_PERMUTATION] = VECTOR("host_permutation", 4),
    [FB_TENSOR_ONNX_SHAPE] = VECTOR("onnx_shape", 4),
    [FB_TENSOR_HOST_DTYPE] = SCALAR("host_dtype", 1),
};

static const fb_field_schema weight[] = {
    [FB_WEIGHT_OFFSET] = SCALAR("offset", 4),
    [FB_WEIGHT_SIZE] = SCALAR("size", 4),
    [FB_WEIGHT_BLOCK] = INDEX_OR_NONE("block", WEIGHT_BLOCKS),
};

static const fb_field_schema weight_block[] = {
    [FB_BLOCK_STAGE] = INDEX("stage", STAGES),
    [FB_BLOCK_OFFSET] = SCALAR("offset", 4),
    [FB_BLOCK_COMPRESSED_SIZE] = SCALAR("compressed_size", 4),
    [FB_BLOCK_RAW_SIZE] = SCALAR("raw_size", 4),
};

static const fb_field_schema op_attrs[] = {
    [FB_ATTRS_KERNEL] = VECTOR("kernel", 4),
    [FB_ATTRS_STRIDES] = VECTOR("strides", 4),
    [FB_ATTRS_PADS] = VECTOR("pads", 4),
    [FB_ATTRS_DILATIONS] = VECTOR("dilations", 4),
    [FB_ATTRS_GROUP] = SCALAR("group", 4),
    [FB_ATTRS_AXIS] = SCALAR("axis", 4),
    [FB_ATTRS_PERM] = VECTOR("perm", 4),
    [FB_ATTRS_SHAPE] = VECTOR("shape", 4),
    [FB_ATTRS_ALPHA] = SCALAR("alpha", 4),
    [FB_ATTRS_BETA] = SCALAR("beta", 4),
    [FB_ATTRS_GAMMA] = SCALAR("gamma", 4),
    [FB_ATTRS_MIN] = SCALAR("min", 4),
    [FB_ATTRS_MAX] = SCALAR("max", 4),
    [FB_ATTRS_SCALES] = VECTOR("scales", 4),
    [FB_ATTRS_MODE] = STRING("mode"),
    [FB_ATTRS_COORDINATE_TRANSFORMATION_MODE] = STRING("coordinate_transformation_mode"),
    [FB_ATTRS_NEAREST_MODE] = STRING("nearest_mode"),
    [FB_ATTRS_COUNT_INCLUDE_PAD] = SCALAR("count_include_pad", 1),
    [FB_ATTRS_CEIL_MODE] = SCALAR("ceil_mode", 1),
    [FB_ATTRS_AXES] = VECTOR("axes", 4),
    [FB_ATTRS_KEEPDIMS] = SCALAR("keepdims", 1),
    [FB_ATTRS_OUTPUT_PADDING] = VECTOR("output_padding", 4),
    [FB_ATTRS_PAD_VALUE] = SCALAR("pad_value", 4),
    [FB_ATTRS_VIEW_SHAPE] = VECTOR("view_shape", 4),
    [FB_ATTRS_BIAS] = SCALAR("bias", 4),
    [FB_ATTRS_STARTS] = VECTOR("starts", 4),
};

static const fb_field_schema op[] = {
    [FB_OP_CODE] = ENUM("code", 2, TGRS_OP_CODE_COUNT),
    [FB_OP_NAME] = STRING("name"),
    [FB_OP_INPUTS] = INDICES("inputs", INDEX_OR_NONE, TENSORS),
    [FB_OP_OUTPUTS] = INDICES("outputs", INDEX, TENSORS),
    [FB_OP_ATTRS] = TABLE("attrs", OP_ATTRS, 0),
    [FB_OP_ACTIVATION] = ENUM("activation", 1, TGRS_ACTIVATION_RELU6 + 1),
    [FB_OP_OUTPUT_MULTIPLIER] = VECTOR("output_multiplier", 4),
    [FB_OP_OUTPUT_SHIFT] = VECTOR("output_shift", 1),
    [FB_OP_ACT_MIN] = SCALAR("act_min", 4),
    [FB_OP_ACT_MAX] = SCALAR("act_max", 4),
    [FB_OP_INPUT_MULTIPLIER] = VECTOR("input_multiplier", 4),
    [FB_OP_INPUT_SHIFT] = VECTOR("input_shift", 1),
    [FB_OP_LEFT_SHIFT] = SCALAR("left_shift", 4),
    [FB_OP_LUT] = VECTOR("lut", 1),
    [FB_OP_CHANNEL_SCALE] = VECTOR("channel_scale", 4),
    [FB_OP_CHANNEL_SHIFT] = VECTOR("channel_shift", 4),
    [FB_OP_CHANNEL_OFFSET] = VECTOR("channel_offset", 4),
};

/* tensor and op are indices whose "none" depends on the kind, first_op/last_op on where
 * the buffer is listed: plan_verify.c checks them. */
static const fb_field_schema buffer[] = {
    [FB_BUFFER_KIND] = ENUM("kind", 1, TGRS_BUFFER_SCRATCH + 1),
    [FB_BUFFER_TENSOR] = SCALAR("tensor", 4),
    [FB_BUFFER_OP] = SCALAR("op", 4),
    [FB_BUFFER_FIRST_OP] = SCALAR("first_op", 4),
    [FB_BUFFER_LAST_OP] = SCALAR("last_op", 4),
    [FB_BUFFER_BYTES] = SCALAR("bytes", 4),
    [FB_BUFFER_HOME] = {"home", FB_KIND_STRUCT, FB_HOME_BYTES, FB_REQUIRED, 0},
};

static const fb_field_schema tile_plan[] = {
    [FB_TILE_DIM] = ENUM("dim", 1, TGRS_TILE_DIM_HEIGHT + 1),
    [FB_TILE_TILE_SIZE] = SCALAR("tile_size", 4),
    [FB_TILE_COUNT] = SCALAR("count", 4),
    [FB_TILE_HALO] = SCALAR("halo", 4),
    [FB_TILE_OPS] = INDICES("ops", INDEX, OPS),
    [FB_TILE_REGIONS] = VECTOR("regions", FB_TILE_REGION_BYTES),
    [FB_TILE_BUFFERS] = TABLES("buffers", BUFFER, 0),
    [FB_TILE_PEAK_BYTES] = SCALAR("peak_bytes", 4),
    [FB_TILE_STREAMED] = SCALAR("streamed", 1),
    [FB_TILE_COLUMNS] = VECTOR("columns", FB_TILE_REGION_BYTES),
    [FB_TILE_CHANNELS] = VECTOR("channels", FB_TILE_REGION_BYTES),
};

static const fb_field_schema stage[] = {
    [FB_STAGE_ID] = SCALAR("id", 4),
    [FB_STAGE_STRATEGY] = ENUM("strategy", 1, TGRS_STRATEGY_CHAIN + 1),
    [FB_STAGE_OPS] = INDICES("ops", INDEX, OPS),
    [FB_STAGE_BUFFERS] = TABLES("buffers", BUFFER, 0),
    [FB_STAGE_TILE] = TABLE("tile", TILE_PLAN, 0),
    [FB_STAGE_CHAIN] = INDEX_OR_NONE("chain", CHAINS),
    [FB_STAGE_PEAK_BYTES] = SCALAR("peak_bytes", 4),
    [FB_STAGE_SPILL_IN] = INDICES("spill_in", INDEX, TENSORS),
    [FB_STAGE_SPILL_OUT] = INDICES("spill_out", INDEX, TENSORS),
    [FB_STAGE_WEIGHT_BLOCK] = INDEX_OR_NONE("weight_block", WEIGHT_BLOCKS),
    [FB_STAGE_FAST_RESERVED_BYTES] = SCALAR("fast_reserved_bytes", 4),
};

static const fb_field_schema chain[] = {
    [FB_CHAIN_ID] = SCALAR("id", 4),
    [FB_CHAIN_STAGES] = INDICES("stages", INDEX, STAGES),
    [FB_CHAIN_TILE] = TABLE("tile", TILE_PLAN, FB_REQUIRED),
};

static const fb_field_schema memory[] = {
    [FB_MEMORY_NAME] = STRING("name"),
    [FB_MEMORY_SIZE] = SCALAR("size", 4),
    [FB_MEMORY_ALIGNMENT] = SCALAR("alignment", 4),
};

static const fb_field_schema plan[] = {
    [FB_PLAN_SCHEMA_VERSION] = SCALAR("schema_version", 4),
    [FB_PLAN_GENERATOR] = STRING("generator"),
    [FB_PLAN_MODEL_NAME] = STRING("model_name"),
    [FB_PLAN_TENSORS] = TABLES("tensors", TENSOR, FB_REQUIRED),
    [FB_PLAN_OPS] = TABLES("ops", OP, FB_REQUIRED),
    [FB_PLAN_STAGES] = TABLES("stages", STAGE, FB_REQUIRED),
    [FB_PLAN_CHAINS] = TABLES("chains", CHAIN, 0),
    [FB_PLAN_INPUTS] = INDICES("inputs", INDEX, TENSORS),
    [FB_PLAN_OUTPUTS] = INDICES("outputs", INDEX, TENSORS),
    [FB_PLAN_SLOW_BUFFERS] = TABLES("slow_buffers", BUFFER, 0),
    [FB_PLAN_FAST_ARENA_BYTES] = SCALAR("fast_arena_bytes", 4),
    [FB_PLAN_SLOW_ARENA_BYTES] = SCALAR("slow_arena_bytes", 4),
    [FB_PLAN_SCHEDULED_PEAK_BYTES] = SCALAR("scheduled_peak_bytes", 4),
    [FB_PLAN_XIP] = SCALAR("xip", 1),
    [FB_PLAN_COMPRESSION] = ENUM("compression", 1, TGRS_COMPRESSION_LZ4 + 1),
    [FB_PLAN_WEIGHTS] = TABLES("weights", WEIGHT, 0),
    [FB_PLAN_WEIGHT_BLOCKS] = TABLES("weight_blocks", WEIGHT_BLOCK, 0),
    [FB_PLAN_WEIGHT_DATA] = VECTOR("weight_data", 1),
    [FB_PLAN_MEMORIES] = TABLES("memories", MEMORY, 0),
    [FB_PLAN_STATE] = VECTOR("state", FB_STATE_SLOT_BYTES),
    [FB_PLAN_STAGED_OFFSET] = SCALAR("staged_offset", 4),
    [FB_PLAN_STAGED_BYTES] = SCALAR("staged_bytes", 4),
};

const fb_table_schema fb_schema_tables[TGRS_TABLE_COUNT] = {
    [TGRS_TABLE_PLAN] = {plan, COUNT(plan)},
    [TGRS_TABLE_TENSOR] = {tensor, COUNT(tensor)},
    [TGRS_TABLE_QUANTIZATION] = {quantization, COUNT(quantization)},
    [TGRS_TABLE_WEIGHT] = {weight, COUNT(weight)},
    [TGRS_TABLE_WEIGHT_BLOCK] = {weight_block, COUNT(weight_block)},
    [TGRS_TABLE_OP_ATTRS] = {op_attrs, COUNT(op_attrs)},
    [TGRS_TABLE_OP] = {op, COUNT(op)},
    [TGRS_TABLE_BUFFER] = {buffer, COUNT(buffer)},
    [TGRS_TABLE_TILE_PLAN] = {tile_plan, COUNT(tile_plan)},
    [TGRS_TABLE_STAGE] = {stage, COUNT(stage)},
    [TGRS_TABLE_CHAIN] = {chain, COUNT(chain)},
    [TGRS_TABLE_MEMORY] = {memory, COUNT(memory)},
};

#if TGRS_WITH_MESSAGES
const char* const fb_collection_messages[TGRS_COLLECTION_COUNT] = {
    [TGRS_COLLECTION_TENSORS] = "tensor index {v} out of range (tensors: {l})",
    [TGRS_COLLECTION_OPS] = "op index {v} out of range (ops: {l})",
    [TGRS_COLLECTION_STAGES] = "stage index {v} out of range (stages: {l})",
    [TGRS_COLLECTION_CHAINS] = "chain index {v} out of range (chains: {l})",
    [TGRS_COLLECTION_WEIGHTS] = "weight index {v} out of range (weights: {l})",
    [TGRS_COLLECTION_WEIGHT_BLOCKS] = "weight block index {v} out of range (weight blocks: {l})",
};
#endif
