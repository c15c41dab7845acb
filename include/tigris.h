/*
 * tigris.h: the stable C ABI of libtigris, the TiGrIS model compiler.
 *
 * TiGrIS compiles an ONNX model (float32 or int8 QDQ) under an SRAM budget into a .tgrs
 * execution plan for the TiGrIS microcontroller runtime.
 *
 * Conventions (they hold for every function below):
 *  - C99, no C++ types, no exceptions across this boundary.
 *  - Every fallible function returns a tigris_status; TIGRIS_OK is 0. Status values are
 *    pinned forever: new codes are appended, retired ones are never reused.
 *  - Out-parameters come first. A function that creates a handle stores NULL in *out on
 *    failure. Every handle has a matching *_free function, and every *_free accepts NULL.
 *  - Messages: each handle keeps the message of the last failure of a call made on it
 *    (tigris_model_last_error). Because a failed create has no handle, the message of the
 *    most recent failure on the calling thread is also kept in tigris_last_error().
 *  - Strings and arrays returned by the library are owned by the handle they came from and
 *    stay valid until that handle is freed, unless a function says otherwise.
 *  - Structs passed in or out start with `int version`: set it to the *_VERSION macro (the
 *    *_INIT macros and *_init functions do). Fields are only ever appended, so a program
 *    built against an older header keeps working with a newer library.
 *  - Sizes are in bytes everywhere. Human sizes ("256K", "1.5MiB") are parsed only by
 *    tigris_parse_size.
 */
#ifndef TIGRIS_H_
#define TIGRIS_H_

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------------------
 * Export macro and version
 * ------------------------------------------------------------------------------------- */
#if defined(_WIN32)
#if defined(TIGRIS_BUILDING_LIBRARY)
#define TIGRIS_API __declspec(dllexport)
#else
#define TIGRIS_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#define TIGRIS_API __attribute__((visibility("default")))
#else
#define TIGRIS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TIGRIS_VERSION_MAJOR 0
#define TIGRIS_VERSION_MINOR 4
#define TIGRIS_VERSION_PATCH 0
/* One comparable number: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define TIGRIS_VERSION_NUMBER \
  (TIGRIS_VERSION_MAJOR * 10000 + TIGRIS_VERSION_MINOR * 100 + TIGRIS_VERSION_PATCH)

/* The version of the library actually loaded, as "MAJOR.MINOR.PATCH" (static storage).
 * Compare tigris_version_number() with TIGRIS_VERSION_NUMBER to detect a mismatch between
 * the header a program was built with and the shared library it runs with. @since 0.1 */
TIGRIS_API const char* tigris_version(void);
TIGRIS_API unsigned tigris_version_number(void);

/* ---------------------------------------------------------------------------------------
 * Status codes (pinned; values < 1000 are stable forever)
 * ------------------------------------------------------------------------------------- */
typedef enum tigris_status {
  TIGRIS_OK = 0,
  TIGRIS_ERR_INVALID_ARGUMENT = 1, /* NULL where a value is required, bad option, bad size */
  TIGRIS_ERR_IO = 2,               /* a file could not be opened, read or written */
  TIGRIS_ERR_EMPTY_MODEL = 3,      /* zero bytes */
  TIGRIS_ERR_NOT_ONNX = 4,         /* bytes that are not an ONNX ModelProto */
  TIGRIS_ERR_TRUNCATED_MODEL = 5,  /* a protobuf that ends inside a field */
  TIGRIS_ERR_INVALID_MODEL = 6,    /* well-formed protobuf, inconsistent model */
  TIGRIS_ERR_GRAPH_CYCLE = 7,      /* the graph is not a DAG */
  TIGRIS_ERR_DANGLING_INPUT = 8,   /* a node input that nothing produces */
  TIGRIS_ERR_UNSUPPORTED_OP = 9,   /* an op the runtime cannot run (named in the message) */
  TIGRIS_ERR_DYNAMIC_SHAPE = 10,   /* a symbolic dimension no option pins */
  TIGRIS_ERR_SHAPE_INFERENCE = 11, /* shapes that cannot be resolved or contradict */
  TIGRIS_ERR_EXTERNAL_DATA = 12,   /* external tensor data missing or unreadable */
  TIGRIS_ERR_UNSUPPORTED_DTYPE = 13,
  TIGRIS_ERR_UNSUPPORTED_QUANTIZATION = 14,
  TIGRIS_ERR_OUT_OF_MEMORY = 15,
  TIGRIS_ERR_INTERNAL = 16,               /* a bug in libtigris: please report it */
  TIGRIS_ERR_INVALID_BUDGET = 17,         /* a memory budget of 0 or otherwise unusable */
  TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL = 18,  /* the spills do not fit the slow-memory budget */
  TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL = 19, /* the plan does not fit the flash budget */
  TIGRIS_ERR_VERSION_MISMATCH = 20,       /* a struct version this library does not know */
  TIGRIS_ERR_DOES_NOT_FIT = 21,           /* a stage cannot fit the fast budget (ops named) */
  TIGRIS_ERR_INVALID_PLAN = 22            /* .tgrs bytes the runtime's verifier rejects */
} tigris_status;

/* Stable identifier of a status, e.g. "TIGRIS_ERR_GRAPH_CYCLE" (static storage). */
TIGRIS_API const char* tigris_status_name(tigris_status status);

/* Message of the most recent failure on the calling thread ("" if none). Valid until the
 * next failing call on this thread. */
TIGRIS_API const char* tigris_last_error(void);

/* Parses a human size: a plain byte count ("262144") or a number with a binary unit:
 * K/KB/KiB = 1024, M/MB/MiB = 1024^2, G/GB/GiB = 1024^3 (case-insensitive, fractions
 * allowed: "1.5MiB"). The result must be a whole, positive number of bytes.
 * @return TIGRIS_OK, or TIGRIS_ERR_INVALID_ARGUMENT with tigris_last_error() set. */
TIGRIS_API tigris_status tigris_parse_size(uint64_t* out_bytes, const char* text);

/* ---------------------------------------------------------------------------------------
 * Element types (pinned)
 * ------------------------------------------------------------------------------------- */
typedef enum tigris_dtype {
  TIGRIS_DTYPE_UNKNOWN = 0,
  TIGRIS_DTYPE_FLOAT32 = 1,
  TIGRIS_DTYPE_INT8 = 2,
  TIGRIS_DTYPE_UINT8 = 3,
  TIGRIS_DTYPE_INT16 = 4,
  TIGRIS_DTYPE_INT32 = 5,
  TIGRIS_DTYPE_INT64 = 6,
  TIGRIS_DTYPE_FLOAT16 = 7,
  TIGRIS_DTYPE_FLOAT64 = 8,
  TIGRIS_DTYPE_BOOL = 9,
  TIGRIS_DTYPE_UINT16 = 10
} tigris_dtype;

/* ---------------------------------------------------------------------------------------
 * Loading a model
 * ------------------------------------------------------------------------------------- */
typedef struct tigris_model tigris_model;

/* Pins one symbolic dimension by name, e.g. {"batch", 1}. */
typedef struct tigris_dim_binding {
  const char* name;
  int64_t value;
} tigris_dim_binding;

/* Replaces the declared shape of one graph input, e.g. {"input", 4, dims}. */
typedef struct tigris_input_shape {
  const char* name;
  size_t rank;
  const int64_t* dims;
} tigris_input_shape;

#define TIGRIS_LOAD_OPTIONS_VERSION 1
typedef struct tigris_load_options {
  int version; /* TIGRIS_LOAD_OPTIONS_VERSION */
  /* Value for symbolic dimensions that no binding names. Default 1 (the batch). 0 makes an
   * unpinned symbolic dimension an error (TIGRIS_ERR_DYNAMIC_SHAPE). */
  int64_t default_dim;
  const tigris_dim_binding* dims; /* may be NULL when num_dims is 0 */
  size_t num_dims;
  const tigris_input_shape* input_shapes; /* may be NULL when num_input_shapes is 0 */
  size_t num_input_shapes;
  /* Folder holding external-data files; NULL = the model file's folder (or none when
   * loading from memory). */
  const char* external_data_dir;
} tigris_load_options;

#define TIGRIS_LOAD_OPTIONS_INIT \
  { TIGRIS_LOAD_OPTIONS_VERSION, 1, NULL, 0, NULL, 0, NULL }
/* Fills *opts with the defaults of `version`. */
TIGRIS_API tigris_status tigris_load_options_init(tigris_load_options* opts, int version);

/* Loads an ONNX model or a TensorFlow Lite model, resolves every shape, and normalizes it
 * toward the runtime's operator set, then verifies that every op is one the runtime runs.
 * The format is read from the content, not the file name: bytes with TFLite's FlatBuffer
 * identifier "TFL3" (bytes 4-7) are a .tflite (docs/tflite.md), anything else ONNX. The
 * load options' dims, input shapes and external data apply to ONNX only (a .tflite with
 * any of them set is TIGRIS_ERR_INVALID_ARGUMENT).
 * @param out      receives the model handle; free it with tigris_model_free
 * @param path     path of a .onnx or .tflite file
 * @param options  NULL for the defaults
 * @return TIGRIS_OK or the status of the first defect found (see tigris_last_error()):
 *         TIGRIS_ERR_IO naming the path and the cause when it is missing, unreadable or
 *         a directory; TIGRIS_ERR_EMPTY_MODEL for an empty file, _TRUNCATED_MODEL for one
 *         cut short. */
TIGRIS_API tigris_status tigris_load(tigris_model** out, const char* path,
                                     const tigris_load_options* options);

/* As tigris_load, from `size` bytes at `data` (copied; the caller keeps ownership). */
TIGRIS_API tigris_status tigris_load_from_memory(tigris_model** out, const void* data, size_t size,
                                                 const tigris_load_options* options);

TIGRIS_API void tigris_model_free(tigris_model* model);

/* Message of the last failed call on this model ("" if none). */
TIGRIS_API const char* tigris_model_last_error(const tigris_model* model);

/* ---------------------------------------------------------------------------------------
 * Reading the normalized graph
 * Tensors and ops are addressed by index: 0 .. count-1.
 * ------------------------------------------------------------------------------------- */
TIGRIS_API const char* tigris_model_name(const tigris_model* model);
TIGRIS_API size_t tigris_model_op_count(const tigris_model* model);
TIGRIS_API size_t tigris_model_tensor_count(const tigris_model* model);
TIGRIS_API size_t tigris_model_input_count(const tigris_model* model);
TIGRIS_API size_t tigris_model_output_count(const tigris_model* model);
/* Tensor index of graph input / output i, or -1 when i is out of range. */
TIGRIS_API int32_t tigris_model_input(const tigris_model* model, size_t i);
TIGRIS_API int32_t tigris_model_output(const tigris_model* model, size_t i);

#define TIGRIS_OP_INFO_VERSION 1
typedef struct tigris_op_info {
  int version;      /* set by the caller: TIGRIS_OP_INFO_VERSION */
  const char* type; /* "Conv", "DepthwiseConv", "Relu6", ... */
  const char* name; /* node name */
  size_t num_inputs;
  const int32_t* inputs; /* tensor indices; -1 for an absent optional input */
  size_t num_outputs;
  const int32_t* outputs;
  const char* fused_activation; /* "none", "relu" or "relu6" */
} tigris_op_info;

#define TIGRIS_TENSOR_INFO_VERSION 1
typedef struct tigris_tensor_info {
  int version; /* set by the caller: TIGRIS_TENSOR_INFO_VERSION */
  const char* name;
  tigris_dtype dtype;
  size_t rank;
  const int64_t* shape; /* NCHW order for activations, as in ONNX */
  int is_constant;      /* 1 for weights and other constants */
  size_t num_scales;    /* 0 when not quantized, 1 per tensor, else per channel */
  const float* scales;
  const int32_t* zero_points;
  int32_t quant_axis; /* channel axis when per channel, else -1 */
} tigris_tensor_info;

/* Fills *info for op / tensor `index`. info->version must be set.
 * @return TIGRIS_ERR_INVALID_ARGUMENT for an index out of range. */
TIGRIS_API tigris_status tigris_model_op(const tigris_model* model, size_t index,
                                         tigris_op_info* info);
TIGRIS_API tigris_status tigris_model_tensor(const tigris_model* model, size_t index,
                                             tigris_tensor_info* info);

/* The normalized model as JSON: {"model": {name, ops, op_types, tensors, dtype, inputs,
 * outputs, graph: {...}}} (docs/json.md). Owned by the model. */
TIGRIS_API const char* tigris_model_json(const tigris_model* model);

/* ---------------------------------------------------------------------------------------
 * Memory analysis and partition planning
 * ------------------------------------------------------------------------------------- */
typedef struct tigris_analysis tigris_analysis;

/* How the model runs under the budget (pinned values). */
typedef enum tigris_verdict {
  TIGRIS_VERDICT_OK = 0,          /* fits in one stage */
  TIGRIS_VERDICT_PARTITIONED = 1, /* fits as several stages with spills, no tiling */
  TIGRIS_VERDICT_TILED = 2,       /* tiling (and chains) make every stage fit */
  TIGRIS_VERDICT_NEEDS_WORK = 3   /* some stage cannot fit; the JSON names ops and reasons */
} tigris_verdict;

/* How the planner places buffers in an arena (docs/memory-model.md). */
typedef enum tigris_layout {
  /* The lower of two greedy layouts (first fit; greedy by size, best fit). Fast. */
  TIGRIS_LAYOUT_GREEDY = 0,
  /* Then, for every arena above its live-bytes bound, an exact solve (a MILP, COIN-OR
   * CBC) within time_limit_seconds for the whole plan. Never worse than greedy. */
  TIGRIS_LAYOUT_EXACT = 1
} tigris_layout;

/* Told about long work (an exact layout solve running past a second; a search), one line
 * of text at a time, on the thread that called tigris_analyze / tigris_plan. A search
 * reports "explore: DONE/TOTAL configurations, PASSES passes" as it goes. */
typedef void (*tigris_progress_fn)(const char* message, void* user_data);

/* What the planner optimizes (pinned values; docs/planning.md, "Search"). */
typedef enum tigris_objective {
  /* One planning pass: the simplest tiling strategies that fit, the largest tiles, the FDT
   * splits where they plan better. The default. */
  TIGRIS_OBJECTIVE_NONE = 0,
  /* Search: plan under every configuration of tiling strategies and FDT splits at a series
   * of lower planning budgets, and take the plan with the least fast memory (ties: least
   * recompute, slow traffic, tile steps). The JSON's "exploration" lists every plan that
   * fits and marks the Pareto front. */
  TIGRIS_OBJECTIVE_MEMORY = 1,
  /* Search, then the least recompute MACs (ties: least slow traffic, tile steps, fast
   * memory). */
  TIGRIS_OBJECTIVE_LATENCY = 2
} tigris_objective;

#define TIGRIS_ANALYZE_OPTIONS_VERSION 4
/* slow_bytes of tigris_analyze_options and tigris_plan_options: the part has no memory
 * besides the fast one (`-m FAST -m 0`; docs/memories.md, "One RAM"). fast_bytes is then the
 * whole RAM: scratch and spills share it, the planner choosing the split, and the plan is
 * placed as for a target of that one RAM and a flash of flash_bytes (0: any size). */
#define TIGRIS_NO_SLOW_MEMORY 0xFFFFFFFFFFFFFFFFull

typedef struct tigris_analyze_options {
  int version;         /* TIGRIS_ANALYZE_OPTIONS_VERSION */
  uint64_t fast_bytes; /* SRAM budget in bytes; required, > 0 */
  /* Slow memory (PSRAM) for spills; 0 = not given: unlimited, and the footprint needed is
   * reported. When given, spills that do not fit are TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL.
   * TIGRIS_NO_SLOW_MEMORY: none at all, the spills share fast_bytes. */
  uint64_t slow_bytes;
  uint64_t flash_bytes; /* flash budget for weights and plan; 0 = not given */
  /* Since version 2 (a version-1 struct ends above and plans with the defaults). */
  tigris_layout layout;        /* default TIGRIS_LAYOUT_GREEDY */
  double time_limit_seconds;   /* TIGRIS_LAYOUT_EXACT: all solves together, > 0; default 10 */
  tigris_progress_fn progress; /* NULL (default): silent */
  void* progress_user_data;
  /* Since version 3: 1 (default) lets the planner split what feature-map tiling cannot, as
   * the FDT paper does (docs/planning.md, "Rewrites": embedding-as-rows and
   * fdt-fan-out-fan-in); 0 plans with feature-map tiling alone. */
  int fdt;
  /* Since version 4: a tigris_objective (default TIGRIS_OBJECTIVE_NONE), and with a search,
   * the most recompute a chosen plan may have, in percent of the model's MACs (negative, the
   * default: no limit; when plans fit but none within it: TIGRIS_ERR_DOES_NOT_FIT). */
  tigris_objective objective;
  double max_recompute_percent;
} tigris_analyze_options;

#define TIGRIS_ANALYZE_OPTIONS_INIT                                                     \
  {                                                                                     \
    TIGRIS_ANALYZE_OPTIONS_VERSION, 0, 0, 0, TIGRIS_LAYOUT_GREEDY, 10.0, NULL, NULL, 1, \
        TIGRIS_OBJECTIVE_NONE, -1.0                                                     \
  }
TIGRIS_API tigris_status tigris_analyze_options_init(tigris_analyze_options* opts, int version);

/* Plans `model` under the budgets: lifetimes, memory timeline, temporal partitioning,
 * spatial tiling and chains (docs/planning.md). The model is only read; it must outlive
 * nothing: the analysis copies what it needs.
 * @return TIGRIS_OK (whatever the verdict, a refusal included: tigris_analysis_refusal),
 *         TIGRIS_ERR_INVALID_BUDGET for fast_bytes 0, TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL when
 *         the spills exceed slow_bytes. */
TIGRIS_API tigris_status tigris_analyze(tigris_analysis** out, const tigris_model* model,
                                        const tigris_analyze_options* options);
/* tigris_analyze for a target description (the YAML text of `target_yaml`, named `source`
 * in messages; docs/memories.md): the fast budget is the fastest writable memory's size,
 * so options->fast_bytes, slow_bytes and flash_bytes must be 0. The JSON gains "target"
 * ({"source", "spills_fit"}) and "memories" ([{"name", "size", "used_bytes", "peak_bytes",
 * "traffic_bytes", "role"}], as tigris_plan_memories_json; scratch counts activations
 * alone, the plan memory the weights).
 * @return as tigris_analyze, and TIGRIS_ERR_INVALID_ARGUMENT for a malformed target. */
TIGRIS_API tigris_status tigris_analyze_for_target(tigris_analysis** out, const tigris_model* model,
                                                   const tigris_analyze_options* options,
                                                   const char* target_yaml, const char* source);
TIGRIS_API void tigris_analysis_free(tigris_analysis* analysis);

/* Headline numbers (bytes, MACs). Zero / TIGRIS_VERDICT_NEEDS_WORK on a NULL handle. */
TIGRIS_API tigris_verdict tigris_analysis_verdict(const tigris_analysis* analysis);
/* The verdict is a promise: a plan whose stages all fit is compiled by tigris_analyze as
 * tigris_plan (tigris_plan_for_target) compiles it with its default options, and read back
 * by the runtime's verifier. Where that refuses it, the verdict is
 * TIGRIS_VERDICT_NEEDS_WORK, refusal_status is the status tigris_plan would return
 * (TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL, TIGRIS_ERR_UNSUPPORTED_OP, ...) and refusal its
 * message (owned by the analysis). TIGRIS_OK and "" when nothing was refused (a stage that
 * does not fit is told by the verdict and the JSON's stage reasons);
 * TIGRIS_ERR_INVALID_ARGUMENT and "" for a NULL handle. The JSON's "refusal" says the
 * same: {"status", "message"}, or null. Since 0.3. */
TIGRIS_API tigris_status tigris_analysis_refusal_status(const tigris_analysis* analysis);
TIGRIS_API const char* tigris_analysis_refusal(const tigris_analysis* analysis);
/* Largest fast-memory footprint over all stages, exact: what the runtime will touch. */
TIGRIS_API uint64_t tigris_analysis_scheduled_peak_bytes(const tigris_analysis* analysis);
/* Peak of live bytes if the whole model ran as one untiled stage. */
TIGRIS_API uint64_t tigris_analysis_naive_peak_bytes(const tigris_analysis* analysis);
/* Slow-memory footprint of the spills. */
TIGRIS_API uint64_t tigris_analysis_slow_peak_bytes(const tigris_analysis* analysis);
TIGRIS_API size_t tigris_analysis_stage_count(const tigris_analysis* analysis);
/* Stages that run as row tiles: strategy "tiled" or "chain" (a chain stage is a tiled
 * stage whose tile loop is fused with its neighbours'), so tiled_stage_count >=
 * chain_count, and stage_count - tiled_stage_count stages run whole. */
TIGRIS_API size_t tigris_analysis_tiled_stage_count(const tigris_analysis* analysis);
TIGRIS_API size_t tigris_analysis_chain_count(const tigris_analysis* analysis);
TIGRIS_API uint64_t tigris_analysis_macs(const tigris_analysis* analysis);
TIGRIS_API uint64_t tigris_analysis_recompute_macs(const tigris_analysis* analysis);
TIGRIS_API uint64_t tigris_analysis_slow_traffic_bytes(const tigris_analysis* analysis);

/* The full report as JSON: the "model" object of tigris_model_json (without the graph)
 * plus memory, budget, stages, chains, scheduled_peak_bytes, verdict, totals
 * (docs/json.md). Owned by the analysis. */
TIGRIS_API const char* tigris_analysis_json(const tigris_analysis* analysis);

/* An SVG picture of the memory timeline: live fast bytes per step, the budget line, stage
 * boundaries, tiled and chained stages marked. Owned by the analysis. */
TIGRIS_API const char* tigris_analysis_timeline_svg(const tigris_analysis* analysis);

/* ---------------------------------------------------------------------------------------
 * Plans and the .tgrs file
 * ------------------------------------------------------------------------------------- */
/* The handle tigris_plan creates. (Named apart from the function: C++ does not allow a
 * type and a function to share the name tigris_plan.) Its functions are tigris_plan_*. */
typedef struct tigris_execution_plan tigris_execution_plan;

typedef enum tigris_compression {
  TIGRIS_COMPRESSION_NONE = 0,
  TIGRIS_COMPRESSION_LZ4 = 1 /* weights LZ4-compressed per stage (liblz4 HC) */
} tigris_compression;

/* Where the runtime reads a plan's weights from (tigris_plan_options.xip; docs/planning.md,
 * "Weight residency"). */
typedef enum tigris_weights {
  /* Each stage's weights are copied (or decompressed) into a reserved prefix of the fast
   * arena before it runs; they count against fast_bytes, and a stage whose weights do not
   * fit beside its activations fails. */
  TIGRIS_WEIGHTS_COPIED = 0,
  /* Read in place from the plan (execute in place: the plan in flash). */
  TIGRIS_WEIGHTS_IN_PLACE = 1,
  /* In place, except the stages whose weights fit beside their activations within
   * fast_bytes and are read more than once per inference: those are copied. Weights
   * never make a plan infeasible. The default. */
  TIGRIS_WEIGHTS_AUTO = 2,
  /* Read in place by tgrs_run, and staged by a context: copied once, before the first
   * invoke (tgrs_hydrate_constants), into a CONSTANTS arena the caller binds, and read from
   * there (docs/memories.md, "Staged constants"). Since options version 3. */
  TIGRIS_WEIGHTS_STAGED = 3
} tigris_weights;

#define TIGRIS_PLAN_OPTIONS_VERSION 6
typedef struct tigris_plan_options {
  int version;          /* TIGRIS_PLAN_OPTIONS_VERSION */
  uint64_t fast_bytes;  /* SRAM budget, required, > 0 */
  uint64_t slow_bytes;  /* slow memory budget; 0 = not given (unlimited); or
                         * TIGRIS_NO_SLOW_MEMORY (one RAM, as in tigris_analyze_options) */
  uint64_t flash_bytes; /* flash budget for the whole .tgrs file; 0 = not given */
  /* A tigris_weights value: TIGRIS_WEIGHTS_AUTO (2, the default), _IN_PLACE (1),
   * _COPIED (0) or _STAGED (3, version 3). With LZ4 compression, AUTO copies every stage
   * (compressed bytes cannot be read in place) and IN_PLACE and STAGED are refused. */
  int xip;
  tigris_compression compression;
  /* Since version 2, as in tigris_analyze_options. */
  tigris_layout layout;
  double time_limit_seconds;
  tigris_progress_fn progress;
  void* progress_user_data;
  /* Since version 3: persistent state, "IN=OUT[,IN2=OUT2...]" (graph input and output
   * names; NULL or "" for none). Each IN reads, on every invoke through a runtime context,
   * what OUT held after the previous one, and zeros before the first (docs/memories.md,
   * "Persistent state"). */
  const char* state;
  /* Since version 3, tigris_plan_for_target only: placement rules, the YAML text of a
   * `tensors:` ruleset (docs/memories.md, "Rules"; NULL for none) and the name that
   * messages give it (NULL: "rules"). Rules decide where scratch, state and constants go;
   * constants are then read in place or staged as they say. */
  const char* rules_yaml;
  const char* rules_source;
  /* Since version 4, as in tigris_analyze_options. */
  int fdt;
  /* Since version 5, as in tigris_analyze_options (version 4). */
  tigris_objective objective;
  double max_recompute_percent;
  /* Since version 6: nonzero leaves op names and the names of tensors other than the
   * graph's inputs and outputs out of the plan (docs/plan-format.md, "Names"): tf2onnx's
   * names are hundreds of bytes each. Readers print indices instead. */
  int strip_names;
} tigris_plan_options;

#define TIGRIS_PLAN_OPTIONS_INIT                                                                  \
  {                                                                                               \
    TIGRIS_PLAN_OPTIONS_VERSION, 0, 0, 0, TIGRIS_WEIGHTS_AUTO, TIGRIS_COMPRESSION_NONE,           \
        TIGRIS_LAYOUT_GREEDY, 10.0, NULL, NULL, NULL, NULL, NULL, 1, TIGRIS_OBJECTIVE_NONE, -1.0, \
        0                                                                                         \
  }
TIGRIS_API tigris_status tigris_plan_options_init(tigris_plan_options* opts, int version);

/* Plans `model` under the budgets and lays out everything the runtime needs (NHWC
 * weights, requantization constants, lookup tables, arena offsets, tile regions).
 * @return TIGRIS_OK, TIGRIS_ERR_INVALID_BUDGET, TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL,
 *         TIGRIS_ERR_DOES_NOT_FIT (a stage exceeds fast_bytes; the message names its
 *         ops), TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL (plan size and budget in the message). */
TIGRIS_API tigris_status tigris_plan(tigris_execution_plan** out, const tigris_model* model,
                                     const tigris_plan_options* options);
/* Plans `model` for a target description: the YAML text of `target_yaml` (docs/memories.md;
 * `source` names it in messages, e.g. its file name, or NULL). The target gives the memory
 * sizes, so options->fast_bytes, slow_bytes and flash_bytes must be 0; the other options
 * apply as in tigris_plan. Scratch goes to the fastest writable memory, spills to the
 * fastest other writable memory with room, the plan (and the weights it keeps in place) to
 * the plan memory; tigris_plan_memories_json says what each memory holds.
 * @return TIGRIS_OK, TIGRIS_ERR_INVALID_ARGUMENT (a malformed target: the message names the
 *         source, line, column and field), TIGRIS_ERR_DOES_NOT_FIT,
 *         TIGRIS_ERR_SLOW_BUDGET_TOO_SMALL (no memory holds the spills),
 *         TIGRIS_ERR_FLASH_BUDGET_TOO_SMALL (the plan exceeds its memory). */
TIGRIS_API tigris_status tigris_plan_for_target(tigris_execution_plan** out,
                                                const tigris_model* model,
                                                const tigris_plan_options* options,
                                                const char* target_yaml, const char* source);
TIGRIS_API void tigris_plan_free(tigris_execution_plan* plan);
TIGRIS_API const char* tigris_plan_last_error(const tigris_execution_plan* plan);

/* Summary of a plan (bytes). */
TIGRIS_API uint64_t tigris_plan_file_bytes(const tigris_execution_plan* plan);
TIGRIS_API uint64_t tigris_plan_weight_bytes(const tigris_execution_plan* plan); /* raw */
TIGRIS_API uint64_t
tigris_plan_stored_weight_bytes(const tigris_execution_plan* plan); /* in file */
TIGRIS_API uint64_t tigris_plan_fast_arena_bytes(const tigris_execution_plan* plan);
TIGRIS_API uint64_t tigris_plan_slow_arena_bytes(const tigris_execution_plan* plan);
/* What the plan keeps in each memory, as JSON: [{"name", "size" (capacity; 0 = not given),
 * "used_bytes" and "peak_bytes" (the same: each arena is sized by its peak), "traffic_bytes"
 * (spill bytes moved per inference), "role" ("scratch", "spills", "plan", "state",
 * "constants", "pinned", joined by "+" when one memory holds several, "" when unused)}],
 * every memory of the target in order (tigris_plan: "fast", "slow", "flash"). Owned by the
 * plan; "[]" for NULL. */
TIGRIS_API const char* tigris_plan_memories_json(const tigris_execution_plan* plan);
/* Warnings from planning, one per line ("" when none, or for NULL): today, placement
 * rules whose ids match no tensor. Owned by the plan. */
TIGRIS_API const char* tigris_plan_warnings(const tigris_execution_plan* plan);
/* With a search (options' objective), what it found, as the analysis JSON's
 * "exploration" object (docs/json.md: the plans that fit, the Pareto front, the one
 * chosen); "null" when the plan was made in one pass, or for NULL. Owned by the plan. */
TIGRIS_API const char* tigris_plan_exploration_json(const tigris_execution_plan* plan);

/* The .tgrs bytes of `plan` in a new buffer the caller releases with tigris_free.
 * Deterministic: the same model and options give the same bytes. */
TIGRIS_API tigris_status tigris_emit(void** out_bytes, size_t* out_size,
                                     const tigris_execution_plan* plan);
/* Writes the .tgrs bytes to `path`, atomically: to a temporary file in the same directory
 * ("<path>.tmp.<pid>.<n>"), flushed to disk (fsync), then renamed over `path`. A reader
 * sees the old file or the new one, never part of either. On failure the temporary file is
 * removed and any file already at `path` is left untouched. The new file has the default
 * permissions (0666 less the umask); a symbolic link at `path` is replaced, not followed.
 * @return TIGRIS_ERR_IO naming the path, the step that failed and strerror(errno). */
TIGRIS_API tigris_status tigris_emit_to_file(const tigris_execution_plan* plan, const char* path);
/* Releases memory the library handed out (tigris_emit). Accepts NULL. */
TIGRIS_API void tigris_free(void* bytes);

/* ---------------------------------------------------------------------------------------
 * Running a plan on the host (the C99 runtime, linked into the library)
 * Lets a user check a .tgrs plan on their laptop before flashing it: the same executor
 * the microcontroller runs, with arenas of exactly the plan's sizes (or the given ones).
 * ------------------------------------------------------------------------------------- */
#define TIGRIS_RUN_IO_VERSION 1
/* One graph input or output. Inputs are in the ONNX layout and shape (NCHW), outputs are
 * written in it. dtype says what `data` holds:
 *  - inputs: the plan tensor's dtype as the caller sees it (passed through: UINT8 for a
 *    tensor the model declares uint8, which the runtime holds as int8), or FLOAT32 for an
 *    int8 input, which is quantized with the plan's input scale and zero point (ONNX
 *    QuantizeLinear);
 *  - outputs: the same, FLOAT32 dequantizing with the plan's output scale and zero
 *    point. */
typedef struct tigris_run_io {
  int version; /* TIGRIS_RUN_IO_VERSION */
  tigris_dtype dtype;
  void* data;  /* inputs: only read */
  size_t size; /* bytes of data: elements * dtype size */
} tigris_run_io;

#define TIGRIS_RUN_OPTIONS_VERSION 1
typedef struct tigris_run_options {
  int version;         /* TIGRIS_RUN_OPTIONS_VERSION */
  uint64_t fast_bytes; /* fast arena to run with; 0 = the plan's fast_arena_bytes */
  uint64_t slow_bytes; /* slow arena; 0 = the plan's slow_arena_bytes */
} tigris_run_options;
#define TIGRIS_RUN_OPTIONS_INIT \
  { TIGRIS_RUN_OPTIONS_VERSION, 0, 0 }

#define TIGRIS_RUN_STATS_VERSION 2
typedef struct tigris_run_stats {
  int version;               /* set by the caller: TIGRIS_RUN_STATS_VERSION */
  uint64_t fast_arena_bytes; /* the arenas the run used */
  uint64_t slow_arena_bytes;
  uint64_t fast_hwm_bytes; /* highest arena byte the runtime touched, + 1 */
  uint64_t slow_hwm_bytes;
  double run_seconds; /* wall time of the runtime's run alone (no conversions) */
  int runtime_status; /* the runtime's tgrs_status (0 = TGRS_OK) */
  int32_t failed_op;  /* op index at fault, or -1 */
  /* 1 when every arena byte at or beyond the high-water mark still holds the poison
   * pattern written before the run (the host-side proof that nothing past it was
   * touched), 0 otherwise. */
  int fast_untouched_beyond_hwm;
  int slow_untouched_beyond_hwm;
  /* Since version 2: the PINNED arena (tensors placement rules pin to a memory of their own,
   * docs/memories.md), 0 when the plan has none; as the fields above. */
  uint64_t pinned_arena_bytes;
  uint64_t pinned_hwm_bytes;
  int pinned_untouched_beyond_hwm;
} tigris_run_stats;

/* Verifies `plan` (plan_size bytes of a .tgrs, any alignment: it is copied) with the
 * runtime's reader and runs it once with fresh arenas (heap-allocated here, on the host).
 * inputs / outputs follow the plan's graph inputs / outputs.
 * @param options NULL for the plan's arena sizes
 * @param stats   NULL, or filled (its version must be set) on success and failure alike
 * @return TIGRIS_OK; TIGRIS_ERR_INVALID_ARGUMENT for wrong counts, sizes or dtypes, arenas
 *   smaller than the plan needs, or a plan the reader rejects; TIGRIS_ERR_UNSUPPORTED_OP
 *   for an op the runtime cannot run; TIGRIS_ERR_INTERNAL otherwise. tigris_last_error()
 *   names the runtime status (e.g. "TGRS_ERR_INPUT_SIZE") and the input, op or field.
 * @since 0.1 */
TIGRIS_API tigris_status tigris_run_plan(const void* plan, size_t plan_size,
                                         const tigris_run_options* options,
                                         const tigris_run_io* inputs, size_t num_inputs,
                                         tigris_run_io* outputs, size_t num_outputs,
                                         tigris_run_stats* stats);

/* Checks that the .tgrs bytes `plan` fit the target described by the YAML text of
 * `target_yaml` (`source` names it in messages, or NULL): every memory the plan names
 * (Plan.memories: its scratch, spill, state, constants and pinned arenas, and the memory
 * holding the plan file) is one of the target's, the arenas are in writable memory, and
 * what each memory holds fits its size. What `tigris run --target` checks before it runs.
 * @return TIGRIS_OK; TIGRIS_ERR_INVALID_ARGUMENT for a malformed target, a plan the
 *   reader rejects, or a memory the target lacks or that is read-only for an arena (the
 *   message names it and the role); TIGRIS_ERR_DOES_NOT_FIT naming the memory, what it
 *   holds and the bytes.
 * @since 0.2 */
TIGRIS_API tigris_status tigris_plan_check_target(const void* plan, size_t plan_size,
                                                  const char* target_yaml, const char* source);

/* ---------------------------------------------------------------------------------------
 * A plan's graph inputs and outputs, and running a plan handle (@since 0.2)
 * What a binding needs to run a plan from a dictionary of arrays: the names, ONNX shapes,
 * dtypes and quantization of the plan's graph inputs and outputs, read from the .tgrs
 * bytes themselves, so a plan loaded from a file answers exactly as a compiled one.
 * ------------------------------------------------------------------------------------- */
/* Makes a plan handle from the bytes of a .tgrs file (any alignment: they are copied)
 * after the runtime's verifier accepts them. The summary accessors then describe the
 * file: weight_bytes and stored_weight_bytes both count the weight bytes stored in it.
 * @return TIGRIS_ERR_INVALID_ARGUMENT for NULL or empty bytes, TIGRIS_ERR_INVALID_PLAN
 *   when the verifier rejects them (the message names the field and the rule).
 * @since 0.2 */
TIGRIS_API tigris_status tigris_plan_from_memory(tigris_execution_plan** out, const void* data,
                                                 size_t size);
/* As tigris_plan_from_memory, from a file: TIGRIS_ERR_IO naming the path and the cause
 * when it is missing, unreadable or a directory, TIGRIS_ERR_INVALID_PLAN when it is empty.
 * @since 0.2 */
TIGRIS_API tigris_status tigris_plan_from_file(tigris_execution_plan** out, const char* path);

/* Counts of the plan's graph inputs and outputs (0 for NULL). @since 0.2 */
TIGRIS_API size_t tigris_plan_input_count(const tigris_execution_plan* plan);
TIGRIS_API size_t tigris_plan_output_count(const tigris_execution_plan* plan);
/* Fills *info (info->version set by the caller) for graph input / output `index`: name,
 * the dtype the caller passes or receives (INT8 for a quantized tensor of an int8 plan;
 * UINT8, with the model's zero points, for one the model declares uint8), the ONNX shape (NCHW)
 * the caller passes and receives, and the quantization (num_scales 0 when there is
 * none). is_constant is 0. Strings and arrays are owned by the plan handle.
 * @return TIGRIS_ERR_INVALID_ARGUMENT for NULL or an index out of range. @since 0.2 */
TIGRIS_API tigris_status tigris_plan_input(const tigris_execution_plan* plan, size_t index,
                                           tigris_tensor_info* info);
TIGRIS_API tigris_status tigris_plan_output(const tigris_execution_plan* plan, size_t index,
                                            tigris_tensor_info* info);

/* tigris_run_plan on the handle's bytes: same arguments, conversions and statuses; the
 * message also goes to tigris_plan_last_error(plan). @since 0.2 */
TIGRIS_API tigris_status tigris_plan_run(const tigris_execution_plan* plan,
                                         const tigris_run_options* options,
                                         const tigris_run_io* inputs, size_t num_inputs,
                                         tigris_run_io* outputs, size_t num_outputs,
                                         tigris_run_stats* stats);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TIGRIS_H_ */
