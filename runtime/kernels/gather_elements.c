/*
 * gather_elements.c: ONNX GatherElements (tgrs_kernels.h). Input, indices and output have
 * one rank and one layout, so the op is the same in the runtime layout as in ONNX's: each
 * output element copies the input element at its own coordinates but along `axis`, where
 * its index says. Each index is checked before its element is read.
 */
#include <string.h>

#include "tgrs_kernels.h"

static int64_t index_at(const void* indices, int32_t index_size, size_t i) {
  if (index_size == 8) return ((const int64_t*)indices)[i];
  return ((const int32_t*)indices)[i];
}

tgrs_kernel_status tgrs_gather_elements(size_t elem_size, int32_t axis, int32_t index_size,
                                        const tgrs_dims* input_dims, const void* input,
                                        const tgrs_dims* output_dims, const void* indices,
                                        void* output) {
  const unsigned char* src = (const unsigned char*)input;
  unsigned char* dst = (unsigned char*)output;
  int32_t in_ext[4], out_ext[4], coord[4];
  size_t in_stride[4], k = 0;
  int32_t a;
  if (input_dims == NULL || output_dims == NULL || input == NULL || indices == NULL ||
      output == NULL || elem_size == 0 || axis < 0 || axis > 3 ||
      (index_size != 4 && index_size != 8)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  in_ext[0] = input_dims->n, in_ext[1] = input_dims->h, in_ext[2] = input_dims->w,
  in_ext[3] = input_dims->c;
  out_ext[0] = output_dims->n, out_ext[1] = output_dims->h, out_ext[2] = output_dims->w,
  out_ext[3] = output_dims->c;
  for (a = 0; a < 4; ++a) {
    /* ONNX: along every other axis the indices' extent is at most the input's. */
    if (in_ext[a] < 1 || out_ext[a] < 1 || (a != axis && out_ext[a] > in_ext[a])) {
      return TGRS_KERNEL_BAD_ARGUMENT;
    }
  }
  in_stride[3] = 1;
  for (a = 3; a > 0; --a) in_stride[a - 1] = in_stride[a] * (size_t)in_ext[a];
  for (coord[0] = 0; coord[0] < out_ext[0]; ++coord[0]) {
    for (coord[1] = 0; coord[1] < out_ext[1]; ++coord[1]) {
      for (coord[2] = 0; coord[2] < out_ext[2]; ++coord[2]) {
        for (coord[3] = 0; coord[3] < out_ext[3]; ++coord[3], ++k) {
          int64_t at = index_at(indices, index_size, k);
          size_t from = 0;
          if (at < -(int64_t)in_ext[axis] || at >= (int64_t)in_ext[axis]) {
            return TGRS_KERNEL_INDEX_OUT_OF_RANGE;
          }
          if (at < 0) at += in_ext[axis];
          for (a = 0; a < 4; ++a) {
            from += (a == axis ? (size_t)at : (size_t)coord[a]) * in_stride[a];
          }
          memcpy(dst + k * elem_size, src + from * elem_size, elem_size);
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
