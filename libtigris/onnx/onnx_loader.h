// ONNX -> IR (tigris-compilation-pipeline.txt, stage 1: model loading).
//
// Parses the ModelProto, pins symbolic dimensions, resolves every tensor shape (libonnx's
// shape inference first, then our own rules for the supported ops, which also cover
// opsets newer than the libonnx we link), turns initializers into constants, and orders
// the ops by DFS post-order with reversed child order. Constant nodes are kept as ops:
// the first normalization pass folds them.
//
// Every defect throws tigris::Error with its own status and a message naming the node,
// tensor or field; nothing here aborts on bad input.
#ifndef TIGRIS_ONNX_ONNX_LOADER_H_
#define TIGRIS_ONNX_ONNX_LOADER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "ir/graph.h"

namespace tigris::onnx_import {

struct LoadOptions {
  // Value for symbolic dimensions not named in `dims`; 0 = unpinned dims are an error.
  int64_t default_dim = 1;
  std::map<std::string, int64_t> dims;          // symbolic dim name -> value
  std::map<std::string, ir::Shape> input_shapes;  // graph input name -> full shape
  // Where external-data files live; empty = next to the model file (none from memory).
  std::string external_data_dir;
};

// Loads a model file. The model's name is the graph name, else the file's stem.
ir::Graph LoadOnnxFile(const std::string& path, const LoadOptions& options);
// Loads from bytes in memory (copied). `name_hint` names the model in messages when the
// graph has no name.
ir::Graph LoadOnnxBytes(const void* data, size_t size, const LoadOptions& options,
                        const std::string& name_hint = "model");

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_ONNX_LOADER_H_
