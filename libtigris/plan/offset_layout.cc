#include "plan/offset_layout.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <map>
#include <numeric>

#include "analysis/alignment.h"
#include "plan/exact_layout.h"

namespace tigris::plan {
namespace {

bool Overlap(const Interval& a, const Interval& b) {
  return a.first <= b.last && b.first <= a.last;
}

// SolveExactLayout, telling `progress` (when set) about a solve that runs past a second:
// a line when that second is up and one when it ends.
ExactLayoutResult SolveWithProgress(const std::vector<Interval>& intervals, const Layout& start,
                                    int64_t good_enough_bytes, double seconds,
                                    const std::function<void(const std::string&)>& progress) {
  auto solve = [&] {
    return SolveExactLayout(intervals, start.offsets, start.peak_bytes, good_enough_bytes, seconds);
  };
  if (!progress) return solve();
  std::future<ExactLayoutResult> running = std::async(std::launch::async, solve);
  if (running.wait_for(std::chrono::seconds(1)) == std::future_status::ready) return running.get();
  char line[200];
  std::snprintf(line, sizeof line,
                "exact layout of %zu buffers: greedy %lld bytes, live bound %lld; solving "
                "(time left %.1f s)",
                intervals.size(), static_cast<long long>(start.peak_bytes),
                static_cast<long long>(start.summary.live_bound_bytes), seconds);
  progress(line);
  ExactLayoutResult result = running.get();
  std::snprintf(line, sizeof line, "exact layout of %zu buffers: %lld bytes, %s %lld",
                intervals.size(), static_cast<long long>(result.peak_bytes),
                result.optimal ? "optimal, bound" : "proven bound",
                static_cast<long long>(result.lower_bound_bytes));
  progress(line);
  return result;
}

}  // namespace

std::string_view LayoutAlgorithmName(LayoutAlgorithm algorithm) {
  switch (algorithm) {
    case LayoutAlgorithm::kFirstFit:
      return "first_fit";
    case LayoutAlgorithm::kGreedyBySize:
      return "greedy_by_size";
    case LayoutAlgorithm::kExact:
      return "exact";
  }
  return "?";
}

std::string_view LayoutModeName(LayoutMode mode) {
  return mode == LayoutMode::kExact ? "exact" : "greedy";
}

Layout FirstFitLayout(const std::vector<Interval>& intervals) {
  Layout layout;
  layout.offsets = FirstFitOffsets(intervals, &layout.peak_bytes);
  layout.summary.algorithm = LayoutAlgorithm::kFirstFit;
  return layout;
}

Layout GreedyBySizeLayout(const std::vector<Interval>& intervals) {
  std::vector<size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return analysis::AlignUp(intervals[a].size) > analysis::AlignUp(intervals[b].size);
  });
  Layout layout;
  layout.summary.algorithm = LayoutAlgorithm::kGreedyBySize;
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

Layout LayOut(const std::vector<Interval>& intervals, const LayoutOptions& options,
              int64_t good_enough_bytes) {
  Layout first_fit = FirstFitLayout(intervals);
  Layout by_size = GreedyBySizeLayout(intervals);
  Layout best = std::move(by_size.peak_bytes < first_fit.peak_bytes ? by_size : first_fit);
  LayoutSummary& summary = best.summary;
  summary.live_bound_bytes = summary.lower_bound_bytes = LiveLowerBound(intervals);
  // A good-enough peak below the live bound cannot be reached: no solve is worth it then.
  const bool worth_solving =
      options.mode == LayoutMode::kExact &&
      best.peak_bytes > std::max(summary.live_bound_bytes, good_enough_bytes) &&
      (good_enough_bytes <= 0 || summary.live_bound_bytes <= good_enough_bytes);
  const std::chrono::duration<double> left = options.deadline - std::chrono::steady_clock::now();
  if (worth_solving && left.count() > 0) {
    ExactLayoutResult exact =
        SolveWithProgress(intervals, best, good_enough_bytes, left.count(), options.progress);
    summary.lower_bound_bytes = exact.lower_bound_bytes;
    if (exact.peak_bytes < best.peak_bytes) {
      best.offsets = std::move(exact.offsets);
      best.peak_bytes = exact.peak_bytes;
      summary.algorithm = LayoutAlgorithm::kExact;
    }
  }
  summary.optimal = best.peak_bytes == summary.lower_bound_bytes;
  return best;
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

Layout LayOutBuffers(std::vector<Buffer>& buffers, MemoryRegion region,
                     const LayoutOptions& options, int64_t good_enough_bytes) {
  std::vector<Interval> intervals;
  std::vector<size_t> where;
  intervals.reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    if (b.home.region == MemoryRegion::kPinned) continue;  // not in this arena
    intervals.push_back({b.first_op, b.last_op, b.bytes});
    where.push_back(i);
  }
  Layout layout = LayOut(intervals, options, good_enough_bytes);
  for (size_t k = 0; k < where.size(); ++k) {
    Buffer& b = buffers[where[k]];
    b.home.region = region;
    b.home.offset = layout.offsets[k];
    b.home.size = analysis::AlignUp(b.bytes);
  }
  return layout;
}

}  // namespace tigris::plan
