/*
 * dot_s8.c: the int8 dot products (dot_s8.h), portable and with the DSP instructions.
 */
#include "dot_s8.h"

#include <string.h>

#include "kernel_util.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
#define tgrs_sxtb16(x) ((uint32_t)__sxtb16((int32_t)(x)))
#define tgrs_ssub16(a, b) ((uint32_t)__ssub16((int32_t)(a), (int32_t)(b)))
#define tgrs_smlad(a, b, acc) ((int32_t)__smlad((int32_t)(a), (int32_t)(b), (int32_t)(acc)))
#else
/* The instructions' definitions (Arm Architecture Reference Manual, Armv7-M), lane by lane:
 * lane 0 is bits 15:0, lane 1 bits 31:16. */
static uint32_t tgrs_sxtb16(uint32_t x) { /* bytes 0 and 2, sign-extended to 16 bits */
  const uint32_t lo = (uint32_t)(int32_t)(int8_t)(uint8_t)(x & 0xFFu) & 0xFFFFu;
  const uint32_t hi = (uint32_t)(int32_t)(int8_t)(uint8_t)((x >> 16) & 0xFFu) & 0xFFFFu;
  return lo | (hi << 16);
}
static uint32_t tgrs_ssub16(uint32_t a, uint32_t b) { /* lane-wise, modulo 2^16 */
  const uint32_t lo = ((a & 0xFFFFu) - (b & 0xFFFFu)) & 0xFFFFu;
  const uint32_t hi = ((a >> 16) - (b >> 16)) & 0xFFFFu;
  return lo | (hi << 16);
}
static int32_t tgrs_lane(uint32_t x, int lane) {
  return (int32_t)(int16_t)(uint16_t)((x >> (16 * lane)) & 0xFFFFu);
}
static int32_t tgrs_smlad(uint32_t a, uint32_t b, int32_t acc) { /* acc + a0*b0 + a1*b1 */
  acc = tgrs_wrapping_add(acc, tgrs_lane(a, 0) * tgrs_lane(b, 0));
  return tgrs_wrapping_add(acc, tgrs_lane(a, 1) * tgrs_lane(b, 1));
}
#endif

/* Bytes 1 and 3 moved to 0 and 2: SXTB16's rotated form. */
static uint32_t tgrs_ror8(uint32_t x) { return (x >> 8) | (x << 24); }

static uint32_t tgrs_load4(const int8_t* p) {
  uint32_t v;
  memcpy(&v, p, sizeof v); /* one LDR (unaligned loads are allowed on Armv7-M) */
  return v;
}

/* The zero point in both int16 lanes. */
static uint32_t tgrs_zp_pair(int32_t zp) {
  const uint32_t lane = (uint32_t)zp & 0xFFFFu;
  return lane | (lane << 16);
}

int32_t tgrs_dot_s8_simd(const int8_t* x, const int8_t* w, int32_t n, int32_t in_zp, int32_t acc) {
  const uint32_t zp = tgrs_zp_pair(in_zp);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = tgrs_load4(x + i), wv = tgrs_load4(w + i);
    const uint32_t x02 = tgrs_ssub16(tgrs_sxtb16(xv), zp);
    const uint32_t x13 = tgrs_ssub16(tgrs_sxtb16(tgrs_ror8(xv)), zp);
    acc = tgrs_smlad(x02, tgrs_sxtb16(wv), acc);
    acc = tgrs_smlad(x13, tgrs_sxtb16(tgrs_ror8(wv)), acc);
  }
  return tgrs_dot_s8_ref(x + i, w + i, n - i, in_zp, acc);
}

void tgrs_dot4_s8_simd(const int8_t* x, const int8_t* w, size_t w_stride, int32_t n, int32_t in_zp,
                       int32_t acc[4]) {
  const uint32_t zp = tgrs_zp_pair(in_zp);
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = tgrs_load4(x + i);
    const uint32_t x02 = tgrs_ssub16(tgrs_sxtb16(xv), zp);
    const uint32_t x13 = tgrs_ssub16(tgrs_sxtb16(tgrs_ror8(xv)), zp);
    uint32_t wv = tgrs_load4(w + i);
    a0 = tgrs_smlad(x13, tgrs_sxtb16(tgrs_ror8(wv)), tgrs_smlad(x02, tgrs_sxtb16(wv), a0));
    wv = tgrs_load4(w + w_stride + (size_t)i);
    a1 = tgrs_smlad(x13, tgrs_sxtb16(tgrs_ror8(wv)), tgrs_smlad(x02, tgrs_sxtb16(wv), a1));
    wv = tgrs_load4(w + 2 * w_stride + (size_t)i);
    a2 = tgrs_smlad(x13, tgrs_sxtb16(tgrs_ror8(wv)), tgrs_smlad(x02, tgrs_sxtb16(wv), a2));
    wv = tgrs_load4(w + 3 * w_stride + (size_t)i);
    a3 = tgrs_smlad(x13, tgrs_sxtb16(tgrs_ror8(wv)), tgrs_smlad(x02, tgrs_sxtb16(wv), a3));
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
  if (i < n) tgrs_dot4_s8_ref(x + i, w + i, w_stride, n - i, in_zp, acc);
}
