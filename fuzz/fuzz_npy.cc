// fuzz_npy: bytes given to `tigris run --input X.npy`, through the CLI's reader
// (cli/npy.h). Any input either parses or throws std::runtime_error naming the defect; an
// array that parses survives SerializeNpy + ParseNpy unchanged (the reader and the writer
// agree on every array the reader accepts).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tigris::cli::NpyArray;
  NpyArray array;
  try {
    array = tigris::cli::ParseNpy(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const std::runtime_error&) {
    return 0;
  }
  const NpyArray again = tigris::cli::ParseNpy(tigris::cli::SerializeNpy(array), "round trip");
  if (again.descr != array.descr || again.shape != array.shape || again.data != array.data) {
    __builtin_trap();
  }
  return 0;
}
