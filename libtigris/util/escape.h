// Untrusted text in messages. Error messages name the node, tensor or file at fault, and
// those names come from the input (an ONNX file, a plan): they may hold control bytes or
// invalid UTF-8, which must not reach a terminal or a binding's string type as they are.
#ifndef TIGRIS_UTIL_ESCAPE_H_
#define TIGRIS_UTIL_ESCAPE_H_

#include <string>
#include <string_view>

namespace tigris {

// `text` with every byte that is not printable text written as \xNN: control characters
// (newline and tab too: a message is one line, and a name from a file must not forge a
// second), DEL, and every byte of an invalid, overlong or truncated UTF-8 sequence. Valid
// UTF-8 (names in any script) passes unchanged, so the result is always valid UTF-8.
// Escaping is idempotent on its own output.
std::string EscapeUntrusted(std::string_view text);

}  // namespace tigris

#endif  // TIGRIS_UTIL_ESCAPE_H_
