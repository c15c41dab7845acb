#include "plan/arena_allocator.h"

#include <gtest/gtest.h>

namespace tigris::plan {
namespace {

TEST(ArenaAllocatorTest, FirstFitReusesFreedGaps) {
  // A [0,1] 100 B -> 0 (occupies 112); B [1,2] 50 B -> above A at 112 (64);
  // C [2,3] 100 B: A is dead at step 2, the gap [0, 112) fits -> 0;
  // D [2,2] 16 B: C holds [0,112), B [112,176) -> 176. Peak 192.
  int64_t peak = 0;
  const std::vector<int64_t> offsets =
      FirstFitOffsets({{0, 1, 100}, {1, 2, 50}, {2, 3, 100}, {2, 2, 16}}, &peak);
  EXPECT_EQ(offsets, (std::vector<int64_t>{0, 112, 0, 176}));
  EXPECT_EQ(peak, 192);
}

TEST(ArenaAllocatorTest, GapTooSmallGoesAbove) {
  // A [0,2] 32 at 0; B [0,0] 32 at 32; C [0,2] 32 at 64; D [1,1] 48: B's hole [32,64) is
  // too small, so D goes to 96.
  int64_t peak = 0;
  const std::vector<int64_t> offsets =
      FirstFitOffsets({{0, 2, 32}, {0, 0, 32}, {0, 2, 32}, {1, 1, 48}}, &peak);
  EXPECT_EQ(offsets, (std::vector<int64_t>{0, 32, 64, 96}));
  EXPECT_EQ(peak, 144);
}

TEST(ArenaAllocatorTest, ZeroSizedBuffersTakeNoSpace) {
  int64_t peak = 0;
  const std::vector<int64_t> offsets = FirstFitOffsets({{0, 0, 0}, {0, 0, 16}}, &peak);
  EXPECT_EQ(offsets[1], 0);
  EXPECT_EQ(peak, 16);
}

}  // namespace
}  // namespace tigris::plan
