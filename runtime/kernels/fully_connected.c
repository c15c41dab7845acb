/*
 * Fully connected (Gemm / MatMul with constant weights), int8 per-channel and float32.
 * Weights [N_OUT, K] (Gemm canonical transB = 1): each output reads one contiguous row.
 */
#include "dot_s8.h"
#include "kernel_util.h"
#include "requantize.h"
#include "tgrs_kernels.h"

/* The int8 layer's sums and their one requantization, shared by the whole layer and by the
 * parts of a split one (tgrs_fully_connected_part_s8). Each sum starts from the parts
 * before (sums_in[b][o]) plus the bias; with sums_out it is stored raw, else requantized
 * into output. sums_in and sums_out may be the same array: each sum is read before its
 * own store. */
static tgrs_kernel_status fc_s8(const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
                                int32_t batch, int32_t k, int32_t n_out, const int8_t* input,
                                const int8_t* filter, const int32_t* bias, const int32_t* sums_in,
                                int32_t* sums_out, int8_t* output) {
  int32_t b, o, i, zp_step, q_step = 0;
  const int32_t* filter_zp = NULL;
  if (pcq == NULL || quant == NULL || (sums_out == NULL) == (output == NULL)) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if (output != NULL) {
    q_step = tgrs_pcq_step(pcq, n_out);
    if (q_step < 0 || !tgrs_quant_s8_valid(quant)) return TGRS_KERNEL_BAD_ARGUMENT;
  } else if (!tgrs_zero_point_s8_valid(quant->input_zero_point)) {
    return TGRS_KERNEL_BAD_ARGUMENT; /* raw sums: only the input's zero point is read */
  }
  zp_step = tgrs_filter_zp_step(pcq, n_out, &filter_zp);
  if (batch < 1 || k < 1 || n_out < 1 || zp_step < 0 || input == NULL || filter == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (b = 0; b < batch; ++b) {
    const int8_t* x = input + (size_t)b * k;
    const size_t row = (size_t)b * n_out;
    o = 0;
    /* Symmetric filters (the common case), four outputs at a time (dot_s8.h). */
    for (; pcq->filter_zero_point_count == 0u && o + 4 <= n_out; o += 4) {
      int32_t acc[4], j;
      for (j = 0; j < 4; ++j) {
        acc[j] = tgrs_wrapping_add(bias != NULL ? bias[o + j] : 0,
                                   sums_in != NULL ? sums_in[row + o + j] : 0);
      }
      tgrs_dot4_s8(x, filter + (size_t)o * k, (size_t)k, k, quant->input_zero_point, acc);
      for (j = 0; j < 4; ++j) {
        if (sums_out != NULL) {
          sums_out[row + o + j] = acc[j];
        } else {
          output[row + o + j] =
              tgrs_requantize_s8_as(quant->rounding, acc[j], pcq->multiplier[(o + j) * q_step],
                                    pcq->shift[(o + j) * q_step], quant->output_zero_point,
                                    quant->act_min, quant->act_max);
        }
      }
    }
    for (; o < n_out; ++o) {
      const int8_t* w = filter + (size_t)o * k;
      const int32_t w_zp = filter_zp[o * zp_step];
      int32_t acc =
          tgrs_wrapping_add(bias != NULL ? bias[o] : 0, sums_in != NULL ? sums_in[row + o] : 0);
      if (w_zp == 0) {
        acc = tgrs_dot_s8(x, w, k, quant->input_zero_point, acc);
      } else {
        for (i = 0; i < k; ++i) {
          acc = tgrs_wrapping_add(
              acc, ((int32_t)x[i] - quant->input_zero_point) * ((int32_t)w[i] - w_zp));
        }
      }
      if (sums_out != NULL) {
        sums_out[row + o] = acc;
      } else {
        output[row + o] = tgrs_requantize_s8_as(quant->rounding, acc, pcq->multiplier[o * q_step],
                                                pcq->shift[o * q_step], quant->output_zero_point,
                                                quant->act_min, quant->act_max);
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_fully_connected_s8(const tgrs_quant_s8* quant,
                                           const tgrs_per_channel_quant* pcq, int32_t batch,
                                           int32_t k, int32_t n_out, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias,
                                           int8_t* output) {
  if (output == NULL) return TGRS_KERNEL_BAD_ARGUMENT;
  return fc_s8(quant, pcq, batch, k, n_out, input, filter, bias, NULL, NULL, output);
}

tgrs_kernel_status tgrs_fully_connected_part_s8(const tgrs_quant_s8* quant,
                                                const tgrs_per_channel_quant* pcq, int32_t batch,
                                                int32_t k, int32_t n_out, const int8_t* input,
                                                const int8_t* filter, const int32_t* bias,
                                                const int32_t* sums_in, int32_t* sums_out,
                                                int8_t* output) {
  return fc_s8(quant, pcq, batch, k, n_out, input, filter, bias, sums_in, sums_out, output);
}

tgrs_kernel_status tgrs_fully_connected_f32(const tgrs_act_f32* act, int32_t batch, int32_t k,
                                            int32_t n_out, const float* input, const float* filter,
                                            const float* bias, float* output) {
  int32_t b, o, i;
  if (batch < 1 || k < 1 || n_out < 1 || input == NULL || filter == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  for (b = 0; b < batch; ++b) {
    const float* x = input + (size_t)b * k;
    float* y = output + (size_t)b * n_out;
    for (o = 0; o < n_out; ++o) {
      const float* w = filter + (size_t)o * k;
      float acc = 0.0f;
      for (i = 0; i < k; ++i) acc += x[i] * w[i];
      if (bias != NULL) acc += bias[o];
      if (act != NULL) {
        if (acc < act->min) acc = act->min;
        if (acc > act->max) acc = act->max;
      }
      y[o] = acc;
    }
  }
  return TGRS_KERNEL_OK;
}

/* tgrs_fully_connected_band_*: tgrs_kernels.h. */
static tgrs_kernel_status check_fc_band(const tgrs_dims* in, const tgrs_pool_box* box,
                                        int32_t n_out, const void* band, const void* filter,
                                        const void* acc, const void* output) {
  if (!tgrs_dims_valid(in) || box == NULL || n_out < 1 || band == NULL || filter == NULL ||
      acc == NULL || output == NULL) {
    return TGRS_KERNEL_BAD_ARGUMENT;
  }
  if ((int64_t)in->h * in->w * in->c > INT32_MAX) return TGRS_KERNEL_BAD_ARGUMENT; /* K */
  return tgrs_box_inside(in, box) ? TGRS_KERNEL_OK : TGRS_KERNEL_BAD_WINDOW;
}

tgrs_kernel_status tgrs_fully_connected_band_s8(const tgrs_quant_s8* quant,
                                                const tgrs_per_channel_quant* pcq,
                                                const tgrs_dims* input_dims,
                                                const tgrs_pool_box* box, int32_t n_out,
                                                const int8_t* band, const int8_t* filter,
                                                const int32_t* bias, int32_t* acc, int8_t* output) {
  const tgrs_kernel_status st = check_fc_band(input_dims, box, n_out, band, filter, acc, output);
  const int32_t* filter_zp = NULL;
  int32_t q_step, zp_step, n, o, y, i;
  size_t k, seg;
  if (st != TGRS_KERNEL_OK) return st;
  q_step = tgrs_pcq_step(pcq, n_out);
  zp_step = tgrs_filter_zp_step(pcq, n_out, &filter_zp);
  if (!tgrs_quant_s8_valid(quant) || q_step < 0 || zp_step < 0) return TGRS_KERNEL_BAD_ARGUMENT;
  k = (size_t)input_dims->h * (size_t)input_dims->w * (size_t)input_dims->c;
  seg = (size_t)box->cols * (size_t)input_dims->c; /* one row of the box: contiguous in K */
  for (n = 0; n < input_dims->n; ++n) {
    int32_t* a = acc + (size_t)n * (size_t)n_out;
    const int8_t* rows = band + (size_t)n * (size_t)box->rows * seg;
    for (o = 0; o < n_out; ++o) {
      const int32_t w_zp = filter_zp[o * zp_step];
      int32_t sum = tgrs_box_first(box) ? (bias != NULL ? bias[o] : 0) : a[o];
      for (y = 0; y < box->rows; ++y) {
        const int8_t* x = rows + (size_t)y * seg;
        const int8_t* w =
            filter + (size_t)o * k +
            ((size_t)(box->row_begin + y) * (size_t)input_dims->w + (size_t)box->col_begin) *
                (size_t)input_dims->c;
        if (w_zp == 0) {
          sum = tgrs_dot_s8(x, w, (int32_t)seg, quant->input_zero_point, sum);
        } else {
          for (i = 0; i < (int32_t)seg; ++i) {
            sum = tgrs_wrapping_add(
                sum, ((int32_t)x[i] - quant->input_zero_point) * ((int32_t)w[i] - w_zp));
          }
        }
      }
      a[o] = sum;
    }
    if (tgrs_box_last(input_dims, box)) {
      int8_t* out = output + (size_t)n * (size_t)n_out;
      for (o = 0; o < n_out; ++o) {
        out[o] = tgrs_requantize_s8_as(quant->rounding, a[o], pcq->multiplier[o * q_step],
                                       pcq->shift[o * q_step], quant->output_zero_point,
                                       quant->act_min, quant->act_max);
      }
    }
  }
  return TGRS_KERNEL_OK;
}

tgrs_kernel_status tgrs_fully_connected_band_f32(const tgrs_act_f32* act,
                                                 const tgrs_dims* input_dims,
                                                 const tgrs_pool_box* box, int32_t n_out,
                                                 const float* band, const float* filter,
                                                 const float* bias, float* acc, float* output) {
  const tgrs_kernel_status st = check_fc_band(input_dims, box, n_out, band, filter, acc, output);
  int32_t n, o, y, i;
  size_t k, seg;
  if (st != TGRS_KERNEL_OK) return st;
  k = (size_t)input_dims->h * (size_t)input_dims->w * (size_t)input_dims->c;
  seg = (size_t)box->cols * (size_t)input_dims->c;
  for (n = 0; n < input_dims->n; ++n) {
    float* a = acc + (size_t)n * (size_t)n_out;
    const float* rows = band + (size_t)n * (size_t)box->rows * seg;
    for (o = 0; o < n_out; ++o) {
      /* The whole-tensor kernel's accumulator, carried in `acc` between bands. */
      float sum = tgrs_box_first(box) ? 0.0f : a[o];
      for (y = 0; y < box->rows; ++y) {
        const float* x = rows + (size_t)y * seg;
        const float* w =
            filter + (size_t)o * k +
            ((size_t)(box->row_begin + y) * (size_t)input_dims->w + (size_t)box->col_begin) *
                (size_t)input_dims->c;
        for (i = 0; i < (int32_t)seg; ++i) sum += x[i] * w[i];
      }
      a[o] = sum;
    }
    if (tgrs_box_last(input_dims, box)) {
      float* out = output + (size_t)n * (size_t)n_out;
      for (o = 0; o < n_out; ++o) {
        float v = a[o];
        if (bias != NULL) v += bias[o];
        if (act != NULL) {
          if (v < act->min) v = act->min;
          if (v > act->max) v = act->max;
        }
        out[o] = v;
      }
    }
  }
  return TGRS_KERNEL_OK;
}
