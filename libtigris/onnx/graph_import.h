// Builds the IR graph from a parsed ModelProto: constants from initializers, pinned graph
// inputs, one op per node (names made unique, attributes converted, opset forms
// canonicalized, Constant values materialized), graph outputs. Shapes of op outputs are
// left unresolved (dtype kUnknown) and ops stay in ONNX order: topo_order.h and
// shape_resolve.h finish the job.
#ifndef TIGRIS_ONNX_GRAPH_IMPORT_H_
#define TIGRIS_ONNX_GRAPH_IMPORT_H_

#include <onnx/onnx_pb.h>

#include <map>
#include <string>

#include "ir/graph.h"
#include "onnx/onnx_loader.h"
#include "onnx/tensor_import.h"

namespace tigris::onnx_import {

struct ImportedGraph {
  ir::Graph graph;
  // Every symbolic dim name -> the value it was pinned to (for cross-checking declared
  // shapes that use the same symbols).
  std::map<std::string, int64_t> symbols;
};

// Throws kInvalidModel (no graph nodes, no default-domain opset, duplicate producers or
// names), kUnsupportedOp, kDanglingInput, kInvalidArgument (an input_shapes key that names
// no graph input), kDynamicShape, kUnsupportedDType and kExternalData.
ImportedGraph ImportGraph(const onnx::ModelProto& model, const std::string& fallback_name,
                          const LoadOptions& options, const ExternalDataSource& external);

// The model's default-domain ("" or "ai.onnx") opset; kInvalidModel when none is declared.
int64_t DefaultDomainOpset(const onnx::ModelProto& model);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_GRAPH_IMPORT_H_
