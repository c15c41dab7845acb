#include "input_file.h"

#include <stdexcept>

#include "file_io.h"

namespace tigris::cli {

std::string ReadInputFile(const std::string& path, const std::string& what) {
  std::string bytes;
  const std::string failed = ReadWholeFile(path, &bytes);
  if (!failed.empty())
    throw std::runtime_error("cannot read " + what + " '" + path + "': " + failed);
  if (bytes.empty()) throw std::runtime_error(what + " '" + path + "' is empty (0 bytes)");
  return bytes;
}

}  // namespace tigris::cli
