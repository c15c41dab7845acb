#include "ir/shape.h"

#include <limits>

namespace tigris::ir {

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d <= 0) return 0;
    if (n > std::numeric_limits<int64_t>::max() / d) return std::numeric_limits<int64_t>::max();
    n *= d;
  }
  return n;
}

bool PermKeepsBytes(const Shape& shape, const std::vector<int64_t>& perm) {
  int64_t last = -1;
  for (int64_t axis : perm) {
    if (shape[static_cast<size_t>(axis)] == 1) continue;
    if (axis < last) return false;
    last = axis;
  }
  return true;
}

bool WithinTensorLimits(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return false;
    if (d == 0) continue;
    if (d > kMaxTensorElements / n) return false;
    n *= d;
  }
  return true;
}

std::string ShapeToString(const Shape& shape) {
  if (shape.empty()) return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(shape[i]);
  }
  return s;
}

}  // namespace tigris::ir
