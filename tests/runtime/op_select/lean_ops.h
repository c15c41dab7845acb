/* A hand-written ops header (the form `tigris inspect --ops-header` writes,
 * runtime/include/tgrs_op_select.h) for the leanest build a firmware can make: the float32
 * ops of mnist8, no plan feature (no 2-D tiles, channel groups, weight blocks or
 * element-by-element host copies), and no verifier messages (TGRS_WITH_MESSAGES, a build
 * option the ops header never writes). lean_select_test.cc runs on it. */
#ifndef TGRS_OPS_SELECTED
#define TGRS_OPS_SELECTED 1
#define TGRS_WITH_OP_CONV 1
#define TGRS_WITH_OP_MAX_POOL 1
#define TGRS_WITH_OP_GEMM 1
#define TGRS_WITH_INT8 0
#define TGRS_WITH_MESSAGES 0
#endif
