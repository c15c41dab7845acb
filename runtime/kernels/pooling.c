/*
 * Max and average pooling (windowed, row-tileable) and global pooling, int8 and float32.
 * Channels are processed in blocks with stack accumulators (no scratch); per channel the
 * taps are visited in (ky, kx) order.
 */
#include <float.h>

#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

enum { kChannelBlock = 32 };

static tgrs_kernel_status check_pool(const tgrs_pool_params* p, const tgrs_row_window* window,
                                     const tgrs_dims* in, const tgrs_dims* out) {
  if (p == NULL || p->kernel_h < 1 || p->kernel_w < 1 || p->stride_h < 1 || p->stride_w < 1 ||
      p->dilation_h < 1 || p->dilation_w < 1 || p->pad_top < 0 || p->pad_left < 0 ||
      p->pad_bottom < 0 || p->pad_right < 0 || !tgrs_dims_valid(in) || !tgrs_dims_valid(out)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* The window fits the padded input, as ONNX requires of every pool, give or take the
   * stride - 1 positions a ceil_mode window may reach past it (its last window starts
   * inside the input or the left padding): a 2-D tile's last column view can be narrower
   * than the kernel by that much (googlenet's 3x3 / 2 ceil_mode pools). A convolution's
   * taps are bounded by its weights, which the plan must hold; a pool's kernel is only an
   * attribute, and a 2^15 x 2^15 window over a 1x1 map made the loop run for minutes
   * (found by fuzz_plan, fuzz/regressions/plan). */
  if ((int64_t)(p->kernel_h - 1) * p->dilation_h + 1 >
          (int64_t)in->h + p->pad_top + p->pad_bottom + (p->stride_h - 1) ||
      (int64_t)(p->kernel_w - 1) * p->dilation_w + 1 >
          (int64_t)in->w + p->pad_left + p->pad_right + (p->stride_w - 1)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  /* Padded extents and the window's tap count within int32, so tap ranges and average
   * divisors are 32-bit arithmetic: the runtime links no 64-bit division (libgcc's is ~750
   * bytes on Cortex-M, verify_error.c). */
  if ((int64_t)in->h + p->pad_top + p->pad_bottom > INT32_MAX ||
      (int64_t)in->w + p->pad_left + p->pad_right > INT32_MAX ||
      (int64_t)p->kernel_h * p->kernel_w > INT32_MAX) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (in->n != out->n || in->c != out->c ||
      !tgrs_axis_fits(out->w, p->kernel_w, p->stride_w, p->dilation_w, p->pad_left)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  return tgrs_window_covers(window, in->h, out->h, p->kernel_h, p->stride_h, p->dilation_h,
                            p->pad_top);
}

/* The taps k in [*lo, *hi) of a window whose tap k sits at origin + k * dilation and lands
 * in [begin, end). Closed form rather than a scan with `continue`: a pool's kernel and pads
 * are plan attributes, and a 2^30-wide window with 2^30 pads over a one-pixel input made the
 * scan run for minutes per output pixel. Unsigned 32-bit arithmetic suffices: check_pool
 * keeps every padded extent within int32, origin >= -pad and end <= extent + pad, so
 * begin - origin and end - origin are below 2^31. */
static void tap_range(int32_t origin, int32_t dilation, int32_t kernel, int32_t begin, int32_t end,
                      int32_t* lo, int32_t* hi) {
  const uint32_t d = (uint32_t)dilation;
  uint32_t l = 0, h = (uint32_t)kernel;
  if (origin < begin) l = ((uint32_t)begin - (uint32_t)origin + d - 1u) / d;
  if (end <= origin) {
    h = 0;
  } else if (((uint32_t)end - (uint32_t)origin - 1u) / d + 1u < h) {
    h = ((uint32_t)end - (uint32_t)origin - 1u) / d + 1u;
  }
  if (l > h) l = h;
  *lo = (int32_t)l;
  *hi = (int32_t)h;
}

/* ONNX AveragePool divisor: taps inside the input, or inside the padded input when
 * count_include_pad (positions past the declared pads, e.g. from ceil_mode, never count).
 * At most kernel_h * kernel_w, which check_pool keeps within int32. */
static int32_t avg_count(const tgrs_pool_params* p, int32_t iy0, int32_t ix0, int32_t in_h,
                         int32_t in_w) {
  const int32_t lo_y = p->count_include_pad ? -p->pad_top : 0;
  const int32_t hi_y = p->count_include_pad ? in_h + p->pad_bottom : in_h;
  const int32_t lo_x = p->count_include_pad ? -p->pad_left : 0;
  const int32_t hi_x = p->count_include_pad ? in_w + p->pad_right : in_w;
  int32_t y0, y1, x0, x1;
  tap_range(iy0, p->dilation_h, p->kernel_h, lo_y, hi_y, &y0, &y1);
  tap_range(ix0, p->dilation_w, p->kernel_w, lo_x, hi_x, &x0, &x1);
  return (int32_t)((int64_t)(y1 - y0) * (x1 - x0));
}

static int8_t clamp_s8(int64_t v, const tgrs_quant_s8* q) {
  if (v < q->act_min) v = q->act_min;
  if (v > q->act_max) v = q->act_max;
  return (int8_t)v;
}

/* One int8 average from acc = the sum of (x - input zero point) over `count` taps: TFLite's
 * integer average when the op asks for it and input and output share their quantization
 * (rq is the identity {1 << 30, 1} and the zero points agree: what TFLite requires of its
 * average pool), else ONNX's single rounding (tgrs_average_requant). A window with no tap
 * (count 0) is the output zero point. */
static int8_t average_s8(const tgrs_quant_s8* q, const tgrs_requant* rq, int32_t acc,
                         int32_t count) {
  if (count == 0) return clamp_s8(q->output_zero_point, q);
  if (TGRS_WITH_TFLITE_ROUNDING && q->rounding == TGRS_ROUNDING_TFLITE &&
      rq->multiplier == (1 << 30) && rq->shift == 1 &&
      q->input_zero_point == q->output_zero_point) {
    return clamp_s8(tgrs_average_tflite(acc, q->input_zero_point, count), q);
  }
  return clamp_s8(
      (int64_t)q->output_zero_point + tgrs_average_requant(acc, rq->multiplier, rq->shift, count),
      q);
}

/* Loop skeleton shared by the four windowed pools: for each output pixel and channel block,
 * INIT the block's accumulators, ACCUMULATE each real tap (x points at the tap's pixel),
 * FINISH the block (count = real or padded tap count for average pooling). */
#define TGRS_POOL_LOOP(T_IN, T_OUT, T_ACC, INIT, ACCUMULATE, FINISH)                              \
  do {                                                                                            \
    const int32_t in_h = input_dims->h, in_w = input_dims->w, ch = input_dims->c;                 \
    const int32_t out_w = output_dims->w;                                                         \
    const int32_t out_rows = window->out_row_end - window->out_row_begin;                         \
    const size_t in_row_elems = (size_t)in_w * (size_t)ch;                                        \
    int32_t n, oy, ox, c0, ky, kx, j, ky0, ky1, kx0, kx1;                                         \
    T_ACC acc[kChannelBlock];                                                                     \
    for (n = 0; n < output_dims->n; ++n) {                                                        \
      const T_IN* in_batch = input + (size_t)n * (size_t)window->in_rows * in_row_elems;          \
      T_OUT* out_px = output + (size_t)n * (size_t)out_rows * out_w * ch;                         \
      for (oy = window->out_row_begin; oy < window->out_row_end; ++oy) {                          \
        const int32_t iy0 = oy * pool->stride_h - pool->pad_top;                                  \
        for (ox = 0; ox < out_w; ++ox, out_px += ch) {                                            \
          const int32_t ix0 = ox * pool->stride_w - pool->pad_left;                               \
          const int32_t count = avg_count(pool, iy0, ix0, in_h, in_w);                            \
          (void)count;                                                                            \
          tap_range(iy0, pool->dilation_h, pool->kernel_h, 0, in_h, &ky0, &ky1);                  \
          tap_range(ix0, pool->dilation_w, pool->kernel_w, 0, in_w, &kx0, &kx1);                  \
          for (c0 = 0; c0 < ch; c0 += kChannelBlock) {                                            \
            const int32_t block = ch - c0 < kChannelBlock ? ch - c0 : kChannelBlock;              \
            for (j = 0; j < block; ++j) INIT;                                                     \
            for (ky = ky0; ky < ky1; ++ky) {                                                      \
              const int32_t iy = iy0 + ky * pool->dilation_h;                                     \
              const T_IN* in_row = in_batch + (size_t)(iy - window->in_row_begin) * in_row_elems; \
              for (kx = kx0; kx < kx1; ++kx) {                                                    \
                const int32_t ix = ix0 + kx * pool->dilation_w;                                   \
                const T_IN* x = in_row + (size_t)ix * ch + c0;                                    \
                for (j = 0; j < block; ++j) ACCUMULATE;                                           \
              }                                                                                   \
            }                                                                                     \
            for (j = 0; j < block; ++j) FINISH;                                                   \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  } while (0)

tgrs_kernel_status tgrs_max_pool_s8(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                    const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                    const tgrs_dims* input_dims, const int8_t* input,
                                    const tgrs_dims* output_dims, int8_t* output) {
  const tgrs_kernel_status st = check_pool(pool, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (!tgrs_quant_s8_valid(quant) || rq == NULL || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  TGRS_POOL_LOOP(int8_t, int8_t, int32_t, acc[j] = -128, if (x[j] > acc[j]) acc[j] = x[j],
                 out_px[c0 + j] =
                     tgrs_requantize_s8(acc[j] - quant->input_zero_point, rq->multiplier, rq->shift,
                                        quant->output_zero_point, quant->act_min, quant->act_max));
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_max_pool_f32(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                     const tgrs_dims* input_dims, const float* input,
                                     const tgrs_dims* output_dims, float* output) {
  const tgrs_kernel_status st = check_pool(pool, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (input == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  TGRS_POOL_LOOP(float, float, float, acc[j] = -FLT_MAX, if (x[j] > acc[j]) acc[j] = x[j],
                 out_px[c0 + j] = acc[j]);
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_avg_pool_s8(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                    const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                    const tgrs_dims* input_dims, const int8_t* input,
                                    const tgrs_dims* output_dims, int8_t* output) {
  const tgrs_kernel_status st = check_pool(pool, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (!tgrs_quant_s8_valid(quant) || rq == NULL || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  TGRS_POOL_LOOP(int8_t, int8_t, int32_t, acc[j] = 0,
                 acc[j] += (int32_t)x[j] - quant->input_zero_point,
                 out_px[c0 + j] = average_s8(quant, rq, acc[j], count));
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_avg_pool_f32(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                     const tgrs_dims* input_dims, const float* input,
                                     const tgrs_dims* output_dims, float* output) {
  const tgrs_kernel_status st = check_pool(pool, window, input_dims, output_dims);
  if (st != TGRS_KERNEL_OK) return st;
  if (input == NULL || output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  TGRS_POOL_LOOP(float, float, float, acc[j] = 0.0f, acc[j] += x[j],
                 out_px[c0 + j] = count == 0 ? 0.0f : acc[j] / (float)count);
  return TGRS_KERNEL_OK;
}

/* Global pools: the whole-tensor window (count = H * W), not tileable. */
static tgrs_pool_params global_params(const tgrs_dims* in) {
  tgrs_pool_params p;
  p.kernel_h = in->h;
  p.kernel_w = in->w;
  p.stride_h = p.stride_w = 1;
  p.dilation_h = p.dilation_w = 1;
  p.pad_top = p.pad_left = p.pad_bottom = p.pad_right = 0;
  p.count_include_pad = 0;
  return p;
}

static tgrs_dims global_out_dims(const tgrs_dims* in) {
  tgrs_dims d = *in;
  d.h = 1;
  d.w = 1;
  return d;
}

tgrs_kernel_status tgrs_global_avg_pool_s8(const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                           const tgrs_dims* input_dims, const int8_t* input,
                                           int8_t* output) {
  tgrs_pool_params p;
  tgrs_dims out;
  tgrs_row_window w;
  if (!tgrs_dims_valid(input_dims)) return TGRS_KERNEL_BAD_ARGUMENT;
  p = global_params(input_dims);
  out = global_out_dims(input_dims);
  w = tgrs_row_window_full(input_dims->h, 1);
  return tgrs_avg_pool_s8(&p, &w, quant, rq, input_dims, input, &out, output);
}

tgrs_kernel_status tgrs_global_avg_pool_f32(const tgrs_dims* input_dims, const float* input,
                                            float* output) {
  tgrs_pool_params p;
  tgrs_dims out;
  tgrs_row_window w;
  if (!tgrs_dims_valid(input_dims)) return TGRS_KERNEL_BAD_ARGUMENT;
  p = global_params(input_dims);
  out = global_out_dims(input_dims);
  w = tgrs_row_window_full(input_dims->h, 1);
  return tgrs_avg_pool_f32(&p, &w, input_dims, input, &out, output);
}

tgrs_kernel_status tgrs_global_max_pool_s8(const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                           const tgrs_dims* input_dims, const int8_t* input,
                                           int8_t* output) {
  tgrs_pool_params p;
  tgrs_dims out;
  tgrs_row_window w;
  if (!tgrs_dims_valid(input_dims)) return TGRS_KERNEL_BAD_ARGUMENT;
  p = global_params(input_dims);
  out = global_out_dims(input_dims);
  w = tgrs_row_window_full(input_dims->h, 1);
  return tgrs_max_pool_s8(&p, &w, quant, rq, input_dims, input, &out, output);
}

tgrs_kernel_status tgrs_global_max_pool_f32(const tgrs_dims* input_dims, const float* input,
                                            float* output) {
  tgrs_pool_params p;
  tgrs_dims out;
  tgrs_row_window w;
  if (!tgrs_dims_valid(input_dims)) return TGRS_KERNEL_BAD_ARGUMENT;
  p = global_params(input_dims);
  out = global_out_dims(input_dims);
  w = tgrs_row_window_full(input_dims->h, 1);
  return tgrs_max_pool_f32(&p, &w, input_dims, input, &out, output);
}

/* Banded global pools (tgrs_kernels.h): the whole-tensor loop above, cut between rows. */
static tgrs_kernel_status check_band(const tgrs_dims* in, const tgrs_pool_box* box,
                                     const void* band, const void* acc, const void* output) {
  if (!tgrs_dims_valid(in) || box == NULL || band == NULL || acc == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if ((int64_t)in->h * in->w > INT32_MAX) return TGRS_KERNEL_BAD_ARGUMENT; /* the count */
  return tgrs_box_inside(in, box) ? TGRS_KERNEL_OK : TGRS_KERNEL_BAD_WINDOW;
}

tgrs_kernel_status tgrs_global_pool_band_f32(int is_max, const tgrs_dims* input_dims,
                                             const tgrs_pool_box* box, const float* band,
                                             float* acc, float* output) {
  const tgrs_kernel_status st = check_band(input_dims, box, band, acc, output);
  const int32_t ch = input_dims->c;
  int32_t n, y, x, c;
  if (st != TGRS_KERNEL_OK) return st;
  for (n = 0; n < input_dims->n; ++n) {
    float* a = acc + (size_t)n * (size_t)ch;
    const float* px = band + (size_t)n * (size_t)box->rows * (size_t)box->cols * (size_t)ch;
    if (tgrs_box_first(box)) {
      for (c = 0; c < ch; ++c) a[c] = is_max ? -FLT_MAX : 0.0f;
    }
    for (y = 0; y < box->rows; ++y) {
      for (x = 0; x < box->cols; ++x, px += ch) {
        if (is_max) {
          for (c = 0; c < ch; ++c) {
            if (px[c] > a[c]) a[c] = px[c];
          }
        } else {
          for (c = 0; c < ch; ++c) a[c] += px[c];
        }
      }
    }
    if (tgrs_box_last(input_dims, box)) {
      const float count = (float)(input_dims->h * input_dims->w); /* as avg_count's */
      float* out = output + (size_t)n * (size_t)ch;
      for (c = 0; c < ch; ++c) out[c] = is_max ? a[c] : a[c] / count;
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_global_pool_band_s8(int is_max, const tgrs_quant_s8* quant,
                                            const tgrs_requant* rq, const tgrs_dims* input_dims,
                                            const tgrs_pool_box* box, const int8_t* band,
                                            int32_t* acc, int8_t* output) {
  const tgrs_kernel_status st = check_band(input_dims, box, band, acc, output);
  const int32_t ch = input_dims->c;
  int32_t n, y, x, c;
  if (st != TGRS_KERNEL_OK) return st;
  if (!tgrs_quant_s8_valid(quant) || rq == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  for (n = 0; n < input_dims->n; ++n) {
    int32_t* a = acc + (size_t)n * (size_t)ch;
    const int8_t* px = band + (size_t)n * (size_t)box->rows * (size_t)box->cols * (size_t)ch;
    if (tgrs_box_first(box)) {
      for (c = 0; c < ch; ++c) a[c] = is_max ? -128 : 0;
    }
    for (y = 0; y < box->rows; ++y) {
      for (x = 0; x < box->cols; ++x, px += ch) {
        if (is_max) {
          for (c = 0; c < ch; ++c) {
            if (px[c] > a[c]) a[c] = px[c];
          }
        } else {
          for (c = 0; c < ch; ++c) a[c] += (int32_t)px[c] - quant->input_zero_point;
        }
      }
    }
    if (tgrs_box_last(input_dims, box)) {
      const int32_t count = input_dims->h * input_dims->w;
      int8_t* out = output + (size_t)n * (size_t)ch;
      for (c = 0; c < ch; ++c) {
        out[c] = is_max
                     ? tgrs_requantize_s8(a[c] - quant->input_zero_point, rq->multiplier, rq->shift,
                                          quant->output_zero_point, quant->act_min, quant->act_max)
                     : average_s8(quant, rq, a[c], count);
      }
    }
  }
  return TGRS_KERNEL_OK;
}
