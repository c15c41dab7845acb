#include "emit/layout.h"

#include <cstring>

namespace tigris::emit {

Perm IdentityPerm(size_t rank) {
  Perm p(rank);
  for (size_t i = 0; i < rank; ++i) p[i] = static_cast<int64_t>(i);
  return p;
}

Perm InversePerm(const Perm& perm) {
  Perm inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

Perm Compose(const Perm& first, const Perm& second) {
  Perm out(second.size());
  for (size_t i = 0; i < second.size(); ++i) out[i] = first[static_cast<size_t>(second[i])];
  return out;
}

bool IsIdentity(const Perm& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

ir::Shape PermuteShape(const ir::Shape& shape, const Perm& perm) {
  ir::Shape out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = shape[static_cast<size_t>(perm[i])];
  return out;
}

ir::Shape RuntimeShape(const ir::Shape& ir_shape) {
  return PermuteShape(ir_shape, RuntimeLayout(ir_shape.size()));
}

int64_t RuntimeAxis(int64_t axis, size_t rank) {
  return InversePerm(RuntimeLayout(rank))[static_cast<size_t>(axis)];
}

std::vector<uint8_t> TransposeBytes(const std::vector<uint8_t>& data, const ir::Shape& shape,
                                    const Perm& perm, size_t elem_size) {
  const size_t rank = shape.size();
  const ir::Shape out_shape = PermuteShape(shape, perm);
  // Strides of the source, reordered so that walking the output row-major visits
  // source offsets through in_strides_by_out[k] for output dim k.
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * shape[i];
  std::vector<int64_t> step(rank);
  for (size_t k = 0; k < rank; ++k) step[k] = in_strides[static_cast<size_t>(perm[k])];

  std::vector<uint8_t> out(data.size());
  const int64_t count = ir::NumElements(out_shape);
  std::vector<int64_t> index(rank, 0);
  int64_t src = 0;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(out.data() + static_cast<size_t>(n) * elem_size,
                data.data() + static_cast<size_t>(src) * elem_size, elem_size);
    for (size_t k = rank; k-- > 0;) {  // odometer increment over the output index
      ++index[k];
      src += step[k];
      if (index[k] < out_shape[k]) break;
      src -= step[k] * index[k];
      index[k] = 0;
    }
  }
  return out;
}

}  // namespace tigris::emit
