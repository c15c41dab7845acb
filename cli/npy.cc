#include "npy.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "input_file.h"

namespace tigris::cli {
namespace {

const char kMagic[] = "\x93NUMPY";  // 6 bytes

[[noreturn]] void Fail(const std::string& what, const std::string& why) {
  throw std::runtime_error(what + ": " + why);
}

// The value text after 'key': in the header dict (up to the next top-level comma or brace).
std::string DictValue(const std::string& header, const std::string& key, const std::string& what) {
  const std::string quoted[] = {"'" + key + "'", "\"" + key + "\""};
  size_t at = std::string::npos;
  for (const std::string& q : quoted) {
    at = header.find(q);
    if (at != std::string::npos) {
      at += q.size();
      break;
    }
  }
  if (at == std::string::npos) Fail(what, "npy header has no '" + key + "' entry");
  at = header.find(':', at);
  if (at == std::string::npos) Fail(what, "npy header entry '" + key + "' has no value");
  ++at;
  while (at < header.size() && header[at] == ' ') ++at;
  size_t end = at;
  if (end < header.size() && header[end] == '(') {
    end = header.find(')', end);
    if (end == std::string::npos) Fail(what, "npy header shape is not closed");
    return header.substr(at, end - at + 1);
  }
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  std::string value = header.substr(at, end - at);
  while (!value.empty() && value.back() == ' ') value.pop_back();
  return value;
}

std::vector<int64_t> ParseShape(const std::string& text, const std::string& what) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') {
    Fail(what, "npy shape '" + text + "' is not a tuple");
  }
  std::vector<int64_t> shape;
  std::string item;
  std::stringstream in(text.substr(1, text.size() - 2));
  while (std::getline(in, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;  // the trailing comma of (3,)
    item = item.substr(b);
    while (!item.empty() && (item.back() == ' ' || item.back() == 'L')) item.pop_back();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (errno != 0 || end == item.c_str() || *end != '\0' || v < 0) {
      Fail(what, "npy shape entry '" + item + "' is not a dimension");
    }
    shape.push_back(v);
  }
  return shape;
}

uint32_t ReadLittle(const std::string& bytes, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + i])) << (8 * i);
  }
  return v;
}

}  // namespace

size_t NpyItemSize(const std::string& descr) {
  if (descr == "<f4" || descr == "<i4") return 4;
  if (descr == "|i1" || descr == "|u1" || descr == "<i1" || descr == "<u1" || descr == "|b1") {
    return 1;
  }
  if (descr == "<i2") return 2;
  if (descr == "<i8" || descr == "<f8") return 8;
  return 0;
}

int64_t NpyElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string NpyShapeText(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

NpyArray ParseNpy(const std::string& bytes, const std::string& what) {
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) {
    Fail(what, "not a .npy file (the magic string \\x93NUMPY is missing)");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  size_t header_len = 0, header_at = 0;
  if (major == 1) {
    header_len = ReadLittle(bytes, 8, 2);
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) Fail(what, "truncated .npy header");
    header_len = ReadLittle(bytes, 8, 4);
    header_at = 12;
  } else {
    Fail(what, "unsupported .npy format version " + std::to_string(major));
  }
  if (header_at + header_len > bytes.size()) Fail(what, "truncated .npy header");
  const std::string header = bytes.substr(header_at, header_len);
  if (header.find('{') == std::string::npos) Fail(what, "npy header is not a dict");

  NpyArray array;
  std::string descr = DictValue(header, "descr", what);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"')) {
    Fail(what, "npy descr " + descr + " is not a simple type string");
  }
  array.descr = descr.substr(1, descr.size() - 2);
  if (!array.descr.empty() && array.descr[0] == '>') {
    Fail(what, "big-endian arrays (" + array.descr + ") are not supported; use '<'");
  }
  if (NpyItemSize(array.descr) == 0) {
    Fail(what, "unsupported dtype '" + array.descr +
                   "' (supported: <f4, |i1, |u1, |b1, <i2, <i4, <i8, <f8)");
  }
  if (DictValue(header, "fortran_order", what) != "False") {
    Fail(what, "Fortran-order arrays are not supported; save a C-order array");
  }
  array.shape = ParseShape(DictValue(header, "shape", what), what);
  const size_t have = bytes.size() - header_at - header_len;
  // The shape comes from the file: multiply with overflow checks, so a crafted shape can
  // neither overflow nor wrap around to the size of the data that is there.
  uint64_t need = NpyItemSize(array.descr);
  for (int64_t d : array.shape) {
    if (__builtin_mul_overflow(need, static_cast<uint64_t>(d), &need)) {
      Fail(what, "npy shape " + NpyShapeText(array.shape) + " of " + array.descr +
                     " is larger than any file");
    }
  }
  if (have != need) {
    // Short data is almost always a copy or download cut off: say so first.
    Fail(what, std::string(have < need ? "truncated: " : "") + "npy data has " +
                   std::to_string(have) + " bytes; shape " + NpyShapeText(array.shape) + " of " +
                   array.descr + " needs " + std::to_string(need));
  }
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header_at + header_len),
                    bytes.end());
  return array;
}

NpyArray ReadNpy(const std::string& path) { return ParseNpy(ReadInputFile(path, "input"), path); }

std::string SerializeNpy(const NpyArray& array) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    shape += std::to_string(array.shape[i]) + (array.shape.size() == 1 ? "," : "");
    if (i + 1 < array.shape.size()) shape += ", ";
  }
  shape += ")";
  std::string header =
      "{'descr': '" + array.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + length (2) + header + '\n', padded to a multiple of 64.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(array.data.data()), array.data.size());
  return out;
}

void WriteNpy(const std::string& path, const NpyArray& array) {
  std::ofstream out(path, std::ios::binary);
  const std::string bytes = SerializeNpy(array);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) Fail(path, std::string("cannot write: ") + std::strerror(errno));
}

}  // namespace tigris::cli
