// qdq-fold on every int8 QDQ model tests/models/make_qdq_models.py generates from the
// shared float models (onnxruntime quantize_static, per-channel int8 weights). The
// expected scales are read from the same ONNX files through the onnx protobuf API, not
// through the loader or the pass under test.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "support/test_env.h"

namespace tigris::passes {
namespace {

std::vector<std::string> GeneratedQdqModels() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(testing::GeneratedModelsDir(), ec)) {
    std::string name = e.path().filename().string();
    auto ends_with = [&](const std::string& suffix) {
      return name.size() > suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with(".int8.onnx") || ends_with(".uint8.onnx")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<float> FloatsOf(const onnx::TensorProto& t) {
  if (t.float_data_size() > 0) return {t.float_data().begin(), t.float_data().end()};
  std::vector<float> out(t.raw_data().size() / sizeof(float));
  if (!out.empty()) std::memcpy(out.data(), t.raw_data().data(), out.size() * sizeof(float));
  return out;
}

// Scales onnxruntime wrote, by the tensor name the folded IR is expected to use: the
// integer weight initializer for DequantizeLinear of constants, the QuantizeLinear output
// for activations, and the float graph input name for inputs the host quantizes.
std::map<std::string, std::vector<float>> ScalesFromOnnx(const std::string& path) {
  onnx::ModelProto model;
  std::string bytes = testing::ReadFile(path);
  EXPECT_TRUE(model.ParseFromString(bytes)) << path;
  std::map<std::string, const onnx::TensorProto*> inits;
  for (const auto& t : model.graph().initializer()) inits[t.name()] = &t;
  std::map<std::string, bool> graph_inputs;
  for (const auto& v : model.graph().input()) graph_inputs[v.name()] = true;
  std::map<std::string, std::vector<float>> scales;
  for (const auto& node : model.graph().node()) {
    bool q = node.op_type() == "QuantizeLinear";
    if (!q && node.op_type() != "DequantizeLinear") continue;
    auto scale = inits.find(node.input(1));
    if (scale == inits.end()) continue;
    std::vector<float> values = FloatsOf(*scale->second);
    if (q) {
      scales[node.output(0)] = values;
      if (graph_inputs.count(node.input(0)) != 0) scales[node.input(0)] = values;
    } else if (inits.count(node.input(0)) != 0) {
      scales[node.input(0)] = values;
    }
  }
  return scales;
}

// Runs the pipeline up to and including qdq-fold, compacting after each pass as
// Normalize() does.
void NormalizeThroughQdqFold(ir::Graph& graph) {
  for (const PassInfo& pass : NormalizationPipeline()) {
    pass.run(graph);
    graph.Compact();
    if (pass.name == "qdq-fold") return;
  }
  FAIL() << "the pipeline has no qdq-fold pass";
}

TEST(QdqFoldModels, SkippedModelsAreListedWithAReason) {
  std::ifstream skipped(testing::GeneratedModelsDir() + "/skipped.txt");
  ASSERT_TRUE(skipped) << "no skipped.txt in " << testing::GeneratedModelsDir()
                       << ": build the tigris_test_models target first";
  std::string line;
  while (std::getline(skipped, line)) {
    if (line.empty()) continue;
    EXPECT_NE(line.find('\t'), std::string::npos) << "a skip entry without reason: " << line;
    std::cout << "[ SKIPPED ] onnxruntime could not quantize: " << line << "\n";
  }
}

TEST(QdqFoldModels, EveryGeneratedModelFoldsToAnnotatedInt8) {
  std::vector<std::string> models = GeneratedQdqModels();
  ASSERT_FALSE(models.empty()) << "no generated models in " << testing::GeneratedModelsDir()
                               << ": build the tigris_test_models target first";
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    std::map<std::string, std::vector<float>> expected = ScalesFromOnnx(path);
    ir::Graph g = onnx_import::LoadOnnxFile(path, onnx_import::LoadOptions{});
    ASSERT_NO_THROW(NormalizeThroughQdqFold(g));

    size_t weights_checked = 0;
    size_t island_edges = 0;
    for (const ir::Op& op : g.ops) {
      if (op.type == ir::OpType::kQuantize || op.type == ir::OpType::kDequantize) ++island_edges;
      EXPECT_NE(op.type, ir::OpType::kQuantizeLinear) << op.name;
      EXPECT_NE(op.type, ir::OpType::kDequantizeLinear) << op.name;
      if (op.type != ir::OpType::kConv && op.type != ir::OpType::kGemm) continue;
      SCOPED_TRACE(op.name);

      const ir::Tensor& w = g.tensor(op.inputs.at(1));
      const ir::Tensor& y = g.tensor(op.outputs.at(0));
      ASSERT_TRUE(w.is_constant);
      EXPECT_EQ(w.dtype, ir::DType::kInt8);
      ASSERT_TRUE(w.quant.has_value()) << w.name;
      // Conv: NCHW output channels; Gemm: the last output dimension.
      int64_t channels = op.type == ir::OpType::kConv ? y.shape.at(1) : y.shape.back();
      EXPECT_EQ(static_cast<int64_t>(w.quant->scales.size()), channels) << w.name;
      ASSERT_EQ(expected.count(w.name), 1u) << "weight '" << w.name << "' not in the ONNX file";
      EXPECT_EQ(w.quant->scales, expected[w.name]) << w.name;
      ++weights_checked;

      if (op.type != ir::OpType::kConv) continue;
      const ir::Tensor& x = g.tensor(op.inputs.at(0));
      EXPECT_EQ(x.dtype, ir::DType::kInt8) << x.name;
      ASSERT_TRUE(x.quant.has_value()) << x.name;
      ASSERT_EQ(expected.count(x.name), 1u) << "activation '" << x.name << "' not in the file";
      EXPECT_EQ(x.quant->scales, expected[x.name]) << x.name;
    }
    EXPECT_GT(weights_checked, 0u);
    std::cout << "[   INFO  ] " << std::filesystem::path(path).filename().string() << ": "
              << g.ops.size() << " ops, " << weights_checked << " Conv/Gemm weights checked, "
              << island_edges << " Quantize/Dequantize at float-island edges\n";
  }
}

}  // namespace
}  // namespace tigris::passes
