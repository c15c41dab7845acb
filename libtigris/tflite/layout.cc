#include "tflite/layout.h"

#include <cstring>
#include <numeric>

namespace tigris::tflite_import {

std::vector<int64_t> IrFromTflPerm(size_t rank) {
  if (rank == 4) return {0, 3, 1, 2};
  std::vector<int64_t> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  return perm;
}

std::vector<int64_t> TflFromIrPerm(size_t rank) {
  if (rank == 4) return {0, 2, 3, 1};
  return IrFromTflPerm(rank);
}

int64_t IrAxis(int64_t tfl_axis, size_t rank) {
  const auto r = static_cast<int64_t>(rank);
  if (tfl_axis < 0) tfl_axis += r;
  if (tfl_axis < 0 || tfl_axis >= r) return -1;
  return TflFromIrPerm(rank)[static_cast<size_t>(tfl_axis)];
}

std::vector<int64_t> PermuteShape(const std::vector<int64_t>& shape,
                                  const std::vector<int64_t>& perm) {
  std::vector<int64_t> out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = shape[static_cast<size_t>(perm[i])];
  return out;
}

std::vector<uint8_t> PermuteBytes(const std::vector<uint8_t>& data,
                                  const std::vector<int64_t>& shape,
                                  const std::vector<int64_t>& perm, size_t elem_size) {
  const size_t rank = shape.size();
  std::vector<int64_t> in_strides(rank, 1);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * shape[i];
  const std::vector<int64_t> out_shape = PermuteShape(shape, perm);
  // Walk the output in row-major order; each output axis steps the input by the stride of
  // the input axis it came from.
  std::vector<int64_t> step(rank);
  for (size_t i = 0; i < rank; ++i) step[i] = in_strides[static_cast<size_t>(perm[i])];
  std::vector<uint8_t> out(data.size());
  std::vector<int64_t> index(rank, 0);
  int64_t src = 0;
  const size_t count = elem_size == 0 ? 0 : data.size() / elem_size;
  for (size_t n = 0; n < count; ++n) {
    std::memcpy(&out[n * elem_size], &data[static_cast<size_t>(src) * elem_size], elem_size);
    for (size_t a = rank; a-- > 0;) {
      src += step[a];
      if (++index[a] < out_shape[a]) break;
      src -= step[a] * out_shape[a];
      index[a] = 0;
    }
  }
  return out;
}

}  // namespace tigris::tflite_import
