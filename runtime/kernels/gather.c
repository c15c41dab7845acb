/* Gather along axis 0 of a table (ONNX Gather with axis 0, as embedding lookups use it):
 * row idx[i] of the table is copied to the output for each index i. Negative indices count
 * from the end (ONNX: idx in [-rows, rows - 1]). Each index is checked before its row is
 * read, so a bad index never reads outside the table; the rows of the indices before it
 * are already written. */
#include <string.h>

#include "tgrs_kernels.h"

/* Index i as int64, from a buffer of int32 or int64 values. */
static int64_t index_at(const void* indices, int32_t index_size, int32_t i) {
  if (index_size == 8) return ((const int64_t*)indices)[i];
  return ((const int32_t*)indices)[i];
}

tgrs_kernel_status tgrs_gather(const tgrs_gather_params* p, const void* table, const void* indices,
                               void* output) {
  const unsigned char* src = (const unsigned char*)table;
  unsigned char* dst = (unsigned char*)output;
  int32_t o, i, j;
  if (p == NULL || table == NULL || indices == NULL || output == NULL || p->elem_size == 0 ||
      p->rows < 1 || p->row_len < 1 || p->outer < 1 || p->inner < 1 ||
      (p->index_size != 4 && p->index_size != 8)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (o = 0; o < p->outer; ++o) {
    for (i = 0; i < p->inner; ++i) {
      int64_t row = index_at(indices, p->index_size, o * p->inner + i);
      const unsigned char* from;
      unsigned char* to =
          dst + ((size_t)o * p->stride_outer + (size_t)i * p->stride_inner) * p->elem_size;
      if (row < -(int64_t)p->rows || row >= (int64_t)p->rows) {
        return TGRS_KERNEL_INDEX_OUT_OF_RANGE;
      }
      if (row < 0) row += p->rows;
      from = src + (size_t)row * (size_t)p->row_len * p->elem_size;
      if (p->stride_elem == 1) {
        memcpy(to, from, (size_t)p->row_len * p->elem_size);
      } else {
        for (j = 0; j < p->row_len; ++j) {
          memcpy(to + (size_t)j * p->stride_elem * p->elem_size, from + (size_t)j * p->elem_size,
                 p->elem_size);
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}
