#include "plan/offset_layout.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "analysis/alignment.h"

namespace tigris::plan {
namespace {

bool Overlap(const Interval& a, const Interval& b) {
  return a.first <= b.last && b.first <= a.last;
}

}  // namespace

std::string_view LayoutAlgorithmName(LayoutAlgorithm algorithm) {
  switch (algorithm) {
    case LayoutAlgorithm::kFirstFit:
      return "first_fit";
    case LayoutAlgorithm::kGreedyBySize:
      return "greedy_by_size";
  }
  return "?";
}

Layout FirstFitLayout(const std::vector<Interval>& intervals) {
  Layout layout;
  layout.offsets = FirstFitOffsets(intervals, &layout.peak_bytes);
  layout.algorithm = LayoutAlgorithm::kFirstFit;
  return layout;
}

Layout GreedyBySizeLayout(const std::vector<Interval>& intervals) {
  std::vector<size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return analysis::AlignUp(intervals[a].size) > analysis::AlignUp(intervals[b].size);
  });
  Layout layout;
  layout.algorithm = LayoutAlgorithm::kGreedyBySize;
  layout.offsets.assign(intervals.size(), 0);
  std::vector<size_t> placed;
  std::vector<std::pair<int64_t, int64_t>> taken;  // [offset, end) of conflicting buffers
  for (size_t i : order) {
    const int64_t size = analysis::AlignUp(intervals[i].size);
    taken.clear();
    for (size_t p : placed) {
      const int64_t psize = analysis::AlignUp(intervals[p].size);
      if (psize > 0 && Overlap(intervals[i], intervals[p])) {
        taken.emplace_back(layout.offsets[p], layout.offsets[p] + psize);
      }
    }
    std::sort(taken.begin(), taken.end());
    // Best fit: the smallest gap below or between the taken ranges that holds it.
    int64_t best = -1, best_slack = 0, top = 0;
    for (const auto& [begin, end] : taken) {
      const int64_t gap = begin - top;
      if (gap >= size && (best < 0 || gap - size < best_slack)) {
        best = top;
        best_slack = gap - size;
      }
      top = std::max(top, end);
    }
    const int64_t offset = best >= 0 ? best : top;
    layout.offsets[i] = offset;
    layout.peak_bytes = std::max(layout.peak_bytes, offset + size);
    placed.push_back(i);
  }
  return layout;
}

Layout LayOut(const std::vector<Interval>& intervals) {
  Layout first_fit = FirstFitLayout(intervals);
  Layout by_size = GreedyBySizeLayout(intervals);
  Layout& best = by_size.peak_bytes < first_fit.peak_bytes ? by_size : first_fit;
  best.live_bound_bytes = LiveLowerBound(intervals);
  return std::move(best);
}

int64_t LiveLowerBound(const std::vector<Interval>& intervals) {
  std::map<int, int64_t> delta;  // step -> change in live bytes
  for (const Interval& i : intervals) {
    delta[i.first] += analysis::AlignUp(i.size);
    delta[i.last + 1] -= analysis::AlignUp(i.size);
  }
  int64_t live = 0, most = 0;
  for (const auto& [step, change] : delta) {
    live += change;
    most = std::max(most, live);
  }
  return most;
}

Layout LayOutBuffers(std::vector<Buffer>& buffers, MemoryRegion region) {
  std::vector<Interval> intervals;
  intervals.reserve(buffers.size());
  for (const Buffer& b : buffers) intervals.push_back({b.first_op, b.last_op, b.bytes});
  Layout layout = LayOut(intervals);
  for (size_t i = 0; i < buffers.size(); ++i) {
    buffers[i].home.region = region;
    buffers[i].home.offset = layout.offsets[i];
    buffers[i].home.size = analysis::AlignUp(buffers[i].bytes);
  }
  return layout;
}

}  // namespace tigris::plan
