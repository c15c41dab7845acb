/*
 * plan_schema.h: format/tgrs.fbs as data, for the verifier.
 *
 * Every field of the schema has a description, one table's after another's, each table's
 * in vtable-slot order (FB_FIELD numbers them from the FB_* ids of fb_read.h). Each says
 * what the field is on the wire (a scalar, a struct, a string, a vector, a table, a vector
 * of tables) and which of the plan's simple rules it carries: an enum's range, an index
 * into one of the plan's vectors, presence. schema_walk.c checks a whole buffer against
 * these descriptions; plan_verify.c adds the rules that relate several fields.
 * tests/runtime/schema_descriptor_test.cc ties every description to flatc's own reading of
 * tgrs.fbs (its mini-reflection tables), so a field added to the schema and not here fails
 * a test instead of going unverified.
 */
#ifndef TIGRIS_RUNTIME_PLAN_SCHEMA_H_
#define TIGRIS_RUNTIME_PLAN_SCHEMA_H_

#include <stdint.h>

#include "fb_read.h"
#include "tgrs_op_select.h" /* TGRS_WITH_MESSAGES */

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

/* The schema's tables (tgrs_fb_schema_tables[] index). */
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
  TGRS_TABLE_INTEGRITY,
  TGRS_TABLE_COUNT
};

/* Every field of the schema numbered in one sequence, table after table: the index of its
 * description in tgrs_fb_schema_fields, and how a rule of the verifier names the field it
 * failed at, FB_FIELD(OP, INPUTS). Below 256, so a Cortex-M call passes it in one 2-byte
 * move; it becomes the field's name (or, without messages, its id) only when a rule fails
 * (tgrs_verify_fail_). */
enum {
  FB_FIRST_PLAN = 0,
  FB_FIRST_TENSOR = FB_FIRST_PLAN + FB_PLAN_FIELDS,
  FB_FIRST_QUANT = FB_FIRST_TENSOR + FB_TENSOR_FIELDS,
  FB_FIRST_WEIGHT = FB_FIRST_QUANT + FB_QUANT_FIELDS,
  FB_FIRST_BLOCK = FB_FIRST_WEIGHT + FB_WEIGHT_FIELDS,
  FB_FIRST_ATTRS = FB_FIRST_BLOCK + FB_BLOCK_FIELDS,
  FB_FIRST_OP = FB_FIRST_ATTRS + FB_ATTRS_FIELDS,
  FB_FIRST_BUFFER = FB_FIRST_OP + FB_OP_FIELDS,
  FB_FIRST_TILE = FB_FIRST_BUFFER + FB_BUFFER_FIELDS,
  FB_FIRST_STAGE = FB_FIRST_TILE + FB_TILE_FIELDS,
  FB_FIRST_CHAIN = FB_FIRST_STAGE + FB_STAGE_FIELDS,
  FB_FIRST_MEMORY = FB_FIRST_CHAIN + FB_CHAIN_FIELDS,
  FB_FIRST_INTEGRITY = FB_FIRST_MEMORY + FB_MEMORY_FIELDS,
  FB_FIELD_COUNT = FB_FIRST_INTEGRITY + FB_INTEGRITY_FIELDS,
  FB_NO_FIELD = 0xFF /* a rule that names no field of its own */
};
/* FB_FIELD(OP, INPUTS): the field FB_OP_INPUTS of table Op in that sequence. */
#define FB_FIELD(table, field) (FB_FIRST_##table + FB_##table##_##field)

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
#if TGRS_WITH_MESSAGES
  const char* name; /* as in tgrs.fbs: the verifier's error path names it */
#endif
  uint8_t form; /* FB_FORM(kind, rule): three bytes an entry without the name */
  uint8_t size; /* see FB_KIND_* */
  uint8_t arg;  /* FB_RULE_ENUM: count of values; index rules: TGRS_COLLECTION_* */
} fb_field_schema;

/* A description's form: its FB_KIND_* (low three bits) and its FB_RULE_* | FB_REQUIRED. */
#define FB_FORM(kind, rule) ((uint8_t)((kind) | (rule) << 3))
#define FB_KIND_OF(f) ((unsigned)(f)->form & 7u)
#define FB_RULE_OF(f) ((unsigned)(f)->form >> 3)

/* Every field, at its FB_FIELD number. */
extern const fb_field_schema tgrs_fb_schema_fields[FB_FIELD_COUNT];

/* A table's fields: tgrs_fb_schema_fields[first + id] for id < count. */
typedef struct fb_table_schema {
  uint8_t first; /* FB_FIRST_* */
  uint8_t count; /* FB_*_FIELDS */
} fb_table_schema;

extern const fb_table_schema tgrs_fb_schema_tables[TGRS_TABLE_COUNT];

/* The path's name of field `field` (FB_FIELD): its name in tgrs.fbs or, in a build
 * without messages, its id in its table as "#<id>" ("#2" for Op.inputs). */
const char* tgrs_fb_field_name(unsigned field);
#if !TGRS_WITH_MESSAGES
/* "#<id>" for a field id below 26. */
const char* fb_id_name(unsigned id);
#endif

/* "tensor index {v} out of range (tensors: {l})", ... per TGRS_COLLECTION_*; only in a
 * build with messages (TGRS_MESSAGE, plan_internal.h, never evaluates it otherwise). */
extern const char* const tgrs_fb_collection_messages[TGRS_COLLECTION_COUNT];

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_RUNTIME_PLAN_SCHEMA_H_ */
