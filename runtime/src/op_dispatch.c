/*
 * op_dispatch.c: one entry per op code (tgrs_kernels.h, "Op -> kernel map"). Codes without
 * a kernel (SPLIT), combinations the kernels do not cover, dtypes the build left out and
 * op codes it did not select (tgrs_op_select.h) are TGRS_ERR_UNSUPPORTED_OP; tgrs_run
 * reports the op index in tgrs_run_stats.failed_op.
 */
#include "ops_internal.h"

tgrs_status tgrs_exec_op(tgrs_op_call* call) {
  uint32_t i;
  for (i = 0; i < call->num_outputs; ++i) {
    if (call->out[i].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  }
  if (call->num_inputs == 0 || call->in[0].data == NULL) return TGRS_ERR_INCONSISTENT_PLAN;
  /* A build without one dtype (TGRS_WITH_*, tigris_executor.h) refuses every op touching
   * it, byte movers and QuantizeLinear included, so the first such op is the one named.
   * With both dtypes the test is constant 0 and the loops compile to nothing. */
  for (i = 0; i < call->num_inputs; ++i) {
    if (tgrs_dtype_left_out(call->in[i].tensor.dtype)) return TGRS_ERR_UNSUPPORTED_OP;
  }
  for (i = 0; i < call->num_outputs; ++i) {
    if (tgrs_dtype_left_out(call->out[i].tensor.dtype)) return TGRS_ERR_UNSUPPORTED_OP;
  }
  /* One case per op code, compiled in only when selected (tgrs_op_select.h): an op
   * function no case names is unreferenced, and --gc-sections drops it with its kernels. */
  switch (call->op.code) {
#if TGRS_WITH_OP_CONV
    case TGRS_OP_CONV:
      return tgrs_op_conv(call);
#endif
#if TGRS_WITH_OP_DEPTHWISE_CONV
    case TGRS_OP_DEPTHWISE_CONV:
      return tgrs_op_conv(call);
#endif
#if TGRS_WITH_OP_CONV1D
    case TGRS_OP_CONV1D:
      return tgrs_op_conv1d(call);
#endif
#if TGRS_WITH_OP_CONV_TRANSPOSE
    case TGRS_OP_CONV_TRANSPOSE:
      return tgrs_op_conv_transpose(call);
#endif
#if TGRS_WITH_OP_MAX_POOL
    case TGRS_OP_MAX_POOL:
      return tgrs_op_pool(call);
#endif
#if TGRS_WITH_OP_AVERAGE_POOL
    case TGRS_OP_AVERAGE_POOL:
      return tgrs_op_pool(call);
#endif
#if TGRS_WITH_OP_GLOBAL_AVERAGE_POOL
    case TGRS_OP_GLOBAL_AVERAGE_POOL:
      return tgrs_op_global_pool(call);
#endif
#if TGRS_WITH_OP_GLOBAL_MAX_POOL
    case TGRS_OP_GLOBAL_MAX_POOL:
      return tgrs_op_global_pool(call);
#endif
#if TGRS_WITH_OP_ADD
    case TGRS_OP_ADD:
      return tgrs_op_binary(call);
#endif
#if TGRS_WITH_OP_SUB
    case TGRS_OP_SUB:
      return tgrs_op_binary(call);
#endif
#if TGRS_WITH_OP_MUL
    case TGRS_OP_MUL:
      return tgrs_op_binary(call);
#endif
#if TGRS_WITH_OP_DIV
    case TGRS_OP_DIV:
      return tgrs_op_binary(call);
#endif
#if TGRS_WITH_OP_RELU
    case TGRS_OP_RELU:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_RELU6
    case TGRS_OP_RELU6:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_LEAKY_RELU
    case TGRS_OP_LEAKY_RELU:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_SELU
    case TGRS_OP_SELU:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_SIGMOID
    case TGRS_OP_SIGMOID:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_HARD_SIGMOID
    case TGRS_OP_HARD_SIGMOID:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_HARD_SWISH
    case TGRS_OP_HARD_SWISH:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_TANH
    case TGRS_OP_TANH:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_CLIP
    case TGRS_OP_CLIP:
      return tgrs_op_activation(call);
#endif
#if TGRS_WITH_OP_CONCAT
    case TGRS_OP_CONCAT:
      return tgrs_op_concat(call);
#endif
#if TGRS_WITH_OP_PAD
    case TGRS_OP_PAD:
      return tgrs_op_pad(call);
#endif
#if TGRS_WITH_OP_RESIZE
    case TGRS_OP_RESIZE:
      return tgrs_op_resize(call);
#endif
#if TGRS_WITH_OP_RESHAPE
    case TGRS_OP_RESHAPE:
      return tgrs_op_reshape(call);
#endif
#if TGRS_WITH_OP_TRANSPOSE
    case TGRS_OP_TRANSPOSE:
      return tgrs_op_transpose(call);
#endif
#if TGRS_WITH_OP_GEMM
    case TGRS_OP_GEMM:
      return tgrs_op_gemm(call);
#endif
#if TGRS_WITH_OP_MATMUL
    case TGRS_OP_MATMUL:
      return tgrs_op_gemm(call);
#endif
#if TGRS_WITH_OP_SOFTMAX
    case TGRS_OP_SOFTMAX:
      return tgrs_op_softmax(call);
#endif
#if TGRS_WITH_OP_LOG_SOFTMAX
    case TGRS_OP_LOG_SOFTMAX:
      return tgrs_op_softmax(call);
#endif
#if TGRS_WITH_OP_LRN
    case TGRS_OP_LRN:
      return tgrs_op_lrn(call);
#endif
#if TGRS_WITH_OP_SLICE
    case TGRS_OP_SLICE:
      return tgrs_op_slice(call);
#endif
#if TGRS_WITH_OP_GATHER
    case TGRS_OP_GATHER:
      return tgrs_op_gather(call);
#endif
#if TGRS_WITH_OP_REDUCE_MEAN
    case TGRS_OP_REDUCE_MEAN:
      return tgrs_op_reduce_mean(call);
#endif
#if TGRS_WITH_OP_BATCH_NORMALIZATION
    case TGRS_OP_BATCH_NORMALIZATION:
      return tgrs_op_batch_norm(call);
#endif
#if TGRS_WITH_OP_QUANTIZE
    case TGRS_OP_QUANTIZE:
      return tgrs_op_quantize(call);
#endif
#if TGRS_WITH_OP_DEQUANTIZE
    case TGRS_OP_DEQUANTIZE:
      return tgrs_op_quantize(call);
#endif
    default:
      break; /* SPLIT (no kernel), a code left out, or one out of range */
  }
  return TGRS_ERR_UNSUPPORTED_OP;
}
