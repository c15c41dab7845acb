// Offset layout (plan/offset_layout.h): greedy by size with best fit, worked by hand, and
// the invariants of every layout on random buffers: buffers live at the same step never
// share a byte, no peak is below the live bound, and LayOut keeps the lower of the two
// algorithms.
#include "plan/offset_layout.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tigris::plan {
namespace {

TEST(OffsetLayoutTest, GreedyBySizeTakesTheSmallestGapThatHolds) {
  // Largest first: a (64, steps 0-1) @0; c (48, steps 2-3) overlaps nothing placed: @0;
  // b (32, steps 0-3) overlaps a [0, 64) and c [0, 48): no gap below them, @64; d (16,
  // step 3) overlaps c [0, 48) and b [64, 96): the gap [48, 64) holds it exactly (best
  // fit), @48. Peak 96, the live bound at step 0 (64 + 32) and at step 3 (48 + 32 + 16).
  const std::vector<Interval> intervals = {{0, 1, 64}, {0, 3, 32}, {2, 3, 48}, {3, 3, 16}};
  const Layout g = GreedyBySizeLayout(intervals);
  EXPECT_EQ(g.offsets, (std::vector<int64_t>{0, 64, 0, 48}));
  EXPECT_EQ(g.peak_bytes, 96);
  EXPECT_EQ(LiveLowerBound(intervals), 96);
}

TEST(OffsetLayoutTest, FirstFitWinsItsTies) {
  const std::vector<Interval> intervals = {{0, 0, 16}, {1, 1, 16}};
  const Layout l = LayOut(intervals);
  EXPECT_EQ(l.peak_bytes, 16);
  EXPECT_EQ(l.summary.algorithm, LayoutAlgorithm::kFirstFit);
  EXPECT_EQ(l.summary.live_bound_bytes, 16);
}

TEST(OffsetLayoutTest, RandomBuffersNeverShareABytePeaksAreAtLeastTheBound) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    const int count = 1 + static_cast<int>(rng() % 24);
    std::vector<Interval> intervals;
    for (int i = 0; i < count; ++i) {
      const int first = static_cast<int>(rng() % 12);
      intervals.push_back(
          {first, first + static_cast<int>(rng() % 6), static_cast<int64_t>(rng() % 300)});
    }
    std::stable_sort(intervals.begin(), intervals.end(),
                     [](const Interval& a, const Interval& b) { return a.first < b.first; });
    const int64_t bound = LiveLowerBound(intervals);
    const Layout ff = FirstFitLayout(intervals), gbs = GreedyBySizeLayout(intervals);
    const Layout best = LayOut(intervals);
    EXPECT_EQ(best.peak_bytes, std::min(ff.peak_bytes, gbs.peak_bytes));
    EXPECT_EQ(best.summary.live_bound_bytes, bound);
    for (const Layout* l : {&ff, &gbs}) {
      EXPECT_GE(l->peak_bytes, bound) << "trial " << trial;
      for (size_t i = 0; i < intervals.size(); ++i) {
        const int64_t size_i = (intervals[i].size + 15) / 16 * 16;
        EXPECT_EQ(l->offsets[i] % 16, 0);
        EXPECT_LE(l->offsets[i] + size_i, l->peak_bytes);
        for (size_t j = i + 1; j < intervals.size(); ++j) {
          const int64_t size_j = (intervals[j].size + 15) / 16 * 16;
          const bool same_time =
              intervals[i].first <= intervals[j].last && intervals[j].first <= intervals[i].last;
          const bool same_bytes =
              l->offsets[i] < l->offsets[j] + size_j && l->offsets[j] < l->offsets[i] + size_i;
          EXPECT_FALSE(same_time && same_bytes && size_i > 0 && size_j > 0)
              << "trial " << trial << ": buffers " << i << " and " << j << " ("
              << LayoutAlgorithmName(l->summary.algorithm) << ")";
        }
      }
    }
  }
}

}  // namespace
}  // namespace tigris::plan
