// Gives every tensor of the loaded graph a dtype and a concrete shape
// (tigris-compilation-pipeline.txt, stage 1: "Runs ONNX shape inference to resolve all
// tensor dimensions").
//
// Our own rules (shape_rules.h) run over the ops in execution order and are
// authoritative. Two independent sources only cross-check them:
//  - libonnx's shape inference, run on a copy of the model with the graph inputs pinned;
//    skipped for opsets newer than the libonnx we link knows (its older schemas would
//    give wrong answers), and ignored for pools with ceil_mode (see shape_rules_conv.cc);
//  - shapes the model itself declares (value_info, graph outputs), symbolic dims pinned
//    like the inputs' and dims that stay unknown ignored.
// A disagreement on a concrete dimension is kShapeInference naming the tensor and both
// shapes; an op whose output cannot be resolved is kShapeInference naming the node.
#ifndef TIGRIS_ONNX_SHAPE_RESOLVE_H_
#define TIGRIS_ONNX_SHAPE_RESOLVE_H_

#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"

namespace tigris::onnx_import {

// Tensor name -> shape, -1 for an unknown dim.
struct ShapeHints {
  std::string source;  // "ONNX shape inference", "the model's value_info"
  std::unordered_map<std::string, std::vector<int64_t>> shapes;
};

// libonnx shape inference on a copy of `model` whose graph inputs take the pinned shapes
// of `graph`. Never throws: any failure just yields fewer hints.
ShapeHints InferWithLibOnnx(const onnx::ModelProto& model, const ir::Graph& graph);

// Shapes declared in value_info and graph outputs, symbolic dims taken from `symbols`.
ShapeHints DeclaredShapes(const onnx::ModelProto& model,
                          const std::map<std::string, int64_t>& symbols);

// Runs the shape rules over graph.ops (which must be in topological order).
void ResolveShapes(ir::Graph& graph, const std::vector<const ShapeHints*>& cross_checks);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_SHAPE_RESOLVE_H_
