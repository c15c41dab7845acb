// Helpers shared by the loader tests.
#ifndef TIGRIS_TESTS_ONNX_LOADER_TEST_UTIL_H_
#define TIGRIS_TESTS_ONNX_LOADER_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/graph.h"
#include "onnx/onnx_loader.h"
#include "support/expect_error.h"
#include "support/onnx_builder.h"
#include "util/error.h"

namespace tigris::testing {

inline ir::Graph LoadBuilt(const OnnxModelBuilder& builder,
                           const onnx_import::LoadOptions& options = {}) {
  OnnxModelBuilder copy = builder;
  std::string bytes = copy.Bytes();
  return onnx_import::LoadOnnxBytes(bytes.data(), bytes.size(), options, "hint");
}

inline const ir::Tensor& TensorNamed(const ir::Graph& g, const std::string& name) {
  std::optional<ir::TensorId> id = g.FindTensor(name);
  if (!id) throw std::runtime_error("no tensor named " + name);
  return g.tensor(*id);
}

inline ir::Shape ShapeOf(const ir::Graph& g, const std::string& name) {
  return TensorNamed(g, name).shape;
}

inline const ir::Op& OpNamed(const ir::Graph& g, const std::string& name) {
  for (const ir::Op& op : g.ops) {
    if (op.name == name) return op;
  }
  throw std::runtime_error("no op named " + name);
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_ONNX_LOADER_TEST_UTIL_H_
