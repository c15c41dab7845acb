// Where a buffer lives: a (region, offset, size) home, the contract DESIGN.md asks for
// from day one.
#ifndef TIGRIS_PLAN_BUFFER_H_
#define TIGRIS_PLAN_BUFFER_H_

#include <cstdint>
#include <string_view>

#include "ir/tensor.h"

namespace tigris::plan {

// kPinned: whole tensors placement rules put in a memory of their own (plan/pinning.h).
// Numbered as the plan format's MemoryRegion (format/tgrs.fbs; the emitter static_asserts
// it), where FLASH, HOST, STATE and CONSTANTS hold no planned buffer.
enum class MemoryRegion : uint8_t { kFast = 0, kSlow = 1, kPinned = 6 };
std::string_view MemoryRegionName(MemoryRegion region);  // "fast", "slow", "pinned"

struct BufferHome {
  MemoryRegion region = MemoryRegion::kFast;
  int64_t offset = 0;  // multiple of kArenaAlignment
  int64_t size = 0;    // payload rounded up to kArenaAlignment
};

enum class BufferKind : uint8_t {
  kTensor = 0,  // a whole activation (normal stages)
  kRowStrip,    // the rows of an activation one tile needs (tiled and chain stages)
  kScratch,     // an op's kernel scratch (analysis/kernel_scratch.h)
};
std::string_view BufferKindName(BufferKind kind);  // "tensor", "row_strip", "scratch"

// One buffer of an arena layout, live at every op index in [first_op, last_op].
struct Buffer {
  BufferKind kind = BufferKind::kTensor;
  ir::TensorId tensor = ir::kNoTensor;  // kNoTensor for scratch
  int op = -1;                          // scratch: the op that uses it
  int first_op = 0;
  int last_op = 0;
  int64_t bytes = 0;  // payload (unaligned); for a row strip, its largest tile
  BufferHome home;
};

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_BUFFER_H_
