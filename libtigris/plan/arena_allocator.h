// The offset allocator of every arena layout: greedy first-fit in order of birth.
//
// Buffers are placed one by one in the order given (the planner gives them in order of
// first use, then inputs before outputs before scratch of the same op). Each goes to the
// lowest aligned offset where it overlaps, in address, no earlier-placed buffer whose
// [first, last] interval intersects its own; gaps left by freed buffers are reused. Like
// TFLM's greedy planner it is simple and not optimal: the live-bytes sum of the memory
// timeline is the lower bound it approaches.
//
// Because buffers come in order of birth, a buffer's placement depends only on the
// buffers live at its birth step. FirstFitArena exploits this to place incrementally:
// the temporal partitioner adds an op at a time without re-laying out the stage.
#ifndef TIGRIS_PLAN_ARENA_ALLOCATOR_H_
#define TIGRIS_PLAN_ARENA_ALLOCATOR_H_

#include <cstdint>
#include <vector>

namespace tigris::plan {

class FirstFitArena {
 public:
  // Places a buffer of `size` bytes (rounded up to the alignment) live from `first` to
  // `last` (inclusive). `first` must not decrease from call to call. Returns its offset.
  int64_t Place(int first, int last, int64_t size);
  // Highest offset + aligned size placed so far.
  int64_t peak_bytes() const { return peak_bytes_; }

 private:
  struct Placed {
    int last;
    int64_t offset;
    int64_t size;
  };
  std::vector<Placed> live_;  // placed buffers not yet known dead
  int64_t peak_bytes_ = 0;
};

struct Interval {
  int first = 0;
  int last = 0;
  int64_t size = 0;
};

// Offsets of `intervals` placed in their given order (which must be by first).
std::vector<int64_t> FirstFitOffsets(const std::vector<Interval>& intervals, int64_t* peak_bytes);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_ARENA_ALLOCATOR_H_
