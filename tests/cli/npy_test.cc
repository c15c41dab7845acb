// cli/npy.cc: .npy parsing and writing, through tigris_cli_lib.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "npy.h"

namespace tigris::cli {
namespace {

std::string Npy(int major, const std::string& dict, const std::string& data) {
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  const size_t len = dict.size();
  if (major == 1) {
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>(len >> 8);
  } else {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((len >> (8 * i)) & 0xff);
  }
  return out + dict + data;
}

std::string What(const std::string& bytes) {
  try {
    ParseNpy(bytes, "x.npy");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(NpyTest, ParsesVersion1And2) {
  // Two float32 values 1.0f (0x3f800000 little-endian) in shape (2,).
  const std::string data("\x00\x00\x80\x3f\x00\x00\x80\x3f", 8);
  for (int major : {1, 2}) {
    NpyArray a = ParseNpy(
        Npy(major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", data), "x");
    EXPECT_EQ(a.descr, "<f4");
    ASSERT_EQ(a.shape.size(), 1u);
    EXPECT_EQ(a.shape[0], 2);
    EXPECT_EQ(a.data.size(), 8u);
  }
  NpyArray s =
      ParseNpy(Npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (), }", "\x05"), "x");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.data[0], 5);
}

TEST(NpyTest, RoundTripsThroughSerialize) {
  NpyArray a;
  a.descr = "|i1";
  a.shape = {1, 3, 2, 2};
  for (int i = 0; i < 12; ++i) a.data.push_back(static_cast<uint8_t>(i - 6));
  const std::string bytes = SerializeNpy(a);
  // numpy's rule: magic + version + length + header is a multiple of 64.
  const size_t header = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
  EXPECT_EQ((10 + header) % 64, 0u);
  NpyArray b = ParseNpy(bytes, "x");
  EXPECT_EQ(b.descr, a.descr);
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);
  NpyArray one;
  one.descr = "<f4";
  one.shape = {3};
  one.data.assign(12, 0);
  EXPECT_NE(SerializeNpy(one).find("'shape': (3,)"), std::string::npos);
}

TEST(NpyTest, RejectsWhatItCannotRead) {
  EXPECT_NE(What("not an npy file").find("magic"), std::string::npos);
  EXPECT_NE(What(Npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", "abcd"))
                .find("big-endian"),
            std::string::npos);
  EXPECT_NE(What(Npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "abcdefgh"))
                .find("unsupported dtype"),
            std::string::npos);
  EXPECT_NE(What(Npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", "abcd"))
                .find("Fortran"),
            std::string::npos);
  EXPECT_NE(What(Npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "abcd"))
                .find("needs 8"),
            std::string::npos);
  EXPECT_NE(What(Npy(9, "{}", "")).find("version 9"), std::string::npos);
  // Found by fuzz_npy (fuzz/regressions/npy/shape-product-overflow.npy): the element count
  // of a crafted shape overflowed int64. 2^32 x 2^32 x 4 bytes wraps to 0 in 64 bits, so
  // an empty data section "fitted" it; both must be rejected as too large.
  EXPECT_NE(What(Npy(1,
                     "{'descr': '<i1', 'fortran_order': False, 'shape': (5, 2222222, "
                     "24691353086420, 2222222), }",
                     ""))
                .find("larger than any file"),
            std::string::npos);
  EXPECT_NE(What(Npy(1,
                     "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
                     "4294967296), }",
                     ""))
                .find("larger than any file"),
            std::string::npos);
  EXPECT_NE(What(Npy(1, "{'descr': '<f4', 'fortran_order': False}", "")).find("'shape'"),
            std::string::npos);
}

}  // namespace
}  // namespace tigris::cli
