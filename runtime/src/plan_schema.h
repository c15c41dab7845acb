/*
 * plan_schema.h: format/tgrs.fbs as data, for the verifier.
 *
 * Every table of the schema is an array of field descriptions in vtable-slot order (the
 * FB_* ids of fb_read.h index it). Each says what the field is on the wire (a scalar, a
 * struct, a string, a vector, a table, a vector of tables) and which of the plan's simple
 * rules it carries: an enum's range, an index into one of the plan's vectors, presence.
 * schema_walk.c checks a whole buffer against these descriptions; plan_verify.c adds the
 * rules that relate several fields. tests/runtime/schema_descriptor_test.cc ties every
 * description to flatc's own reading of tgrs.fbs (its mini-reflection tables), so a field
 * added to the schema and not here fails a test instead of going unverified.
 */
#ifndef TIGRIS_RUNTIME_PLAN_SCHEMA_H_
#define TIGRIS_RUNTIME_PLAN_SCHEMA_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a field is on the wire. */
enum {
  FB_KIND_SCALAR = 0, /* inline; size = bytes (aligned to them) */
  FB_KIND_STRUCT,     /* inline; size = bytes, 4-aligned (every struct here is) */
  FB_KIND_STRING,     /* uoffset to a NUL-terminated byte vector */
  FB_KIND_VECTOR,     /* uoffset to a vector of scalars or structs; size = element bytes */
  FB_KIND_TABLE,      /* uoffset to a table; size = its TGRS_TABLE_* */
  FB_KIND_TABLES      /* uoffset to a vector of tables; size = their TGRS_TABLE_* */
};

/* The schema's tables (fb_schema_tables[] index). */
enum {
  TGRS_TABLE_PLAN = 0,
  TGRS_TABLE_TENSOR,
  TGRS_TABLE_QUANTIZATION,
  TGRS_TABLE_WEIGHT,
  TGRS_TABLE_WEIGHT_BLOCK,
  TGRS_TABLE_OP_ATTRS,
  TGRS_TABLE_OP,
  TGRS_TABLE_BUFFER,
  TGRS_TABLE_TILE_PLAN,
  TGRS_TABLE_STAGE,
  TGRS_TABLE_CHAIN,
  TGRS_TABLE_MEMORY,
  TGRS_TABLE_COUNT
};

/* The plan's vectors a field may index (fb_field_schema.arg of an index rule). */
enum {
  TGRS_COLLECTION_TENSORS = 0,
  TGRS_COLLECTION_OPS,
  TGRS_COLLECTION_STAGES,
  TGRS_COLLECTION_CHAINS,
  TGRS_COLLECTION_WEIGHTS,
  TGRS_COLLECTION_WEIGHT_BLOCKS,
  TGRS_COLLECTION_COUNT
};

/* The rule a field carries (low bits) and whether it must be present (FB_REQUIRED). */
enum {
  FB_RULE_NONE = 0,
  FB_RULE_ENUM,          /* unsigned scalar < arg */
  FB_RULE_INDEX,         /* int32 (or each int32 of a vector) indexes collection arg */
  FB_RULE_INDEX_OR_NONE, /* the same, or -1 */
  FB_RULE_MASK = 0x7,
  FB_REQUIRED = 0x8 /* absent fails TGRS_ERR_MISSING_FIELD */
};

typedef struct fb_field_schema {
  const char* name; /* as in tgrs.fbs: the verifier's error path names it */
  uint8_t kind;     /* FB_KIND_* */
  uint8_t size;     /* see FB_KIND_* */
  uint8_t rule;     /* FB_RULE_* | FB_REQUIRED */
  uint8_t arg;      /* FB_RULE_ENUM: count of values; index rules: TGRS_COLLECTION_* */
} fb_field_schema;

typedef struct fb_table_schema {
  const fb_field_schema* fields; /* fields[id] */
  uint8_t count;
} fb_table_schema;

extern const fb_table_schema fb_schema_tables[TGRS_TABLE_COUNT];

/* "tensor index {v} out of range (tensors: {l})", ... per TGRS_COLLECTION_*; only in a
 * build with messages (TGRS_MESSAGE, plan_internal.h, never evaluates it otherwise). */
extern const char* const fb_collection_messages[TGRS_COLLECTION_COUNT];

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_RUNTIME_PLAN_SCHEMA_H_ */
