// ir::ReshapeKeepsRuntimeBytes against the definition: reshape the ONNX-order elements, lay
// both shapes out as the runtime holds them (emit::TransposeBytes with ir::RuntimeLayout)
// and compare the bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "emit/layout.h"
#include "ir/shape.h"

namespace tigris {
namespace {

// The runtime bytes of a tensor of `shape` whose ONNX-order elements are 0, 1, 2, ...
std::vector<uint8_t> RuntimeBytes(const ir::Shape& shape) {
  std::vector<int32_t> iota(static_cast<size_t>(ir::NumElements(shape)));
  std::iota(iota.begin(), iota.end(), 0);
  std::vector<uint8_t> bytes(iota.size() * sizeof(int32_t));
  std::memcpy(bytes.data(), iota.data(), bytes.size());
  return emit::TransposeBytes(bytes, shape, ir::RuntimeLayout(shape.size()), sizeof(int32_t));
}

TEST(ReshapeKeepsRuntimeBytes, AgreesWithLayingBothShapesOut) {
  const std::vector<std::pair<ir::Shape, ir::Shape>> cases = {
      {{2, 10, 4}, {2, 10, 1, 4}},   // a 1-D pool lifted to 2-D: same bytes
      {{2, 3, 6}, {2, 3, 6, 1}},     // PyTorch's Unsqueeze(-1): NWC [2,6,3] vs NHWC [2,6,1,3]: no
      {{1, 8, 4, 4}, {1, 128}},      // flatten: no
      {{1, 8, 1, 1}, {1, 8}},        // a pooled map: yes
      {{1, 1, 5}, {5}},              // broadcast-rank-lift's operand: yes
      {{1, 4, 3, 2}, {1, 4, 6}},     // merge H and W under C: NHWC [1,3,2,4] vs NWC [1,6,4]: yes
      {{1, 4, 3, 2}, {1, 2, 2, 6}},  // splits C: no
      {{3, 4, 5}, {3, 1, 4, 5}},     // a unit axis before C: no (C moves to the end differently)
  };
  for (const auto& [in, out] : cases) {
    const bool expected = RuntimeBytes(in) == RuntimeBytes(out);
    EXPECT_EQ(ir::ReshapeKeepsRuntimeBytes(in, out), expected)
        << ir::ShapeToString(in) << " -> " << ir::ShapeToString(out);
  }
}

TEST(ReshapeKeepsRuntimeBytes, DifferentElementCountsNeverAgree) {
  EXPECT_FALSE(ir::ReshapeKeepsRuntimeBytes({1, 2, 3}, {1, 2, 4}));
}

}  // namespace
}  // namespace tigris
