#include "util/aligned_bytes.h"

#include <new>

namespace tigris {

void AlignedFree::operator()(uint8_t* p) const { ::operator delete(p, std::align_val_t(16)); }

AlignedBytes AllocateAligned(size_t size) {
  return AlignedBytes(static_cast<uint8_t*>(::operator new(size ? size : 1, std::align_val_t(16))));
}

}  // namespace tigris
