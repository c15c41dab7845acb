/*
 * dot_s8.c: the int8 dot products (dot_s8.h), portable and with the DSP instructions.
 */
#include "dot_s8.h"

#include "dsp_ops.h"

int32_t tgrs_dot_s8_simd(const int8_t* x, const int8_t* w, int32_t n, int32_t in_zp, int32_t acc) {
  const uint32_t zp = tgrs_zp_pair(in_zp);
  int32_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = tgrs_load4(x + i), wv = tgrs_load4(w + i);
    const uint32_t x02 = tgrs_ssub16(tgrs_sxtb16(xv), zp);
    const uint32_t x13 = tgrs_ssub16(tgrs_sxtb16_ror8(xv), zp);
    acc = tgrs_smlad(x02, tgrs_sxtb16(wv), acc);
    acc = tgrs_smlad(x13, tgrs_sxtb16_ror8(wv), acc);
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
    const uint32_t x13 = tgrs_ssub16(tgrs_sxtb16_ror8(xv), zp);
    uint32_t wv = tgrs_load4(w + i);
    a0 = tgrs_smlad4_s8(x02, x13, wv, a0);
    wv = tgrs_load4(w + w_stride + (size_t)i);
    a1 = tgrs_smlad4_s8(x02, x13, wv, a1);
    wv = tgrs_load4(w + 2 * w_stride + (size_t)i);
    a2 = tgrs_smlad4_s8(x02, x13, wv, a2);
    wv = tgrs_load4(w + 3 * w_stride + (size_t)i);
    a3 = tgrs_smlad4_s8(x02, x13, wv, a3);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
  if (i < n) tgrs_dot4_s8_ref(x + i, w + i, w_stride, n - i, in_zp, acc);
}
