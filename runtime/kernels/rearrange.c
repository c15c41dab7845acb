/*
 * Rearrangements that copy every output element from one input element at a position the
 * shapes fix: Tile (and ONNX Expand, the same copy when each input dim is 1 or the output's),
 * DepthToSpace and SpaceToDepth in the runtime's [N, H, W, C] layout. Byte copies of any
 * element size, so float32, int8 (quantization unchanged), int32, int64 and bool alike.
 */
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

tgrs_kernel_status tgrs_tile(size_t elem_size, const tgrs_dims* input_dims, const void* input,
                             const tgrs_dims* output_dims, void* output) {
  const unsigned char* src = (const unsigned char*)input;
  unsigned char* dst = (unsigned char*)output;
  const size_t row = elem_size * (size_t)input_dims->c;
  int32_t n, h, w, c;
  if (elem_size == 0 || !tgrs_dims_valid(input_dims) || !tgrs_dims_valid(output_dims) ||
      input == NULL || output == NULL || output_dims->n % input_dims->n != 0 ||
      output_dims->h % input_dims->h != 0 || output_dims->w % input_dims->w != 0 ||
      output_dims->c % input_dims->c != 0) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (n = 0; n < output_dims->n; ++n) {
    for (h = 0; h < output_dims->h; ++h) {
      for (w = 0; w < output_dims->w; ++w) {
        const unsigned char* pixel =
            src +
            (((size_t)(n % input_dims->n) * (size_t)input_dims->h + (size_t)(h % input_dims->h)) *
                 (size_t)input_dims->w +
             (size_t)(w % input_dims->w)) *
                row;
        /* The input's channels, repeated: whole runs of C, then a copy per element when
         * C is 1 and broadcast (an Expand of a [.., 1] tensor). */
        for (c = 0; c < output_dims->c; c += input_dims->c) {
          memcpy(dst, pixel, row);
          dst += row;
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

/* The one index map of both block rearrangements: output pixel (h b + i, w b + j) channel c'
 * of DepthToSpace is input pixel (h, w) channel (i b + j) C' + c' (DCR) or c' b b + i b + j
 * (CRD), with C' = C / (b b) and `depth_dims` the depth side's [N, H, W, C]; SpaceToDepth is
 * the inverse copy in the same order. `to_space` says which side `src` is: the depth side
 * when true. */
static void block_copy(size_t elem_size, int32_t block, int crd, int to_space,
                       const tgrs_dims* depth_dims, const unsigned char* src, unsigned char* dst) {
  const int32_t c_space = depth_dims->c / (block * block);
  const size_t space_w = (size_t)depth_dims->w * (size_t)block;
  int32_t n, h, w, i, j, c;
  for (n = 0; n < depth_dims->n; ++n) {
    for (h = 0; h < depth_dims->h; ++h) {
      for (w = 0; w < depth_dims->w; ++w) {
        const size_t depth_pixel =
            (((size_t)n * depth_dims->h + h) * depth_dims->w + w) * (size_t)depth_dims->c;
        for (i = 0; i < block; ++i) {
          for (j = 0; j < block; ++j) {
            const size_t space_pixel =
                (((size_t)n * depth_dims->h * block + (size_t)(h * block + i)) * space_w +
                 (size_t)(w * block + j)) *
                (size_t)c_space;
            for (c = 0; c < c_space; ++c) {
              const size_t k = depth_pixel + (size_t)(crd ? c * block * block + i * block + j
                                                          : (i * block + j) * c_space + c);
              const size_t e = space_pixel + (size_t)c;
              if (to_space) {
                memcpy(dst + e * elem_size, src + k * elem_size, elem_size);
              } else {
                memcpy(dst + k * elem_size, src + e * elem_size, elem_size);
              }
            }
          }
        }
      }
    }
  }
}

tgrs_kernel_status tgrs_depth_to_space(size_t elem_size, int32_t block, int crd,
                                       const tgrs_dims* input_dims, const void* input,
                                       void* output) {
  if (elem_size == 0 || block < 1 || !tgrs_dims_valid(input_dims) || input == NULL ||
      output == NULL || input_dims->c % (block * block) != 0 ||
      (int64_t)input_dims->h * block > INT32_MAX || (int64_t)input_dims->w * block > INT32_MAX) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  block_copy(elem_size, block, crd, 1, input_dims, (const unsigned char*)input,
             (unsigned char*)output);
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_space_to_depth(size_t elem_size, int32_t block, int crd,
                                       const tgrs_dims* input_dims, const void* input,
                                       void* output) {
  tgrs_dims depth;
  if (elem_size == 0 || block < 1 || !tgrs_dims_valid(input_dims) || input == NULL ||
      output == NULL || input_dims->h % block != 0 || input_dims->w % block != 0 ||
      (int64_t)input_dims->c * block * block > INT32_MAX) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  depth.n = input_dims->n;
  depth.h = input_dims->h / block;
  depth.w = input_dims->w / block;
  depth.c = input_dims->c * block * block;
  block_copy(elem_size, block, crd, 0, &depth, (const unsigned char*)input, (unsigned char*)output);
  return TGRS_KERNEL_OK;
}
