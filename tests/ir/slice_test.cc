// ir::ResolveSlice against ONNX Slice's rules, each expectation worked out by hand from the
// operator's definition (onnx/docs/Operators.md, Slice): negative indices count from the
// end, then clamp per the step's sign; the extent is the number of indices visited.
#include "ir/slice.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace tigris::ir {
namespace {

SliceWindow Resolve(const Shape& in, std::vector<int64_t> starts, std::vector<int64_t> ends,
                    std::vector<int64_t> axes = {}, std::vector<int64_t> steps = {}) {
  SliceWindow w;
  const std::string error = ResolveSlice(in, starts, ends, axes, steps, &w);
  EXPECT_EQ(error, "");
  return w;
}

TEST(ResolveSliceTest, UnnamedAxesKeepEverything) {
  const SliceWindow w = Resolve({2, 8, 5}, {2}, {6}, {1});
  EXPECT_EQ(w.first, (std::vector<int64_t>{0, 2, 0}));
  EXPECT_EQ(w.step, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(w.extent, (Shape{2, 4, 5}));
}

TEST(ResolveSliceTest, NegativeIndicesCountFromTheEndAndEndsClamp) {
  // [-3, INT64_MAX) on 8 -> [5, 8): 3 entries; [1, -1) step 2 on 5 -> 1, 3: 2 entries.
  const SliceWindow w =
      Resolve({8, 5}, {-3, 1}, {std::numeric_limits<int64_t>::max(), -1}, {0, 1}, {1, 2});
  EXPECT_EQ(w.first, (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(w.extent, (Shape{3, 2}));
}

TEST(ResolveSliceTest, NegativeStepsWalkBackwards) {
  // Reverse all of 6: start -1 -> 5, end INT64_MIN clamps to -1: 5, 4, ..., 0.
  SliceWindow w = Resolve({6}, {-1}, {std::numeric_limits<int64_t>::min()}, {0}, {-1});
  EXPECT_EQ(w.first[0], 5);
  EXPECT_EQ(w.step[0], -1);
  EXPECT_EQ(w.extent[0], 6);
  // start 100 clamps to 5, end 1 exclusive, step -2: 5, 3.
  w = Resolve({6}, {100}, {1}, {0}, {-2});
  EXPECT_EQ(w.first[0], 5);
  EXPECT_EQ(w.extent[0], 2);
}

TEST(ResolveSliceTest, EmptyRangesAndHugeStepsDoNotOverflow) {
  EXPECT_EQ(Resolve({6}, {4}, {2}).extent[0], 0);  // end before start
  // A step of INT64_MAX visits only the start; so does INT64_MIN backwards.
  EXPECT_EQ(Resolve({6}, {1}, {6}, {0}, {std::numeric_limits<int64_t>::max()}).extent[0], 1);
  EXPECT_EQ(Resolve({6}, {5}, {-7}, {0}, {std::numeric_limits<int64_t>::min()}).extent[0], 1);
}

TEST(ResolveSliceTest, MalformedSlicesAreDescribed) {
  SliceWindow w;
  EXPECT_NE(ResolveSlice({4, 4}, {0}, {1, 2}, {}, {}, &w).find("same length"), std::string::npos);
  EXPECT_NE(ResolveSlice({4, 4}, {0}, {1}, {2}, {}, &w).find("out of range"), std::string::npos);
  EXPECT_NE(ResolveSlice({4, 4}, {0, 0}, {1, 1}, {1, -1}, {}, &w).find("named twice"),
            std::string::npos);
  EXPECT_NE(ResolveSlice({4, 4}, {0}, {1}, {0}, {0}, &w).find("step 0"), std::string::npos);
}

// Pad-18's axes: pads for the named axes only, spread over every axis of the input.
TEST(ResolvePads, AxesSpreadOverTheRank) {
  std::vector<int64_t> out;
  EXPECT_EQ(ResolvePads(4, {1, 2, 3, 4}, {-2, 3}, &out), "");
  EXPECT_EQ(out, (std::vector<int64_t>{0, 0, 1, 2, 0, 0, 3, 4}));
  EXPECT_EQ(ResolvePads(2, {1, 2, 3, 4}, {}, &out), "");
  EXPECT_EQ(out, (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_NE(ResolvePads(4, {1, 2}, {1, 1}, &out), "");  // repeated axis
  EXPECT_NE(ResolvePads(4, {1, 2}, {4}, &out), "");     // out of range
  EXPECT_NE(ResolvePads(4, {1, 2, 3}, {}, &out), "");   // odd length
}

}  // namespace
}  // namespace tigris::ir
