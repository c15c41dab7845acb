/* ReduceMean (float32) over any subset of the NHWC dims. int8 over H, W is
 * tgrs_global_avg_pool_s8 (pooling.c). */
#include "kernel_util.h"
#include "tgrs_kernels.h"

tgrs_kernel_status tgrs_reduce_mean_f32(uint32_t axes_mask, const tgrs_dims* input_dims,
                                        const float* input, float* output) {
  int32_t dim[4], i, i0, i1, i2, i3;
  size_t out_stride[4], out_count = 1, count = 1, o;
  if (!tgrs_dims_valid(input_dims) || (axes_mask & ~0xFu) != 0 || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  dim[0] = input_dims->n;
  dim[1] = input_dims->h;
  dim[2] = input_dims->w;
  dim[3] = input_dims->c;
  /* Output strides over the kept dims; reduced dims get stride 0 so every input element
   * lands on its output. */
  for (i = 3; i >= 0; --i) {
    if (axes_mask & (1u << i)) {
      out_stride[i] = 0;
      count *= (size_t)dim[i];
    } else {
      out_stride[i] = out_count;
      out_count *= (size_t)dim[i];
    }
  }
  for (o = 0; o < out_count; ++o) output[o] = 0.0f;
  for (i0 = 0; i0 < dim[0]; ++i0) {
    for (i1 = 0; i1 < dim[1]; ++i1) {
      for (i2 = 0; i2 < dim[2]; ++i2) {
        const size_t base = i0 * out_stride[0] + i1 * out_stride[1] + i2 * out_stride[2];
        for (i3 = 0; i3 < dim[3]; ++i3) output[base + i3 * out_stride[3]] += *input++;
      }
    }
  }
  for (o = 0; o < out_count; ++o) output[o] /= (float)count;
  return TGRS_KERNEL_OK;
}
