/* Concat along one NHWC axis and Reshape: byte copies, dtype-agnostic. */
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

static int32_t dim_at(const tgrs_dims* d, int32_t axis) {
  return axis == 0 ? d->n : axis == 1 ? d->h : axis == 2 ? d->w : d->c;
}

tgrs_kernel_status tgrs_concat(size_t elem_size, int32_t axis, int32_t num_inputs,
                               const tgrs_dims* const* input_dims, const void* const* inputs,
                               void* output) {
  int32_t i, a;
  size_t outer = 1, o;
  unsigned char* dst = (unsigned char*)output;
  if (elem_size == 0 || axis < 0 || axis > 3 || num_inputs < 1 || input_dims == NULL ||
      inputs == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (i = 0; i < num_inputs; ++i) {
    if (!tgrs_dims_valid(input_dims[i]) || inputs[i] == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
    for (a = 0; a < 4; ++a) {
      if (a != axis && dim_at(input_dims[i], a) != dim_at(input_dims[0], a)) {
        return TGRS_KERNEL_BAD_ARGUMENT;
      }
    }
  }
  for (a = 0; a < axis; ++a) outer *= (size_t)dim_at(input_dims[0], a);
  /* Row-major: for each index of the dims before the axis, each input contributes one
   * contiguous chunk of (its axis extent x the dims after the axis). */
  for (o = 0; o < outer; ++o) {
    for (i = 0; i < num_inputs; ++i) {
      size_t chunk = elem_size;
      for (a = axis; a < 4; ++a) chunk *= (size_t)dim_at(input_dims[i], a);
      memcpy(dst, (const unsigned char*)inputs[i] + o * chunk, chunk);
      dst += chunk;
    }
  }
  return TGRS_KERNEL_OK;
}

void tgrs_reshape(size_t bytes, const void* input, void* output) {
  if (output != input) memmove(output, input, bytes);
}
