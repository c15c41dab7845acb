// The runtime's activation layout and the permutations between it and the IR's ONNX order
// (tigris-compilation-pipeline.txt, stage 7 step 1: "layout transpose").
//
// The IR keeps ONNX order (NCHW, ir/shape.h); the runtime stores rank-4 tensors NHWC and
// rank-3 tensors NWC (Conv1D activations), lower ranks unchanged. With `perm` in numpy's
// transpose convention (output dim i = input dim perm[i]):
//
//   runtime = transpose(ir, L)         L = [0, 2, 3, 1] (rank 4), [0, 2, 1] (rank 3)
//   ir      = transpose(runtime, Linv) Linv = [0, 3, 1, 2] (rank 4), [0, 2, 1] (rank 3)
//
// A channel axis a of the IR sits at Linv[a] in the runtime layout.
#ifndef TIGRIS_EMIT_LAYOUT_H_
#define TIGRIS_EMIT_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "ir/shape.h"

namespace tigris::emit {

using Perm = std::vector<int64_t>;

Perm IdentityPerm(size_t rank);
// L for `rank` (identity below rank 3 and above rank 4); ir/shape.h, where the verifier
// reads it too.
using ir::RuntimeLayout;
Perm InversePerm(const Perm& perm);
// transpose(transpose(x, first), second) == transpose(x, Compose(first, second)):
// result[i] = first[second[i]].
Perm Compose(const Perm& first, const Perm& second);
bool IsIdentity(const Perm& perm);

// shape permuted: result[i] = shape[perm[i]].
ir::Shape PermuteShape(const ir::Shape& shape, const Perm& perm);
ir::Shape RuntimeShape(const ir::Shape& ir_shape);
// Position of IR axis `axis` (>= 0) in the runtime layout of a tensor of `rank`.
int64_t RuntimeAxis(int64_t axis, size_t rank);

// True when transpose(x, perm) keeps the bytes of x (ir/shape.h; normalization's
// unit-transpose-fold uses it too).
using ir::PermKeepsBytes;

// Transposes row-major elements of `elem_size` bytes: out = transpose(data, perm) where
// data has `shape`. data.size() must be NumElements(shape) * elem_size.
std::vector<uint8_t> TransposeBytes(const std::vector<uint8_t>& data, const ir::Shape& shape,
                                    const Perm& perm, size_t elem_size);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_LAYOUT_H_
