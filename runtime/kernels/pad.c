/*
 * Pad of H, W and C (constant; reflect and edge for float32), row-windowed: output row r
 * reads input row r - pad_top (mapped by the mode); rows mapping outside the input are
 * the constant. Byte copies through one generic routine.
 */
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

/* Source index of padded coordinate i (i - pad already applied) in [0, len), or -1 when the
 * constant applies. Reflect mirrors without repeating the edge (ONNX "reflect"). */
static int32_t pad_source(int32_t i, int32_t len, tgrs_pad_mode mode) {
  if (i >= 0 && i < len) return i;
  if (mode == TGRS_PAD_EDGE) return i < 0 ? 0 : len - 1;
  if (mode == TGRS_PAD_REFLECT) {
    if (len == 1) return 0;
    while (i < 0 || i >= len) i = i < 0 ? -i : 2 * (len - 1) - i;
    return i;
  }
  return -1;
}

static tgrs_kernel_status pad_bytes(size_t elem_size, const tgrs_pad_params* pad,
                                    const tgrs_row_window* window, const void* value,
                                    const tgrs_dims* in, const unsigned char* input,
                                    const tgrs_dims* out, unsigned char* output) {
  int32_t n, oy, ox, c;
  tgrs_kernel_status st;
  if (pad == NULL || pad->pad_top < 0 || pad->pad_bottom < 0 || pad->pad_left < 0 ||
      pad->pad_right < 0 || pad->pad_c_begin < 0 || pad->pad_c_end < 0 || !tgrs_dims_valid(in) ||
      !tgrs_dims_valid(out) || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (out->n != in->n || out->h != in->h + pad->pad_top + pad->pad_bottom ||
      out->w != in->w + pad->pad_left + pad->pad_right ||
      out->c != in->c + pad->pad_c_begin + pad->pad_c_end) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* Reflect/edge apply to H and W; channel pads are constant-only. */
  if (pad->mode != TGRS_PAD_CONSTANT && (pad->pad_c_begin != 0 || pad->pad_c_end != 0)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  st = tgrs_window_bounds(window, in->h, out->h);
  if (st != TGRS_KERNEL_OK) return st;
  for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
    const int32_t iy = pad_source(oy - pad->pad_top, in->h, pad->mode);
    if (iy >= 0 && (iy < window->in_row_begin || iy >= window->in_row_begin + window->in_rows)) {
      return TGRS_KERNEL_BAD_WINDOW;
    }
  }
  {
    const size_t in_px = (size_t)in->c * elem_size;
    const size_t in_row = (size_t)in->w * in_px;
    const int32_t out_rows = window->out_row_end - window->out_row_begin;
    for (n = 0; n < out->n; ++n) {
      const unsigned char* in_batch = input + (size_t)n * window->in_rows * in_row;
      unsigned char* dst = output + (size_t)n * out_rows * out->w * out->c * elem_size;
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {
        const int32_t iy = pad_source(oy - pad->pad_top, in->h, pad->mode);
        for (ox = 0; ox < out->w; ++ox) {
          const int32_t ix = pad_source(ox - pad->pad_left, in->w, pad->mode);
          for (c = 0; c < pad->pad_c_begin; ++c, dst += elem_size) memcpy(dst, value, elem_size);
          if (iy >= 0 && ix >= 0) {
            memcpy(dst, in_batch + (size_t)(iy - window->in_row_begin) * in_row + ix * in_px,
                   in_px);
            dst += in_px;
          } else {
            for (c = 0; c < in->c; ++c, dst += elem_size) memcpy(dst, value, elem_size);
          }
          for (c = 0; c < pad->pad_c_end; ++c, dst += elem_size) memcpy(dst, value, elem_size);
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_pad_s8(const tgrs_pad_params* pad, const tgrs_row_window* window,
                               int8_t value, const tgrs_dims* input_dims, const int8_t* input,
                               const tgrs_dims* output_dims, int8_t* output) {
  /* Every mode is the same byte copies as float32's, one byte per element: quantize_static
   * quantizes torch's ReflectionPad2d and ReplicationPad2d (reflect, edge) as well. */
  return pad_bytes(1, pad, window, &value, input_dims, (const unsigned char*)input, output_dims,
                   (unsigned char*)output);
}

tgrs_kernel_status tgrs_pad_f32(const tgrs_pad_params* pad, const tgrs_row_window* window,
                                float value, const tgrs_dims* input_dims, const float* input,
                                const tgrs_dims* output_dims, float* output) {
  return pad_bytes(sizeof(float), pad, window, &value, input_dims, (const unsigned char*)input,
                   output_dims, (unsigned char*)output);
}
