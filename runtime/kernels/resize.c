/*
 * Resize of H and W (ONNX Resize): nearest and linear, int8 and float32, row-windowed. Coordinates
 * follow onnxruntime's upsample code (align_corners follows ONNX's reference instead, below), in
 * float: the original coordinate from the transform mode,
 * nearest rounding by mode and clamping to the input; linear clamps the coordinate to [0, len - 1]
 * and blends the two neighbours with onnxruntime's weights (0.5 / 0.5 when both neighbours are the
 * same row or column).
 */
#include <math.h>
#include <string.h>

#include "kernel_util.h"
#include "tgrs_kernels.h"

static float original_coord(tgrs_resize_coord coord, int32_t x, float scale, int32_t in_len,
                            int32_t out_len) {
  const float xf = (float)x;
  switch (coord) {
    case TGRS_COORD_ASYMMETRIC:
      return xf / scale;
    case TGRS_COORD_ALIGN_CORNERS: {
      /* ONNX Resize: x * (length_original - 1) / (length_resized - 1), where the reference
       * (onnx/reference/ops/op_resize.py) takes length_resized = scale * length_original,
       * not rounded: downsampling 4 by 0.6 maps output 1 to 3 / 1.4 (onnxruntime uses the
       * rounded 2 there and answers 3). When the product is the output length up to float
       * rounding (integer ratios, and scales the compiler derived from sizes) the integer is
       * used, so exact coordinates stay exact. */
      float resized = scale * (float)in_len;
      if (fabsf(resized - (float)out_len) <= 1e-4f * (float)out_len) resized = (float)out_len;
      return resized <= 1.0f ? 0.0f : xf * (float)(in_len - 1) / (resized - 1.0f);
    }
    case TGRS_COORD_PYTORCH_HALF_PIXEL:
      return out_len > 1 ? (xf + 0.5f) / scale - 0.5f : 0.0f;
    case TGRS_COORD_HALF_PIXEL:
    default:
      return (xf + 0.5f) / scale - 0.5f;
  }
}

static int32_t nearest_index(const tgrs_resize_params* p, int32_t x, float scale, int32_t in_len,
                             int32_t out_len) {
  const float f = original_coord(p->coord, x, scale, in_len, out_len);
  int32_t i;
  switch (p->nearest) {
    case TGRS_NEAREST_FLOOR:
      i = (int32_t)floorf(f);
      break;
    case TGRS_NEAREST_CEIL:
      i = (int32_t)ceilf(f);
      break;
    case TGRS_NEAREST_ROUND_PREFER_CEIL:
      i = (int32_t)roundf(f); /* halves go away from zero, i.e. up for f >= 0 */
      break;
    case TGRS_NEAREST_ROUND_PREFER_FLOOR:
    default:
      i = (f == (float)(int32_t)f + 0.5f) ? (int32_t)floorf(f) : (int32_t)roundf(f);
      break;
  }
  if (i < 0) i = 0;
  if (i > in_len - 1) i = in_len - 1;
  return i;
}

/* Linear neighbours and weights of output coordinate x (onnxruntime UpsampleBilinear). */
typedef struct linear_tap {
  int32_t i1, i2;
  float w1, w2; /* weight of i1 and of i2 */
} linear_tap;

static linear_tap linear_index(const tgrs_resize_params* p, int32_t x, float scale, int32_t in_len,
                               int32_t out_len) {
  linear_tap t;
  float f = original_coord(p->coord, x, scale, in_len, out_len);
  float d1, d2;
  if (f < 0.0f) f = 0.0f;
  if (f > (float)(in_len - 1)) f = (float)(in_len - 1);
  t.i1 = (int32_t)f;
  if (t.i1 > in_len - 1) t.i1 = in_len - 1;
  t.i2 = t.i1 + 1 < in_len ? t.i1 + 1 : in_len - 1;
  d1 = fabsf(f - (float)t.i1);
  d2 = fabsf(f - (float)t.i2);
  if (t.i1 == t.i2) d1 = d2 = 0.5f;
  t.w1 = d2; /* the nearer neighbour gets the larger weight */
  t.w2 = d1;
  return t;
}

static tgrs_kernel_status check_resize(const tgrs_resize_params* p, const tgrs_row_window* win,
                                       const tgrs_dims* in, const tgrs_dims* out) {
  int32_t oy;
  tgrs_kernel_status st;
  if (p == NULL || !(p->scale_h > 0.0f) || !(p->scale_w > 0.0f) || !tgrs_dims_valid(in) ||
      !tgrs_dims_valid(out) || in->n != out->n || in->c != out->c) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  st = tgrs_window_bounds(win, in->h, out->h);
  if (st != TGRS_KERNEL_OK) return st;
  /* Every source row of the window's output rows must be in the input buffer. */
  for (oy = win->out_row_begin; oy < win->out_row_end; ++oy) {
    int32_t lo, hi;
    if (p->mode == TGRS_RESIZE_NEAREST) {
      lo = hi = nearest_index(p, oy, p->scale_h, in->h, out->h);
    } else {
      const linear_tap t = linear_index(p, oy, p->scale_h, in->h, out->h);
      lo = t.i1;
      hi = t.i2;
    }
    if (lo < win->in_row_begin || hi >= win->in_row_begin + win->in_rows) {
      return TGRS_KERNEL_BAD_WINDOW;
    }
  }
  return TGRS_KERNEL_OK;
}

static void resize_nearest_bytes(const tgrs_resize_params* p, const tgrs_row_window* win,
                                 size_t elem_size, const tgrs_dims* in, const unsigned char* input,
                                 const tgrs_dims* out, unsigned char* output) {
  const size_t px = (size_t)in->c * elem_size;
  const size_t in_row = (size_t)in->w * px;
  const int32_t out_rows = win->out_row_end - win->out_row_begin;
  int32_t n, oy, ox;
  for (n = 0; n < out->n; ++n) {
    const unsigned char* in_batch = input + (size_t)n * win->in_rows * in_row;
    unsigned char* dst = output + (size_t)n * out_rows * out->w * px;
    for (oy = win->out_row_begin; oy < win->out_row_end; ++oy) {
      const int32_t iy = nearest_index(p, oy, p->scale_h, in->h, out->h);
      const unsigned char* src_row = in_batch + (size_t)(iy - win->in_row_begin) * in_row;
      for (ox = 0; ox < out->w; ++ox, dst += px) {
        const int32_t ix = nearest_index(p, ox, p->scale_w, in->w, out->w);
        memcpy(dst, src_row + (size_t)ix * px, px);
      }
    }
  }
}

/* One output pixel of a linear resize: its four taps (element offsets `at`, weights `w` in
 * onnxruntime's order, dx2*dy2*X11 + dx1*dy2*X21 + dx2*dy1*X12 + dx1*dy1*X22), `ch`
 * channels written from `output[dst]`. One function per dtype, so that a single-dtype
 * firmware links only its own (--gc-sections). */
typedef void (*linear_pixel)(const tgrs_resize_params* p, const void* input, const size_t at[4],
                             const float w[4], int32_t ch, void* output, size_t dst);

static void linear_pixel_f32(const tgrs_resize_params* p, const void* input, const size_t at[4],
                             const float w[4], int32_t ch, void* output, size_t dst) {
  const float* x = (const float*)input;
  float* y = (float*)output + dst;
  int32_t c;
  (void)p;
  for (c = 0; c < ch; ++c) {
    y[c] = w[0] * x[at[0] + (size_t)c] + w[1] * x[at[1] + (size_t)c] + w[2] * x[at[2] + (size_t)c] +
           w[3] * x[at[3] + (size_t)c];
  }
}

/* ONNX QDQ around the float blend: each tap dequantized as tgrs_dequantize does, the blend
 * quantized as tgrs_quantize does. */
static void linear_pixel_s8(const tgrs_resize_params* p, const void* input, const size_t at[4],
                            const float w[4], int32_t ch, void* output, size_t dst) {
  const int8_t* x = (const int8_t*)input;
  int8_t* y = (int8_t*)output + dst;
  int32_t c;
  for (c = 0; c < ch; ++c) {
    float v = 0.0f;
    int k;
    for (k = 0; k < 4; ++k) {
      const float tap =
          (float)((int32_t)x[at[k] + (size_t)c] - p->input_zero_point) * p->input_scale;
      v = k == 0 ? w[0] * tap : v + w[k] * tap;
    }
    y[c] = tgrs_quantize_value_s8(v / p->output_scale, p->output_zero_point);
  }
}

/* Linear resize of the window's rows, pixel by pixel through `pixel`. */
static void resize_linear(const tgrs_resize_params* p, const tgrs_row_window* win,
                          const tgrs_dims* in, const void* input, const tgrs_dims* out,
                          void* output, linear_pixel pixel) {
  const int32_t ch = in->c;
  const size_t in_row = (size_t)in->w * (size_t)ch;
  const int32_t out_rows = win->out_row_end - win->out_row_begin;
  int32_t n, oy, ox;
  for (n = 0; n < out->n; ++n) {
    const size_t in_batch = (size_t)n * (size_t)win->in_rows * in_row;
    size_t dst = (size_t)n * (size_t)out_rows * (size_t)out->w * (size_t)ch;
    for (oy = win->out_row_begin; oy < win->out_row_end; ++oy) {
      const linear_tap ty = linear_index(p, oy, p->scale_h, in->h, out->h);
      const size_t row1 = in_batch + (size_t)(ty.i1 - win->in_row_begin) * in_row;
      const size_t row2 = in_batch + (size_t)(ty.i2 - win->in_row_begin) * in_row;
      for (ox = 0; ox < out->w; ++ox, dst += (size_t)ch) {
        const linear_tap tx = linear_index(p, ox, p->scale_w, in->w, out->w);
        const size_t at[4] = {row1 + (size_t)tx.i1 * ch, row1 + (size_t)tx.i2 * ch,
                              row2 + (size_t)tx.i1 * ch, row2 + (size_t)tx.i2 * ch};
        const float w[4] = {tx.w1 * ty.w1, tx.w2 * ty.w1, tx.w1 * ty.w2, tx.w2 * ty.w2};
        pixel(p, input, at, w, ch, output, dst);
      }
    }
  }
}

tgrs_kernel_status tgrs_resize_s8(const tgrs_resize_params* resize, const tgrs_row_window* window,
                                  const tgrs_dims* input_dims, const int8_t* input,
                                  const tgrs_dims* output_dims, int8_t* output) {
  tgrs_kernel_status st;
  if (resize == NULL || input == NULL || output == NULL || !(resize->input_scale > 0.0f) ||
      !(resize->output_scale > 0.0f) || resize->input_zero_point < -128 ||
      resize->input_zero_point > 127 || resize->output_zero_point < -128 ||
      resize->output_zero_point > 127) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  st = check_resize(resize, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (resize->mode == TGRS_RESIZE_NEAREST) {
    resize_nearest_bytes(resize, window, 1, input_dims, (const unsigned char*)input, output_dims,
                         (unsigned char*)output);
    if (resize->input_scale != resize->output_scale ||
        resize->input_zero_point != resize->output_zero_point) {
      /* Other quantization out than in (a QDQ model may calibrate each tensor alone): the
       * chosen values through DequantizeLinear and QuantizeLinear, as ONNX computes them,
       * never the bytes reinterpreted. */
      const size_t count = (size_t)output_dims->n *
                           (size_t)(window->out_row_end - window->out_row_begin) *
                           (size_t)output_dims->w * (size_t)output_dims->c;
      size_t i;
      for (i = 0; i < count; ++i) {
        const float real =
            (float)((int32_t)output[i] - resize->input_zero_point) * resize->input_scale;
        output[i] = tgrs_quantize_value_s8(real / resize->output_scale, resize->output_zero_point);
      }
    }
  } else {
    resize_linear(resize, window, input_dims, input, output_dims, output, linear_pixel_s8);
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_resize_f32(const tgrs_resize_params* resize, const tgrs_row_window* window,
                                   const tgrs_dims* input_dims, const float* input,
                                   const tgrs_dims* output_dims, float* output) {
  tgrs_kernel_status st;
  if (input == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  st = check_resize(resize, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (resize->mode == TGRS_RESIZE_NEAREST) {
    resize_nearest_bytes(resize, window, sizeof(float), input_dims, (const unsigned char*)input,
                         output_dims, (unsigned char*)output);
  } else {
    resize_linear(resize, window, input_dims, input, output_dims, output, linear_pixel_f32);
  }
  return TGRS_KERNEL_OK;
}
