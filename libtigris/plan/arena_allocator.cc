#include "plan/arena_allocator.h"

#include <algorithm>

#include "analysis/alignment.h"

namespace tigris::plan {

int64_t FirstFitArena::Place(int first, int last, int64_t size) {
  // Buffers dead before `first` can never conflict again (births only move forward).
  live_.erase(std::remove_if(live_.begin(), live_.end(),
                             [first](const Placed& p) { return p.last < first; }),
              live_.end());
  std::sort(live_.begin(), live_.end(),
            [](const Placed& a, const Placed& b) { return a.offset < b.offset; });
  const int64_t aligned = analysis::AlignUp(size);
  int64_t offset = 0;
  for (const Placed& p : live_) {
    if (p.size == 0) continue;
    if (offset + aligned <= p.offset) break;  // fits in the gap below p
    offset = std::max(offset, p.offset + p.size);
  }
  live_.push_back({last, offset, aligned});
  peak_bytes_ = std::max(peak_bytes_, offset + aligned);
  return offset;
}

std::vector<int64_t> FirstFitOffsets(const std::vector<Interval>& intervals, int64_t* peak_bytes) {
  FirstFitArena arena;
  std::vector<int64_t> offsets;
  offsets.reserve(intervals.size());
  for (const Interval& i : intervals) offsets.push_back(arena.Place(i.first, i.last, i.size));
  if (peak_bytes) *peak_bytes = arena.peak_bytes();
  return offsets;
}

}  // namespace tigris::plan
