/*
 * fb_read.h: the FlatBuffers wire format, the few primitives the plan reader needs.
 *
 * Wire format (FlatBuffers "Internals"; every scalar little-endian, aligned to its size):
 *  - buffer:  [uoffset root][4-byte file identifier]...; the root table is at 0 + root.
 *  - uoffset: uint32, forward, relative to where it is stored (target = pos + value).
 *  - table:   starts with an int32 soffset; its vtable is at table_pos - soffset.
 *  - vtable:  uint16 [vtable bytes][table inline bytes][field 0 offset][field 1]...;
 *             a field offset is relative to the table start; 0, or a field id past the
 *             vtable's end, means "absent: use the schema default".
 *  - vector:  uint32 element count, then the elements (scalars and structs inline,
 *             tables as uoffsets, each relative to its own slot).
 *  - string:  a vector of bytes followed by a NUL that the count excludes.
 *  - struct:  inline in its table or vector, fields in declaration order, padded to the
 *             struct's alignment.
 *
 * The verifier (plan_verify.c) uses the checked helpers; after it accepts a buffer the
 * getters (plan_reader.c) use the unchecked ones. Reads assemble bytes (no unaligned or
 * type-punned loads) so they are portable and UB-free; typed spans handed to the caller
 * rely on the verified alignment and a little-endian target.
 */
#ifndef TIGRIS_RUNTIME_FB_READ_H_
#define TIGRIS_RUNTIME_FB_READ_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "the TiGrIS runtime hands out zero-copy views of little-endian FlatBuffers data"
#endif

#define FB_FILE_IDENTIFIER "TGRS"
#define FB_HEADER_BYTES 8u        /* root uoffset + file identifier */
#define FB_MAX_BUFFER 0x7FFFFFFFu /* FlatBuffers' FLATBUFFERS_MAX_BUFFER_SIZE */

/* Field ids: position in the table's declaration in format/tgrs.fbs (vtable slot); each
 * enum's last entry (FB_*_FIELDS) counts its table's fields. */
enum { FB_QUANT_SCALE = 0, FB_QUANT_ZERO_POINT, FB_QUANT_AXIS, FB_QUANT_FIELDS };
enum {
  FB_TENSOR_NAME = 0,
  FB_TENSOR_DTYPE,
  FB_TENSOR_SHAPE,
  FB_TENSOR_QUANT,
  FB_TENSOR_WEIGHT,
  FB_TENSOR_HOST_PERMUTATION,
  FB_TENSOR_ONNX_SHAPE,
  FB_TENSOR_HOST_DTYPE,
  FB_TENSOR_FIELDS
};
enum { FB_WEIGHT_OFFSET = 0, FB_WEIGHT_SIZE, FB_WEIGHT_BLOCK, FB_WEIGHT_FIELDS };
enum {
  FB_BLOCK_STAGE = 0,
  FB_BLOCK_OFFSET,
  FB_BLOCK_COMPRESSED_SIZE,
  FB_BLOCK_RAW_SIZE,
  FB_BLOCK_FIELDS
};
enum {
  FB_ATTRS_KERNEL = 0,
  FB_ATTRS_STRIDES,
  FB_ATTRS_PADS,
  FB_ATTRS_DILATIONS,
  FB_ATTRS_GROUP,
  FB_ATTRS_AXIS,
  FB_ATTRS_PERM,
  FB_ATTRS_SHAPE,
  FB_ATTRS_ALPHA,
  FB_ATTRS_BETA,
  FB_ATTRS_GAMMA,
  FB_ATTRS_MIN,
  FB_ATTRS_MAX,
  FB_ATTRS_SCALES,
  FB_ATTRS_MODE,
  FB_ATTRS_COORDINATE_TRANSFORMATION_MODE,
  FB_ATTRS_NEAREST_MODE,
  FB_ATTRS_COUNT_INCLUDE_PAD,
  FB_ATTRS_CEIL_MODE,
  FB_ATTRS_AXES,
  FB_ATTRS_KEEPDIMS,
  FB_ATTRS_OUTPUT_PADDING,
  FB_ATTRS_PAD_VALUE,
  FB_ATTRS_VIEW_SHAPE,
  FB_ATTRS_BIAS,
  FB_ATTRS_STARTS,
  FB_ATTRS_ACTIVATIONS,
  FB_ATTRS_ACTIVATION_ALPHA,
  FB_ATTRS_ACTIVATION_BETA,
  FB_ATTRS_LINEAR_BEFORE_RESET,
  FB_ATTRS_OUTPUT_ROLES,
  FB_ATTRS_FIELDS
};
enum {
  FB_OP_CODE = 0,
  FB_OP_NAME,
  FB_OP_INPUTS,
  FB_OP_OUTPUTS,
  FB_OP_ATTRS,
  FB_OP_ACTIVATION,
  FB_OP_OUTPUT_MULTIPLIER,
  FB_OP_OUTPUT_SHIFT,
  FB_OP_ACT_MIN,
  FB_OP_ACT_MAX,
  FB_OP_INPUT_MULTIPLIER,
  FB_OP_INPUT_SHIFT,
  FB_OP_LEFT_SHIFT,
  FB_OP_LUT,
  FB_OP_CHANNEL_SCALE,
  FB_OP_CHANNEL_SHIFT,
  FB_OP_CHANNEL_OFFSET,
  FB_OP_ROUNDING,
  FB_OP_FIELDS
};
enum {
  FB_BUFFER_KIND = 0,
  FB_BUFFER_TENSOR,
  FB_BUFFER_OP,
  FB_BUFFER_FIRST_OP,
  FB_BUFFER_LAST_OP,
  FB_BUFFER_BYTES,
  FB_BUFFER_HOME,
  FB_BUFFER_FIELDS
};
enum {
  FB_TILE_DIM = 0,
  FB_TILE_TILE_SIZE,
  FB_TILE_COUNT,
  FB_TILE_HALO,
  FB_TILE_OPS,
  FB_TILE_REGIONS,
  FB_TILE_BUFFERS,
  FB_TILE_PEAK_BYTES,
  FB_TILE_STREAMED,
  FB_TILE_COLUMNS,
  FB_TILE_CHANNELS,
  FB_TILE_FIELDS
};
enum {
  FB_STAGE_ID = 0,
  FB_STAGE_STRATEGY,
  FB_STAGE_OPS,
  FB_STAGE_BUFFERS,
  FB_STAGE_TILE,
  FB_STAGE_CHAIN,
  FB_STAGE_PEAK_BYTES,
  FB_STAGE_SPILL_IN,
  FB_STAGE_SPILL_OUT,
  FB_STAGE_WEIGHT_BLOCK,
  FB_STAGE_FAST_RESERVED_BYTES,
  FB_STAGE_FIELDS
};
enum { FB_CHAIN_ID = 0, FB_CHAIN_STAGES, FB_CHAIN_TILE, FB_CHAIN_FIELDS };
enum {
  FB_PLAN_SCHEMA_VERSION = 0,
  FB_PLAN_GENERATOR,
  FB_PLAN_MODEL_NAME,
  FB_PLAN_TENSORS,
  FB_PLAN_OPS,
  FB_PLAN_STAGES,
  FB_PLAN_CHAINS,
  FB_PLAN_INPUTS,
  FB_PLAN_OUTPUTS,
  FB_PLAN_SLOW_BUFFERS,
  FB_PLAN_FAST_ARENA_BYTES,
  FB_PLAN_SLOW_ARENA_BYTES,
  FB_PLAN_SCHEDULED_PEAK_BYTES,
  FB_PLAN_XIP,
  FB_PLAN_COMPRESSION,
  FB_PLAN_WEIGHTS,
  FB_PLAN_WEIGHT_BLOCKS,
  FB_PLAN_WEIGHT_DATA,
  FB_PLAN_MEMORIES,
  FB_PLAN_STATE,
  FB_PLAN_STAGED_OFFSET,
  FB_PLAN_STAGED_BYTES,
  FB_PLAN_INTEGRITY,
  FB_PLAN_FIELDS
};
enum { FB_MEMORY_NAME = 0, FB_MEMORY_SIZE, FB_MEMORY_ALIGNMENT, FB_MEMORY_FIELDS };
enum {
  FB_INTEGRITY_CHECKSUM = 0,
  FB_INTEGRITY_TABLES_CRC,
  FB_INTEGRITY_WEIGHT_CRCS,
  FB_INTEGRITY_BLOCK_CRCS,
  FB_INTEGRITY_FIELDS
};

/* Struct sizes on the wire. Home {uint offset; uint size; ubyte region} pads to 12. */
#define FB_HOME_BYTES 12u
#define FB_HOME_ALIGN 4u
#define FB_TILE_REGION_BYTES 24u /* six int32 */
#define FB_STATE_SLOT_BYTES 16u  /* StateSlot: int input, int output, uint offset, uint size */

/* --- unchecked little-endian loads ---------------------------------------------------- */
static inline uint16_t fb_u16(const uint8_t* p) {
  return (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
}
static inline uint32_t fb_u32(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline int32_t fb_i32(const uint8_t* p) {
  uint32_t u = fb_u32(p);
  int32_t v;
  memcpy(&v, &u, sizeof v); /* two's complement reinterpretation without UB */
  return v;
}
static inline float fb_f32(const uint8_t* p) {
  uint32_t u = fb_u32(p);
  float v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* --- unchecked table access (trusted after verification) ------------------------------ */

/* Offset of field `id` inside `table`, 0 when absent. */
static inline uint32_t fb_field_offset(const uint8_t* table, unsigned id) {
  const uint8_t* vtable = table - fb_i32(table);
  uint32_t slot = 4u + 2u * id;
  return slot < fb_u16(vtable) ? fb_u16(vtable + slot) : 0u;
}
/* fb_field for code that reads several fields of one table: the table's vtable and its
 * byte length found once (vtable = table - fb_i32(table), vtable_bytes = fb_u16(vtable)). */
static inline const uint8_t* fb_field_in(const uint8_t* table, const uint8_t* vtable,
                                         uint32_t vtable_bytes, unsigned id) {
  const uint32_t slot = 4u + 2u * id;
  const uint32_t off = slot < vtable_bytes ? fb_u16(vtable + slot) : 0u;
  return off ? table + off : NULL;
}
static inline const uint8_t* fb_field(const uint8_t* table, unsigned id) {
  uint32_t off;
  if (!table) return NULL;
  off = fb_field_offset(table, id);
  return off ? table + off : NULL;
}
static inline uint8_t fb_get_u8(const uint8_t* table, unsigned id, uint8_t dflt) {
  const uint8_t* f = fb_field(table, id);
  return f ? f[0] : dflt;
}
static inline uint16_t fb_get_u16(const uint8_t* table, unsigned id, uint16_t dflt) {
  const uint8_t* f = fb_field(table, id);
  return f ? fb_u16(f) : dflt;
}
static inline uint32_t fb_get_u32(const uint8_t* table, unsigned id, uint32_t dflt) {
  const uint8_t* f = fb_field(table, id);
  return f ? fb_u32(f) : dflt;
}
static inline int32_t fb_get_i32(const uint8_t* table, unsigned id, int32_t dflt) {
  const uint8_t* f = fb_field(table, id);
  return f ? fb_i32(f) : dflt;
}
static inline float fb_get_f32(const uint8_t* table, unsigned id, float dflt) {
  const uint8_t* f = fb_field(table, id);
  return f ? fb_f32(f) : dflt;
}
/* The object (table, vector or string) a uoffset field points at, NULL when absent. */
static inline const uint8_t* fb_get_ref(const uint8_t* table, unsigned id) {
  const uint8_t* f = fb_field(table, id);
  return f ? f + fb_u32(f) : NULL;
}
/* Vector helpers: `vec` points at the length prefix (NULL: empty). */
static inline uint32_t fb_vec_len(const uint8_t* vec) { return vec ? fb_u32(vec) : 0u; }
static inline const uint8_t* fb_vec_data(const uint8_t* vec) { return vec ? vec + 4 : NULL; }
/* Element i of a vector of tables. */
static inline const uint8_t* fb_vec_table(const uint8_t* vec, uint32_t i) {
  const uint8_t* slot = vec + 4u + 4u * i;
  return slot + fb_u32(slot);
}

#endif /* TIGRIS_RUNTIME_FB_READ_H_ */
