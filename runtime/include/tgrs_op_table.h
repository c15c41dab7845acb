/*
 * tgrs_op_table.h: the vocabulary of the op table's KIND and TILES columns
 * (tgrs_ops.def, docs/op-table.md). C99 and C++, shared by the runtime and the compiler.
 */
#ifndef TGRS_OP_TABLE_H_
#define TGRS_OP_TABLE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* What an op is, for the code paths that treat a family alike. */
typedef enum tgrs_op_kind {
  TGRS_OP_KIND_OTHER = 0,
  TGRS_OP_KIND_UNARY = 1,    /* one value in, one out; no per-channel parameter */
  TGRS_OP_KIND_BINARY = 2,   /* operands all data, ONNX broadcasting (two; Where three) */
  TGRS_OP_KIND_RESERVED = 3, /* a code the format keeps and no kernel runs */
  TGRS_OP_KIND_REDUCE = 4    /* a reduction over attrs.axes (ONNX Reduce*: axes, keepdims) */
} tgrs_op_kind;

/* The widest tile an op's kernel computes exactly (each includes the ones above it). */
typedef enum tgrs_op_tiles {
  TGRS_OP_TILES_ROWS = 0,        /* bands of whole rows */
  TGRS_OP_TILES_COLUMNS = 1,     /* 2-D boxes, through a column view */
  TGRS_OP_TILES_CHANNELS = 2,    /* and groups of channels, from the same channels */
  TGRS_OP_TILES_OUT_CHANNELS = 3 /* and groups of output channels, from all input channels */
} tgrs_op_tiles;

#ifdef __cplusplus
}
#endif

#endif /* TGRS_OP_TABLE_H_ */
