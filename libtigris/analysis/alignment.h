// Arena alignment shared by the planner and the runtime.
//
// Every buffer in a fast or slow arena starts at a multiple of kArenaAlignment and
// occupies its byte size rounded up to that multiple (docs/memory-model.md). 16 bytes is
// the widest vector load of the targets (Cortex-M55 Helium, ESP32-S3 PIE), and it is the
// alignment the plan format already uses for weight blobs.
#ifndef TIGRIS_ANALYSIS_ALIGNMENT_H_
#define TIGRIS_ANALYSIS_ALIGNMENT_H_

#include <cstdint>

namespace tigris::analysis {

inline constexpr int64_t kArenaAlignment = 16;

// Smallest multiple of kArenaAlignment that is >= bytes (bytes >= 0).
constexpr int64_t AlignUp(int64_t bytes) {
  return (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
}

}  // namespace tigris::analysis

#endif  // TIGRIS_ANALYSIS_ALIGNMENT_H_
