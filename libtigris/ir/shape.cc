#include "ir/shape.h"

#include <limits>
#include <vector>

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

std::vector<int64_t> RuntimeLayout(size_t rank) {
  if (rank == 4) return {0, 2, 3, 1};  // NCHW -> NHWC
  if (rank == 3) return {0, 2, 1};     // NCW -> NWC
  std::vector<int64_t> identity(rank);
  for (size_t i = 0; i < rank; ++i) identity[i] = static_cast<int64_t>(i);
  return identity;
}

namespace {

// Visits a tensor's elements in the order the runtime stores them and yields each one's
// ONNX (row-major) flat index: an odometer over the runtime shape, stepping ONNX strides.
class RuntimeOrderWalk {
 public:
  explicit RuntimeOrderWalk(const Shape& shape) {
    const std::vector<int64_t> layout = RuntimeLayout(shape.size());
    std::vector<int64_t> onnx_stride(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) onnx_stride[i - 1] = onnx_stride[i] * shape[i];
    for (int64_t axis : layout) {
      extent_.push_back(shape[static_cast<size_t>(axis)]);
      stride_.push_back(onnx_stride[static_cast<size_t>(axis)]);
    }
    index_.assign(extent_.size(), 0);
  }
  int64_t onnx_index() const { return onnx_index_; }
  void Next() {
    for (size_t k = extent_.size(); k-- > 0;) {
      onnx_index_ += stride_[k];
      if (++index_[k] < extent_[k]) return;
      onnx_index_ -= stride_[k] * extent_[k];
      index_[k] = 0;
    }
  }

 private:
  std::vector<int64_t> extent_, stride_, index_;
  int64_t onnx_index_ = 0;
};

}  // namespace

bool ReshapeKeepsRuntimeBytes(const Shape& in, const Shape& out) {
  const int64_t count = NumElements(in);
  if (count != NumElements(out)) return false;
  RuntimeOrderWalk a(in), b(out);
  for (int64_t i = 0; i < count; ++i, a.Next(), b.Next()) {
    if (a.onnx_index() != b.onnx_index()) return false;
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
