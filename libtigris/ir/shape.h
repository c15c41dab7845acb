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

}  // namespace tigris::ir

#endif  // TIGRIS_IR_SHAPE_H_
