/*
 * int8 -> int8 through a 256-entry lookup table (any activation with fixed input/output
 * quantization; the emitter fills table[q + 128] = quantize(f(dequantize(q)))).
 */
#include "tgrs_kernels.h"

void tgrs_lut_s8(const int8_t* table, size_t count, const int8_t* input, int8_t* output) {
  size_t i;
  for (i = 0; i < count; ++i) output[i] = table[(int32_t)input[i] + 128];
}
