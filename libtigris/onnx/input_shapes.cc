#include "onnx/input_shapes.h"

#include "util/error.h"

namespace tigris::onnx_import {

void ValidateOptions(const LoadOptions& options) {
  if (options.default_dim < 0) {
    throw Error(Status::kInvalidArgument,
                "default_dim must be >= 0 (0 = symbolic dims are an error), got " +
                    std::to_string(options.default_dim));
  }
  for (const auto& [name, value] : options.dims) {
    if (value <= 0) {
      throw Error(Status::kInvalidArgument,
                  "dims['" + name + "'] must be > 0, got " + std::to_string(value));
    }
  }
  for (const auto& [name, shape] : options.input_shapes) {
    for (int64_t d : shape) {
      if (d < 0) {
        throw Error(Status::kInvalidArgument, "input_shapes['" + name +
                                                  "'] = " + ir::ShapeToString(shape) +
                                                  " has a negative extent");
      }
    }
  }
}

ir::Shape PinnedInputShape(const onnx::ValueInfoProto& input, const LoadOptions& options,
                           std::map<std::string, int64_t>& symbols) {
  auto checked = [&](ir::Shape shape) {
    if (!ir::WithinTensorLimits(shape)) {
      throw Error(Status::kInvalidModel, "input '" + input.name() + "' would be " +
                                             ir::ShapeToString(shape) +
                                             ", more than 2^32 elements");
    }
    return shape;
  };
  auto override_it = options.input_shapes.find(input.name());
  if (override_it != options.input_shapes.end()) return checked(override_it->second);

  const std::string hint =
      "; pin it with the dims or default_dim options, or give the "
      "whole shape with input_shapes";
  if (!input.type().has_tensor_type() || !input.type().tensor_type().has_shape()) {
    throw Error(Status::kDynamicShape, "input '" + input.name() + "' declares no shape" + hint);
  }
  ir::Shape shape;
  const auto& dims = input.type().tensor_type().shape().dim();
  for (int i = 0; i < dims.size(); ++i) {
    const auto& dim = dims.Get(i);
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0) {
        throw Error(Status::kInvalidModel, "input '" + input.name() + "' dimension " +
                                               std::to_string(i) + " is negative (" +
                                               std::to_string(dim.dim_value()) + ")");
      }
      shape.push_back(dim.dim_value());
      continue;
    }
    const std::string& param = dim.dim_param();
    auto pinned = param.empty() ? options.dims.end() : options.dims.find(param);
    int64_t value = 0;
    if (pinned != options.dims.end()) {
      value = pinned->second;
    } else if (options.default_dim > 0) {
      value = options.default_dim;
    } else {
      std::string what = param.empty() ? " is unknown" : " ('" + param + "') is symbolic";
      throw Error(Status::kDynamicShape,
                  "input '" + input.name() + "' dimension " + std::to_string(i) + what + hint);
    }
    if (!param.empty()) symbols.emplace(param, value);
    shape.push_back(value);
  }
  return checked(std::move(shape));
}

std::optional<std::vector<int64_t>> DeclaredShape(const onnx::ValueInfoProto& value,
                                                  const std::map<std::string, int64_t>& symbols) {
  if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape()) {
    return std::nullopt;
  }
  std::vector<int64_t> shape;
  for (const auto& dim : value.type().tensor_type().shape().dim()) {
    if (dim.has_dim_value()) {
      shape.push_back(dim.dim_value());
    } else {
      auto it = dim.dim_param().empty() ? symbols.end() : symbols.find(dim.dim_param());
      shape.push_back(it == symbols.end() ? -1 : it->second);
    }
  }
  return shape;
}

}  // namespace tigris::onnx_import
