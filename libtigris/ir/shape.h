// Tensor shapes. After loading every dimension is a concrete non-negative extent: the
// loader pins symbolic dimensions or fails, so no later phase handles unknowns.
// Activations keep ONNX's NCHW order in the IR; only emission writes NHWC.
#ifndef TIGRIS_IR_SHAPE_H_
#define TIGRIS_IR_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tigris::ir {

using Shape = std::vector<int64_t>;

// Product of the extents (1 for a scalar). Saturates at INT64_MAX instead of overflowing.
int64_t NumElements(const Shape& shape);
// "1x3x96x96"; "scalar" for rank 0.
std::string ShapeToString(const Shape& shape);

// True when transpose(x, perm) keeps the bytes of x for this shape: the dims of extent
// > 1 stay in the same relative order (e.g. NCHW -> NHWC of [1, C, 1, 1]). `perm` is a
// permutation of shape's axes.
bool PermKeepsBytes(const Shape& shape, const std::vector<int64_t>& perm);

// The runtime's activation layout as a permutation of the IR's ONNX-order axes (numpy's
// transpose convention): NCHW -> NHWC [0, 2, 3, 1] for rank 4, NCW -> NWC [0, 2, 1] for
// rank 3, the identity otherwise (emit/layout.h builds the emitter's permutations on it).
std::vector<int64_t> RuntimeLayout(size_t rank);

// True when a Reshape from `in` to `out` (same element count) keeps the runtime's bytes:
// every element sits at the same offset in the runtime layout of both shapes, so the
// runtime copies bytes ([N, C, L] held NWC and [N, C, 1, L] held NHWC are the same bytes;
// [N, C, H, W] -> [N, C*H*W] is not). Exact: walks both layouts once, O(elements).
bool ReshapeKeepsRuntimeBytes(const Shape& in, const Shape& out);

// The most elements one tensor may have, 2^32: far beyond any memory TiGrIS plans for,
// and small enough that every product of extents (and times a dtype size) fits int64.
constexpr int64_t kMaxTensorElements = int64_t{1} << 32;
// True when no extent is negative and the product of the non-zero extents is at most
// kMaxTensorElements, so that no partial product of the shape overflows either. The loader
// checks every shape it stores (declared inputs, initializers, shape rules' outputs); a
// crafted model declared 2^50 x 2^60 and overflowed the shape arithmetic (found by fuzz_onnx).
bool WithinTensorLimits(const Shape& shape);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_SHAPE_H_
