// tigris_parse_size: the single parser of human sizes. Expected byte counts are worked
// out by hand from the binary units (K = 1024).
#include <gtest/gtest.h>

#include <string>

#include "tigris.h"

namespace {

uint64_t Parse(const char* text) {
  uint64_t bytes = 0;
  EXPECT_EQ(tigris_parse_size(&bytes, text), TIGRIS_OK) << text << ": " << tigris_last_error();
  return bytes;
}

TEST(ParseSizeTest, AcceptsBytesAndBinaryUnits) {
  EXPECT_EQ(Parse("262144"), 262144u);
  EXPECT_EQ(Parse("256K"), 262144u);
  EXPECT_EQ(Parse("256k"), 262144u);
  EXPECT_EQ(Parse("256KB"), 262144u);
  EXPECT_EQ(Parse("256KiB"), 262144u);
  EXPECT_EQ(Parse("4M"), 4194304u);
  EXPECT_EQ(Parse("1.5MiB"), 1572864u);  // 1.5 * 1048576
  EXPECT_EQ(Parse("0.5K"), 512u);
  EXPECT_EQ(Parse("2G"), 2147483648u);
  EXPECT_EQ(Parse(" 64 K "), 65536u);
}

TEST(ParseSizeTest, RejectsNonsenseWithMessage) {
  for (const char* bad : {"", "0", "-1", "-256K", "abc", "12Q", "0.3", "1.0001K", "K",
                          "99999999999999999999", "inf", "1e3", "0x10"}) {
    uint64_t bytes = 7;
    EXPECT_EQ(tigris_parse_size(&bytes, bad), TIGRIS_ERR_INVALID_ARGUMENT) << "'" << bad << "'";
    EXPECT_NE(std::string(tigris_last_error()).find("invalid size"), std::string::npos) << bad;
  }
}

TEST(ParseSizeTest, NullArgumentsAreErrorsNotCrashes) {
  uint64_t bytes = 0;
  EXPECT_EQ(tigris_parse_size(nullptr, "1K"), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_parse_size(&bytes, nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
}

}  // namespace
