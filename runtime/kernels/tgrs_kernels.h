/*
 * TiGrIS reference kernels: int8 (s8) and float32 (f32), C99, libc (+ libm) only.
 *
 * Conventions (CMSIS-NN style, STYLE.md):
 *  - one kernel family per .c file in runtime/kernels/; names carry the data type;
 *  - argument order: scratch, op params, quant params, then dims/data pairs for input,
 *    filter, bias, output; inputs are const, the output is last;
 *  - kernels never allocate and keep no state. Scratch is passed in by the caller; the only
 *    kernels that take scratch are Softmax/LogSoftmax (tgrs_softmax_scratch_bytes) and the
 *    recurrent layers (tgrs_recurrent_scratch_bytes), every other kernel needs 0 bytes:
 *    exactly the planner's rule in libtigris/analysis/kernel_scratch.cc and
 *    docs/memory-model.md ("Kernel scratch");
 *  - activations are NHWC: Format: [N, H, W, C]. Tensors of rank < 4 are right-aligned
 *    into tgrs_dims (a [N, K] tensor is {1, 1, N, K} or any padding with leading 1s);
 *  - input and output buffers never overlap (docs/memory-model.md: no op runs in place),
 *    except tgrs_reshape, which accepts output == input.
 *
 * Row windows (tiling, tigris-tiling.txt "Spatial tiling"; plan/tile_plan.h TileRows()):
 * every spatial kernel (conv2d, depthwise_conv2d, max/avg pool, pad, resize) computes
 * output rows [out_row_begin, out_row_end) of a tensor whose full height is
 * output_dims->h, reading an input buffer that holds only input rows
 * [in_row_begin, in_row_begin + in_rows) of a tensor whose full height is input_dims->h.
 * Rows outside [0, input_dims->h) are virtual padding. The output buffer holds exactly the
 * computed rows. Every output element is computed by the same arithmetic in the same
 * order whatever the window, so a tiled run is byte-identical to the untiled one. Width is
 * never tiled. For an op producing rows [a, b), the rows it reads are
 *   [a * stride - pad_top, (b - 1) * stride - pad_top + (kernel - 1) * dilation + 1)
 * clipped to [0, H_in) (OpTileRows::input); the buffer must hold at least those rows, else
 * the kernel returns TGRS_KERNEL_BAD_WINDOW without reading anything.
 *
 * int8 arithmetic (ONNX QDQ semantics computed TFLite/CMSIS-NN style): int8 weights with
 * per-output-channel scales and zero point 0, or (conv, depthwise, fully connected) the
 * zero points in tgrs_per_channel_quant, int32 bias with scale in_scale * w_scale,
 * accumulation of (x - x_zp) * w in int32, requantization by a Q0.31 multiplier and shift
 * (shift > 0 is a left shift) with ONE rounding, half to even, as ONNX QuantizeLinear
 * rounds (requantize.h says why), or TFLite's two (tgrs_rounding, per op), + output
 * zero point, clamp to [act_min, act_max] (tgrs_activation_range_s8 narrows it for a fused
 * Relu/Relu6).
 *
 * Op -> kernel map for the executor:
 *   Conv (group 1)            tgrs_conv2d_{s8,f32}      Conv1D  tgrs_conv1d_{s8,f32}
 *   DepthwiseConv             tgrs_depthwise_conv2d_{s8,f32}
 *   ConvTranspose             tgrs_conv_transpose2d_{s8,f32} (untiled only)
 *   MaxPool / AveragePool     tgrs_max_pool_{s8,f32} / tgrs_avg_pool_{s8,f32}
 *   GlobalAverage/MaxPool     tgrs_global_avg_pool_{s8,f32} / tgrs_global_max_pool_{s8,f32}
 *   Gemm / MatMul(const B)    tgrs_fully_connected_{s8,f32}
 *   MatMul (two activations)  tgrs_matmul_{s8,f32}
 *   MatMul (ranks 1, 3, 4)    tgrs_matmul_strided_{s8,f32} (any layout, through strides)
 *   Add/Sub/Mul/Div           tgrs_{add,sub,mul}_s8, tgrs_{add,sub,mul,div}_f32 (no Div s8)
 *   Max/Min/Pow/PRelu         tgrs_{max,min}_s8, tgrs_{max,min,pow,prelu}_f32
 *   Relu/Relu6/Clip           tgrs_{relu,relu6,clip}_f32, tgrs_clip_s8 (same in/out quant)
 *   LeakyRelu/Selu/Sigmoid/HardSigmoid/HardSwish/Tanh  tgrs_<op>_f32, tgrs_lut_s8
 *   Abs ... Mish (elementwise math)  loops in src/ops_math.c, tgrs_lut_s8
 *   Concat / Reshape / Transpose  tgrs_concat, tgrs_reshape, tgrs_transpose (byte copies)
 *   Slice                     tgrs_slice (byte copies of a strided window)
 *   Gather (axis 0)           tgrs_gather (row copies chosen by run-time indices)
 *   GatherElements            tgrs_gather_elements (element copies chosen by indices)
 *   Pad                       tgrs_pad_{s8,f32}           Resize  tgrs_resize_{s8,f32}
 *   Softmax / LogSoftmax      tgrs_{softmax,log_softmax}_{s8,f32} (scratch)
 *   ReduceMean                tgrs_reduce_mean_{s8,f32} (int8 over H,W: tgrs_global_avg_pool_s8)
 *   Reduce{Sum,Max,Min,...}   tgrs_reduce_{s8,f32} (int8: Sum, Max, Min)
 *   ArgMax / ArgMin           tgrs_arg_extreme (float32 or int8 in, int64 or int32 out)
 *   Equal/Greater/Less/...    tgrs_compare (float32, int32, int64, bool in; bool out)
 *   Not/And/Or/Xor            tgrs_not, tgrs_logic (bool)
 *   Where / Cast              tgrs_where, tgrs_cast (float32, int32, int64, bool)
 *   Tile / Expand             tgrs_tile (byte copies)
 *   DepthToSpace/SpaceToDepth tgrs_depth_to_space / tgrs_space_to_depth (byte copies)
 *   Hardmax / CumSum          tgrs_hardmax_f32, tgrs_cumsum (float32, int32, int64)
 *   RNN / GRU / LSTM          tgrs_recurrent_f32 (scratch)
 *   LRN                       tgrs_lrn_{s8,f32}
 *   BatchNormalization        tgrs_batch_norm_{s8,f32}
 *   Quantize / Dequantize     tgrs_quantize_f32_s8 / tgrs_dequantize_s8_f32
 */
#ifndef TGRS_KERNELS_H_
#define TGRS_KERNELS_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================================
 * Common types
 * ====================================================================================== */

typedef enum tgrs_kernel_status {
  TGRS_KERNEL_OK = 0,
  TGRS_KERNEL_BAD_ARGUMENT = 1,      /* NULL pointer, non-positive dim, inconsistent shapes */
  TGRS_KERNEL_BAD_WINDOW = 2,        /* row window outside the tensor or not covering the reads */
  TGRS_KERNEL_INDEX_OUT_OF_RANGE = 3 /* a run-time index outside its table (Gather), or a
                                      * run-time sequence length outside [1, seq_length]
                                      * (recurrent layers) */
} tgrs_kernel_status;

/* A 4-D shape. Activations: [N, H, W, C]. Filters: see each kernel. */
typedef struct tgrs_dims {
  int32_t n;
  int32_t h;
  int32_t w;
  int32_t c;
} tgrs_dims;

/* The rows a spatial kernel reads and writes (see the file comment). */
typedef struct tgrs_row_window {
  int32_t in_row_begin;  /* first input row held by the input buffer, >= 0 */
  int32_t in_rows;       /* input rows held; in_row_begin + in_rows <= input_dims->h */
  int32_t out_row_begin; /* first output row computed, >= 0 */
  int32_t out_row_end;   /* one past the last; out_row_end <= output_dims->h */
} tgrs_row_window;

/* The untiled window: all input rows held, all output rows computed. */
tgrs_row_window tgrs_row_window_full(int32_t in_h, int32_t out_h);

/* Geometry of a convolution window (Conv, DepthwiseConv, ConvTranspose). Bottom/right
 * padding is implied by the output dims: any tap outside the input is padding. */
typedef struct tgrs_conv_params {
  int32_t stride_h, stride_w;     /* >= 1 */
  int32_t dilation_h, dilation_w; /* >= 1 */
  int32_t pad_top, pad_left;      /* >= 0 */
  /* Depthwise only: the channels of the whole filter, the stride between its taps, when
   * the call computes a group of them (a channel group of a tile loop: filter, bias and
   * requantization then point at the group's first channel). 0: output_dims->c. */
  int32_t filter_channels;
} tgrs_conv_params;

/* Which integer arithmetic an int8 op computes with (the plan's Op.rounding, chosen by
 * the compiler from the model's origin; requantize.h has both):
 *   ONNX    requantization rounds once, half to even (ONNX QuantizeLinear, onnxruntime);
 *           averages round once too (tgrs_average_requant)
 *   TFLITE  TFLite's MultiplyByQuantizedMultiplier (a rounding doubling high multiply,
 *           then a rounding right shift, both half away from zero) and TFLite's integer
 *           average (the raw sum divided by the count, half away from zero), so a plan
 *           compiled from a .tflite gives TensorFlow Lite Micro's bytes.
 * Zero (ONNX) is what zero-initialization gives. */
typedef enum tgrs_rounding { TGRS_ROUNDING_ONNX = 0, TGRS_ROUNDING_TFLITE = 1 } tgrs_rounding;

/* Zero points and output clamp of an int8 op. */
typedef struct tgrs_quant_s8 {
  int32_t input_zero_point;  /* [-128, 127] */
  int32_t output_zero_point; /* [-128, 127] */
  int32_t act_min;           /* -128 <= act_min <= act_max <= 127 */
  int32_t act_max;
  int32_t rounding; /* tgrs_rounding */
} tgrs_quant_s8;

/* Per-output-channel requantization (tgrs_quantize_multiplier of in_scale * w_scale[c] /
 * out_scale), pointing straight at the plan's arrays: no copy, no stack buffer (CMSIS-NN's
 * cmsis_nn_per_channel_quant_params, with the plan's int8 shifts and its one-entry
 * broadcast). count is C_OUT, or 1 when one pair serves every channel (a per-tensor weight
 * scale; the executor passes the op's arrays as stored). A kernel rejects any other count,
 * and any shift outside [-31, 30] (the range tgrs_quantize_multiplier produces), with
 * TGRS_KERNEL_BAD_ARGUMENT. */
typedef struct tgrs_per_channel_quant {
  const int32_t* multiplier; /* Q0.31, `count` entries */
  const int8_t* shift;       /* `count` entries, as the plan stores them */
  uint32_t count;            /* C_OUT, or 1: one pair for every channel */
  /* Filter zero points (conv, depthwise conv, fully connected): NULL with count 0 for a
   * symmetric filter (the common case, and what zero-initialization gives), else
   * `filter_zero_point_count` entries in [-128, 127], C_OUT or 1. The kernels then
   * accumulate (x - x_zp) * (w - w_zp[co]): asymmetric weights, as onnxruntime's uint8
   * per-tensor quantization writes them, exactly. */
  const int32_t* filter_zero_point;
  uint32_t filter_zero_point_count;
} tgrs_per_channel_quant;

/* One per-tensor multiplier and shift. {1 << 30, 1} is the exact identity. */
typedef struct tgrs_requant {
  int32_t multiplier;
  int32_t shift;
} tgrs_requant;

/* Output clamp of a float op (fused Relu: {0, +INF}; Relu6: {0, 6}; none: {-INF, +INF}). */
typedef struct tgrs_act_f32 {
  float min;
  float max;
} tgrs_act_f32;

/* ======================================================================================
 * Host-side quantization helpers (used by the emitter and by tests; pure functions)
 * ====================================================================================== */

/* TFLite's QuantizeMultiplier: real = multiplier * 2^(shift - 31), multiplier in
 * [2^30, 2^31) for real > 0 (frexp, round half away from zero, q == 2^31 carried into the
 * shift; shift < -31 becomes multiplier 0, shift 0). real == 0 gives {0, 0}; a negative
 * real gives the negated multiplier of |real|. Returns 0, or -1 (outputs {0, 0}) when real
 * is not finite or |real| >= 2^30 (a left shift > 30 would overflow int32 arithmetic). */
int tgrs_quantize_multiplier(double real, int32_t* multiplier, int* shift);

typedef enum tgrs_fused_activation {
  TGRS_ACT_NONE = 0,
  TGRS_ACT_RELU = 1,
  TGRS_ACT_RELU6 = 2
} tgrs_fused_activation;

/* int8 output clamp for a fused activation: none -> [-128, 127]; relu -> [max(zp, -128),
 * 127]; relu6 -> [max(zp, -128), min(zp + round(6 / scale), 127)] (round half away). */
void tgrs_activation_range_s8(tgrs_fused_activation act, float output_scale,
                              int32_t output_zero_point, int32_t* act_min, int32_t* act_max);

/* ======================================================================================
 * Convolution
 * ====================================================================================== */

/* 2-D convolution, direct (no im2col, no scratch), row-windowed, grouped when the filter
 * has fewer input channels than the input: groups G = C_IN / C_G (C_IN and C_OUT multiples
 * of G), output channel co reads input channels [g * C_G, (g + 1) * C_G) with
 * g = co / (C_OUT / G) (ONNX Conv `group`; G = 1 is the ordinary convolution).
 * For each output element, acc = bias[co] + sum over (ky, kx, ci), in that order, of
 * (x - input_zero_point) * w over taps inside the input (padding taps contribute 0, which is
 * what an input-zero-point pad value gives); out = clamp(MBQM(acc, multiplier[co],
 * shift[co]) + output_zero_point, act_min, act_max).
 *  input_dims:  [N, H_in, W_in, C_IN]           input:  rows of the window only
 *  filter_dims: [C_OUT, KH, KW, C_G] (OHWI)      filter: int8, zero points in pcq (or 0)
 *  bias:        [C_OUT] int32 or NULL
 *  output_dims: [N, H_out, W_out, C_OUT]         output: rows of the window only */
tgrs_kernel_status tgrs_conv2d_s8(const tgrs_conv_params* conv, const tgrs_row_window* window,
                                  const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
                                  const tgrs_dims* input_dims, const int8_t* input,
                                  const tgrs_dims* filter_dims, const int8_t* filter,
                                  const int32_t* bias, const tgrs_dims* output_dims,
                                  int8_t* output);

/* Float 2-D convolution. acc = 0.0f; acc += x * w over taps inside the input in the fixed
 * order (ky, kx, ci); then acc += bias[co]; then clamp to [act->min, act->max]. The order
 * depends only on absolute coordinates, so tiled == untiled bit for bit. Layouts as
 * tgrs_conv2d_s8; bias [C_OUT] float or NULL; act NULL means no clamp. */
tgrs_kernel_status tgrs_conv2d_f32(const tgrs_conv_params* conv, const tgrs_row_window* window,
                                   const tgrs_act_f32* act, const tgrs_dims* input_dims,
                                   const float* input, const tgrs_dims* filter_dims,
                                   const float* filter, const float* bias,
                                   const tgrs_dims* output_dims, float* output);

/* 1-D convolution over a [N, L, C] tensor (ONNX [N, C, L] transposed): exactly
 * tgrs_conv2d_* on [N, 1, L, C] with filter [C_OUT, 1, K, C_IN], stride_h = dilation_h = 1,
 * pad_top = 0 and the full row window (Conv1D is not row-tileable, docs/planning.md).
 * The dims' h fields must be 1; conv->stride_w/dilation_w/pad_left carry the 1-D window. */
tgrs_kernel_status tgrs_conv1d_s8(const tgrs_conv_params* conv, const tgrs_quant_s8* quant,
                                  const tgrs_per_channel_quant* pcq, const tgrs_dims* input_dims,
                                  const int8_t* input, const tgrs_dims* filter_dims,
                                  const int8_t* filter, const int32_t* bias,
                                  const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_conv1d_f32(const tgrs_conv_params* conv, const tgrs_act_f32* act,
                                   const tgrs_dims* input_dims, const float* input,
                                   const tgrs_dims* filter_dims, const float* filter,
                                   const float* bias, const tgrs_dims* output_dims, float* output);

/* Depthwise 2-D convolution with channel multiplier M = C_OUT / C_IN: output channel
 * co = ci * M + m reads input channel ci (ONNX group = C_IN, TFLite depth_multiplier).
 * Arithmetic as tgrs_conv2d_* with the sum over (ky, kx) only.
 *  input_dims:  [N, H_in, W_in, C_IN]
 *  filter_dims: [1, KH, KW, C_OUT]   filter layout [KH, KW, C_OUT]
 *  bias:        [C_OUT] or NULL;  pcq: C_OUT entries or 1
 *  output_dims: [N, H_out, W_out, C_OUT] */
tgrs_kernel_status tgrs_depthwise_conv2d_s8(
    const tgrs_conv_params* conv, const tgrs_row_window* window, const tgrs_quant_s8* quant,
    const tgrs_per_channel_quant* pcq, const tgrs_dims* input_dims, const int8_t* input,
    const tgrs_dims* filter_dims, const int8_t* filter, const int32_t* bias,
    const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_depthwise_conv2d_f32(const tgrs_conv_params* conv,
                                             const tgrs_row_window* window, const tgrs_act_f32* act,
                                             const tgrs_dims* input_dims, const float* input,
                                             const tgrs_dims* filter_dims, const float* filter,
                                             const float* bias, const tgrs_dims* output_dims,
                                             float* output);

/* Transposed 2-D convolution (ONNX ConvTranspose, group 1), computed as a gather:
 * out[oy, ox, co] = bias[co] + sum over (ky, kx, ci) with oy = iy * stride_h - pad_top +
 * ky * dilation_h (same for x) of x[iy, ix, ci] * w[co, ky, kx, ci]. Not row-tileable
 * (docs/planning.md): it always computes the whole output (no window).
 *  input_dims:  [N, H_in, W_in, C_IN]
 *  filter_dims: [C_OUT, KH, KW, C_IN]  (ONNX [C_IN, C_OUT, KH, KW] transposed by the emitter)
 *  output_dims: [N, H_out, W_out, C_OUT] (output_padding/output_shape resolved by the caller)
 * int8: as tgrs_conv2d_s8 (per-channel requant), symmetric filters only. */
tgrs_kernel_status tgrs_conv_transpose2d_s8(
    const tgrs_conv_params* conv, const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
    const tgrs_dims* input_dims, const int8_t* input, const tgrs_dims* filter_dims,
    const int8_t* filter, const int32_t* bias, const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_conv_transpose2d_f32(const tgrs_conv_params* conv, const tgrs_act_f32* act,
                                             const tgrs_dims* input_dims, const float* input,
                                             const tgrs_dims* filter_dims, const float* filter,
                                             const float* bias, const tgrs_dims* output_dims,
                                             float* output);

/* ======================================================================================
 * Pooling
 * ====================================================================================== */

typedef struct tgrs_pool_params {
  int32_t kernel_h, kernel_w;     /* >= 1 */
  int32_t stride_h, stride_w;     /* >= 1 */
  int32_t dilation_h, dilation_w; /* >= 1 */
  int32_t pad_top, pad_left;      /* >= 0 */
  int32_t pad_bottom, pad_right;  /* >= 0; only used to count padding when include_pad */
  int32_t count_include_pad;      /* AveragePool: ONNX attribute (default 0) */
} tgrs_pool_params;

/* Max pool, row-windowed. Padding taps are excluded; a window with no real tap yields the
 * lowest value (-FLT_MAX, or -128 before requantization).
 *  input_dims [N, H_in, W_in, C], output_dims [N, H_out, W_out, C].
 * int8: out = clamp(output_zp + MBQM(max - input_zp, rq), act_min, act_max); pass the
 * identity {1 << 30, 1} when input and output share scale and zero point. */
tgrs_kernel_status tgrs_max_pool_s8(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                    const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                    const tgrs_dims* input_dims, const int8_t* input,
                                    const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_max_pool_f32(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                     const tgrs_dims* input_dims, const float* input,
                                     const tgrs_dims* output_dims, float* output);

/* Average pool, row-windowed (ONNX semantics). count = number of taps inside the input
 * (count_include_pad = 0) or inside the padded input [-pad_top, H_in + pad_bottom) x
 * [-pad_left, W_in + pad_right) (count_include_pad = 1); padding values are 0.
 * f32: sum over (ky, kx) in order, then / count.
 * int8: acc = sum (x - input_zp); out = clamp(output_zp + round_half_even(acc *
 * multiplier * 2^(shift - 31) / count)), rounded ONCE (as onnxruntime's float average then
 * QuantizeLinear; TFLite rounds the requantization and the division separately), with
 * rq = in_scale / out_scale (identity {1 << 30, 1} when equal). */
tgrs_kernel_status tgrs_avg_pool_s8(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                    const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                    const tgrs_dims* input_dims, const int8_t* input,
                                    const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_avg_pool_f32(const tgrs_pool_params* pool, const tgrs_row_window* window,
                                     const tgrs_dims* input_dims, const float* input,
                                     const tgrs_dims* output_dims, float* output);

/* Global pools over H and W: input [N, H, W, C] -> output [N, 1, 1, C]. Not tileable.
 * Arithmetic as the windowed pools with count = H * W (avg f32 sums in (y, x) order). */
tgrs_kernel_status tgrs_global_avg_pool_s8(const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                           const tgrs_dims* input_dims, const int8_t* input,
                                           int8_t* output);
tgrs_kernel_status tgrs_global_avg_pool_f32(const tgrs_dims* input_dims, const float* input,
                                            float* output);
tgrs_kernel_status tgrs_global_max_pool_s8(const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                           const tgrs_dims* input_dims, const int8_t* input,
                                           int8_t* output);
tgrs_kernel_status tgrs_global_max_pool_f32(const tgrs_dims* input_dims, const float* input,
                                            float* output);

/* The same global pools one box at a time (a tile loop, docs/planning.md "Banded
 * reductions"): `band` holds rows [box->row_begin, + box->rows) and columns
 * [box->col_begin, + box->cols) of input [N, H, W, C] (input_dims is the whole tensor) as
 * [N, rows, cols, C]. The box at row 0, column 0 initializes the per-channel accumulators
 * `acc` ([N, C]: float sums or maxima for f32; int32 sums of x - zero point or maxima for
 * s8), every box adds its pixels, and the box ending at (H, W) writes output [N, 1, 1, C];
 * `output` is not touched before. Boxes must come row band by row band, left to right, and
 * cover the tensor. Per channel the additions come in the whole-tensor kernel's order (row
 * by row, column by column) when every box is one row or spans the full width; int32
 * sums and maxima are exact in any order. The last step is the whole-tensor kernel's own.
 * TGRS_KERNEL_BAD_WINDOW for a box outside the tensor. */
typedef struct tgrs_pool_box {
  int32_t row_begin, rows;
  int32_t col_begin, cols;
} tgrs_pool_box;
tgrs_kernel_status tgrs_global_pool_band_f32(int is_max, const tgrs_dims* input_dims,
                                             const tgrs_pool_box* box, const float* band,
                                             float* acc, float* output);
tgrs_kernel_status tgrs_global_pool_band_s8(int is_max, const tgrs_quant_s8* quant,
                                            const tgrs_requant* rq, const tgrs_dims* input_dims,
                                            const tgrs_pool_box* box, const int8_t* band,
                                            int32_t* acc, int8_t* output);

/* ======================================================================================
 * Fully connected and matmul
 * ====================================================================================== */

/* out[b, o] = sum_k x[b, k] * w[o, k] + bias[o] (Gemm with constant B, transB = 1).
 *  batch: rows of the input; input [batch, K]; filter [N_OUT, K]; bias [N_OUT] or NULL;
 *  output [batch, N_OUT]. int8: per-output-channel requant as tgrs_conv2d_s8; f32: sum
 *  over k ascending, then + bias, then clamp. */
tgrs_kernel_status tgrs_fully_connected_s8(const tgrs_quant_s8* quant,
                                           const tgrs_per_channel_quant* pcq, int32_t batch,
                                           int32_t k, int32_t n_out, const int8_t* input,
                                           const int8_t* filter, const int32_t* bias,
                                           int8_t* output);
/* One part of an int8 layer whose input dimension the planner split (the FDT paper's
 * fan-in and Merge, docs/planning.md "fdt-fan-out-fan-in"): input [batch, K_part] and
 * filter [N_OUT, K_part] are the part's slices, and
 *   sum[b, o] = sums_in[b, o] + bias[o] + sum_k (x[b, k] - in_zp) * (w[o, k] - w_zp[o])
 * (sums_in: the [batch, N_OUT] int32 sums of the parts before, or NULL for the first part;
 * bias NULL after it). Exactly one of sums_out and output is given: sums_out [batch, N_OUT]
 * receives the raw int32 sums (quant's output fields and pcq's multipliers are not read),
 * output the one requantization of the last part, as tgrs_fully_connected_s8 writes it.
 * int32 sums wrap as the whole layer's do, so the parts in order give the whole layer's
 * bytes. sums_in may equal sums_out. */
tgrs_kernel_status tgrs_fully_connected_part_s8(const tgrs_quant_s8* quant,
                                                const tgrs_per_channel_quant* pcq, int32_t batch,
                                                int32_t k, int32_t n_out, const int8_t* input,
                                                const int8_t* filter, const int32_t* bias,
                                                const int32_t* sums_in, int32_t* sums_out,
                                                int8_t* output);
tgrs_kernel_status tgrs_fully_connected_f32(const tgrs_act_f32* act, int32_t batch, int32_t k,
                                            int32_t n_out, const float* input, const float* filter,
                                            const float* bias, float* output);

/* The same layers one box of their input at a time (a tile loop, docs/planning.md "Banded
 * reductions"), for an input that is a [N, H, W, C] map read as [N, K], K = H W C in that
 * order (the planner's gemm-as-banded-reduction): `band` holds the box's rows and columns
 * as [N, rows, cols, C] (input_dims is the whole map), filter [N_OUT, K]. The box at row 0,
 * column 0 starts the [N, N_OUT] accumulators `acc` (int32 from the bias; float from 0),
 * every box adds its products, and the box ending at (H, W) writes `output` [N, N_OUT]
 * exactly as the whole-tensor kernel does (s8: requantize; f32: + bias, clamp); `output`
 * is not touched before. Boxes come as for tgrs_global_pool_band_*: per output the float
 * products are added in the whole-tensor kernel's order (ascending k) when every box is one
 * row or spans the full width, so tiled == untiled bits; int32 sums wrap as the whole
 * kernel's do. TGRS_KERNEL_BAD_WINDOW for a box outside the map. */
tgrs_kernel_status tgrs_fully_connected_band_s8(const tgrs_quant_s8* quant,
                                                const tgrs_per_channel_quant* pcq,
                                                const tgrs_dims* input_dims,
                                                const tgrs_pool_box* box, int32_t n_out,
                                                const int8_t* band, const int8_t* filter,
                                                const int32_t* bias, int32_t* acc, int8_t* output);
tgrs_kernel_status tgrs_fully_connected_band_f32(const tgrs_act_f32* act,
                                                 const tgrs_dims* input_dims,
                                                 const tgrs_pool_box* box, int32_t n_out,
                                                 const float* band, const float* filter,
                                                 const float* bias, float* acc, float* output);

/* Zero points of a two-activation int8 matmul. */
typedef struct tgrs_matmul_quant_s8 {
  int32_t a_zero_point, b_zero_point, output_zero_point;
  int32_t act_min, act_max;
  tgrs_requant rq;  /* a_scale * b_scale / out_scale */
  int32_t rounding; /* tgrs_rounding */
} tgrs_matmul_quant_s8;

/* Batched matmul of two activations: out[i] = A[i] x B[i or 0] (ONNX MatMul, rank <= 3).
 *  a: [batch, M, K]; b: [b_batch, K, N] with b_batch == batch or 1 (broadcast);
 *  output [batch, M, N]. f32 sums over k ascending. */
tgrs_kernel_status tgrs_matmul_s8(const tgrs_matmul_quant_s8* quant, int32_t batch, int32_t m,
                                  int32_t k, int32_t n, int32_t b_batch, const int8_t* a,
                                  const int8_t* b, int8_t* output);
tgrs_kernel_status tgrs_matmul_f32(int32_t batch, int32_t m, int32_t k, int32_t n, int32_t b_batch,
                                   const float* a, const float* b, float* output);

/* ONNX MatMul of operands of rank 1 to 4, each stored in any layout: the geometry gives the
 * output's two batch extents (1 where absent), M, K, N, and per operand the element stride
 * of each of its axes (0 along a broadcast batch axis or an axis the operand lacks: a
 * rank-1 A has no M, a rank-1 B no N). out[b0][b1][m][n] = the sum over k ascending of
 * A[b0][b1][m][k] B[b0][b1][k][n]. TGRS_KERNEL_BAD_ARGUMENT when an extent is below 1, a
 * stride is negative, or an operand's last element would lie past its count. */
typedef struct tgrs_matmul_geometry {
  int32_t batch[2];
  int32_t m, k, n;
  int32_t a_stride[4]; /* batch 0, batch 1, m, k */
  int32_t b_stride[4]; /* batch 0, batch 1, k, n */
  int32_t y_stride[4]; /* batch 0, batch 1, m, n */
} tgrs_matmul_geometry;
tgrs_kernel_status tgrs_matmul_strided_f32(const tgrs_matmul_geometry* geometry, const float* a,
                                           size_t a_count, const float* b, size_t b_count,
                                           float* output, size_t output_count);
/* The same in int8: sum over k of (A - quant->input_zero_point) * (B - zp_B[n]) in int32,
 * requantized per column n of B by pcq (multiplier/shift count N or 1) to
 * quant->output_zero_point and clamped to [act_min, act_max]. zp_B is pcq's filter zero
 * points (count 0: symmetric, 1, or N): a run-time B's per-tensor zero point, or a constant
 * B's per-column ones (per-channel weights quantized along N, as quantize_static writes a
 * MatMul's). */
tgrs_kernel_status tgrs_matmul_strided_s8(const tgrs_matmul_geometry* geometry,
                                          const tgrs_quant_s8* quant,
                                          const tgrs_per_channel_quant* pcq, const int8_t* a,
                                          size_t a_count, const int8_t* b, size_t b_count,
                                          int8_t* output, size_t output_count);

/* ======================================================================================
 * Elementwise binary ops with broadcasting (ONNX multidirectional, rank <= 4)
 * ====================================================================================== */
/* Shapes are right-aligned into tgrs_dims; each of a_dims/b_dims equals output_dims or
 * is 1 in every dimension (same shape, scalar, per-channel [C], or any other broadcast). */

/* TFLite integer Add/Sub: both inputs are shifted left by left_shift (20), rescaled to a
 * common scale 2 * max(s1, s2) by their own multipliers, summed (or subtracted), and
 * requantized by the output multiplier. tgrs_add_s8_params_init computes the fields. */
typedef struct tgrs_add_s8_params {
  int32_t input1_zero_point, input2_zero_point, output_zero_point;
  int32_t left_shift;
  tgrs_requant input1, input2, output;
  int32_t act_min, act_max;
  int32_t rounding; /* tgrs_rounding: of all three rescalings */
} tgrs_add_s8_params;

/* Fills p from scales as TFLite's PrepareGeneralSubOp/Add does. Returns 0, or -1 if a
 * scale is not positive or a multiplier is out of range. act_min/max = [-128, 127],
 * rounding ONNX. */
int tgrs_add_s8_params_init(double input1_scale, int32_t input1_zero_point, double input2_scale,
                            int32_t input2_zero_point, double output_scale,
                            int32_t output_zero_point, tgrs_add_s8_params* p);

/* TFLite integer Mul: out = zp_out + MBQM((x - zp1) * (y - zp2), rq), rq = s1 * s2 / s_out. */
typedef struct tgrs_mul_s8_params {
  int32_t input1_zero_point, input2_zero_point, output_zero_point;
  tgrs_requant rq;
  int32_t act_min, act_max;
  int32_t rounding; /* tgrs_rounding */
} tgrs_mul_s8_params;

tgrs_kernel_status tgrs_add_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_sub_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_mul_s8(const tgrs_mul_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output);
/* Elementwise max / min: tgrs_add_s8's fields and rescaling, the extreme requantized by
 * p->output; the compiler sets them so the inputs land on the output's grid with
 * left_shift fraction bits (emit/elementwise_quant.h, Max/Min). */
tgrs_kernel_status tgrs_max_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_min_s8(const tgrs_add_s8_params* p, const tgrs_dims* a_dims,
                               const int8_t* a, const tgrs_dims* b_dims, const int8_t* b,
                               const tgrs_dims* output_dims, int8_t* output);
/* Float ops: plain IEEE a op b; max / min propagate NaN; pow is tgrs_powf; prelu is
 * a < 0 ? b * a : a (b the slope). There is no int8 Div, Pow or PRelu: the compiler keeps
 * them in float. */
tgrs_kernel_status tgrs_add_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_sub_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_mul_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_div_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_max_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_min_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_pow_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                const float* b, const tgrs_dims* output_dims, float* output);
tgrs_kernel_status tgrs_prelu_f32(const tgrs_dims* a_dims, const float* a, const tgrs_dims* b_dims,
                                  const float* b, const tgrs_dims* output_dims, float* output);

/* ======================================================================================
 * Activations (flat arrays of `count` elements)
 * ====================================================================================== */

void tgrs_relu_f32(size_t count, const float* input, float* output);
void tgrs_relu6_f32(size_t count, const float* input, float* output);
void tgrs_clip_f32(float min, float max, size_t count, const float* input, float* output);
void tgrs_leaky_relu_f32(float alpha, size_t count, const float* input, float* output);
/* y = gamma * (x > 0 ? x : alpha * (exp(x) - 1)) */
void tgrs_selu_f32(float alpha, float gamma, size_t count, const float* input, float* output);
void tgrs_sigmoid_f32(size_t count, const float* input, float* output);
/* y = max(0, min(1, alpha * x + beta)) (ONNX defaults alpha 0.2, beta 0.5) */
void tgrs_hard_sigmoid_f32(float alpha, float beta, size_t count, const float* input,
                           float* output);
/* y = x * max(0, min(1, x / 6 + 0.5)) (ONNX HardSwish) */
void tgrs_hard_swish_f32(size_t count, const float* input, float* output);
void tgrs_tanh_f32(size_t count, const float* input, float* output);

/* int8 Relu/Relu6/Clip when input and output share scale and zero point: a clamp to the
 * quantized bounds [min, max] (Relu: [zp, 127]; Relu6: tgrs_activation_range_s8). */
void tgrs_clip_s8(int32_t min, int32_t max, size_t count, const int8_t* input, int8_t* output);

/* Any int8 -> int8 function through a 256-entry table built by the emitter:
 * output[i] = table[input[i] + 128], table[q + 128] = quantize(f(dequantize(q))).
 * Used for Sigmoid, Tanh, HardSigmoid, HardSwish, Selu, LeakyRelu (and Relu/Clip with
 * different input/output quantization). */
void tgrs_lut_s8(const int8_t* table, size_t count, const int8_t* input, int8_t* output);

/* ======================================================================================
 * Softmax / LogSoftmax over one axis
 * ====================================================================================== */
/* The tensor is viewed as [outer, axis_len, inner] (NHWC last axis: inner = 1). Each
 * (outer, inner) line: m = max; e_i = exp(x_i - m) into the scratch; s = sum e_i
 * (ascending); softmax y_i = e_i / s; log softmax y_i = x_i - m - log(s).
 * int8: x_i = (q_i - in_zp) * in_scale, then the float computation, then
 * q = clamp(round_half_even(y / out_scale) + out_zp) (onnxruntime also computes QDQ softmax in
 * float). scratch: tgrs_softmax_scratch_bytes(axis_len) bytes, float-aligned. */
typedef struct tgrs_softmax_quant_s8 {
  float input_scale;
  int32_t input_zero_point;
  float output_scale;
  int32_t output_zero_point;
} tgrs_softmax_quant_s8;

/* 4 * axis_len: one float accumulator per element of the reduced axis, the planner's rule
 * (libtigris/analysis/kernel_scratch.cc). Same for all four softmax kernels. */
size_t tgrs_softmax_scratch_bytes(int32_t axis_len);

tgrs_kernel_status tgrs_softmax_f32(void* scratch, int32_t outer, int32_t axis_len, int32_t inner,
                                    const float* input, float* output);
tgrs_kernel_status tgrs_log_softmax_f32(void* scratch, int32_t outer, int32_t axis_len,
                                        int32_t inner, const float* input, float* output);
tgrs_kernel_status tgrs_softmax_s8(void* scratch, const tgrs_softmax_quant_s8* quant, int32_t outer,
                                   int32_t axis_len, int32_t inner, const int8_t* input,
                                   int8_t* output);
tgrs_kernel_status tgrs_log_softmax_s8(void* scratch, const tgrs_softmax_quant_s8* quant,
                                       int32_t outer, int32_t axis_len, int32_t inner,
                                       const int8_t* input, int8_t* output);

/* TFLite's int8 softmax (tgrs_rounding TFLITE; tensorflow/lite/kernels/internal/reference/
 * softmax.h, as TFLM runs it), in fixed point throughout, for an output of scale 1/256 and
 * zero point -128 (TFLM's requirement). Per line, with m the largest input code:
 *   d_i = q_i - m; lines with d_i < diff_min = -floor(31 * 2^26 / 2^input_left_shift)
 *   contribute nothing and output -128; the others
 *   e_i = exp(SRDHM(d_i * 2^input_left_shift, input_multiplier) as Q5.26) in Q0.31,
 *   S = sum of RDBPOT(e_i, 12) (Q12.19), r = GetReciprocal(S) with S * r ~ 2^b,
 *   y_i = clamp(RDBPOT(SRDHM(r, e_i), b + 23) - 128)    (fixed_point.h; docs/tflite.md)
 * input_multiplier and input_left_shift are TFLite's PreprocessSoftmaxScaling of
 * beta * input_scale * 2^26 (the compiler's, libtigris/emit/op_quant.cc). scratch: the e_i
 * of one line, tgrs_softmax_scratch_bytes(axis_len). */
typedef struct tgrs_softmax_tflite_s8 {
  int32_t input_multiplier;
  int32_t input_left_shift; /* 0..31 */
} tgrs_softmax_tflite_s8;

tgrs_kernel_status tgrs_softmax_s8_tflite(void* scratch, const tgrs_softmax_tflite_s8* params,
                                          int32_t outer, int32_t axis_len, int32_t inner,
                                          const int8_t* input, int8_t* output);

/* ======================================================================================
 * Local response normalization (ONNX LRN) across channels
 * ====================================================================================== */
/* For each pixel of an NHWC tensor and each channel c:
 *   d = bias + alpha / size * sum of x[c']^2, c' in [c - (size - 1) / 2, c + size / 2]
 *       clipped to [0, C), summed in ascending c'
 *   y[c] = x[c] * exp(-beta * log(d))   (tgrs_math.h, so every target gives the same bits)
 * TGRS_KERNEL_BAD_ARGUMENT for size < 1, bias <= 0, alpha < 0 or NaN parameters (d must
 * stay positive). Row-local: a strip of rows is computed exactly as in the whole tensor.
 * int8: QDQ semantics as onnxruntime evaluates them: x = (q - in_zp) * in_scale, the float
 * formula, then q = clamp(round_half_even(y / out_scale) + out_zp). */
typedef struct tgrs_lrn_params {
  int32_t size;
  float alpha;
  float beta;
  float bias;
} tgrs_lrn_params;

typedef struct tgrs_lrn_quant_s8 {
  float input_scale;
  int32_t input_zero_point;
  float output_scale;
  int32_t output_zero_point;
} tgrs_lrn_quant_s8;

tgrs_kernel_status tgrs_lrn_f32(const tgrs_lrn_params* params, const tgrs_dims* dims,
                                const float* input, float* output);
tgrs_kernel_status tgrs_lrn_s8(const tgrs_lrn_params* params, const tgrs_lrn_quant_s8* quant,
                               const tgrs_dims* dims, const int8_t* input, int8_t* output);

/* ======================================================================================
 * Data movement (dtype-agnostic byte copies; elem_size = 1 for int8, 4 for float32)
 * ====================================================================================== */

/* Concatenation along `axis` (0..3 of [N, H, W, C]) of num_inputs tensors whose dims agree
 * except on the axis; output dims = the first input's with the axis summed. int8 inputs
 * must share the output's quantization (the emitter requantizes otherwise). */
tgrs_kernel_status tgrs_concat(size_t elem_size, int32_t axis, int32_t num_inputs,
                               const tgrs_dims* const* input_dims, const void* const* inputs,
                               void* output);

/* int8 Concat whose inputs carry their own quantization, as ONNX QDQ writes it
 * (DequantizeLinear of each input, Concat, QuantizeLinear): each value is dequantized and
 * quantized again in float32 exactly as ONNX defines the two ops, out =
 * saturate(round_half_even(((x - zero_point) * scale) / output_scale) + output_zero_point),
 * so the result is bit-identical to onnxruntime's. (An integer multiplier would round
 * once from the exact ratio of the scales and disagree with it by 1 LSB on values that
 * fall near a tie in float32.) Only 256 values per input exist: each input is mapped
 * through a table built on the stack, one load per element over the byte copy. Dims and
 * axis as tgrs_concat; zero points in int8, scales positive and finite. */
typedef struct tgrs_concat_quant_s8 {
  float scale;
  int32_t zero_point;
} tgrs_concat_quant_s8;
tgrs_kernel_status tgrs_concat_s8(int32_t axis, int32_t num_inputs,
                                  const tgrs_dims* const* input_dims, const int8_t* const* inputs,
                                  const tgrs_concat_quant_s8* input_quant,
                                  tgrs_concat_quant_s8 output_quant, int8_t* output);

/* Reshape: the bytes do not change; copies `bytes` unless output == input. */
void tgrs_reshape(size_t bytes, const void* input, void* output);

/* Transpose (rank <= 4): output dim i = input dim perm[i]. Lower ranks are right-aligned
 * into 4-D with perm padded by the identity in front (rank 3 perm {0,2,1} -> {0,1,3,2}). */
tgrs_kernel_status tgrs_transpose(size_t elem_size, const int32_t perm[4],
                                  const tgrs_dims* input_dims, const void* input, void* output);

/* Slice (rank <= 4, right-aligned into 4-D): output element i reads input element
 * start[d] + i_d * step[d] along each axis d (a step may be negative; never 0). The output
 * extents are output_dims; TGRS_KERNEL_BAD_ARGUMENT, before any byte moves, when an index
 * of the window falls outside input_dims. */
tgrs_kernel_status tgrs_slice(size_t elem_size, const int32_t start[4], const int32_t step[4],
                              const tgrs_dims* input_dims, const void* input,
                              const tgrs_dims* output_dims, void* output);

/* Gather along axis 0 of a table of `rows` rows of `row_len` elements (ONNX order, row
 * major): for the indices viewed as [outer, inner] (ONNX order; int32 or int64), row
 * idx[o][i] goes to the output elements (o * stride_outer + i * stride_inner +
 * j * stride_elem) for j < row_len, so an output stored in another layout than ONNX's
 * (rank 3 is NWC) is written in place. Negative indices count from the end; an index
 * outside [-rows, rows) returns TGRS_KERNEL_INDEX_OUT_OF_RANGE without reading its row.
 * The caller derives the strides from the output's shape, which bounds every write. */
typedef struct tgrs_gather_params {
  size_t elem_size;   /* bytes per table element: 4 (float32) or 1 (int8) */
  int32_t rows;       /* the table's first extent */
  int32_t row_len;    /* elements per row: the product of the table's other extents */
  int32_t index_size; /* 4 (int32) or 8 (int64) */
  int32_t outer, inner;
  int32_t stride_outer, stride_inner, stride_elem; /* output strides, in elements */
} tgrs_gather_params;

tgrs_kernel_status tgrs_gather(const tgrs_gather_params* params, const void* table,
                               const void* indices, void* output);

/* ONNX GatherElements along NHWC dim `axis`: output element p is the input element at p's
 * coordinates with the one along `axis` replaced by indices[p] (int32 or int64:
 * `index_size` 4 or 8; negative counts from the end). Input, indices and output share one
 * layout; the indices have the output's dims, each at most the input's but along `axis`.
 * An index outside [-extent, extent) returns TGRS_KERNEL_INDEX_OUT_OF_RANGE before its
 * element is read. */
tgrs_kernel_status tgrs_gather_elements(size_t elem_size, int32_t axis, int32_t index_size,
                                        const tgrs_dims* input_dims, const void* input,
                                        const tgrs_dims* output_dims, const void* indices,
                                        void* output);

/* ======================================================================================
 * Pad and Resize (row-windowed)
 * ====================================================================================== */

typedef enum tgrs_pad_mode {
  TGRS_PAD_CONSTANT = 0,
  TGRS_PAD_REFLECT = 1, /* f32 only */
  TGRS_PAD_EDGE = 2     /* f32 only */
} tgrs_pad_mode;

/* Pads of H, W and C (N is never padded). output = input dims + pads. Negative pads
 * (crops) are not supported. */
typedef struct tgrs_pad_params {
  int32_t pad_top, pad_bottom, pad_left, pad_right, pad_c_begin, pad_c_end; /* >= 0 */
  tgrs_pad_mode mode;
} tgrs_pad_params;

/* int8 Pad, every mode; value is the quantized constant (the zero point for 0). */
tgrs_kernel_status tgrs_pad_s8(const tgrs_pad_params* pad, const tgrs_row_window* window,
                               int8_t value, const tgrs_dims* input_dims, const int8_t* input,
                               const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_pad_f32(const tgrs_pad_params* pad, const tgrs_row_window* window,
                                float value, const tgrs_dims* input_dims, const float* input,
                                const tgrs_dims* output_dims, float* output);

typedef enum tgrs_resize_mode { TGRS_RESIZE_NEAREST = 0, TGRS_RESIZE_LINEAR = 1 } tgrs_resize_mode;

typedef enum tgrs_resize_coord {
  TGRS_COORD_HALF_PIXEL = 0,        /* (x + 0.5) / scale - 0.5 (ONNX default) */
  TGRS_COORD_ASYMMETRIC = 1,        /* x / scale */
  TGRS_COORD_ALIGN_CORNERS = 2,     /* x * (in - 1) / (out - 1) */
  TGRS_COORD_PYTORCH_HALF_PIXEL = 3 /* out > 1 ? half_pixel : 0 */
} tgrs_resize_coord;

typedef enum tgrs_resize_nearest {
  TGRS_NEAREST_ROUND_PREFER_FLOOR = 0, /* ONNX default */
  TGRS_NEAREST_ROUND_PREFER_CEIL = 1,
  TGRS_NEAREST_FLOOR = 2,
  TGRS_NEAREST_CEIL = 3
} tgrs_resize_nearest;

/* Resize of H and W (ONNX Resize; N and C unchanged). scale_h/scale_w are ONNX's scales
 * (output / input when given by sizes). Coordinates are computed in float as onnxruntime
 * does; nearest source indices and linear taps are clamped to the input.
 * int8: ONNX QDQ's DequantizeLinear -> Resize -> QuantizeLinear. Nearest copies bytes,
 * then requantizes them when the output's scale or zero point is not the input's; linear
 * dequantizes each tap as tgrs_dequantize does, blends as the float32 kernel blends and
 * quantizes as tgrs_quantize does. The four quantization fields are int8's only. */
typedef struct tgrs_resize_params {
  tgrs_resize_mode mode;
  tgrs_resize_coord coord;
  tgrs_resize_nearest nearest;
  float scale_h, scale_w;
  /* int8 only */
  float input_scale, output_scale;
  int32_t input_zero_point, output_zero_point;
} tgrs_resize_params;

tgrs_kernel_status tgrs_resize_s8(const tgrs_resize_params* resize, const tgrs_row_window* window,
                                  const tgrs_dims* input_dims, const int8_t* input,
                                  const tgrs_dims* output_dims, int8_t* output);
tgrs_kernel_status tgrs_resize_f32(const tgrs_resize_params* resize, const tgrs_row_window* window,
                                   const tgrs_dims* input_dims, const float* input,
                                   const tgrs_dims* output_dims, float* output);

/* ======================================================================================
 * Reductions, normalization, (de)quantization
 * ====================================================================================== */

/* What a reduction computes over its reduced values x_i (ONNX Reduce*). */
typedef enum tgrs_reduce_kind {
  TGRS_REDUCE_SUM = 0,
  TGRS_REDUCE_MEAN = 1,
  TGRS_REDUCE_MAX = 2,
  TGRS_REDUCE_MIN = 3,
  TGRS_REDUCE_PROD = 4,
  TGRS_REDUCE_L1 = 5,          /* sum |x| */
  TGRS_REDUCE_L2 = 6,          /* sqrt(sum x^2) */
  TGRS_REDUCE_SUM_SQUARE = 7,  /* sum x^2 */
  TGRS_REDUCE_LOG_SUM_EXP = 8, /* log(sum e^x) */
  TGRS_REDUCE_LOG_SUM = 9      /* log(sum x) */
} tgrs_reduce_kind;

/* `kind` over the dims whose bit is set in axes_mask (bit 0 = N, 1 = H, 2 = W, 3 = C); no
 * bit set copies. Output holds the kept dims in order (keepdims or not: same bytes). Each
 * output folds its inputs in row-major order of the input; MEAN then divides by the count,
 * L2 takes the square root, LOG_SUM_EXP and LOG_SUM the logarithm (the runtime's own, tgrs_math.h).
 */
tgrs_kernel_status tgrs_reduce_f32(tgrs_reduce_kind kind, uint32_t axes_mask,
                                   const tgrs_dims* input_dims, const float* input, float* output);

/* int8 SUM, MEAN, MAX or MIN, output as tgrs_reduce_f32's: zp_out + (the exact int32 sum,
 * or the extreme, of x - zp_in) times rq (divided by the count for MEAN) with ONE
 * rounding, half to even (tgrs_average_requant), clamped to [act_min, act_max]; rq is
 * s_in / s_out. TGRS_KERNEL_BAD_ARGUMENT for another kind, or when a count of 2^23 or more
 * could overflow the sum. */
tgrs_kernel_status tgrs_reduce_s8(tgrs_reduce_kind kind, uint32_t axes_mask,
                                  const tgrs_quant_s8* quant, const tgrs_requant* rq,
                                  const tgrs_dims* input_dims, const int8_t* input, int8_t* output);

/* ArgMax (find_max) or ArgMin along NHWC dim `axis` (0 = N ... 3 = C) of a float32 or, with
 * int8, an int8 input: one index per position of the other dims, in their order, int64
 * (ONNX) or, with int32, int32 (TFLite's ARG_MAX as TFLM writes it). The first of equal
 * extremes, or the last with `last` (ONNX select_last_index); a float NaN counts as the
 * extreme (numpy's argmax). */
tgrs_kernel_status tgrs_arg_extreme(int find_max, int last, int int8, int32_t axis,
                                    const tgrs_dims* input_dims, const void* input, int int32,
                                    void* output);

/* ======================================================================================
 * Comparisons, logic, selection, conversion (logical.c): Add's broadcasting over every
 * operand. A bool is one byte: any nonzero byte reads as true, the kernels write 0 or 1.
 * ====================================================================================== */
typedef enum tgrs_elem_type {
  TGRS_ELEM_F32 = 0,
  TGRS_ELEM_I32 = 1,
  TGRS_ELEM_I64 = 2,
  TGRS_ELEM_BOOL = 3
} tgrs_elem_type;

typedef enum tgrs_compare_op {
  TGRS_COMPARE_EQ = 0,
  TGRS_COMPARE_GT = 1,
  TGRS_COMPARE_LT = 2,
  TGRS_COMPARE_GE = 3,
  TGRS_COMPARE_LE = 4
} tgrs_compare_op;

typedef enum tgrs_logic_op {
  TGRS_LOGIC_AND = 0,
  TGRS_LOGIC_OR = 1,
  TGRS_LOGIC_XOR = 2
} tgrs_logic_op;

/* output = a OP b as 0 / 1, both operands of `type` (bool: EQ only, compared as truth
 * values). A float NaN is unequal to everything and unordered, as in C and ONNX. */
tgrs_kernel_status tgrs_compare(tgrs_compare_op op, tgrs_elem_type type, const tgrs_dims* a_dims,
                                const void* a, const tgrs_dims* b_dims, const void* b,
                                const tgrs_dims* output_dims, uint8_t* output);

/* output = a AND / OR / XOR b over bools. */
tgrs_kernel_status tgrs_logic(tgrs_logic_op op, const tgrs_dims* a_dims, const uint8_t* a,
                              const tgrs_dims* b_dims, const uint8_t* b,
                              const tgrs_dims* output_dims, uint8_t* output);

/* output[i] = NOT input[i] over `count` bools (in place allowed). */
tgrs_kernel_status tgrs_not(size_t count, const uint8_t* input, uint8_t* output);

/* output = condition ? x : y, element by element with all three broadcast; x, y and output
 * of `type` (copied as bits: a NaN stays the NaN it was). */
tgrs_kernel_status tgrs_where(tgrs_elem_type type, const tgrs_dims* cond_dims, const uint8_t* cond,
                              const tgrs_dims* x_dims, const void* x, const tgrs_dims* y_dims,
                              const void* y, const tgrs_dims* output_dims, void* output);

/* The int8 Where: output = condition ? tx[x + 128] : ty[y + 128], X and Y each moved to the
 * output's grid by its table (the compiler's Q_out(DQ(q)), emit/lut.h), or copied as codes
 * when both tables are NULL (X, Y and the output share one grid). */
tgrs_kernel_status tgrs_where_s8(const tgrs_dims* cond_dims, const uint8_t* cond,
                                 const tgrs_dims* x_dims, const int8_t* x, const tgrs_dims* y_dims,
                                 const int8_t* y, const int8_t* x_table, const int8_t* y_table,
                                 const tgrs_dims* output_dims, int8_t* output);

/* `count` values of type `from` converted to `to` as ONNX Cast: float to integer truncates
 * toward zero (saturating at the type's limits; NaN becomes 0, where ONNX leaves it
 * undefined), int64 to int32 keeps the low 32 bits (two's complement, as onnxruntime and
 * NumPy), anything to bool is "!= 0" (a NaN is true), bool to a number 0 or 1, integers to
 * float round to nearest even. */
tgrs_kernel_status tgrs_cast(tgrs_elem_type from, tgrs_elem_type to, size_t count,
                             const void* input, void* output);

/* ======================================================================================
 * Rearrangements (rearrange.c): byte copies of `elem_size`-byte elements, [N, H, W, C].
 * ====================================================================================== */

/* output[n, h, w, c] = input[n % N, h % H, w % W, c % C]: ONNX Tile (each output dim a
 * multiple of the input's), and Expand (each input dim 1 or the output's). */
tgrs_kernel_status tgrs_tile(size_t elem_size, const tgrs_dims* input_dims, const void* input,
                             const tgrs_dims* output_dims, void* output);

/* ONNX DepthToSpace with blocksize `block`: [N, H, W, C] -> [N, H b, W b, C / (b b)];
 * `crd` picks mode CRD (channel, then the block's row and column), else DCR. */
tgrs_kernel_status tgrs_depth_to_space(size_t elem_size, int32_t block, int crd,
                                       const tgrs_dims* input_dims, const void* input,
                                       void* output);

/* ONNX SpaceToDepth with blocksize `block`: [N, H, W, C] -> [N, H / b, W / b, C b b], the
 * inverse of tgrs_depth_to_space in the same order (`crd`: ONNX 25's mode CRD, else DCR). */
tgrs_kernel_status tgrs_space_to_depth(size_t elem_size, int32_t block, int crd,
                                       const tgrs_dims* input_dims, const void* input,
                                       void* output);

/* ======================================================================================
 * Along one axis (scan.c): `axis` is an NHWC dim of `dims` (0 = N ... 3 = C).
 * ====================================================================================== */

/* ONNX Hardmax: 1 at the first largest value of each line along `axis`, 0 elsewhere (a
 * NaN compares larger than nothing, so a line of NaNs gets its 1 at the start). */
tgrs_kernel_status tgrs_hardmax_f32(int32_t axis, const tgrs_dims* dims, const float* input,
                                    float* output);

/* ONNX CumSum along `axis`: output[k] = the sum of input[0..k] (`exclusive`: of
 * input[0..k-1], 0 for the first), from the end with `reverse`. Summed in the element type in
 * order (int32 and int64 wrap as two's complement); type float32, int32 or int64. */
tgrs_kernel_status tgrs_cumsum(tgrs_elem_type type, int32_t axis, int exclusive, int reverse,
                               const tgrs_dims* dims, const void* input, void* output);

/* Mean over the dims whose bit is set in axes_mask (bit 0 = N, 1 = H, 2 = W, 3 = C).
 * Output holds the kept dims in order (keepdims or not: same bytes). Each output sums its
 * inputs in row-major order of the input, then divides by the count. */
tgrs_kernel_status tgrs_reduce_mean_f32(uint32_t axes_mask, const tgrs_dims* input_dims,
                                        const float* input, float* output);

/* int8 mean over the dims set in axes_mask, output as tgrs_reduce_mean_f32's: each output
 * is zp_out + the exact int32 sum of (x - zp_in) times rq / count with ONE rounding, half
 * to even (tgrs_average_requant), clamped to [act_min, act_max]; rq is s_in / s_out. What
 * onnxruntime computes for DequantizeLinear -> ReduceMean -> QuantizeLinear, up to its
 * float summation. TGRS_KERNEL_BAD_ARGUMENT when a count of 2^23 or more could overflow the
 * sum. */
tgrs_kernel_status tgrs_reduce_mean_s8(uint32_t axes_mask, const tgrs_quant_s8* quant,
                                       const tgrs_requant* rq, const tgrs_dims* input_dims,
                                       const int8_t* input, int8_t* output);

/* y = x * scale[c] + shift[c] (BatchNormalization folded by the caller:
 * scale = gamma / sqrt(var + eps), shift = beta - mean * scale). dims [N, H, W, C]. */
tgrs_kernel_status tgrs_batch_norm_f32(const tgrs_dims* dims, const float* scale,
                                       const float* shift, const float* input, float* output);

/* int8 BatchNormalization with one rounding: out = clamp(output_zp + round_half_even(
 * ((x - input_zp) * multiplier[c] + offset[c]) / 2^(31 - shift[c]))). multiplier[c] and
 * offset[c] share the fixed point 2^(shift[c] - 31): multiplier ~ in_scale * scale[c] /
 * out_scale (may be negative) and offset ~ shift[c] / out_scale, both scaled by
 * 2^(31 - shift[c]); shift[c] in [-31, 30], else TGRS_KERNEL_BAD_ARGUMENT. */
tgrs_kernel_status tgrs_batch_norm_s8(const tgrs_quant_s8* quant, const tgrs_per_channel_quant* pcq,
                                      const int32_t* offset, const tgrs_dims* dims,
                                      const int8_t* input, int8_t* output);

/* ONNX QuantizeLinear: q = clamp(round_half_even(x / scale) + zero_point, -128, 127). */
void tgrs_quantize_f32_s8(float scale, int32_t zero_point, size_t count, const float* input,
                          int8_t* output);
/* ONNX DequantizeLinear: x = (float)(q - zero_point) * scale. */
void tgrs_dequantize_s8_f32(float scale, int32_t zero_point, size_t count, const int8_t* input,
                            float* output);

/* ======================================================================================
 * Recurrent layers (recurrent.c): ONNX RNN, GRU and LSTM, float32.
 * ====================================================================================== */

typedef enum tgrs_recurrent_cell {
  TGRS_CELL_RNN = 0, /* H = f(X W^T + H R^T + Wb + Rb) */
  TGRS_CELL_GRU = 1, /* gates z, r, h (ONNX GRU) */
  TGRS_CELL_LSTM = 2 /* gates i, o, f, c; peepholes i, o, f (ONNX LSTM) */
} tgrs_recurrent_cell;

/* ONNX's gate function names (format/tgrs.fbs RecurrentActivation: the same codes). */
typedef enum tgrs_recurrent_activation {
  TGRS_RECURRENT_SIGMOID = 0,
  TGRS_RECURRENT_TANH = 1,
  TGRS_RECURRENT_RELU = 2,
  TGRS_RECURRENT_HARD_SIGMOID = 3,     /* max(0, min(1, alpha x + beta)) */
  TGRS_RECURRENT_LEAKY_RELU = 4,       /* x < 0 ? alpha x : x */
  TGRS_RECURRENT_THRESHOLDED_RELU = 5, /* x > alpha ? x : 0 */
  TGRS_RECURRENT_SCALED_TANH = 6,      /* alpha tanh(beta x) */
  TGRS_RECURRENT_AFFINE = 7,           /* alpha x + beta */
  TGRS_RECURRENT_ELU = 8,              /* x < 0 ? alpha (e^x - 1) : x */
  TGRS_RECURRENT_SOFTSIGN = 9,         /* x / (1 + |x|) */
  TGRS_RECURRENT_SOFTPLUS = 10,        /* log(1 + e^x) */
  TGRS_RECURRENT_ACTIVATION_COUNT = 11
} tgrs_recurrent_activation;

typedef struct tgrs_recurrent_fn {
  int32_t kind; /* tgrs_recurrent_activation */
  float alpha, beta;
} tgrs_recurrent_fn;

/* The geometry of one recurrent op. Its activations are addressed by element strides per
 * ONNX axis, so any placement of the axes (ONNX's two layouts, the runtime's rank-3 and
 * rank-4 layouts) is one kernel: X[t][b][i] is x[t * x_stride[0] + b * x_stride[1] +
 * i * x_stride[2]], and likewise Y[t][d][b][j] and the states [d][b][j] (initial_h,
 * initial_c, Y_h, Y_c). W, R, B and P are dense in ONNX's order: W [D][G H][I],
 * R [D][G H][H], B [D][2 G H] (W's biases, then R's), P [D][3 H], G the cell's gates. */
typedef struct tgrs_recurrent_params {
  int32_t cell; /* tgrs_recurrent_cell */
  int32_t seq_length, batch, input_size, hidden_size;
  int32_t directions;          /* 1, or 2: direction 0 forward, 1 reverse */
  int32_t reverse;             /* with one direction: it runs from the end */
  int32_t linear_before_reset; /* GRU: r multiplies (H R_h^T + Rb_h), not H */
  float clip;                  /* > 0: every gate's input clamped to [-clip, clip] */
  tgrs_recurrent_fn fn[2][3];  /* per direction: f, g, h (the cell uses 1, 2 or 3) */
  int32_t x_stride[3];         /* X: sequence, batch, input */
  int32_t y_stride[4];         /* Y: sequence, direction, batch, hidden */
  int32_t state_stride[3];     /* initial_h, initial_c, Y_h, Y_c: direction, batch, hidden */
} tgrs_recurrent_params;

/* The scratch tgrs_recurrent_f32 needs: (gates + 3) * hidden_size floats (the gates of one
 * step, the hidden and cell states, one temporary), the planner's rule
 * (libtigris/analysis/kernel_scratch.cc). */
size_t tgrs_recurrent_scratch_bytes(int32_t cell, int32_t hidden_size);

/* Runs the whole sequence of every direction and batch entry. b, sequence_lens,
 * initial_h, initial_c and p may be NULL (zeros; every sequence seq_length long), and so
 * may each output. A step past a batch entry's sequence_lens writes zeros to Y, and Y_h /
 * Y_c hold the state after its last step, as onnxruntime does. Each gate sums W's
 * products, then R's, then the biases, in order. TGRS_KERNEL_BAD_ARGUMENT for an unknown
 * cell or function or too little scratch; TGRS_KERNEL_INDEX_OUT_OF_RANGE for a sequence
 * length outside [1, seq_length] (onnxruntime refuses those too). */
tgrs_kernel_status tgrs_recurrent_f32(void* scratch, size_t scratch_bytes,
                                      const tgrs_recurrent_params* params, const float* x,
                                      const float* w, const float* r, const float* b,
                                      const int32_t* sequence_lens, const float* initial_h,
                                      const float* initial_c, const float* p, float* y, float* y_h,
                                      float* y_c);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TGRS_KERNELS_H_ */
