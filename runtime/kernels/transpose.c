/* Transpose of a rank <= 4 tensor (right-aligned into 4-D): byte copies. */
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

tgrs_kernel_status tgrs_transpose(size_t elem_size, const int32_t perm[4],
                                  const tgrs_dims* input_dims, const void* input, void* output) {
  int32_t in_dim[4], out_dim[4], i, seen = 0;
  size_t in_stride[4], src_stride[4];
  int32_t i0, i1, i2, i3;
  const unsigned char* src = (const unsigned char*)input;
  unsigned char* dst = (unsigned char*)output;
  if (elem_size == 0 || perm == NULL || !tgrs_dims_valid(input_dims) || input == NULL ||
      output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (i = 0; i < 4; ++i) {
    if (perm[i] < 0 || perm[i] > 3 || (seen & (1 << perm[i]))) return TGRS_KERNEL_BAD_ARGUMENT;
    seen |= 1 << perm[i];
  }
  in_dim[0] = input_dims->n;
  in_dim[1] = input_dims->h;
  in_dim[2] = input_dims->w;
  in_dim[3] = input_dims->c;
  in_stride[3] = elem_size;
  for (i = 2; i >= 0; --i) in_stride[i] = in_stride[i + 1] * (size_t)in_dim[i + 1];
  /* Output axis i walks input axis perm[i]. */
  for (i = 0; i < 4; ++i) {
    out_dim[i] = in_dim[perm[i]];
    src_stride[i] = in_stride[perm[i]];
  }
  for (i0 = 0; i0 < out_dim[0]; ++i0) {
    for (i1 = 0; i1 < out_dim[1]; ++i1) {
      for (i2 = 0; i2 < out_dim[2]; ++i2) {
        const unsigned char* s = src + i0 * src_stride[0] + i1 * src_stride[1] + i2 * src_stride[2];
        if (elem_size == 1) {
          for (i3 = 0; i3 < out_dim[3]; ++i3) *dst++ = s[i3 * src_stride[3]];
        } else {
          for (i3 = 0; i3 < out_dim[3]; ++i3, dst += elem_size) {
            memcpy(dst, s + i3 * src_stride[3], elem_size);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
