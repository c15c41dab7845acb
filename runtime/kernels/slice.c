/* Slice of a rank <= 4 tensor (right-aligned into 4-D): byte copies of a strided window.
 * Output element (i0, i1, i2, i3) is input element (start[d] + i_d * step[d]) per axis d;
 * a step may be negative (ONNX Slice walking backwards). Every index is checked against
 * the input before anything is copied: a bad window reads nothing. */
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

/* 1 when start + (count - 1) * step stays in [0, dim) for count >= 1 (int64: no overflow
 * for any int32 operands). */
static int axis_in_range(int32_t start, int32_t step, int32_t count, int32_t dim) {
  const int64_t last = (int64_t)start + (int64_t)(count - 1) * (int64_t)step;
  return step != 0 && start >= 0 && start < dim && last >= 0 && last < (int64_t)dim;
}

tgrs_kernel_status tgrs_slice(size_t elem_size, const int32_t start[4], const int32_t step[4],
                              const tgrs_dims* input_dims, const void* input,
                              const tgrs_dims* output_dims, void* output) {
  int32_t in_dim[4], out_dim[4], i0, i1, i2, i3, d;
  ptrdiff_t in_stride[4], src_step[4];
  const unsigned char* src = (const unsigned char*)input;
  unsigned char* dst = (unsigned char*)output;
  if (elem_size == 0 || start == NULL || step == NULL || !tgrs_dims_valid(input_dims) ||
      !tgrs_dims_valid(output_dims) || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  in_dim[0] = input_dims->n;
  in_dim[1] = input_dims->h;
  in_dim[2] = input_dims->w;
  in_dim[3] = input_dims->c;
  out_dim[0] = output_dims->n;
  out_dim[1] = output_dims->h;
  out_dim[2] = output_dims->w;
  out_dim[3] = output_dims->c;
  for (d = 0; d < 4; ++d) {
    if (!axis_in_range(start[d], step[d], out_dim[d], in_dim[d])) return TGRS_KERNEL_BAD_ARGUMENT;
  }
  in_stride[3] = (ptrdiff_t)elem_size;
  for (d = 2; d >= 0; --d) in_stride[d] = in_stride[d + 1] * (ptrdiff_t)in_dim[d + 1];
  for (d = 0; d < 4; ++d) {
    src += (ptrdiff_t)start[d] * in_stride[d];
    src_step[d] = (ptrdiff_t)step[d] * in_stride[d];
  }
  for (i0 = 0; i0 < out_dim[0]; ++i0) {
    for (i1 = 0; i1 < out_dim[1]; ++i1) {
      for (i2 = 0; i2 < out_dim[2]; ++i2) {
        const unsigned char* s = src + i0 * src_step[0] + i1 * src_step[1] + i2 * src_step[2];
        if (step[3] == 1) { /* a contiguous run: the common channel split */
          const size_t run = (size_t)out_dim[3] * elem_size;
          memcpy(dst, s, run);
          dst += run;
        } else {
          for (i3 = 0; i3 < out_dim[3]; ++i3, dst += elem_size) {
            memcpy(dst, s + i3 * src_step[3], elem_size);
          }
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
