// tgrs_crc32c against independent oracles: the published check values (RFC 3720 appendix
// B.4, and the "123456789" check of the CRC catalogue), a bit-at-a-time reference over
// random lengths and alignments (which covers every table of the slice-by-N loop), and the
// algebra behind the guarantee docs/integrity.md states: CRC-32C's generator is divisible
// by x + 1 (every odd number of flipped bits is detected) and its other factor gives x an
// order of 2^31 - 1 (every two flipped bits less than 2^31 - 1 bits apart are detected),
// so every 1-, 2- and 3-bit error in a plan of up to 256 MiB is detected.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

// One bit at a time, straight from the definition (reflected, init and xorout ~0).
uint32_t BitwiseCrc32c(const uint8_t* p, size_t n) {
  uint32_t crc = ~0u;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ ((crc & 1u) ? 0x82F63B78u : 0u);
  }
  return ~crc;
}

TEST(Crc32c, PublishedCheckValues) {
  const std::string check = "123456789";
  EXPECT_EQ(tgrs_crc32c(0, check.data(), check.size()), 0xE3069283u);
  // RFC 3720, B.4: 32 bytes of zeros, of ones, incrementing, decrementing.
  std::vector<uint8_t> v(32, 0x00);
  EXPECT_EQ(tgrs_crc32c(0, v.data(), v.size()), 0x8A9136AAu);
  std::fill(v.begin(), v.end(), 0xFF);
  EXPECT_EQ(tgrs_crc32c(0, v.data(), v.size()), 0x62A8AB43u);
  for (int i = 0; i < 32; ++i) v[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
  EXPECT_EQ(tgrs_crc32c(0, v.data(), v.size()), 0x46DD794Eu);
  for (int i = 0; i < 32; ++i) v[static_cast<size_t>(i)] = static_cast<uint8_t>(31 - i);
  EXPECT_EQ(tgrs_crc32c(0, v.data(), v.size()), 0x113FDB5Cu);
  EXPECT_EQ(tgrs_crc32c(0, v.data(), 0), 0u);
  EXPECT_EQ(tgrs_crc32c(7, nullptr, 5), 7u);
}

TEST(Crc32c, MatchesTheBitwiseDefinitionAtEveryLengthAndAlignment) {
  std::mt19937 rng(42);
  std::vector<uint8_t> data(4096 + 16);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  for (size_t offset = 0; offset < 8; ++offset) {
    for (size_t n : {0u, 1u, 3u, 4u, 7u, 8u, 9u, 15u, 16u, 17u, 63u, 64u, 65u, 1000u, 4096u}) {
      EXPECT_EQ(tgrs_crc32c(0, data.data() + offset, n), BitwiseCrc32c(data.data() + offset, n))
          << "offset " << offset << " length " << n;
    }
  }
}

TEST(Crc32c, ContinuesAcrossSplits) {
  std::vector<uint8_t> data(777);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37u + 11u);
  const uint32_t whole = tgrs_crc32c(0, data.data(), data.size());
  for (size_t cut : {0u, 1u, 5u, 8u, 100u, 776u, 777u}) {
    const uint32_t head = tgrs_crc32c(0, data.data(), cut);
    EXPECT_EQ(tgrs_crc32c(head, data.data() + cut, data.size() - cut), whole) << cut;
  }
}

// --- the algebra of the guarantee, in GF(2)[x] -------------------------------------------

// CRC-32C's generator, normal form: x^32 + 0x1EDC6F41's terms.
constexpr uint64_t kGenerator = (1ull << 32) | 0x1EDC6F41ull;

uint64_t MulMod(uint64_t a, uint64_t b) {  // a * b mod kGenerator, a and b of degree < 32
  uint64_t r = 0;
  for (int i = 31; i >= 0; --i) {
    r <<= 1;
    if (r & (1ull << 32)) r ^= kGenerator;
    if ((b >> i) & 1u) r ^= a;
  }
  return r;
}

uint64_t PowX(uint64_t e) {  // x^e mod kGenerator
  uint64_t result = 1, base = 2;
  for (; e; e >>= 1) {
    if (e & 1u) result = MulMod(result, base);
    base = MulMod(base, base);
  }
  return result;
}

TEST(Crc32c, DetectsOddErrorsAndDoubleBitErrorsUpTo256MiB) {
  // Divisible by x + 1: an even number of terms. An error pattern with an odd number of
  // flipped bits is odd at x = 1, so the generator cannot divide it.
  EXPECT_EQ(__builtin_popcountll(kGenerator) % 2, 0);
  // x^k = 1 (mod G) for k = 2^31 - 1, a prime, and x != 1: the order of x is exactly
  // 2^31 - 1, so x^i + x^j (two flipped bits, 0 < j - i < 2^31 - 1) is never a multiple
  // of G. (x + 1 divides x^k + 1 for every k, so the order is decided by the other factor.)
  EXPECT_EQ(PowX((1ull << 31) - 1), 1u);
  EXPECT_NE(PowX(1), 1u);
}

}  // namespace
}  // namespace tigris::runtime_test
