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
//
// ---- What the loaded graph looks like (the contract passes rely on) ----------------------
//
// Order: ops are a topological order built by DFS post-order with reversed child order
// (topo_order.h has the exact definition and a worked example).
//
// Shapes: every tensor has a known dtype and a concrete shape. Our rules
// (shape_rules.h) are authoritative; libonnx's inference and the model's declared
// value_info/output shapes only cross-check them (shape_resolve.h).
//
// Names: ONNX node names are kept; empty or repeated ones become "<OpType>_<index>"
// (index in the ONNX node list). graph.name is the ONNX graph name, else the file stem
// (LoadOnnxFile) or `name_hint` (LoadOnnxBytes). graph.opset is the default-domain opset.
// graph.inputs lists the graph inputs that are not initializers.
//
// Constant nodes (for constant-op-fold): a Constant op has NO inputs, NO attributes and
// exactly one output tensor. The loader has already stored the value in that output
// tensor: dtype, shape and `data` are filled, but `is_constant` is false. The value
// attribute may have been `value` (a tensor), `value_float(s)` (float32) or
// `value_int(s)` (int64). Folding it is: set the output's is_constant = true and erase the
// op. (Tensor ids change on Compact(), so no id is stored anywhere.)
//
// ConstantOfShape: its fill value is input 1, a one-element constant tensor whose dtype
// is the output dtype (float32 0 when the ONNX node had no `value` attribute).
//
// Opset canonicalization: operands that old opsets pass as attributes arrive as constant
// inputs, in the newest ONNX form (table in opset_canonicalize.h): Clip min/max (< 11),
// Pad pads/value (< 11), Squeeze/Unsqueeze axes (< 13), ReduceMean axes (< 18), Slice
// starts/ends/axes (< 10), Reshape shape (< 5), and Resize-10's (X, scales) becomes
// (X, absent roi, scales). New constants get unique names ("<node>_<attribute>").
// Upsample keeps its type and form. Split is not in ir/op_type.h, so it is rejected as
// unsupported.
//
// ---- Errors, by status ---------------------------------------------------------------
//
//   kIoError          the file cannot be read (message names the path)
//   kEmptyModel       zero bytes
//   kNotOnnx          not a ModelProto: bad wire type, field number 0, a known field
//                     with the wrong wire type, a nested parse failure, or well-formed
//                     protobuf without a graph field (wire_scan.h)
//   kTruncatedModel   a top-level field or varint runs past the end of the bytes
//   kInvalidModel     a ModelProto that breaks ONNX rules: a graph without nodes or
//                     outputs, no default-domain opset, duplicate producers or names,
//                     initializer bytes that do not match its shape
//   kUnsupportedOp    an op outside ir/op_type.h or outside the default domain:
//                     "unsupported op 'LSTM' at node 'lstm_1' in model 'foo'"
//   kDanglingInput    a node input (or graph output) nothing produces
//   kGraphCycle       a cycle (names one node on it)
//   kDynamicShape     a symbolic/unknown input dimension that no option pins
//   kShapeInference   an output shape that cannot be resolved (names the node), or a
//                     disagreement with libonnx or a declared shape (names the tensor and
//                     both shapes)
//   kExternalData     external data missing, short or unreadable (names tensor and path)
//   kUnsupportedDType an element type the IR lacks (strings, complex, bfloat16, ...)
//   kInvalidArgument  bad options, e.g. an input_shapes key that is not a graph input
#ifndef TIGRIS_ONNX_ONNX_LOADER_H_
#define TIGRIS_ONNX_ONNX_LOADER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "ir/graph.h"

namespace tigris::onnx_import {

struct LoadOptions {
  // Value for symbolic dimensions not named in `dims`; 0 = unpinned dims are an error
  // (kDynamicShape naming the input and the dimension).
  int64_t default_dim = 1;
  std::map<std::string, int64_t> dims;  // symbolic dim name -> value
  // Graph input name -> its whole shape, replacing the declared one (any rank: it is an
  // override). A name that is not a graph input is kInvalidArgument.
  std::map<std::string, ir::Shape> input_shapes;
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
