// NumPy .npy files (format versions 1.0, 2.0 and 3.0, C order, little-endian), the array
// format of `tigris run`: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
#ifndef TIGRIS_CLI_NPY_H_
#define TIGRIS_CLI_NPY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tigris::cli {

struct NpyArray {
  std::string descr;           // numpy type string: "<f4", "|i1", "|u1", "<i2", "<i4", "<i8"
  std::vector<int64_t> shape;  // () for a scalar
  std::vector<uint8_t> data;   // C order, little-endian
};

// Bytes per element of a supported descr; 0 for anything else.
size_t NpyItemSize(const std::string& descr);
// Number of elements of `shape` (1 for a scalar).
int64_t NpyElements(const std::vector<int64_t>& shape);
// "1x3x96x96" ("scalar" for ()).
std::string NpyShapeText(const std::vector<int64_t>& shape);

// Parses .npy bytes; throws std::runtime_error naming `what` (the path) and the defect:
// bad magic, unsupported version, a header that is not a dict, fortran_order True, a
// big-endian or unsupported dtype, data shorter ("truncated: ...") or longer than the
// shape needs.
NpyArray ParseNpy(const std::string& bytes, const std::string& what);
// Reads and parses the file; a missing, unreadable, empty or directory path is an error
// naming it ("cannot read input 'PATH': ...", ReadInputFile).
NpyArray ReadNpy(const std::string& path);

// Serializes as format 1.0 (header padded so the data starts at a multiple of 64).
std::string SerializeNpy(const NpyArray& array);
void WriteNpy(const std::string& path, const NpyArray& array);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_NPY_H_
