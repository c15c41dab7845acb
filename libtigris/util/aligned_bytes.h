// A heap block aligned to 16 bytes, as the C99 runtime needs its plan (TGRS_PLAN_ALIGNMENT:
// weights are read in place through aligned pointers) and its arenas
// (TGRS_ARENA_ALIGNMENT). One definition for the emitter, which seals plans with the
// runtime, and the C ABI, which reads and runs them.
#ifndef TIGRIS_UTIL_ALIGNED_BYTES_H_
#define TIGRIS_UTIL_ALIGNED_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tigris {

struct AlignedFree {
  void operator()(uint8_t* p) const;
};
using AlignedBytes = std::unique_ptr<uint8_t, AlignedFree>;
// `size` bytes (at least 1), uninitialised.
AlignedBytes AllocateAligned(size_t size);

}  // namespace tigris

#endif  // TIGRIS_UTIL_ALIGNED_BYTES_H_
