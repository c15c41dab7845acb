/*
 * tgrs_op_select.h: which op codes the executor dispatches (docs/runtime.md "Selecting
 * ops"). By default every one. A firmware that runs known plans can list just the ops they
 * use: `tigris inspect PLAN... --ops-header OPS.h` writes a header defining
 * TGRS_OPS_SELECTED as 1 and TGRS_WITH_OP_<CODE> as 1 for each op code the plans hold (and
 * TGRS_WITH_FLOAT32 / TGRS_WITH_INT8 for their dtypes); the runtime compiled with
 * -DTGRS_OPS_HEADER=\"OPS.h\" then references the op functions of those codes only, so the
 * linker's --gc-sections drops every other kernel. A plan holding an op left out fails at
 * that op with TGRS_ERR_UNSUPPORTED_OP, failed_op naming it, as an op the runtime does not
 * know would. A single TGRS_WITH_OP_<CODE> may also be defined (to 0 or 1) directly; code
 * asks with TGRS_OP_ON(<CODE>).
 * Every translation unit of the runtime must see the same values: include this header
 * through tigris_executor.h only.
 */
#ifndef TGRS_OP_SELECT_H_
#define TGRS_OP_SELECT_H_

#ifdef TGRS_OPS_HEADER
#include TGRS_OPS_HEADER
#endif
#ifndef TGRS_OPS_SELECTED
#define TGRS_OPS_SELECTED 0
#endif

/* TGRS_OP_ON(NAME): 1 when op code TGRS_OP_<NAME> (tgrs_ops.def) is compiled in, else 0;
 * a constant expression, usable in #if. TGRS_WITH_OP_<NAME> decides when it is defined (to
 * 0 or 1: nothing else), otherwise every op is in unless TGRS_OPS_SELECTED. The op table
 * lists the codes, so no per-op default is written here: a new op is selectable the day
 * its table entry exists. */
#define TGRS_OP_ON(NAME) TGRS_PP_VALUE_OR(TGRS_WITH_OP_##NAME, (!TGRS_OPS_SELECTED))

/* TGRS_PP_VALUE_OR(X, D): the value of macro X when X is defined as 0 or 1, else D. X's
 * expansion is pasted onto TGRS_PP_PROBE_; only _0 and _1 exist, and each expands to two
 * arguments, shifting its value into the second place where D would otherwise be. */
#define TGRS_PP_VALUE_OR(x, d) TGRS_PP_SECOND(TGRS_PP_CAT(TGRS_PP_PROBE_, x), d)
#define TGRS_PP_CAT(a, b) TGRS_PP_CAT_(a, b)
#define TGRS_PP_CAT_(a, b) a##b
#define TGRS_PP_SECOND(...) TGRS_PP_SECOND_(__VA_ARGS__, ~)
#define TGRS_PP_SECOND_(a, b, ...) b
#define TGRS_PP_PROBE_0 ~, 0
#define TGRS_PP_PROBE_1 ~, 1

/* Plan features, selected like ops (the ops header defines each one its plans use):
 * a GEMM inside a tile loop, fed band by band (the planner's gemm-as-banded-reduction),
 * int8 GEMM parts that keep int32 sums (the planner's fdt-fan-out-fan-in on int8 layers),
 * a graph input or output the caller passes or receives as uint8 (host_dtype),
 * LZ4-compressed weight blocks (the LZ4 decoder), and the schema-3 arenas below. Left out,
 * such a plan fails with
 * TGRS_ERR_UNSUPPORTED_OP at the op, the copy or the stage whose block it cannot decode. */
/* TFLite's integer arithmetic (tgrs_rounding, Op.rounding: plans compiled from a .tflite,
 * docs/tflite.md). Left out, the kernels compute ONNX's only and an op asking for TFLite's
 * fails with TGRS_ERR_UNSUPPORTED_OP. */
#ifndef TGRS_WITH_TFLITE_ROUNDING
#define TGRS_WITH_TFLITE_ROUNDING (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_GEMM_BANDS
#define TGRS_WITH_GEMM_BANDS (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_GEMM_PARTS
#define TGRS_WITH_GEMM_PARTS (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_UINT8_IO
#define TGRS_WITH_UINT8_IO (!TGRS_OPS_SELECTED)
#endif
/* A graph input or output whose ONNX layout is not the runtime's (host_permutation: an NCHW
 * model's inputs), copied element by element. */
#ifndef TGRS_WITH_HOST_PERMUTATION
#define TGRS_WITH_HOST_PERMUTATION (!TGRS_OPS_SELECTED)
#endif
/* Weight blocks: constants a non-xip plan copies (or LZ4-decodes) into the fast arena
 * before each stage or chain that reads them. An xip plan has none. */
#ifndef TGRS_WITH_WEIGHT_BLOCKS
#define TGRS_WITH_WEIGHT_BLOCKS (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_LZ4
#define TGRS_WITH_LZ4 (!TGRS_OPS_SELECTED)
#endif
/* Tile loops beyond row strips (docs/runtime-executor.md): 2-D tiles (TilePlan.columns, a
 * column view per tile) and channel groups (TilePlan.channels). Left out, a loop that has
 * them fails with TGRS_ERR_UNSUPPORTED_OP at its stage; the verifier refuses the plan
 * first, naming the field. */
#ifndef TGRS_WITH_TILE_COLUMNS
#define TGRS_WITH_TILE_COLUMNS (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_TILE_CHANNELS
#define TGRS_WITH_TILE_CHANNELS (!TGRS_OPS_SELECTED)
#endif
/* Schema-3 arenas (tigris_context.h): persistent state (`tigris compile --state`) and
 * staged constants (`--weights staged`, placement rules). Left out, tgrs_plan_init refuses
 * a plan that has them, naming the field, instead of verifying it. */
#ifndef TGRS_WITH_STATE
#define TGRS_WITH_STATE (!TGRS_OPS_SELECTED)
#endif
#ifndef TGRS_WITH_STAGED_CONSTANTS
#define TGRS_WITH_STAGED_CONSTANTS (!TGRS_OPS_SELECTED)
#endif
/* The schema-4 PINNED arena (tensors placement rules pin to a memory of their own). Left
 * out, tgrs_plan_init refuses a plan that lists it, naming memories[6]. */
#ifndef TGRS_WITH_PINNED
#define TGRS_WITH_PINNED (!TGRS_OPS_SELECTED)
#endif

/* Build option, not selected by the ops header: text for people. With
 * TGRS_WITH_MESSAGES 0 a verification error keeps its status, the path of fields that
 * locates it, and its value and limit, but not the rule's sentence; the path names each
 * field by its id in its table ("#2" for Op.inputs: its place in format/tgrs.fbs), not by
 * its name, and no status has a name (tgrs_status_name gives TGRS_STATUS_UNNAMED; errors
 * print the number): about 6 KB of Cortex-M flash. `tigris inspect PLAN` prints the
 * names and the sentence on the host (docs/runtime.md, "Code size"). */
#ifndef TGRS_WITH_MESSAGES
#define TGRS_WITH_MESSAGES 1
#endif

/* Build option: the CRC-32C loop that checks a plan's integrity (docs/integrity.md)
 * folds 1, 4 or 8 bytes per step, with that many 1 KiB tables in flash. On a Cortex-M4
 * (QEMU, -Os): 8,190, 4,608 and 4,350 instructions per KiB. 4 is the default: 8 buys 6%
 * for 4 KiB more flash; 1 saves 3 KiB and costs 1.8x. */
#ifndef TGRS_CRC32C_SLICES
#define TGRS_CRC32C_SLICES 4
#endif

#endif /* TGRS_OP_SELECT_H_ */
