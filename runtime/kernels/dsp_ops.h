/*
 * dsp_ops.h: the Armv7E-M DSP instructions the int8 kernels use, as inline functions:
 * ACLE intrinsics (arm_acle.h) where the target has them (__ARM_FEATURE_DSP), else C
 * emulations written from the instructions' lane definitions (Armv7-M Architecture
 * Reference Manual; lane 0 is bits 15:0, lane 1 bits 31:16). The emulations let a host
 * build run the kernels' DSP paths (-DTGRS_USE_DSP=1, tests/runtime/dsp_emulated) against
 * the same references as the portable paths; every sum wraps modulo 2^32 as the
 * instructions' do (the Q flag they set is not used).
 */
#ifndef TGRS_DSP_OPS_H_
#define TGRS_DSP_OPS_H_

#include <stdint.h>
#include <string.h>

#include "kernel_util.h"

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#include <arm_acle.h>
/* SXTB16: bytes 0 and 2, sign-extended into the two int16 lanes. */
static inline uint32_t tgrs_sxtb16(uint32_t x) { return (uint32_t)__sxtb16((int32_t)x); }
/* SSUB16: lane-wise subtraction modulo 2^16. */
static inline uint32_t tgrs_ssub16(uint32_t a, uint32_t b) {
  return (uint32_t)__ssub16((int32_t)a, (int32_t)b);
}
/* SMLAD: acc + a.lane0 * b.lane0 + a.lane1 * b.lane1. */
static inline int32_t tgrs_smlad(uint32_t a, uint32_t b, int32_t acc) {
  return (int32_t)__smlad((int32_t)a, (int32_t)b, acc);
}
/* SMLABB / SMLATT: acc + a.lane0 * b.lane0, acc + a.lane1 * b.lane1 (one product each:
 * two channels of a depthwise tap at once, each in its own accumulator). */
static inline int32_t tgrs_smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return (int32_t)__smlabb((int32_t)a, (int32_t)b, acc);
}
static inline int32_t tgrs_smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return (int32_t)__smlatt((int32_t)a, (int32_t)b, acc);
}
#else
static inline int32_t tgrs_lane(uint32_t x, int lane) {
  return (int32_t)(int16_t)(uint16_t)((x >> (16 * lane)) & 0xFFFFu);
}
static inline uint32_t tgrs_sxtb16(uint32_t x) {
  const uint32_t lo = (uint32_t)(int32_t)(int8_t)(uint8_t)(x & 0xFFu) & 0xFFFFu;
  const uint32_t hi = (uint32_t)(int32_t)(int8_t)(uint8_t)((x >> 16) & 0xFFu) & 0xFFFFu;
  return lo | (hi << 16);
}
static inline uint32_t tgrs_ssub16(uint32_t a, uint32_t b) {
  const uint32_t lo = ((a & 0xFFFFu) - (b & 0xFFFFu)) & 0xFFFFu;
  const uint32_t hi = ((a >> 16) - (b >> 16)) & 0xFFFFu;
  return lo | (hi << 16);
}
static inline int32_t tgrs_smlad(uint32_t a, uint32_t b, int32_t acc) {
  acc = tgrs_wrapping_add(acc, tgrs_lane(a, 0) * tgrs_lane(b, 0));
  return tgrs_wrapping_add(acc, tgrs_lane(a, 1) * tgrs_lane(b, 1));
}
static inline int32_t tgrs_smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return tgrs_wrapping_add(acc, tgrs_lane(a, 0) * tgrs_lane(b, 0));
}
static inline int32_t tgrs_smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return tgrs_wrapping_add(acc, tgrs_lane(a, 1) * tgrs_lane(b, 1));
}
#endif

/* Bytes 1 and 3 moved to 0 and 2: what SXTB16's rotated form widens. */
static inline uint32_t tgrs_ror8(uint32_t x) { return (x >> 8) | (x << 24); }

/* SXTB16 Rd, Rm, ROR #8: bytes 1 and 3, sign-extended into the two int16 lanes, in one
 * instruction (GCC 12 does not fold the rotation into __sxtb16 by itself). */
static inline uint32_t tgrs_sxtb16_ror8(uint32_t x) {
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP && defined(__GNUC__)
  uint32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
  return r;
#else
  return tgrs_sxtb16(tgrs_ror8(x));
#endif
}

/* acc + the dot product of four int8 weights (one word, w4) with four inputs already
 * widened into int16 lane pairs (x02: inputs 0 and 2, x13: inputs 1 and 3): two SXTB16
 * and two SMLAD, the 0/2 pair added first. The step every int8 dot product on the DSP path
 * repeats (dot_s8.h, conv_patch_s8.c). */
static TGRS_ALWAYS_INLINE int32_t tgrs_smlad4_s8(uint32_t x02, uint32_t x13, uint32_t w4,
                                                 int32_t acc) {
  return tgrs_smlad(x13, tgrs_sxtb16_ror8(w4), tgrs_smlad(x02, tgrs_sxtb16(w4), acc));
}

/* Four bytes from any address: one LDR (Armv7-M allows unaligned word loads). */
static inline uint32_t tgrs_load4(const int8_t* p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* A zero point in both int16 lanes, for SSUB16. */
static inline uint32_t tgrs_zp_pair(int32_t zp) {
  const uint32_t lane = (uint32_t)zp & 0xFFFFu;
  return lane | (lane << 16);
}

#endif /* TGRS_DSP_OPS_H_ */
