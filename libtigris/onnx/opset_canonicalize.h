// Rewrites opset-dependent operator forms into the newest ONNX form, so that passes and
// shape rules handle exactly one form per op. Older opsets pass some operands as
// attributes; the newest ones take them as (constant) inputs:
//
//   op          opsets   attribute(s)             becomes input(s)
//   Clip        < 11     min, max (float)         1 = min, 2 = max (float32 scalars)
//   Pad         < 11     pads (paddings in Pad-1) 1 = pads (int64 [2*rank])
//                        value (float)            2 = constant_value (float32 scalar)
//   Squeeze     < 13     axes                     1 = axes (int64 [k])
//   Unsqueeze   < 13     axes                     1 = axes (int64 [k])
//   ReduceMean  < 18     axes                     1 = axes (int64 [k])
//   Slice       < 10     starts, ends, axes       1 = starts, 2 = ends, 3 = axes (int64)
//   Reshape     < 5      shape                    1 = shape (int64 [k])
//   Resize      10       inputs (X, scales)       (X, roi absent, scales, sizes absent)
//   ArgMax/Min  all      axis (int, default 0)    1 = axes (int64 [1]): the REDUCE form
//
// The attribute is erased once moved; an attribute that is absent leaves the input absent
// (kNoTensor), exactly as an omitted optional input of the newest opset. Upsample keeps
// its own type and form (the scales attribute of opsets 7-8 or the scales input of 9):
// a pass converts it. Split is not in the IR vocabulary (ir/op_type.h), so its `split`
// attribute (< 13) has nothing to be rewritten into yet.
#ifndef TIGRIS_ONNX_OPSET_CANONICALIZE_H_
#define TIGRIS_ONNX_OPSET_CANONICALIZE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/op.h"

namespace tigris::onnx_import {

// Adds a constant to the graph under construction (name made unique) and returns its id.
using ConstantMaker = std::function<ir::TensorId(const std::string& base_name, ir::DType dtype,
                                                 ir::Shape shape, std::vector<uint8_t> data)>;

// `opset` is the model's default-domain opset.
void CanonicalizeOpsetForm(ir::Op& op, int64_t opset, const ConstantMaker& make_constant);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_OPSET_CANONICALIZE_H_
