#include "emit/compression.h"

#include <lz4.h>
#include <lz4hc.h>

#include <limits>
#include <string>

#include "util/error.h"

namespace tigris::emit {

std::vector<uint8_t> Lz4CompressBlock(const std::vector<uint8_t>& raw) {
  if (raw.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    throw Error(Status::kInvalidArgument, "a stage's weights (" + std::to_string(raw.size()) +
                                              " bytes) exceed LZ4's block limit");
  }
  const int src_size = static_cast<int>(raw.size());
  std::vector<uint8_t> out(static_cast<size_t>(LZ4_compressBound(src_size)));
  if (raw.empty()) return {};
  const int n = LZ4_compress_HC(reinterpret_cast<const char*>(raw.data()),
                                reinterpret_cast<char*>(out.data()), src_size,
                                static_cast<int>(out.size()), LZ4HC_CLEVEL_MAX);
  if (n <= 0) throw Error(Status::kInternal, "LZ4_compress_HC failed");
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace tigris::emit
