// Concrete shapes for graph inputs (symbolic dimensions pinned) and declared shapes of
// other tensors, read for cross-checking only.
#ifndef TIGRIS_ONNX_INPUT_SHAPES_H_
#define TIGRIS_ONNX_INPUT_SHAPES_H_

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "onnx/onnx_loader.h"

namespace tigris::onnx_import {

// Throws kInvalidArgument for a negative default_dim or a non-positive value in `dims` /
// negative extent in `input_shapes`, naming the option entry.
void ValidateOptions(const LoadOptions& options);

// The shape of graph input `input`: options.input_shapes[name] when given (any rank: it is
// an override), else the declared dims with each symbolic or unknown dim pinned by
// options.dims[dim_param], else options.default_dim (> 0). Throws kDynamicShape naming the
// input and the dim when neither applies or the input declares no shape at all.
// `symbols` collects every dim_param -> pinned value (for DeclaredShape).
ir::Shape PinnedInputShape(const onnx::ValueInfoProto& input, const LoadOptions& options,
                           std::map<std::string, int64_t>& symbols);

// A declared shape (value_info, graph outputs) with symbolic dims replaced from `symbols`
// and -1 for dims that stay unknown; nullopt when no shape is declared.
std::optional<std::vector<int64_t>> DeclaredShape(const onnx::ValueInfoProto& value,
                                                  const std::map<std::string, int64_t>& symbols);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_INPUT_SHAPES_H_
