// Every shared real-world model, and the int8 QDQ variant of each, loads, normalizes and
// passes the verifier (issue: "Done when"), with input and output shapes as the model card
// (../shared/models/README.md) and the original ONNX graphs declare them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "support/test_env.h"
#include "tigris.h"

namespace {

namespace fs = std::filesystem;

struct Io {
  std::vector<int64_t> input, output;
};

// From ../shared/models/README.md (inputs) and the graphs' declared outputs, symbolic batch
// pinned to 1.
const std::map<std::string, Io>& Expected() {
  static const std::map<std::string, Io> kExpected = {
      {"anomaly_fc_autoencoder", {{1, 640}, {1, 640}}},
      {"cifar_mobilenet_relu6", {{1, 3, 32, 32}, {1, 10}}},
      {"conv1d_small", {{1, 10, 4}, {1, 5}}},
      {"conv2d_small_maxpool", {{1, 25, 25, 1}, {1, 5}}},
      {"kws_small_cnn", {{1, 49, 10, 1}, {1, 12}}},
      {"mnist8", {{1, 1, 28, 28}, {1, 10}}},
      {"mobilenet_v2_035_144", {{1, 3, 144, 144}, {1, 1000}}},
      {"mobilenet_v2_100_224", {{1, 3, 224, 224}, {1, 1000}}},
      {"vww_mobilenetv1_025_96", {{1, 3, 96, 96}, {1, 2}}},
      {"vww_small_cnn", {{1, 3, 96, 96}, {1, 2}}},
  };
  return kExpected;
}

// The runtime's operator set (issue 2, item 6), by the names tigris_op_info reports.
const std::set<std::string>& RuntimeOps() {
  static const std::set<std::string> kOps = {"Conv",
                                             "DepthwiseConv",
                                             "Conv1D",
                                             "ConvTranspose",
                                             "MaxPool",
                                             "AveragePool",
                                             "GlobalAveragePool",
                                             "GlobalMaxPool",
                                             "Add",
                                             "Sub",
                                             "Mul",
                                             "Div",
                                             "Relu",
                                             "Relu6",
                                             "LeakyRelu",
                                             "Selu",
                                             "Sigmoid",
                                             "HardSigmoid",
                                             "HardSwish",
                                             "Tanh",
                                             "Clip",
                                             "Concat",
                                             "Pad",
                                             "Resize",
                                             "Reshape",
                                             "Transpose",
                                             "Gemm",
                                             "MatMul",
                                             "Softmax",
                                             "LogSoftmax",
                                             "ReduceMean",
                                             "BatchNormalization",
                                             "Quantize",
                                             "Dequantize"};
  return kOps;
}

std::string Stem(const std::string& path) {
  std::string s = fs::path(path).filename().string();
  return s.substr(0, s.find('.'));
}

void CheckModel(const std::string& path, const char* want_dtype) {
  SCOPED_TRACE(path);
  tigris_model* m = nullptr;
  ASSERT_EQ(tigris_load(&m, path.c_str(), nullptr), TIGRIS_OK) << tigris_last_error();
  nlohmann::json j = nlohmann::json::parse(tigris_model_json(m))["model"];
  EXPECT_EQ(j["dtype"], want_dtype);
  for (const auto& [type, count] : j["op_types"].items()) {
    EXPECT_TRUE(RuntimeOps().count(type)) << type << " survived normalization";
  }
  auto it = Expected().find(Stem(path));
  ASSERT_NE(it, Expected().end()) << "no expectation for " << Stem(path);
  ASSERT_EQ(j["inputs"].size(), 1u);
  ASSERT_EQ(j["outputs"].size(), 1u);
  EXPECT_EQ(j["inputs"][0]["shape"].get<std::vector<int64_t>>(), it->second.input);
  EXPECT_EQ(j["outputs"][0]["shape"].get<std::vector<int64_t>>(), it->second.output);
  tigris_model_free(m);
}

TEST(AllModelsTest, EverySharedFloatModelLoadsAndVerifies) {
  std::vector<std::string> models = tigris::testing::SharedOnnxModels();
  ASSERT_EQ(models.size(), Expected().size()) << "models folder changed: update Expected()";
  for (const std::string& path : models) CheckModel(path, "float32");
}

TEST(AllModelsTest, EveryInt8QdqVariantLoadsAndVerifies) {
  std::vector<std::string> variants;
  for (const std::string& path : tigris::testing::SharedOnnxModels()) {
    std::string q = tigris::testing::GeneratedModelsDir() + "/" + Stem(path) + ".int8.onnx";
    ASSERT_TRUE(fs::exists(q)) << q << " missing: the build generates it (tests/models)";
    variants.push_back(q);
  }
  for (const std::string& path : variants) CheckModel(path, "int8");
}

}  // namespace
