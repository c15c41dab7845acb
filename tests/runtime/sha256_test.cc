// tgrs_sha256 against the published SHA-256 examples (NIST's "abc", the empty message, the
// two-block 448-bit message, a million 'a'), and against itself at every length around the
// padding's block boundary; then tgrs_plan_check_digest on a compiled plan.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "executor_support.h"
#include "support/test_env.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

std::string Hex(const std::string& text) {
  uint8_t digest[32];
  tgrs_sha256(text.data(), text.size(), digest);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : digest) hex += {kHex[b >> 4], kHex[b & 15]};
  return hex;
}

TEST(Sha256, PublishedExamples) {
  EXPECT_EQ(Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths 55, 56, 63, 64 and 65 put the padding in one block or two; a digest that does
// not depend on every byte, or repeats across lengths, would show here.
TEST(Sha256, EveryLengthAroundTheBlockGivesItsOwnDigest) {
  std::vector<std::string> seen;
  for (size_t n = 0; n <= 130; ++n) {
    const std::string h = Hex(std::string(n, 'x'));
    for (const std::string& other : seen) ASSERT_NE(h, other) << n;
    seen.push_back(h);
  }
}

TEST(Sha256, APlanChecksAgainstTheDigestItWasGiven) {
  auto loaded = LoadPlanBytes(CompileModel(testing::SharedOnnxModel("mnist8.onnx"), 4 << 10, true));
  ASSERT_NE(loaded, nullptr);
  uint8_t digest[32];
  tgrs_sha256(loaded->bytes.get(), loaded->size, digest);
  tgrs_verify_error error;
  EXPECT_EQ(tgrs_plan_check_digest(&loaded->plan, digest, &error), TGRS_OK);
  digest[31] ^= 1;  // a digest for other bytes: an edited plan, resealed or not
  EXPECT_EQ(tgrs_plan_check_digest(&loaded->plan, digest, &error), TGRS_ERR_PLAN_CORRUPT);
  EXPECT_EQ(error.status, TGRS_ERR_PLAN_CORRUPT);
  EXPECT_EQ(tgrs_plan_check_digest(nullptr, digest, &error), TGRS_ERR_NULL_ARGUMENT);
  tgrs_plan never{};
  EXPECT_EQ(tgrs_plan_check_digest(&never, digest, &error), TGRS_ERR_PLAN_NOT_VERIFIED);
}

}  // namespace
}  // namespace tigris::runtime_test
