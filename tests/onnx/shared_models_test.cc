// Loads every real model in /work/shared/models/onnx (models/README.md) and checks the
// loader's contract on each: every tensor has a known dtype and a concrete shape, ops are
// in topological order, and the inputs/outputs match the README table (symbolic batch
// pinned to 1 by the default options).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "loader_test_util.h"
#include "onnx/shape_resolve.h"
#include "support/test_env.h"

namespace tigris::testing {
namespace {

struct Expected {
  ir::Shape input;
  ir::Shape output;
  size_t onnx_nodes;
};

// Input shapes from models/README.md; output shapes and node counts from the files'
// own declarations (onnx.load in Python), with cifar's symbolic batch pinned to 1.
const std::map<std::string, Expected>& Table() {
  static const std::map<std::string, Expected> table = {
      {"anomaly_fc_autoencoder", {{1, 640}, {1, 640}, 16}},
      {"cifar_mobilenet_relu6", {{1, 3, 32, 32}, {1, 10}, 110}},
      {"conv1d_small", {{1, 10, 4}, {1, 5}, 13}},
      {"conv2d_small_maxpool", {{1, 25, 25, 1}, {1, 5}, 13}},
      {"kws_small_cnn", {{1, 49, 10, 1}, {1, 12}, 22}},
      {"mnist8", {{1, 1, 28, 28}, {1, 10}, 12}},
      {"mobilenet_v2_035_144", {{1, 3, 144, 144}, {1, 1000}, 210}},
      {"mobilenet_v2_100_224", {{1, 3, 224, 224}, {1, 1000}, 209}},
      {"vww_mobilenetv1_025_96", {{1, 3, 96, 96}, {1, 2}, 59}},
      {"vww_small_cnn", {{1, 3, 96, 96}, {1, 2}, 58}},
  };
  return table;
}

TEST(SharedModels, AllLoadWithConcreteShapes) {
  std::vector<std::string> paths = SharedOnnxModels();
  ASSERT_EQ(paths.size(), Table().size()) << "models dir: " << ModelsDir();
  for (const std::string& path : paths) {
    std::string stem = std::filesystem::path(path).stem().string();
    SCOPED_TRACE(stem);
    auto it = Table().find(stem);
    ASSERT_NE(it, Table().end()) << "no expectations for " << stem;
    ir::Graph g;
    try {
      g = onnx_import::LoadOnnxFile(path, {});
    } catch (const Error& e) {
      ADD_FAILURE() << "status " << static_cast<int>(e.status()) << ": " << e.what();
      continue;
    }
    EXPECT_EQ(g.ops.size(), it->second.onnx_nodes);
    ASSERT_EQ(g.inputs.size(), 1u);
    ASSERT_EQ(g.outputs.size(), 1u);
    EXPECT_EQ(g.tensor(g.inputs[0]).shape, it->second.input);
    EXPECT_EQ(g.tensor(g.outputs[0]).shape, it->second.output);
    EXPECT_EQ(g.tensor(g.outputs[0]).dtype, ir::DType::kFloat32);

    std::vector<bool> ready(g.tensors.size(), false);
    for (ir::TensorId id : g.inputs) ready[static_cast<size_t>(id)] = true;
    for (size_t i = 0; i < g.tensors.size(); ++i) {
      const ir::Tensor& t = g.tensors[i];
      if (t.is_constant) ready[i] = true;
      EXPECT_NE(t.dtype, ir::DType::kUnknown) << t.name;
      for (int64_t d : t.shape) EXPECT_GE(d, 0) << t.name;
      if (t.is_constant) {
        EXPECT_EQ(t.data.size(), static_cast<size_t>(t.byte_size())) << t.name;
      }
    }
    for (const ir::Op& op : g.ops) {
      for (ir::TensorId in : op.inputs) {
        if (in == ir::kNoTensor) continue;
        EXPECT_TRUE(ready[static_cast<size_t>(in)])
            << op.name << " reads " << g.tensor(in).name << " before it is produced";
      }
      for (ir::TensorId out : op.outputs) {
        if (out != ir::kNoTensor) ready[static_cast<size_t>(out)] = true;
      }
    }
  }
}

TEST(SharedModels, LibOnnxAgreesOnEveryTensorItResolves) {
  // An independent check of our rules: libonnx's inference on the pinned model must
  // produce the same output shape, and every tensor it fully resolves must match ours.
  for (const std::string& path : SharedOnnxModels()) {
    SCOPED_TRACE(path);
    onnx::ModelProto model;
    std::string bytes = ReadFile(path);
    ASSERT_TRUE(model.ParseFromString(bytes));
    ir::Graph g = onnx_import::LoadOnnxFile(path, {});
    onnx_import::ShapeHints hints = onnx_import::InferWithLibOnnx(model, g);
    const ir::Tensor& out = g.tensor(g.outputs[0]);
    ASSERT_TRUE(hints.shapes.count(out.name)) << out.name;
    EXPECT_EQ(hints.shapes.at(out.name), out.shape);
    size_t compared = 0;
    for (const auto& [name, shape] : hints.shapes) {
      std::optional<ir::TensorId> id = g.FindTensor(name);
      if (!id) continue;
      EXPECT_EQ(shape, g.tensor(*id).shape) << name;
      ++compared;
    }
    EXPECT_GE(compared, g.ops.size() / 2);
  }
}

TEST(SharedModels, CifarBatchNeedsPinningWithoutDefault) {
  onnx_import::LoadOptions options;
  options.default_dim = 0;
  ExpectLoadError(
      [&] { onnx_import::LoadOnnxFile(SharedOnnxModel("cifar_mobilenet_relu6.onnx"), options); },
      Status::kDynamicShape, {"actual_input_1", "'batch'"});
  options.dims["batch"] = 4;
  ir::Graph g = onnx_import::LoadOnnxFile(SharedOnnxModel("cifar_mobilenet_relu6.onnx"), options);
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (ir::Shape{4, 10}));
}

TEST(SharedModels, KnownIntermediateShapes) {
  // mnist8 (CNTK): 28x28 -> Conv 5x5 SAME (8 ch) -> MaxPool 2/2 -> 14x14 -> Conv 5x5 SAME
  // (16 ch) -> MaxPool 3/3 -> floor((14 - 3) / 3) + 1 = 4 -> 16*4*4 = 256 features.
  ir::Graph g = onnx_import::LoadOnnxFile(SharedOnnxModel("mnist8.onnx"), {});
  EXPECT_EQ(ShapeOf(g, "Pooling66_Output_0"), (ir::Shape{1, 8, 14, 14}));
  EXPECT_EQ(ShapeOf(g, "Pooling160_Output_0"), (ir::Shape{1, 16, 4, 4}));
  EXPECT_EQ(ShapeOf(g, "Pooling160_Output_0_reshape0"), (ir::Shape{1, 256}));
}

}  // namespace
}  // namespace tigris::testing
