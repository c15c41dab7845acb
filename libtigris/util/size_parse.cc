#include "util/size_parse.h"

#include <cctype>
#include <cstdio>

#include "util/error.h"

namespace tigris {
namespace {

[[noreturn]] void Fail(std::string_view text, const std::string& why) {
  throw Error(Status::kInvalidArgument,
              "invalid size '" + std::string(text) + "': " + why +
                  " (expected bytes or a number with K, M or G, e.g. 256K, 1.5MiB)");
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

uint64_t ParseSize(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size()) Fail(text, "empty");
  if (text[i] == '-') Fail(text, "negative");
  if (text[i] == '+') ++i;

  // Digits with at most one decimal point. Parsed by hand: strtod would accept "inf",
  // hex floats and exponents, none of which are sizes.
  uint64_t whole = 0;
  uint64_t frac_num = 0, frac_den = 1;
  bool any_digit = false, seen_point = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    any_digit = true;
    unsigned d = static_cast<unsigned>(c - '0');
    if (!seen_point) {
      if (whole > (UINT64_MAX - d) / 10) Fail(text, "too large");
      whole = whole * 10 + d;
    } else if (frac_den < 1000000ULL) {  // 6 decimals is finer than any unit needs
      frac_num = frac_num * 10 + d;
      frac_den *= 10;
    }
  }
  if (!any_digit) Fail(text, "no number");
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = Lower(text.substr(i));
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();

  uint64_t multiplier = 1;
  if (unit.empty() || unit == "b") {
    multiplier = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    multiplier = 1ULL << 10;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    multiplier = 1ULL << 20;
  } else if (unit == "g" || unit == "gb" || unit == "gib") {
    multiplier = 1ULL << 30;
  } else {
    Fail(text, "unknown unit '" + std::string(text.substr(i)) + "'");
  }

  if (whole > UINT64_MAX / multiplier) Fail(text, "too large");
  uint64_t bytes = whole * multiplier;
  // frac_num / frac_den of the unit must come out as whole bytes.
  if (frac_num != 0) {
    // frac_num < 10^6 and multiplier <= 2^30: the product fits in 64 bits.
    uint64_t scaled = frac_num * multiplier;
    if (scaled % frac_den != 0) Fail(text, "not a whole number of bytes");
    bytes += static_cast<uint64_t>(scaled / frac_den);
  }
  if (bytes == 0) Fail(text, "must be greater than zero");
  return bytes;
}

std::string FormatSize(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= (1ULL << (10 * (u + 1)))) ++u;
  double v = static_cast<double>(bytes) / static_cast<double>(1ULL << (10 * u));
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  std::string s(buf);
  while (s.back() == '0') s.pop_back();  // "1.50" -> "1.5", "256.00" -> "256."
  if (s.back() == '.') s.pop_back();
  return s + " " + kUnits[u];
}

}  // namespace tigris
