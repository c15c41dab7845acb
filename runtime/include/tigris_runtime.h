/*
 * tigris_runtime.h: the TiGrIS C99 microcontroller runtime (libc only, no heap).
 *
 * This issue: the zero-copy plan reader and verifier, and the LZ4 block decoder. The
 * executor (arenas, tgrs_run) appends its own section in issue 5.
 *
 * Ownership (DESIGN.md "Runtime API": the caller owns every byte):
 *  - the plan bytes stay where the caller put them (flash or RAM) and must outlive every
 *    tgrs_plan that views them; nothing is copied, nothing is allocated;
 *  - tgrs_plan is a small struct the caller owns (stack, static or inside its own
 *    context). tgrs_plan_init() verifies the WHOLE buffer once; afterwards every getter
 *    trusts it and costs a few loads (no re-verification on the MCU's hot path).
 *
 * Loading a plan:
 *
 *     static const uint8_t plan_bytes[] __attribute__((aligned(16))) = { ... };
 *     tgrs_plan plan;
 *     tgrs_status st = tgrs_plan_init(&plan, plan_bytes, sizeof plan_bytes);
 *     if (st != TGRS_OK) {
 *       char msg[160];
 *       tgrs_verify_error_format(&plan.error, msg, sizeof msg);  // "ops[12].inputs[1]: ..."
 *     }
 *
 * Requirements: a little-endian target (FlatBuffers' wire order; every Cortex-M, ESP32
 * and RISC-V MCU the project targets), the plan buffer 16-byte aligned (weights are read
 * in place through int32/float pointers and the schema aligns weight_data to 16 relative
 * to the buffer start, so the base must be 16-aligned for the blobs to be), and a plan no
 * larger than 2 GiB - 1 (FlatBuffers' own limit).
 *
 * Spans returned by the getters point into the plan bytes (zero-copy). An absent vector
 * is an empty span {NULL, 0}; an absent string is "" (never NULL).
 */
#ifndef TIGRIS_RUNTIME_H_
#define TIGRIS_RUNTIME_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The newest plan schema this reader understands (format/tgrs.fbs, revision history).
 * Plans with schema_version <= this are accepted; newer ones are rejected. */
#define TGRS_SCHEMA_VERSION 5u

/* Required alignment of the plan buffer's base address, in bytes. */
#define TGRS_PLAN_ALIGNMENT 16u

/* ======================================================================================
 * Status codes. Values are pinned forever and never reused (STYLE.md, zstd/libgit2).
 *   0..31   plan reader / verifier (one code per class of plan defect)
 *   32..47  LZ4 block decoder
 *   48..95  executor (tigris_executor.h, issue 5): 48..64 used, 65..95 reserved
 * ====================================================================================== */
typedef enum tgrs_status {
  TGRS_OK = 0,
  TGRS_ERR_NULL_ARGUMENT = 1,       /* a required pointer argument is NULL */
  TGRS_ERR_PLAN_TOO_SMALL = 2,      /* fewer bytes than a header (root offset + identifier) */
  TGRS_ERR_PLAN_MISALIGNED = 3,     /* plan base address not TGRS_PLAN_ALIGNMENT-aligned */
  TGRS_ERR_BAD_IDENTIFIER = 4,      /* bytes 4..7 are not "TGRS" */
  TGRS_ERR_UNSUPPORTED_VERSION = 5, /* schema_version newer than TGRS_SCHEMA_VERSION */
  TGRS_ERR_BAD_OFFSET = 6,          /* an offset points outside the buffer, or is misaligned */
  TGRS_ERR_BAD_VTABLE = 7,          /* a vtable outside the buffer, malformed, or a field past it */
  TGRS_ERR_BAD_VECTOR = 8,          /* a vector's length runs past the end of the buffer */
  TGRS_ERR_BAD_STRING = 9,          /* a string runs past the buffer or is not NUL-terminated */
  TGRS_ERR_BAD_INDEX = 10,          /* a tensor/op/stage/chain/weight/block index out of range */
  TGRS_ERR_BAD_ALIGNMENT = 11,      /* weight blob or arena home offset not 16-aligned */
  TGRS_ERR_BAD_ENUM = 12,           /* unknown op code, dtype, strategy, region, ... */
  TGRS_ERR_BAD_SIZE = 13,       /* byte sizes inconsistent (tensor vs weight vs home vs arena) */
  TGRS_ERR_MISSING_FIELD = 14,  /* a field the reader requires is absent */
  TGRS_ERR_BAD_VALUE = 15,      /* a scalar outside its legal range (negative count, ...) */
  TGRS_ERR_PLAN_TOO_LARGE = 16, /* more than 2 GiB - 1 bytes */
  TGRS_ERR_TOO_COMPLEX = 17,    /* verification work exceeds a bound proportional to the plan
                                   size: tables shared many times (FlatBuffers' max_tables) */
  TGRS_ERR_PLAN_CORRUPT = 18,   /* a checksum does not match the bytes it covers: the plan (or
                                   a staged copy of its constants) was damaged after the
                                   compiler sealed it; the path names the region */
  TGRS_ERR_NO_CHECKSUM = 19,    /* the plan carries no Integrity (compiled before 0.4, or the
                                   field itself was damaged) and the caller asked for a check */
  /* 20..31 reserved for the plan reader. */
  TGRS_ERR_LZ4_CORRUPT = 32,       /* malformed LZ4 block (truncated, bad offset, ...) */
  TGRS_ERR_LZ4_DST_TOO_SMALL = 33, /* the block decodes to more than dst_capacity bytes */
  /* 34..47 reserved for the decoder. */
  TGRS_ERR_ARENA_TOO_SMALL = 48,       /* fast arena < fast_arena_bytes */
  TGRS_ERR_ARENA_MISALIGNED = 49,      /* fast arena not 16-aligned */
  TGRS_ERR_SLOW_ARENA_TOO_SMALL = 50,  /* slow arena < slow_arena_bytes */
  TGRS_ERR_SLOW_ARENA_MISALIGNED = 51, /* slow arena not 16-aligned */
  TGRS_ERR_PLAN_NOT_VERIFIED = 52,     /* tgrs_plan_init() did not succeed */
  TGRS_ERR_INPUT_COUNT = 53,           /* num_inputs != the plan's inputs */
  TGRS_ERR_INPUT_SIZE = 54,            /* an input of the wrong byte size/NULL */
  TGRS_ERR_OUTPUT_COUNT = 55,          /* num_outputs != the plan's outputs */
  TGRS_ERR_OUTPUT_SIZE = 56,           /* an output of the wrong byte size/NULL */
  TGRS_ERR_UNSUPPORTED_OP = 57,        /* an op code / dtype / attribute mix the executor
                                          cannot run (stats.failed_op) */
  TGRS_ERR_INCONSISTENT_PLAN = 58,     /* verified, but not executable: a tensor without a
                                          buffer, shapes that disagree, a region outside its
                                          strip, ... */
  TGRS_ERR_KERNEL_REJECTED = 59,       /* a kernel refused its arguments */
  TGRS_ERR_INDEX_OUT_OF_RANGE = 60,    /* a run-time index outside its table (GATHER reads
                                          none of it; stats.failed_op names the op) */
  TGRS_ERR_UNKNOWN_MEMORY = 61,        /* tgrs_bind_arena: not an arena memory of the plan */
  TGRS_ERR_HYDRATION_REQUIRED = 62,    /* tgrs_invoke before tgrs_hydrate_constants or
                                          tgrs_mark_hydrated (tigris_context.h) */
  TGRS_ERR_ARENA_NOT_BOUND = 63,       /* tgrs_invoke: an arena the plan uses is unbound */
  TGRS_ERR_ARENA_OVERLAP = 64          /* tgrs_bind_arena: the arena's bytes overlap the plan,
                                          another arena of the context, or the stack */
  /* 65..95 reserved for the executor. */
} tgrs_status;

/* "TGRS_OK", "TGRS_ERR_BAD_OFFSET", "TGRS_ERR_INPUT_SIZE", ... (every code above);
 * "TGRS_ERR_UNKNOWN" for a value not listed. A runtime built without text for people
 * (TGRS_WITH_MESSAGES 0, tgrs_op_select.h) holds no names: it returns TGRS_STATUS_UNNAMED
 * for every status, and its callers print the number. */
#define TGRS_STATUS_UNNAMED "TGRS_STATUS_UNNAMED"
const char* tgrs_status_name(tgrs_status status);

/* ======================================================================================
 * Enums of the plan schema (format/tgrs.fbs; values pinned there).
 * ====================================================================================== */
typedef enum tgrs_dtype {
  TGRS_DTYPE_UNKNOWN = 0,
  TGRS_DTYPE_FLOAT32 = 1,
  TGRS_DTYPE_INT8 = 2,
  TGRS_DTYPE_INT32 = 3,
  TGRS_DTYPE_INT64 = 4,
  TGRS_DTYPE_UINT8 = 5,
  TGRS_DTYPE_INT16 = 6,
  TGRS_DTYPE_BOOL = 7 /* one byte, 0 or 1 */
} tgrs_dtype;

typedef enum tgrs_memory_region {
  TGRS_REGION_FAST = 0,      /* the SRAM arena */
  TGRS_REGION_SLOW = 1,      /* the PSRAM arena (spills) */
  TGRS_REGION_FLASH = 2,     /* inside the plan's weight_data */
  TGRS_REGION_HOST = 3,      /* the caller's input or output buffer */
  TGRS_REGION_STATE = 4,     /* persistent state kept across invokes (tigris_context.h) */
  TGRS_REGION_CONSTANTS = 5, /* staged constants, copied in by tgrs_hydrate_constants */
  TGRS_REGION_PINNED = 6     /* scratch tensors rules pin to a second memory (schema 4) */
} tgrs_memory_region;

/* Op codes, from the op table (tgrs_ops.def): TGRS_OP_CONV = 0, ... in code order. */
typedef enum tgrs_op_code {
#define TGRS_OP(NAME, CODE, Ir, FN, KIND, TILES) TGRS_OP_##NAME = CODE,
#include "tgrs_ops.def"
#undef TGRS_OP
  TGRS_OP_CODE_COUNT /* one past the last code (the codes are dense) */
} tgrs_op_code;

typedef enum tgrs_activation {
  TGRS_ACTIVATION_NONE = 0,
  TGRS_ACTIVATION_RELU = 1,
  TGRS_ACTIVATION_RELU6 = 2
} tgrs_activation;

typedef enum tgrs_stage_strategy {
  TGRS_STRATEGY_NORMAL = 0,
  TGRS_STRATEGY_TILED = 1,
  TGRS_STRATEGY_CHAIN = 2
} tgrs_stage_strategy;

typedef enum tgrs_tile_dim { TGRS_TILE_DIM_HEIGHT = 0 } tgrs_tile_dim;

typedef enum tgrs_buffer_kind {
  TGRS_BUFFER_TENSOR = 0,
  TGRS_BUFFER_ROW_STRIP = 1,
  TGRS_BUFFER_SCRATCH = 2
} tgrs_buffer_kind;

typedef enum tgrs_compression {
  TGRS_COMPRESSION_NONE = 0,
  TGRS_COMPRESSION_LZ4 = 1
} tgrs_compression;

/* Integrity.checksum (format/tgrs.fbs). */
typedef enum tgrs_checksum { TGRS_CHECKSUM_NONE = 0, TGRS_CHECKSUM_CRC32C = 1 } tgrs_checksum;

/* Names as spelled in format/tgrs.fbs ("CONV", "FLOAT32", ...); "?" when out of range. */
const char* tgrs_op_code_name(tgrs_op_code code);
const char* tgrs_dtype_name(tgrs_dtype dtype);
/* Bytes per element: 4, 1, 4, 8, 1, 2; 0 for UNKNOWN or an out-of-range value. */
size_t tgrs_dtype_size(tgrs_dtype dtype);

/* ======================================================================================
 * Verification detail. On failure tgrs_plan_init() records where the defect is: a path
 * of (field, index) steps from the root ("ops", 12) . ("inputs", 1), a message template
 * and the numbers it names, so a tool prints
 *   ops[12].inputs[1]: tensor index 4087 out of range (tensors: 88)
 * Every string is static; nothing is allocated.
 * ====================================================================================== */
#define TGRS_VERIFY_PATH_DEPTH 5

typedef struct tgrs_verify_step {
  /* Schema field name, e.g. "ops"; in a runtime built without messages
   * (TGRS_WITH_MESSAGES 0) the field's id in its table instead, e.g. "#4". */
  const char* field;
  int32_t index; /* element index, or -1 when the step is not a vector element */
} tgrs_verify_step;

typedef struct tgrs_verify_error {
  tgrs_status status; /* TGRS_OK when nothing failed */
  uint32_t depth;     /* steps used in path (0: the buffer or the root table itself) */
  tgrs_verify_step path[TGRS_VERIFY_PATH_DEPTH];
  /* What is wrong; "{v}" stands for value and "{l}" for limit, e.g.
   * "tensor index {v} out of range (tensors: {l})". */
  const char* message;
  int64_t value;
  int64_t limit;
} tgrs_verify_error;

/* Writes "<path>: <message>" (NUL-terminated, truncated to capacity) and returns the
 * length the full text needs, like snprintf. capacity 0 writes nothing. */
size_t tgrs_verify_error_format(const tgrs_verify_error* error, char* out, size_t capacity);

/* ======================================================================================
 * The plan view.
 * ====================================================================================== */

/* The caller owns it; fields ending in '_' are the reader's (do not touch). */
typedef struct tgrs_plan {
  const uint8_t* base_;
  uint32_t size_;
  const uint8_t* root_;
  /* Top-level vectors (pointer to the length prefix, NULL when absent). */
  const uint8_t* tensors_;
  const uint8_t* ops_;
  const uint8_t* stages_;
  const uint8_t* chains_;
  const uint8_t* slow_buffers_;
  const uint8_t* weights_;
  const uint8_t* weight_blocks_;
  const uint8_t* integrity_; /* the Integrity table, NULL when the plan has none */
  /* TGRS_INTEGRITY_* the plan was initialised with: under TGRS_INTEGRITY_TABLES the
   * executor checks each weight before the first op that reads it runs. */
  uint32_t integrity_mode_;
  /* Set by tgrs_plan_init(); status TGRS_OK when the plan verified. */
  tgrs_verify_error error;
} tgrs_plan;

/* Verifies `size` bytes at `bytes` as a .tgrs plan and, on success, makes `plan` a view
 * of them. Verification covers everything reachable from the root: every table, vtable,
 * vector, string and struct vector lies inside the buffer and is aligned; every enum value
 * is known; every index cross-reference (tensor, op, stage, chain, weight, weight block)
 * is in range; weight blobs lie inside weight_data (or their block) at 16-aligned
 * offsets; arena homes are 16-aligned and inside the declared arena sizes; sizes agree
 * (tensor bytes vs weight bytes vs buffer bytes vs home size); tile regions lie inside
 * their tensors. After TGRS_OK, no getter can read outside the buffer.
 * On failure returns the defect's class and fills plan->error; the plan must not be used
 * (getters return empty values). Work is linear in `size`.
 *
 * Integrity (docs/integrity.md): before it trusts the bytes, tgrs_plan_init checks the
 * plan's CRC-32C checksums, of its tables first and then of every weight blob, and refuses
 * a damaged plan with TGRS_ERR_PLAN_CORRUPT naming the region ("integrity.tables_crc",
 * "weights[17]", "weight_blocks[3]"), and a plan without checksums with
 * TGRS_ERR_NO_CHECKSUM. It is tgrs_plan_init_with(plan, bytes, size, TGRS_INTEGRITY_ALL). */
tgrs_status tgrs_plan_init(tgrs_plan* plan, const void* bytes, size_t size);

/* What tgrs_plan_init_with checks of the plan's checksums. */
typedef enum tgrs_integrity_mode {
  /* Every checksum, before anything else is trusted: the default. Costs about 3.3 Cortex-M4
   * instructions per plan byte (docs/integrity.md). */
  TGRS_INTEGRITY_ALL = 0,
  /* The tables now; each weight blob later, by the executor, before the first op that
   * reads it runs (once per tgrs_context; on every tgrs_run, which keeps no memory). A
   * damaged weight then fails that run with TGRS_ERR_PLAN_CORRUPT and no output is
   * produced past it. For a device that must start fast from a large plan. */
  TGRS_INTEGRITY_TABLES = 1,
  /* No checksum: the caller verified the bytes itself (a secure boot's image hash), or
   * the plan predates checksums. The structural verification still runs. */
  TGRS_INTEGRITY_NONE = 2
} tgrs_integrity_mode;

tgrs_status tgrs_plan_init_with(tgrs_plan* plan, const void* bytes, size_t size,
                                tgrs_integrity_mode mode);

/* Re-checks every checksum of an initialised plan now (tables, every weight blob), for a
 * device that runs for years from flash that can wear: TGRS_OK, TGRS_ERR_PLAN_CORRUPT or
 * TGRS_ERR_NO_CHECKSUM with the region in *error (may be NULL), or
 * TGRS_ERR_PLAN_NOT_VERIFIED. Read-only; the plan stays usable whatever it returns, so the
 * caller decides (reload the plan from a good copy, reset, report). */
tgrs_status tgrs_plan_check_integrity(const tgrs_plan* plan, tgrs_verify_error* error);

/* The plan's checksum function: TGRS_CHECKSUM_NONE for a plan without Integrity. */
tgrs_checksum tgrs_plan_checksum(const tgrs_plan* plan);

/* CRC-32C (Castagnoli; reflected polynomial 0x82F63B78) of n bytes, continuing from `crc`
 * (0 to start: the init and final XOR with ~0 are inside). tgrs_crc32c(0, "123456789", 9)
 * is 0xE3069283. */
uint32_t tgrs_crc32c(uint32_t crc, const void* data, size_t n);

/* SHA-256 (FIPS 180-4) of n bytes into digest. */
void tgrs_sha256(const void* data, size_t n, uint8_t digest[32]);

/* Tamper evidence (docs/integrity.md): the checksums above catch accidents, but whoever
 * can change a plan can recompute them. A SHA-256 digest of the whole plan that the
 * firmware holds apart from it (in its own signed image; `tigris inspect` prints it)
 * cannot be recomputed that way. TGRS_OK when the initialised plan's bytes have digest
 * `expected`; TGRS_ERR_PLAN_CORRUPT otherwise (*error, may be NULL, says so);
 * TGRS_ERR_NULL_ARGUMENT; TGRS_ERR_PLAN_NOT_VERIFIED. About 55 Cortex-M4 instructions
 * per byte, 12 times the CRC's: once per boot, for those who need it. */
tgrs_status tgrs_plan_check_digest(const tgrs_plan* plan, const uint8_t expected[32],
                                   tgrs_verify_error* error);

/* For tools that write or edit plans, not for a firmware: fills in the checksums of a plan
 * whose Integrity table is present (with vectors of the right lengths), in place. A plan
 * that does not verify gets its tables_crc only, so the verifier still reports its defect
 * rather than a checksum mismatch. TGRS_ERR_NO_CHECKSUM when there is no Integrity;
 * TGRS_ERR_PLAN_MISALIGNED unless bytes is TGRS_PLAN_ALIGNMENT-aligned. */
tgrs_status tgrs_plan_seal(void* bytes, size_t size);

/* --- header ------------------------------------------------------------------------- */
uint32_t tgrs_plan_schema_version(const tgrs_plan* plan);
const char* tgrs_plan_generator(const tgrs_plan* plan);
const char* tgrs_plan_model_name(const tgrs_plan* plan);
uint32_t tgrs_plan_fast_arena_bytes(const tgrs_plan* plan);
uint32_t tgrs_plan_slow_arena_bytes(const tgrs_plan* plan);
uint32_t tgrs_plan_scheduled_peak_bytes(const tgrs_plan* plan);
bool tgrs_plan_xip(const tgrs_plan* plan);
tgrs_compression tgrs_plan_compression(const tgrs_plan* plan);

/* --- spans (zero-copy views into the plan) ------------------------------------------ */
typedef struct tgrs_i32s {
  const int32_t* data;
  uint32_t count;
} tgrs_i32s;
typedef struct tgrs_f32s {
  const float* data;
  uint32_t count;
} tgrs_f32s;
typedef struct tgrs_i8s {
  const int8_t* data;
  uint32_t count;
} tgrs_i8s;
typedef struct tgrs_u8s {
  const uint8_t* data;
  uint32_t count;
} tgrs_u8s;

tgrs_i32s tgrs_plan_inputs(const tgrs_plan* plan);     /* graph inputs, tensor indices */
tgrs_i32s tgrs_plan_outputs(const tgrs_plan* plan);    /* graph outputs */
tgrs_u8s tgrs_plan_weight_data(const tgrs_plan* plan); /* 16-aligned in memory */

uint32_t tgrs_plan_tensor_count(const tgrs_plan* plan);
uint32_t tgrs_plan_op_count(const tgrs_plan* plan);
uint32_t tgrs_plan_stage_count(const tgrs_plan* plan);
uint32_t tgrs_plan_chain_count(const tgrs_plan* plan);
uint32_t tgrs_plan_slow_buffer_count(const tgrs_plan* plan);
uint32_t tgrs_plan_weight_count(const tgrs_plan* plan);
uint32_t tgrs_plan_weight_block_count(const tgrs_plan* plan);
/* Memories the plan's homes live in, indexed by tgrs_region (FAST, SLOW, FLASH, HOST, then
 * named memories); 0 for plans written before the list. */
uint32_t tgrs_plan_memory_count(const tgrs_plan* plan);
/* Bytes of the PINNED arena (its Memory entry; schema 4): 0 when the plan pins nothing. */
uint32_t tgrs_plan_pinned_arena_bytes(const tgrs_plan* plan);

/* --- element views ------------------------------------------------------------------
 * tgrs_plan_get_X(plan, index, &out) fills `out` with the X at `index` and returns
 * TGRS_OK, TGRS_ERR_NULL_ARGUMENT, or TGRS_ERR_BAD_INDEX (index >= count; `out` is then
 * zeroed). Absent fields read as their schema defaults. */

typedef struct tgrs_plan_tensor {
  const char* name;
  tgrs_dtype dtype;
  tgrs_i32s shape; /* runtime layout: NHWC for rank 4, NWC for rank 3 */
  bool has_quant;
  tgrs_f32s scale;      /* 1 entry or one per channel */
  tgrs_i32s zero_point; /* same length as scale */
  int32_t quant_axis;   /* -1 unless per channel */
  int32_t weight;       /* index into the weights, -1 for activations */
  tgrs_i32s host_permutation;
  tgrs_i32s onnx_shape;
  /* What the caller passes or receives: `dtype`, or UINT8 for an INT8 graph input or output
   * the model declares uint8 (the runtime flips the top bit of each byte as it copies:
   * uint8 q is int8 q - 128; the zero point above is the int8 one). */
  tgrs_dtype host_dtype;
} tgrs_plan_tensor;
tgrs_status tgrs_plan_get_tensor(const tgrs_plan* plan, uint32_t index, tgrs_plan_tensor* out);
/* Elements * dtype size (verified not to overflow uint32). */
uint32_t tgrs_plan_tensor_bytes(const tgrs_plan_tensor* tensor);

typedef struct tgrs_plan_op {
  tgrs_op_code code;
  const char* name;
  tgrs_i32s inputs; /* tensor indices; -1 for an absent optional input */
  tgrs_i32s outputs;
  bool has_attrs; /* read them with tgrs_plan_get_op_attrs() */
  tgrs_activation activation;
  tgrs_i32s output_multiplier; /* Q0.31 */
  tgrs_i8s output_shift;       /* same length as output_multiplier; > 0 is a left shift */
  int32_t act_min;
  int32_t act_max;
  tgrs_i32s input_multiplier;
  tgrs_i8s input_shift;
  int32_t left_shift;
  tgrs_i8s lut; /* empty or 256 entries indexed by input + 128 */
  tgrs_f32s channel_scale;
  tgrs_f32s channel_shift;
  tgrs_i32s channel_offset; /* int8 batch norm: per-channel offset after requantization */
  /* int8 ops: the integer arithmetic, a tgrs_rounding (tgrs_kernels.h): 0 ONNX's single
   * rounding, 1 TFLite's (plans compiled from a .tflite). */
  int32_t rounding;
} tgrs_plan_op;
tgrs_status tgrs_plan_get_op(const tgrs_plan* plan, uint32_t index, tgrs_plan_op* out);

typedef struct tgrs_plan_op_attrs {
  tgrs_i32s kernel, strides, pads, dilations;
  int32_t group;
  int32_t axis;
  tgrs_i32s perm, shape;
  float alpha, beta, gamma, min, max;
  tgrs_f32s scales;
  const char* mode;
  const char* coordinate_transformation_mode;
  const char* nearest_mode;
  bool count_include_pad, ceil_mode;
  tgrs_i32s axes;
  bool keepdims;
  tgrs_i32s output_padding;
  float pad_value;
  tgrs_i32s view_shape; /* reshape across layouts: transpose by perm of this view */
  float bias;           /* LRN: the denominator's additive constant */
  tgrs_i32s starts;     /* SLICE: first input index per runtime axis (steps: strides) */
  /* The recurrent ops' fields (activations, activation_alpha, activation_beta,
   * linear_before_reset, output_roles) are read by their op function alone: this struct's
   * reader addresses members by one byte of offset, which they would pass. */
} tgrs_plan_op_attrs;
/* Op `index`'s attributes; an op without an attrs table gets all defaults. */
tgrs_status tgrs_plan_get_op_attrs(const tgrs_plan* plan, uint32_t index, tgrs_plan_op_attrs* out);

typedef struct tgrs_home {
  uint32_t offset; /* multiple of 16 in FAST and SLOW */
  uint32_t size;   /* payload rounded up to 16 */
  tgrs_memory_region region;
} tgrs_home;

typedef struct tgrs_plan_buffer {
  tgrs_buffer_kind kind;
  int32_t tensor; /* -1 for scratch */
  int32_t op;     /* scratch: the op using it, else -1 */
  int32_t first_op, last_op;
  uint32_t bytes; /* payload; a row strip's largest tile */
  bool has_home;
  tgrs_home home;
} tgrs_plan_buffer;

/* Same layout as the schema's TileRegion struct: the reader hands out a pointer into the
 * plan. Rows are full-tensor indices along the tile plan's dimension. */
typedef struct tgrs_tile_region {
  int32_t in_begin, in_end;   /* data input rows [in_begin, in_end) */
  int32_t out_begin, out_end; /* output rows */
  int32_t pad_before, pad_after;
} tgrs_tile_region;

typedef struct tgrs_plan_tile {
  tgrs_tile_dim dim;
  int32_t tile_size, count, halo;
  tgrs_i32s ops;
  const tgrs_tile_region* regions; /* count * ops.count, tile-major */
  uint32_t region_count;
  uint32_t peak_bytes;
  uint32_t buffer_count; /* read them with tgrs_plan_tile_buffer() */
  const uint8_t* buffers_;
  /* Streamed (line-buffered) loop: an op before the last writes only rows no earlier tile
   * wrote, after its output strip moved the rows its reader still needs to its top
   * (docs/runtime-executor.md, "Streamed tile loops"). */
  bool streamed;
  /* 2-D tiles (schema 2): per tile and op slot, laid out like `regions`, the columns
   * (runtime W) read and written; NULL when every tile spans the full width. */
  const tgrs_tile_region* columns;
  uint32_t column_count;
  /* Channel groups (schema 2): per tile and op slot, the channels (runtime C) read (in_*)
   * and written (out_*); NULL when every tile holds every channel. */
  const tgrs_tile_region* channels;
  uint32_t channel_count;
} tgrs_plan_tile;
/* Region of op slot `k` (0 <= k < ops.count) in tile `t`; NULL when out of range. */
const tgrs_tile_region* tgrs_plan_tile_region(const tgrs_plan_tile* tile, uint32_t t, uint32_t k);
/* Columns of op slot `k` in tile `t` of a 2-D tile loop; NULL when the loop has no columns
 * (full width) or the slot is out of range. */
const tgrs_tile_region* tgrs_plan_tile_columns(const tgrs_plan_tile* tile, uint32_t t, uint32_t k);
/* Channels of op slot `k` in tile `t` of a loop with channel groups; NULL without them. */
const tgrs_tile_region* tgrs_plan_tile_channels(const tgrs_plan_tile* tile, uint32_t t, uint32_t k);
tgrs_status tgrs_plan_tile_buffer(const tgrs_plan_tile* tile, uint32_t index,
                                  tgrs_plan_buffer* out);

typedef struct tgrs_plan_stage {
  int32_t id;
  tgrs_stage_strategy strategy;
  tgrs_i32s ops; /* consecutive op indices */
  bool has_tile; /* TILED: read it with tgrs_plan_get_stage_tile() */
  int32_t chain; /* CHAIN: index into the chains, else -1 */
  uint32_t peak_bytes;
  tgrs_i32s spill_in, spill_out;
  int32_t weight_block; /* -1 unless the plan is compressed */
  uint32_t fast_reserved_bytes;
  uint32_t buffer_count; /* NORMAL: read them with tgrs_plan_get_stage_buffer() */
} tgrs_plan_stage;
tgrs_status tgrs_plan_get_stage(const tgrs_plan* plan, uint32_t index, tgrs_plan_stage* out);
tgrs_status tgrs_plan_get_stage_buffer(const tgrs_plan* plan, uint32_t stage, uint32_t index,
                                       tgrs_plan_buffer* out);
/* TGRS_ERR_MISSING_FIELD (out zeroed) when the stage has no tile plan. */
tgrs_status tgrs_plan_get_stage_tile(const tgrs_plan* plan, uint32_t stage, tgrs_plan_tile* out);

typedef struct tgrs_plan_chain {
  int32_t id;
  tgrs_i32s stages;
} tgrs_plan_chain;
tgrs_status tgrs_plan_get_chain(const tgrs_plan* plan, uint32_t index, tgrs_plan_chain* out);
tgrs_status tgrs_plan_get_chain_tile(const tgrs_plan* plan, uint32_t chain, tgrs_plan_tile* out);

tgrs_status tgrs_plan_get_slow_buffer(const tgrs_plan* plan, uint32_t index, tgrs_plan_buffer* out);

typedef struct tgrs_plan_weight {
  uint32_t offset; /* multiple of 16, in weight_data or in the decompressed block */
  uint32_t size;
  int32_t block; /* -1: raw in weight_data; else index into the weight blocks */
  /* block == -1: the bytes in place (16-aligned); NULL when inside a block. */
  const uint8_t* data;
} tgrs_plan_weight;
tgrs_status tgrs_plan_get_weight(const tgrs_plan* plan, uint32_t index, tgrs_plan_weight* out);

/* The weights of one residency unit (a stage, or every stage of a chain), filled into
 * fast[0, raw_size) before the unit runs (docs/plan-format.md "Weights"):
 * compressed_size == raw_size is a plain copy, compressed_size < raw_size an LZ4 block
 * (tgrs_lz4_decode) that yields exactly raw_size bytes. */
typedef struct tgrs_plan_weight_block {
  int32_t stage;   /* the unit's first stage */
  uint32_t offset; /* in weight_data */
  uint32_t compressed_size;
  uint32_t raw_size;
  const uint8_t* compressed; /* weight_data + offset */
} tgrs_plan_weight_block;
typedef struct tgrs_plan_memory {
  const char* name; /* "fast", "slow", "flash", "host", ... */
  uint32_t size;    /* bytes of it the plan uses (an arena's size; 0 for host) */
  uint32_t alignment;
} tgrs_plan_memory;
tgrs_status tgrs_plan_get_memory(const tgrs_plan* plan, uint32_t index, tgrs_plan_memory* out);

tgrs_status tgrs_plan_get_weight_block(const tgrs_plan* plan, uint32_t index,
                                       tgrs_plan_weight_block* out);

/* Persistent state (schema 3, format/tgrs.fbs StateSlot): graph input `input` (a position
 * in tgrs_plan_inputs) reads, through a context, what graph output `output` held after the
 * previous invoke, zeros before the first; the bytes live at [offset, offset + size) of
 * the STATE arena, in the caller's layout and dtype. */
typedef struct tgrs_plan_state_slot {
  uint32_t input;
  uint32_t output;
  uint32_t offset;
  uint32_t size;
} tgrs_plan_state_slot;
uint32_t tgrs_plan_state_count(const tgrs_plan* plan);
tgrs_status tgrs_plan_get_state(const tgrs_plan* plan, uint32_t index, tgrs_plan_state_slot* out);

/* Staged constants (schema 3): the bytes a context copies to the start of its CONSTANTS
 * arena before the first invoke (count 0: none), and where they start in weight_data. */
tgrs_u8s tgrs_plan_staged_constants(const tgrs_plan* plan);
uint32_t tgrs_plan_staged_offset(const tgrs_plan* plan);

/* ======================================================================================
 * LZ4 block decoder (the LZ4 block format, no frame; one block per stage). Written from
 * the specification (doc/lz4_Block_format.md), not vendored.
 * ====================================================================================== */

/* Decodes the LZ4 block src[0, src_size) into dst[0, dst_capacity) and stores the decoded
 * length in *out_written (when not NULL; 0 on failure). Every read stays inside src and
 * every write inside dst, whatever the input:
 *  - TGRS_ERR_LZ4_CORRUPT: empty or truncated block, a match offset of 0 or reaching
 *    before dst, a length that overflows, a block not ending with literals;
 *  - TGRS_ERR_LZ4_DST_TOO_SMALL: a valid-so-far block decodes past dst_capacity;
 *  - TGRS_ERR_NULL_ARGUMENT: src NULL, or dst NULL with dst_capacity > 0.
 * dst and src must not overlap. Overlapping matches (offset < length) repeat the
 * pattern, as the format requires. */
tgrs_status tgrs_lz4_decode(uint8_t* dst, size_t dst_capacity, const uint8_t* src, size_t src_size,
                            size_t* out_written);

#ifdef __cplusplus
}
#endif

#endif /* TIGRIS_RUNTIME_H_ */
