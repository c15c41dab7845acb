// Stage 1 of tigris-compilation-pipeline.txt: bytes -> ModelProto -> IR graph in DFS
// order with every shape resolved. Each step lives in its own file; this one only
// sequences them.
#include "onnx/onnx_loader.h"

#include <climits>
#include <filesystem>
#include <string>

#include "onnx/graph_import.h"
#include "onnx/input_shapes.h"
#include "onnx/shape_resolve.h"
#include "onnx/tensor_import.h"
#include "onnx/topo_order.h"
#include "onnx/wire_scan.h"
#include "util/error.h"
#include "util/file_io.h"

namespace tigris::onnx_import {
namespace {

ir::Graph Load(const uint8_t* data, size_t size, const LoadOptions& options,
               const std::string& fallback_name, const std::string& what,
               const ExternalDataSource& external) {
  ValidateOptions(options);
  ScanModelWireFormat(data, size, what.c_str());
  if (size > static_cast<size_t>(INT_MAX)) {
    throw Error(Status::kInvalidModel, what +
                                           ": model is larger than 2 GiB; protobuf cannot "
                                           "parse it (store the weights as external data)");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(data, static_cast<int>(size))) {
    throw Error(Status::kNotOnnx, what +
                                      ": not an ONNX model (its top level is well formed, "
                                      "but a nested message fails to parse)");
  }

  ImportedGraph imported = ImportGraph(model, fallback_name, options, external);
  ir::Graph& graph = imported.graph;
  CheckAcyclic(graph);
  SortOpsDfsReversedChildren(graph);

  // Our own shape rules run first, on a copy, so that only a graph they accept reaches
  // libonnx's shape inference: it crashes on some malformed nodes (a Conv with a rank-2
  // input: SIGSEGV in onnx::convPoolShapeInference, found by fuzz_onnx), which no try can
  // catch. Then they run again, cross-checked against libonnx and the declared shapes.
  {
    ir::Graph probe = graph;
    ResolveShapes(probe, {});
  }
  ShapeHints libonnx = InferWithLibOnnx(model, graph);
  ShapeHints declared = DeclaredShapes(model, imported.symbols);
  ResolveShapes(graph, {&libonnx, &declared});
  return std::move(graph);
}

}  // namespace

ir::Graph LoadOnnxFile(const std::string& path, const LoadOptions& options) {
  namespace fs = std::filesystem;
  std::string bytes;
  const std::string failed = ReadWholeFile(path, &bytes);
  if (!failed.empty()) {
    throw Error(Status::kIoError, "cannot read model file '" + path + "': " + failed);
  }

  ExternalDataSource external;
  external.dir = options.external_data_dir;
  if (external.dir.empty()) {
    fs::path parent = fs::path(path).parent_path();
    external.dir = parent.empty() ? "." : parent.string();
  }
  return Load(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), options,
              fs::path(path).stem().string(), path, external);
}

ir::Graph LoadOnnxBytes(const void* data, size_t size, const LoadOptions& options,
                        const std::string& name_hint) {
  if (data == nullptr && size != 0) {
    throw Error(Status::kInvalidArgument,
                "model bytes are NULL but size is " + std::to_string(size));
  }
  ExternalDataSource external;
  external.dir = options.external_data_dir;
  return Load(static_cast<const uint8_t*>(data), size, options, name_hint, name_hint, external);
}

}  // namespace tigris::onnx_import
