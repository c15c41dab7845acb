/* ONNX's reductions (Reduce{Sum,Mean,Max,Min,Prod,L1,L2,SumSquare,LogSumExp,LogSum}) over any
 * subset of the NHWC dims, float32; int8 for Sum, Mean, Max and Min. The executor runs an
 * int8 mean over H, W as tgrs_global_avg_pool_s8 (pooling.c), which rounds the same way, but
 * for TFLite's MEAN (one TFLite requantization with 1/count folded in, tgrs_reduce_s8).
 * ArgMax / ArgMin along one dim, float32 and int8, writing int64 (or int32) indices. */
#include <math.h>

#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"
#include "tgrs_math.h"

static float reduce_init(tgrs_reduce_kind kind) {
  switch (kind) {
    case TGRS_REDUCE_MAX:
      return -INFINITY;
    case TGRS_REDUCE_MIN:
      return INFINITY;
    case TGRS_REDUCE_PROD:
      return 1.0f;
    default:
      return 0.0f;
  }
}

tgrs_kernel_status tgrs_reduce_f32(tgrs_reduce_kind kind, uint32_t axes_mask,
                                   const tgrs_dims* input_dims, const float* input, float* output) {
  int32_t dim[4], i, i0, i1, i2, i3;
  size_t out_stride[4], out_count = 1, count = 1, o;
  const float init = reduce_init(kind);
  if (!tgrs_dims_valid(input_dims) || (axes_mask & ~0xFu) != 0 || input == NULL || output == NULL ||
      (unsigned)kind > (unsigned)TGRS_REDUCE_LOG_SUM) {
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
  /* Each output folds its inputs in row-major order of the input (one loop per kind, so
   * the switch is outside the element loop). */
  for (o = 0; o < out_count; ++o) output[o] = init;
#define TGRS_REDUCE_LOOP(step)                                                                    \
  for (i0 = 0; i0 < dim[0]; ++i0) {                                                               \
    for (i1 = 0; i1 < dim[1]; ++i1) {                                                             \
      for (i2 = 0; i2 < dim[2]; ++i2) {                                                           \
        float* const row = output + i0 * out_stride[0] + i1 * out_stride[1] + i2 * out_stride[2]; \
        for (i3 = 0; i3 < dim[3]; ++i3) {                                                         \
          float* const acc = row + i3 * out_stride[3];                                            \
          const float x = *input++;                                                               \
          step;                                                                                   \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
  }                                                                                               \
  break
  switch (kind) {
    case TGRS_REDUCE_SUM:
    case TGRS_REDUCE_MEAN:
    case TGRS_REDUCE_LOG_SUM:
      TGRS_REDUCE_LOOP(*acc += x);
    case TGRS_REDUCE_MAX: /* a NaN, once met, stays (numpy's maximum) */
      TGRS_REDUCE_LOOP(*acc = (x > *acc || x != x) ? x : *acc);
    case TGRS_REDUCE_MIN:
      TGRS_REDUCE_LOOP(*acc = (x < *acc || x != x) ? x : *acc);
    case TGRS_REDUCE_PROD:
      TGRS_REDUCE_LOOP(*acc *= x);
    case TGRS_REDUCE_L1:
      TGRS_REDUCE_LOOP(*acc += x < 0.0f ? -x : x);
    case TGRS_REDUCE_L2:
    case TGRS_REDUCE_SUM_SQUARE:
      TGRS_REDUCE_LOOP(*acc += x * x);
    case TGRS_REDUCE_LOG_SUM_EXP: /* log(sum(exp(x))), as ONNX defines it */
      TGRS_REDUCE_LOOP(*acc += tgrs_expf(x));
  }
#undef TGRS_REDUCE_LOOP
  for (o = 0; o < out_count; ++o) {
    if (kind == TGRS_REDUCE_MEAN) output[o] /= (float)count;
    if (kind == TGRS_REDUCE_L2) output[o] = tgrs_sqrtf(output[o]);
    if (kind == TGRS_REDUCE_LOG_SUM_EXP || kind == TGRS_REDUCE_LOG_SUM) {
      output[o] = tgrs_logf(output[o]);
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_reduce_mean_f32(uint32_t axes_mask, const tgrs_dims* input_dims,
                                        const float* input, float* output) {
  return tgrs_reduce_f32(TGRS_REDUCE_MEAN, axes_mask, input_dims, input, output);
}

tgrs_kernel_status tgrs_reduce_s8(tgrs_reduce_kind kind, uint32_t axes_mask,
                                  const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                  const tgrs_dims* input_dims, const int8_t* input,
                                  int8_t* output) {
  const int extreme = kind == TGRS_REDUCE_MAX || kind == TGRS_REDUCE_MIN;
  const int tflite =
      TGRS_WITH_TFLITE_ROUNDING && quant != NULL && quant->rounding == TGRS_ROUNDING_TFLITE;
  int32_t dim[4], span[4], i, o0, o1, o2, o3, r0, r1, r2, r3;
  size_t stride[4], count = 1;
  if (!tgrs_dims_valid(input_dims) || (axes_mask & ~0xFu) != 0 || !tgrs_quant_s8_valid(quant) ||
      rq == NULL || input == NULL || output == NULL ||
      (kind != TGRS_REDUCE_MEAN && kind != TGRS_REDUCE_SUM && !extreme)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  dim[0] = input_dims->n;
  dim[1] = input_dims->h;
  dim[2] = input_dims->w;
  dim[3] = input_dims->c;
  stride[3] = 1;
  for (i = 2; i >= 0; --i) stride[i] = stride[i + 1] * (size_t)dim[i + 1];
  /* Kept dims are walked by the outer loops (span 1 inside), reduced dims by the inner. */
  for (i = 0; i < 4; ++i) {
    span[i] = (axes_mask & (1u << i)) ? dim[i] : 1;
    count *= (size_t)span[i];
  }
  if (count >= ((size_t)1 << 23)) return TGRS_KERNEL_BAD_ARGUMENT; /* |sum| < 255 * 2^23 */
  for (o0 = 0; o0 < dim[0] / span[0]; ++o0) {
    for (o1 = 0; o1 < dim[1] / span[1]; ++o1) {
      for (o2 = 0; o2 < dim[2] / span[2]; ++o2) {
        for (o3 = 0; o3 < dim[3] / span[3]; ++o3) {
          const int8_t* base = input + o0 * stride[0] + o1 * stride[1] + o2 * stride[2] + o3;
          /* MEAN and SUM: the exact sum of (x - zp_in); MAX and MIN: the extreme x - zp_in
           * (quantization is monotone, so the extreme of the reals is the extreme q). */
          int32_t acc = extreme ? base[0] - quant->input_zero_point : 0;
          int64_t v;
          for (r0 = 0; r0 < span[0]; ++r0) {
            for (r1 = 0; r1 < span[1]; ++r1) {
              for (r2 = 0; r2 < span[2]; ++r2) {
                for (r3 = 0; r3 < span[3]; ++r3) {
                  const int32_t x =
                      base[r0 * stride[0] + r1 * stride[1] + r2 * stride[2] + (size_t)r3] -
                      quant->input_zero_point;
                  if (kind == TGRS_REDUCE_MAX) {
                    if (x > acc) acc = x;
                  } else if (kind == TGRS_REDUCE_MIN) {
                    if (x < acc) acc = x;
                  } else {
                    acc += x;
                  }
                }
              }
            }
          }
          if (tflite && !extreme) {
            /* TFLite's QuantizedMeanOrSum: one TFLite requantization of the sum, a MEAN's
             * 1/count folded into the multiplier by the compiler (emit/tflite_quant.cc) */
            v = (int64_t)quant->output_zero_point +
                tgrs_mbqm_tflite(acc, rq->multiplier, rq->shift);
          } else {
            v = (int64_t)quant->output_zero_point +
                tgrs_average_requant(acc, rq->multiplier, rq->shift,
                                     kind == TGRS_REDUCE_MEAN ? (int32_t)count : 1);
          }
          if (v < quant->act_min) v = quant->act_min;
          if (v > quant->act_max) v = quant->act_max;
          *output++ = (int8_t)v;
        }
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_reduce_mean_s8(uint32_t axes_mask, const tgrs_quant_s8* quant,
                                       const tgrs_requant* rq, const tgrs_dims* input_dims,
                                       const int8_t* input, int8_t* output) {
  return tgrs_reduce_s8(TGRS_REDUCE_MEAN, axes_mask, quant, rq, input_dims, input, output);
}

/* Outer, length and inner extents of a walk along NHWC dim `axis`. */
static void axis_extents(const tgrs_dims* d, int32_t axis, size_t* outer, size_t* len,
                         size_t* inner) {
  const int32_t dim[4] = {d->n, d->h, d->w, d->c};
  int32_t i;
  *outer = 1;
  *inner = 1;
  for (i = 0; i < axis; ++i) *outer *= (size_t)dim[i];
  *len = (size_t)dim[axis];
  for (i = axis + 1; i < 4; ++i) *inner *= (size_t)dim[i];
}

/* One loop per dtype (not per op and tie rule: eight copies cost 1.3 KB of Cortex-M code).
 * ArgMin is ArgMax of the negated values; `last` also takes equal values. */
tgrs_kernel_status tgrs_arg_extreme(int find_max, int last, int int8, int32_t axis,
                                    const tgrs_dims* input_dims, const void* input, int int32,
                                    void* output) {
  size_t written = 0;
  size_t outer, len, inner, o, in, k;
  if (!tgrs_dims_valid(input_dims) || axis < 0 || axis > 3 || input == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  axis_extents(input_dims, axis, &outer, &len, &inner);
  for (o = 0; o < outer; ++o) {
    for (in = 0; in < inner; ++in) {
      const size_t first = o * len * inner + in;
      int64_t at = 0;
      if (int8) {
        /* Quantization is monotone (scale > 0): the extreme code is the extreme value. */
        const int8_t* line = (const int8_t*)input + first;
        int32_t best = find_max ? line[0] : -line[0];
        for (k = 1; k < len; ++k) {
          const int32_t v = find_max ? line[k * inner] : -line[k * inner];
          if (v > best || (last && v == best)) {
            best = v;
            at = (int64_t)k;
          }
        }
      } else {
        /* NaN is the extreme of both (numpy's argmax / argmin, ONNX's reference): the first
         * NaN wins, or the last with `last`; a number never replaces a NaN. */
        const float* line = (const float*)input + first;
        float best = find_max ? line[0] : -line[0];
        for (k = 1; k < len; ++k) {
          const float v = find_max ? line[k * inner] : -line[k * inner];
          const int better =
              best != best ? (v != v && last) : (v != v || v > best || (last && v == best));
          if (better) {
            best = v;
            at = (int64_t)k;
          }
        }
      }
      if (int32) {
        ((int32_t*)output)[written++] = (int32_t)at;
      } else {
        ((int64_t*)output)[written++] = at;
      }
    }
  }
  return TGRS_KERNEL_OK;
}
