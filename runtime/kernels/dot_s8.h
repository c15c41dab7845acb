/*
 * dot_s8.h: the int8 dot products of the convolution and fully connected kernels,
 *     acc + sum over i < n of (x[i] - in_zp) * w[i]      (two's complement wrap-around),
 * for one filter row or for four rows `w_stride` bytes apart (four output channels at
 * once). Two implementations with the same result, bit for bit:
 *   - _ref: one multiply-accumulate per element (portable C);
 *   - _simd: four elements per step with the Armv7E-M DSP instructions (ACLE, arm_acle.h):
 *     SXTB16 widens bytes 0 and 2 (and, rotated by 8, bytes 1 and 3) of a 32-bit load into
 *     two int16 lanes, SSUB16 subtracts the input zero point from both lanes (x - zp lies in
 *     [-255, 255]: no lane overflows), and SMLAD adds both lane products to the accumulator
 *     (its 32-bit sum wraps like tgrs_wrapping_add). Off Arm, the same four operations are
 *     emulated in C (dot_s8.c), so the host tests check the lane arithmetic too.
 * tgrs_dot_s8 / tgrs_dot4_s8 are _simd where TGRS_USE_DSP is 1: by default on a target
 * with __ARM_FEATURE_DSP (Cortex-M4, M7, M33 with DSP), else _ref. docs/runtime.md, "int8
 * on the DSP extension".
 */
#ifndef TGRS_DOT_S8_H_
#define TGRS_DOT_S8_H_

#include <stddef.h>
#include <stdint.h>

#include "dsp_ops.h"
#include "kernel_util.h"

#ifndef TGRS_USE_DSP
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define TGRS_USE_DSP 1
#else
#define TGRS_USE_DSP 0
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The reference forms are inline: where they are the ones used (no DSP), the compiler
 * keeps the accumulators in registers across a kernel's loops and vectorizes as it did
 * when the loops were written in the kernels. */
static inline int32_t tgrs_dot_s8_ref(const int8_t* x, const int8_t* w, int32_t n, int32_t in_zp,
                                      int32_t acc) {
  int32_t i;
  for (i = 0; i < n; ++i) acc = tgrs_wrapping_add(acc, ((int32_t)x[i] - in_zp) * (int32_t)w[i]);
  return acc;
}

/* acc[j] += the dot product of x with the row at w + j * w_stride, j = 0..3. */
static inline void tgrs_dot4_s8_ref(const int8_t* x, const int8_t* w, size_t w_stride, int32_t n,
                                    int32_t in_zp, int32_t acc[4]) {
  int32_t i;
  for (i = 0; i < n; ++i) {
    const int32_t xv = (int32_t)x[i] - in_zp;
    acc[0] = tgrs_wrapping_add(acc[0], xv * (int32_t)w[i]);
    acc[1] = tgrs_wrapping_add(acc[1], xv * (int32_t)w[w_stride + (size_t)i]);
    acc[2] = tgrs_wrapping_add(acc[2], xv * (int32_t)w[2 * w_stride + (size_t)i]);
    acc[3] = tgrs_wrapping_add(acc[3], xv * (int32_t)w[3 * w_stride + (size_t)i]);
  }
}

/* acc[j] += sum over i < n of x[i] * w[j * w_stride + i], j = 0..3: the dot products with
 * the input zero point left out (the caller folds it into the bias: conv2d.c's box), inline.
 * Without the zero point, widening the input word is two instructions; the four filter rows
 * are one pointer and three register offsets, so 14 values are live in the loop (the four
 * sums, x, its end, w, the offsets, two input lanes, a filter word and a lane): none spilled. */
static TGRS_ALWAYS_INLINE void tgrs_dot4_raw_s8(const int8_t* x, const int8_t* w, size_t w_stride,
                                                int32_t n, int32_t acc[4]) {
  const size_t s2 = 2 * w_stride, s3 = 3 * w_stride;
  const int8_t* const x_end = x + n;
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
#if TGRS_USE_DSP
  const int8_t* const x_end4 = x + (n & ~3);
  for (; x != x_end4; x += 4, w += 4) {
    const uint32_t xv = tgrs_load4(x);
    const uint32_t x02 = tgrs_sxtb16(xv), x13 = tgrs_sxtb16_ror8(xv);
    uint32_t wv = tgrs_load4(w);
    a0 = tgrs_smlad4_s8(x02, x13, wv, a0);
    wv = tgrs_load4(w + w_stride);
    a1 = tgrs_smlad4_s8(x02, x13, wv, a1);
    wv = tgrs_load4(w + s2);
    a2 = tgrs_smlad4_s8(x02, x13, wv, a2);
    wv = tgrs_load4(w + s3);
    a3 = tgrs_smlad4_s8(x02, x13, wv, a3);
  }
#endif
  for (; x != x_end; ++x, ++w) {
    const int32_t xv = (int32_t)*x;
    a0 = tgrs_wrapping_add(a0, xv * (int32_t)w[0]);
    a1 = tgrs_wrapping_add(a1, xv * (int32_t)w[w_stride]);
    a2 = tgrs_wrapping_add(a2, xv * (int32_t)w[s2]);
    a3 = tgrs_wrapping_add(a3, xv * (int32_t)w[s3]);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

int32_t tgrs_dot_s8_simd(const int8_t* x, const int8_t* w, int32_t n, int32_t in_zp, int32_t acc);
void tgrs_dot4_s8_simd(const int8_t* x, const int8_t* w, size_t w_stride, int32_t n, int32_t in_zp,
                       int32_t acc[4]);

#if TGRS_USE_DSP
#define tgrs_dot_s8 tgrs_dot_s8_simd
#define tgrs_dot4_s8 tgrs_dot4_s8_simd
#else
#define tgrs_dot_s8 tgrs_dot_s8_ref
#define tgrs_dot4_s8 tgrs_dot4_s8_ref
#endif

#ifdef __cplusplus
}
#endif

#endif /* TGRS_DOT_S8_H_ */
