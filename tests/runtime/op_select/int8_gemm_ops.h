/* A hand-written ops header (the form `tigris inspect --ops-header` writes,
 * runtime/include/tgrs_op_select.h): int8 GEMM only, and no plan features, GEMM parts
 * and TFLite's arithmetic among them. gemm_parts_select_test.cc runs the int8 MLP of
 * tests/models and a .tflite autoencoder on a runtime built with it. */
#ifndef TGRS_OPS_SELECTED
#define TGRS_OPS_SELECTED 1
#define TGRS_WITH_OP_GEMM 1
#define TGRS_WITH_FLOAT32 0
#endif
