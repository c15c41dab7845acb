// tgrs_lz4_decode against liblz4's own compressors (LZ4_compress_default and the HC
// compressor), hand-assembled blocks whose output is worked out from the block format
// specification (lz4/doc/lz4_Block_format.md), and corrupt or hostile blocks. Buffers are
// exact-size std::vectors so ASan flags any access past them.
#include <gtest/gtest.h>
#include <lz4.h>
#include <lz4hc.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/test_env.h"
#include "tigris_runtime.h"

namespace {

using Bytes = std::vector<uint8_t>;

Bytes Compress(const Bytes& raw, bool hc, int level = LZ4HC_CLEVEL_MAX) {
  Bytes out(LZ4_compressBound(static_cast<int>(raw.size())));
  static const char kNothing[1] = {0};  // liblz4's HC path dereferences src even for 0 bytes
  const char* src = raw.empty() ? kNothing : reinterpret_cast<const char*>(raw.data());
  char* dst = reinterpret_cast<char*>(out.data());
  int n = hc ? LZ4_compress_HC(src, dst, static_cast<int>(raw.size()), static_cast<int>(out.size()),
                               level)
             : LZ4_compress_default(src, dst, static_cast<int>(raw.size()),
                                    static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(static_cast<size_t>(n));
  return out;
}

// Decodes into a buffer of exactly `capacity` bytes.
tgrs_status Decode(const Bytes& block, size_t capacity, Bytes* out) {
  out->assign(capacity, 0xEE);
  size_t written = 12345;
  tgrs_status st = tgrs_lz4_decode(
      capacity ? out->data() : nullptr, capacity,
      block.empty() ? reinterpret_cast<const uint8_t*>("") : block.data(), block.size(), &written);
  if (st == TGRS_OK) {
    EXPECT_LE(written, capacity);
    out->resize(written);
  } else {
    EXPECT_EQ(written, 0u);
  }
  return st;
}

void ExpectRoundTrip(const Bytes& raw, const std::string& what) {
  for (bool hc : {false, true}) {
    Bytes block = Compress(raw, hc);
    Bytes out;
    ASSERT_EQ(Decode(block, raw.size(), &out), TGRS_OK) << what << (hc ? " (HC)" : "");
    ASSERT_EQ(out, raw) << what << (hc ? " (HC)" : "");
    // Room to spare changes nothing; one byte short is reported, never overrun.
    ASSERT_EQ(Decode(block, raw.size() + 64, &out), TGRS_OK) << what;
    ASSERT_EQ(out, raw) << what;
    if (!raw.empty()) {
      ASSERT_EQ(Decode(block, raw.size() - 1, &out), TGRS_ERR_LZ4_DST_TOO_SMALL) << what;
    }
  }
}

Bytes RandomBytes(size_t n, std::mt19937* rng) {
  Bytes b(n);
  for (auto& x : b) x = static_cast<uint8_t>((*rng)());
  return b;
}

Bytes Repetitive(size_t n, size_t period) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>("TiGrIS!"[i % period]);
  return b;
}

TEST(Lz4Decode, SmallSizesRandomAndRepetitive) {
  std::mt19937 rng(7);
  for (size_t n = 0; n <= 70; ++n) {
    ExpectRoundTrip(RandomBytes(n, &rng), "random " + std::to_string(n));
    ExpectRoundTrip(Repetitive(n, 1), "run " + std::to_string(n));  // offset-1 overlaps
    ExpectRoundTrip(Repetitive(n, 3), "period 3 " + std::to_string(n));
  }
}

TEST(Lz4Decode, OneMebibyte) {
  std::mt19937 rng(11);
  ExpectRoundTrip(RandomBytes(1 << 20, &rng), "random 1 MiB (incompressible)");
  ExpectRoundTrip(Repetitive(1 << 20, 7), "period 7, 1 MiB (long overlapping matches)");
  Bytes mixed = RandomBytes(1 << 20, &rng);
  for (size_t i = 0; i < mixed.size(); ++i) {
    if ((i / 4096) % 2) mixed[i] = static_cast<uint8_t>(i / 4096);  // alternate noise / runs
  }
  ExpectRoundTrip(mixed, "mixed 1 MiB");
}

TEST(Lz4Decode, RealModelBytes) {
  std::string model = tigris::testing::ReadFile(tigris::testing::SharedOnnxModel("mnist8.onnx"));
  ASSERT_GT(model.size(), 20000u);
  ExpectRoundTrip(Bytes(model.begin(), model.end()), "mnist8.onnx");
}

TEST(Lz4Decode, EmptyInputIsOneToken) {
  Bytes block = Compress({}, false);
  EXPECT_EQ(block, Bytes({0x00}));  // one token: no literals, end of block
  Bytes out;
  EXPECT_EQ(Decode(block, 0, &out), TGRS_OK);
  EXPECT_TRUE(out.empty());
}

TEST(Lz4Decode, HandAssembledBlocks) {
  Bytes out;
  // "ab", then a match at offset 2 of 4 + 4 = 8 bytes that reads what it writes, then the
  // final sequence with literal "c": "ab" + "abababab" + "c".
  EXPECT_EQ(Decode({0x24, 'a', 'b', 0x02, 0x00, 0x10, 'c'}, 11, &out), TGRS_OK);
  EXPECT_EQ(std::string(out.begin(), out.end()), "abababababc");
  // Offset 1 with an extended match: 15 + 0 extra + 4 = 19 copies of 'z', then an empty
  // final sequence (token 0x00): 20 'z'.
  EXPECT_EQ(Decode({0x1F, 'z', 0x01, 0x00, 0x00, 0x00}, 20, &out), TGRS_OK);
  EXPECT_EQ(std::string(out.begin(), out.end()), std::string(20, 'z'));
  // Extended literal length 15 + 255 + 3 = 273: the 255 byte continues, 3 ends it.
  Bytes lit = {0xF0, 0xFF, 0x03};
  for (int i = 0; i < 273; ++i) lit.push_back(static_cast<uint8_t>(i));
  EXPECT_EQ(Decode(lit, 273, &out), TGRS_OK);
  ASSERT_EQ(out.size(), 273u);
  EXPECT_EQ(out[272], static_cast<uint8_t>(272));
}

TEST(Lz4Decode, CorruptBlocks) {
  Bytes out;
  EXPECT_EQ(Decode({}, 16, &out), TGRS_ERR_LZ4_CORRUPT);                             // no token
  EXPECT_EQ(Decode({0x10, 'a', 0x00, 0x00, 0x00}, 16, &out), TGRS_ERR_LZ4_CORRUPT);  // offset 0
  EXPECT_EQ(Decode({0x10, 'a', 0x02, 0x00, 0x00}, 16, &out), TGRS_ERR_LZ4_CORRUPT);  // before dst
  EXPECT_EQ(Decode({0x00, 0x01, 0x00, 0x00}, 16, &out), TGRS_ERR_LZ4_CORRUPT);       // match at 0
  EXPECT_EQ(Decode({0x30, 'a', 'b'}, 16, &out), TGRS_ERR_LZ4_CORRUPT);  // 3 literals, 2 given
  EXPECT_EQ(Decode({0xF0, 0xFF, 0xFF, 0x10}, 4096, &out),
            TGRS_ERR_LZ4_CORRUPT);                                             // 541 literals, none
  EXPECT_EQ(Decode({0xF0, 0xFF}, 4096, &out), TGRS_ERR_LZ4_CORRUPT);           // length cut short
  EXPECT_EQ(Decode({0x10, 'a', 0x01}, 16, &out), TGRS_ERR_LZ4_CORRUPT);        // half an offset
  EXPECT_EQ(Decode({0x1F, 'a', 0x01, 0x00}, 64, &out), TGRS_ERR_LZ4_CORRUPT);  // match len cut
  // Ends with a match instead of literals (the spec's last sequence is literals only).
  EXPECT_EQ(Decode({0x14, 'a', 0x01, 0x00}, 64, &out), TGRS_ERR_LZ4_CORRUPT);
  // A literal length near SIZE_MAX never wraps: 0xFF bytes until the buffer ends.
  Bytes huge = {0xF0};
  huge.insert(huge.end(), 1000, 0xFF);
  EXPECT_EQ(Decode(huge, 16, &out), TGRS_ERR_LZ4_CORRUPT);
  // Valid block, too little room: for literals and for a match.
  EXPECT_EQ(Decode({0x30, 'a', 'b', 'c'}, 2, &out), TGRS_ERR_LZ4_DST_TOO_SMALL);
  EXPECT_EQ(Decode({0x24, 'a', 'b', 0x02, 0x00, 0x10, 'c'}, 9, &out), TGRS_ERR_LZ4_DST_TOO_SMALL);
  // Arguments.
  size_t written = 9;
  uint8_t token = 0;
  EXPECT_EQ(tgrs_lz4_decode(nullptr, 4, &token, 1, &written), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_lz4_decode(out.data(), 0, nullptr, 1, &written), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_lz4_decode(nullptr, 0, &token, 1, nullptr), TGRS_OK);  // empty block
}

TEST(Lz4Decode, EveryTruncationFailsOrDecodesAPrefix) {
  // A block cut right after a literal run is itself a valid (shorter) block, so a prefix
  // may decode: then it must yield a strict prefix of the original data.
  Bytes raw = Repetitive(3000, 5);
  std::mt19937 rng(3);
  Bytes noise = RandomBytes(500, &rng);
  raw.insert(raw.begin() + 1000, noise.begin(), noise.end());
  Bytes block = Compress(raw, true);
  for (size_t n = 0; n < block.size(); ++n) {
    Bytes cut(block.begin(), block.begin() + n), out;
    tgrs_status st = Decode(cut, raw.size(), &out);
    if (st == TGRS_OK) {
      ASSERT_LT(out.size(), raw.size()) << n;
      ASSERT_TRUE(std::equal(out.begin(), out.end(), raw.begin())) << n;
    } else {
      ASSERT_EQ(st, TGRS_ERR_LZ4_CORRUPT) << n;
    }
  }
}

// True when a sequence of `block` (parsed independently of the decoder under test) has
// match offset 0, which the specification declares invalid but liblz4 1.9's fast path
// tolerates (it copies from the current position).
bool HasZeroOffset(const Bytes& block) {
  size_t ip = 0;
  auto length = [&](size_t n) {
    if (n != 15) return n;
    uint8_t b;
    do {
      if (ip >= block.size()) return n;
      b = block[ip++];
      n += b;
    } while (b == 255);
    return n;
  };
  while (ip < block.size()) {
    uint8_t token = block[ip++];
    ip += length(token >> 4);
    if (ip + 2 > block.size()) return false;
    if (block[ip] == 0 && block[ip + 1] == 0) return true;
    ip += 2;
    length(token & 15);
  }
  return false;
}

TEST(Lz4Decode, MutantsAgreeWithLiblz4WheneverItAccepts) {
  // liblz4's safe decoder is stricter about the end of a block, so when it accepts a
  // mutant ours must too, with the same bytes (except offset 0, see HasZeroOffset);
  // otherwise ours may fail or succeed but stays in bounds (ASan).
  std::mt19937 rng(99);
  Bytes raw = Repetitive(2000, 6);
  for (size_t i = 0; i < raw.size(); i += 97) raw[i] = static_cast<uint8_t>(rng());
  Bytes block = Compress(raw, false);
  int agreed = 0;
  for (int m = 0; m < 3000; ++m) {
    Bytes mutant = block;
    for (int f = 0; f < 1 + static_cast<int>(rng() % 3); ++f) {
      mutant[rng() % mutant.size()] = static_cast<uint8_t>(rng());
    }
    size_t capacity = raw.size() + rng() % 64;
    Bytes theirs(capacity);
    int n = LZ4_decompress_safe(reinterpret_cast<const char*>(mutant.data()),
                                reinterpret_cast<char*>(theirs.data()),
                                static_cast<int>(mutant.size()), static_cast<int>(capacity));
    Bytes ours;
    tgrs_status st = Decode(mutant, capacity, &ours);
    ASSERT_TRUE(st == TGRS_OK || st == TGRS_ERR_LZ4_CORRUPT || st == TGRS_ERR_LZ4_DST_TOO_SMALL);
    if (n >= 0 && st == TGRS_ERR_LZ4_CORRUPT && HasZeroOffset(mutant)) continue;
    if (n >= 0) {
      ++agreed;
      ASSERT_EQ(st, TGRS_OK) << "mutant " << m;
      theirs.resize(static_cast<size_t>(n));
      ASSERT_EQ(ours, theirs) << "mutant " << m;
    }
  }
  EXPECT_GT(agreed, 100);  // enough accepted mutants for the comparison to mean something
}

TEST(Lz4Decode, RandomGarbageStaysInBounds) {
  std::mt19937 rng(1234);
  int ok = 0;
  for (int i = 0; i < 5000; ++i) {
    Bytes junk = RandomBytes(1 + rng() % 64, &rng);
    Bytes out;
    tgrs_status st = Decode(junk, rng() % 256, &out);
    ASSERT_TRUE(st == TGRS_OK || st == TGRS_ERR_LZ4_CORRUPT || st == TGRS_ERR_LZ4_DST_TOO_SMALL);
    ok += st == TGRS_OK;
  }
  EXPECT_GT(ok, 0);
}

}  // namespace
