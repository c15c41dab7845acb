// ONNX Slice (opset 10+ form: starts, ends, optional axes and steps) resolved against a
// static input shape, once, for the three places that need it: the shape rule
// (onnx/shape_rules_shape_ops.cc), the constant fold (passes/constant_expression_fold.cc)
// and the emitter (emit/op_attrs.cc), which hands the runtime first index and step per axis.
#ifndef TIGRIS_IR_SLICE_H_
#define TIGRIS_IR_SLICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "ir/shape.h"

namespace tigris::ir {

// Per axis of the input: output element k along the axis reads input index
// first[axis] + k * step[axis], for k in [0, extent[axis]). Axes the Slice does not name
// keep first 0, step 1 and their whole extent.
struct SliceWindow {
  std::vector<int64_t> first;
  std::vector<int64_t> step;
  std::vector<int64_t> extent;
};

// Resolves a Slice with ONNX's rules: negative starts/ends count from the end; then, for a
// positive step, both clamp to [0, dim]; for a negative one starts clamp to [0, dim - 1]
// and ends to [-1, dim - 1]. `axes` empty means 0, 1, ...; `steps` empty means all 1.
// Returns an empty string, or what is wrong (lengths differ, an axis out of range or
// repeated, a step of 0) for the caller to report with its location.
std::string ResolveSlice(const Shape& in, const std::vector<int64_t>& starts,
                         const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                         std::vector<int64_t> steps, SliceWindow* out);

// Pad, the inverse window: ONNX's pads [b_0, b_1, ..., e_0, e_1, ...] for the axes named
// (Pad-18's `axes` input, negative counting from the end; empty means 0, 1, ...) as pads for
// every axis of a rank-`rank` input, 0 on axes not named. Returns an empty string, or what
// is wrong (a length, an axis out of range or repeated). The verifier
// (passes/runtime_forms.cc) and the emitter (emit/op_attrs.cc) read Pad through it.
std::string ResolvePads(size_t rank, const std::vector<int64_t>& pads, std::vector<int64_t> axes,
                        std::vector<int64_t>* out);

}  // namespace tigris::ir

#endif  // TIGRIS_IR_SLICE_H_
