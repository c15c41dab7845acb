// Untrusted bytes in messages (util/escape.h): control bytes and invalid UTF-8 are written
// as \xNN, valid UTF-8 passes, and a failing C ABI call whose message names a node from
// the model hands out only the escaped form. Expected strings are written out by hand.
#include <gtest/gtest.h>

#include <string>

#include "support/onnx_builder.h"
#include "tigris.h"
#include "util/escape.h"

namespace {

using tigris::EscapeUntrusted;

TEST(EscapeUntrusted, PrintableAsciiAndValidUtf8PassUnchanged) {
  EXPECT_EQ(EscapeUntrusted("conv_1/Relu:0 (1x3x96x96)"), "conv_1/Relu:0 (1x3x96x96)");
  // 2-, 3- and 4-byte sequences: "é", "畳", "𝔸".
  const std::string utf8 = "\xC3\xA9 \xE7\x95\xB3 \xF0\x9D\x94\xB8";
  EXPECT_EQ(EscapeUntrusted(utf8), utf8);
}

TEST(EscapeUntrusted, ControlBytesAndInvalidUtf8BecomeHexEscapes) {
  EXPECT_EQ(EscapeUntrusted("a\x01"
                            "b\x1b[31m"),
            "a\\x01b\\x1b[31m");
  EXPECT_EQ(EscapeUntrusted(std::string("\x00\x7f", 2)), "\\x00\\x7f");
  EXPECT_EQ(EscapeUntrusted("one\ntwo\tthree"), "one\\x0atwo\\x09three");  // one line
  EXPECT_EQ(EscapeUntrusted("\xff\xfe"), "\\xff\\xfe");                    // never valid
  EXPECT_EQ(EscapeUntrusted("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(EscapeUntrusted("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(EscapeUntrusted("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(EscapeUntrusted("ok\xE7\x95"), "ok\\xe7\\x95");                // truncated at the end
  EXPECT_EQ(EscapeUntrusted("\xE7x\x95"), "\\xe7x\\x95");                  // broken in the middle
}

TEST(EscapeUntrusted, IsIdempotent) {
  const std::string once = EscapeUntrusted("n\x02m\xff");
  EXPECT_EQ(EscapeUntrusted(once), once);
}

TEST(EscapeUntrusted, CApiMessagesNamingInputNodesAreEscaped) {
  tigris::testing::OnnxModelBuilder b("net", 13);
  b.Input("x", {1, 4});
  b.Node("NoSuchOp", {"x"}, {"y"}, "evil\x1b[2J\xff");
  b.Output("y", {1, 4});
  const std::string bytes = b.Bytes();
  tigris_model* model = nullptr;
  ASSERT_NE(tigris_load_from_memory(&model, bytes.data(), bytes.size(), nullptr), TIGRIS_OK);
  const std::string message = tigris_last_error();
  EXPECT_NE(message.find("evil\\x1b[2J\\xff"), std::string::npos) << message;
  for (char c : message) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << message;
}

}  // namespace
