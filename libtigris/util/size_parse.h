// Human-readable memory sizes: the one place that parses them (DESIGN.md, "Units").
#ifndef TIGRIS_UTIL_SIZE_PARSE_H_
#define TIGRIS_UTIL_SIZE_PARSE_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace tigris {

// "262144", "256K", "256KB", "256KiB", "4M", "1.5MiB", "2G" (binary units, case-insensitive,
// optional spaces before the unit). Throws Error(kInvalidArgument) naming the text for
// anything else: empty, negative, zero, fractional bytes, overflow, unknown unit.
uint64_t ParseSize(std::string_view text);

// 262144 -> "256 KiB", 1572864 -> "1.5 MiB", 1000 -> "1000 B": for reports.
std::string FormatSize(uint64_t bytes);

}  // namespace tigris

#endif  // TIGRIS_UTIL_SIZE_PARSE_H_
