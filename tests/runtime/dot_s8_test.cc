// The int8 dot products (runtime/kernels/dot_s8.h): the four-elements-per-step form built
// on the DSP instructions (here their C emulation; on QEMU M4 and M7 the instructions
// themselves, through every int8 Cortex-M case) against a plain int64 sum reduced to 32
// bits, and against the one-element form, for every length up to 40 (all the tails),
// every alignment, the zero-point and value extremes, and accumulators at the int32 edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "dot_s8.h"

namespace {

// The definition: acc + sum (x - zp) * w, taken modulo 2^32 (the hardware's wrap).
int32_t Expected(const int8_t* x, const int8_t* w, int32_t n, int32_t zp, int32_t acc) {
  int64_t sum = acc;
  for (int32_t i = 0; i < n; ++i) sum += (int64_t{x[i]} - zp) * int64_t{w[i]};
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(sum)));
}

TEST(DotS8Test, BothFormsMatchTheDefinitionForEveryLengthAndAlignment) {
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> byte(-128, 127);
  const int32_t accs[] = {0, 12345, std::numeric_limits<int32_t>::max() - 100,
                          std::numeric_limits<int32_t>::min() + 100};
  for (int32_t n = 0; n <= 40; ++n) {
    for (size_t offset = 0; offset < 4; ++offset) {  // unaligned loads
      std::vector<int8_t> x(n + 8), w(4 * (n + 8));
      for (auto& v : x) v = static_cast<int8_t>(byte(rng));
      for (auto& v : w) v = static_cast<int8_t>(byte(rng));
      // The extremes the lanes must hold: x - zp = 127 - (-128) and -128 - 127.
      if (n > 1) {
        x[offset] = 127;
        x[offset + 1] = -128;
        w[offset] = -128;
      }
      for (int32_t zp : {-128, -1, 0, 5, 127}) {
        for (int32_t acc : accs) {
          const int8_t* xp = x.data() + offset;
          const int8_t* wp = w.data() + offset;
          const int32_t want = Expected(xp, wp, n, zp, acc);
          EXPECT_EQ(tgrs_dot_s8_ref(xp, wp, n, zp, acc), want) << n;
          EXPECT_EQ(tgrs_dot_s8_simd(xp, wp, n, zp, acc), want) << n << " " << offset << " " << zp;

          const size_t stride = static_cast<size_t>(n) + 3;  // rows not 4-byte apart
          int32_t ref[4] = {acc, acc ^ 1, acc ^ 2, acc ^ 3};
          int32_t simd[4] = {acc, acc ^ 1, acc ^ 2, acc ^ 3};
          tgrs_dot4_s8_ref(xp, wp, stride, n, zp, ref);
          tgrs_dot4_s8_simd(xp, wp, stride, n, zp, simd);
          for (int j = 0; j < 4; ++j) {
            const int32_t row = Expected(xp, wp + j * stride, n, zp, acc ^ j);
            EXPECT_EQ(ref[j], row) << n << " row " << j;
            EXPECT_EQ(simd[j], row) << n << " " << offset << " " << zp << " row " << j;
          }
        }
      }
    }
  }
}

}  // namespace
