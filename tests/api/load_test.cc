// tigris_load through the C ABI: real models load, bad input gets its own status and a
// message, handles and accessors behave.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/test_env.h"
#include "tigris.h"

namespace {

using tigris::testing::SharedOnnxModel;

struct ModelDeleter {
  void operator()(tigris_model* m) const { tigris_model_free(m); }
};
using ModelPtr = std::unique_ptr<tigris_model, ModelDeleter>;

std::string TempFile(const std::string& name, const std::string& bytes) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

tigris_tensor_info TensorInfo(const tigris_model* m, int32_t index) {
  tigris_tensor_info t{};
  t.version = TIGRIS_TENSOR_INFO_VERSION;
  EXPECT_EQ(tigris_model_tensor(m, static_cast<size_t>(index), &t), TIGRIS_OK);
  return t;
}

std::vector<int64_t> Shape(const tigris_tensor_info& t) {
  return std::vector<int64_t>(t.shape, t.shape + t.rank);
}

TEST(LoadTest, MnistLoadsWithShapesFromTheModelCard) {
  tigris_model* raw = nullptr;
  ASSERT_EQ(tigris_load(&raw, SharedOnnxModel("mnist8.onnx").c_str(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  ModelPtr m(raw);
  // ../shared/models/README.md: input 1x1x28x28; the zoo's mnist-8 output is 1x10.
  ASSERT_EQ(tigris_model_input_count(m.get()), 1u);
  ASSERT_EQ(tigris_model_output_count(m.get()), 1u);
  EXPECT_EQ(Shape(TensorInfo(m.get(), tigris_model_input(m.get(), 0))),
            (std::vector<int64_t>{1, 1, 28, 28}));
  EXPECT_EQ(Shape(TensorInfo(m.get(), tigris_model_output(m.get(), 0))),
            (std::vector<int64_t>{1, 10}));
  EXPECT_STREQ(TensorInfo(m.get(), tigris_model_input(m.get(), 0)).name, "Input3");
  EXPECT_GT(tigris_model_op_count(m.get()), 0u);

  // Every op's tensor references are in range and name real tensors.
  for (size_t i = 0; i < tigris_model_op_count(m.get()); ++i) {
    tigris_op_info op{};
    op.version = TIGRIS_OP_INFO_VERSION;
    ASSERT_EQ(tigris_model_op(m.get(), i, &op), TIGRIS_OK);
    EXPECT_STRNE(op.name, "");
    for (size_t k = 0; k < op.num_outputs; ++k) {
      EXPECT_GE(op.outputs[k], 0);
      EXPECT_LT(static_cast<size_t>(op.outputs[k]), tigris_model_tensor_count(m.get()));
    }
  }
}

TEST(LoadTest, JsonAgreesWithAccessors) {
  tigris_model* raw = nullptr;
  ASSERT_EQ(tigris_load(&raw, SharedOnnxModel("kws_small_cnn.onnx").c_str(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  ModelPtr m(raw);
  nlohmann::json j = nlohmann::json::parse(tigris_model_json(m.get()));
  const auto& model = j.at("model");
  EXPECT_EQ(model.at("ops").get<size_t>(), tigris_model_op_count(m.get()));
  EXPECT_EQ(model.at("tensors").get<size_t>(), tigris_model_tensor_count(m.get()));
  EXPECT_EQ(model.at("dtype"), "float32");
  EXPECT_EQ(model.at("inputs").at(0).at("shape"), (std::vector<int64_t>{1, 49, 10, 1}));
  size_t counted = 0;
  for (const auto& [type, n] : model.at("op_types").items()) counted += n.get<size_t>();
  EXPECT_EQ(counted, tigris_model_op_count(m.get()));
  EXPECT_EQ(model.at("graph").at("ops").size(), tigris_model_op_count(m.get()));
}

TEST(LoadTest, LoadFromMemoryEqualsLoadFromFile) {
  std::string bytes = tigris::testing::ReadFile(SharedOnnxModel("vww_small_cnn.onnx"));
  tigris_model *a = nullptr, *b = nullptr;
  ASSERT_EQ(tigris_load(&a, SharedOnnxModel("vww_small_cnn.onnx").c_str(), nullptr), TIGRIS_OK);
  ASSERT_EQ(tigris_load_from_memory(&b, bytes.data(), bytes.size(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  ModelPtr pa(a), pb(b);
  EXPECT_EQ(tigris_model_op_count(a), tigris_model_op_count(b));
  // Same graph, so the same JSON apart from the model name (file stem vs graph name).
  nlohmann::json ja = nlohmann::json::parse(tigris_model_json(a));
  nlohmann::json jb = nlohmann::json::parse(tigris_model_json(b));
  ja["model"].erase("name");
  jb["model"].erase("name");
  EXPECT_EQ(ja, jb);
}

TEST(LoadTest, SymbolicBatchIsPinnedByDefaultAndByOption) {
  // cifar_mobilenet_relu6 declares input batch x 3 x 32 x 32 with a symbolic batch.
  tigris_model* raw = nullptr;
  std::string path = SharedOnnxModel("cifar_mobilenet_relu6.onnx");
  ASSERT_EQ(tigris_load(&raw, path.c_str(), nullptr), TIGRIS_OK) << tigris_last_error();
  ModelPtr m(raw);
  EXPECT_EQ(Shape(TensorInfo(m.get(), tigris_model_output(m.get(), 0))),
            (std::vector<int64_t>{1, 10}));

  tigris_load_options opts = TIGRIS_LOAD_OPTIONS_INIT;
  opts.default_dim = 0;  // unpinned symbolic dims are now an error
  EXPECT_EQ(tigris_load(&raw, path.c_str(), &opts), TIGRIS_ERR_DYNAMIC_SHAPE);
  EXPECT_EQ(raw, nullptr);
  EXPECT_NE(std::string(tigris_last_error()).find("batch"), std::string::npos)
      << tigris_last_error();

  tigris_dim_binding batch = {"batch", 2};
  opts.dims = &batch;
  opts.num_dims = 1;
  ASSERT_EQ(tigris_load(&raw, path.c_str(), &opts), TIGRIS_OK) << tigris_last_error();
  ModelPtr m2(raw);
  EXPECT_EQ(Shape(TensorInfo(m2.get(), tigris_model_output(m2.get(), 0))),
            (std::vector<int64_t>{2, 10}));
}

TEST(LoadTest, InputShapeOverrideReachesEveryTensor) {
  // vww_small_cnn ends in GlobalAveragePool, so any spatial size works: 1x3x128x128.
  int64_t dims[] = {1, 3, 128, 128};
  tigris_input_shape shape = {"actual_input_1", 4, dims};
  tigris_load_options opts = TIGRIS_LOAD_OPTIONS_INIT;
  opts.input_shapes = &shape;
  opts.num_input_shapes = 1;
  tigris_model* raw = nullptr;
  ASSERT_EQ(tigris_load(&raw, SharedOnnxModel("vww_small_cnn.onnx").c_str(), &opts), TIGRIS_OK)
      << tigris_last_error();
  ModelPtr m(raw);
  EXPECT_EQ(Shape(TensorInfo(m.get(), tigris_model_input(m.get(), 0))),
            (std::vector<int64_t>{1, 3, 128, 128}));
  EXPECT_EQ(Shape(TensorInfo(m.get(), tigris_model_output(m.get(), 0))),
            (std::vector<int64_t>{1, 2}));
}

struct BadInput {
  const char* label;
  std::string bytes;
  tigris_status expected;
};

TEST(LoadTest, BadBytesGetTheirOwnStatus) {
  std::string model = tigris::testing::ReadFile(SharedOnnxModel("mnist8.onnx"));
  std::string random(4096, '\0');
  uint32_t state = 12345;
  for (char& c : random) {
    state = state * 1664525u + 1013904223u;  // LCG: deterministic "random" bytes
    c = static_cast<char>(state >> 24);
  }
  const BadInput cases[] = {
      {"empty", "", TIGRIS_ERR_EMPTY_MODEL},
      {"random", random, TIGRIS_ERR_NOT_ONNX},
      {"truncated", model.substr(0, model.size() / 2), TIGRIS_ERR_TRUNCATED_MODEL},
  };
  for (const BadInput& c : cases) {
    std::string path = TempFile(std::string("tigris_bad_") + c.label + ".onnx", c.bytes);
    tigris_model* raw = reinterpret_cast<tigris_model*>(0x1);
    EXPECT_EQ(tigris_load(&raw, path.c_str(), nullptr), c.expected) << c.label;
    EXPECT_EQ(raw, nullptr) << c.label;
    EXPECT_STRNE(tigris_last_error(), "") << c.label;
    EXPECT_EQ(tigris_load_from_memory(&raw, c.bytes.data(), c.bytes.size(), nullptr), c.expected)
        << c.label;
    std::remove(path.c_str());
  }
}

TEST(LoadTest, MissingFileIsAnIoErrorNamingThePath) {
  tigris_model* raw = nullptr;
  EXPECT_EQ(tigris_load(&raw, "/nonexistent/model.onnx", nullptr), TIGRIS_ERR_IO);
  EXPECT_NE(std::string(tigris_last_error()).find("/nonexistent/model.onnx"), std::string::npos);
}

TEST(LoadTest, NullAndVersionMisuseAreErrors) {
  tigris_model* raw = nullptr;
  EXPECT_EQ(tigris_load(nullptr, "x.onnx", nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tigris_load(&raw, nullptr, nullptr), TIGRIS_ERR_INVALID_ARGUMENT);
  tigris_load_options opts = TIGRIS_LOAD_OPTIONS_INIT;
  opts.version = 42;
  EXPECT_EQ(tigris_load(&raw, SharedOnnxModel("mnist8.onnx").c_str(), &opts),
            TIGRIS_ERR_VERSION_MISMATCH);
  tigris_model_free(nullptr);  // accepted, like free(NULL)
  EXPECT_STREQ(tigris_model_name(nullptr), "");
  EXPECT_EQ(tigris_model_op_count(nullptr), 0u);
}

TEST(LoadTest, OutOfRangeIndexIsAnErrorKeptOnTheHandle) {
  tigris_model* raw = nullptr;
  ASSERT_EQ(tigris_load(&raw, SharedOnnxModel("mnist8.onnx").c_str(), nullptr), TIGRIS_OK);
  ModelPtr m(raw);
  tigris_op_info op{};
  op.version = TIGRIS_OP_INFO_VERSION;
  EXPECT_EQ(tigris_model_op(m.get(), 100000, &op), TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_model_last_error(m.get())).find("100000"), std::string::npos);
  op.version = 0;
  EXPECT_EQ(tigris_model_op(m.get(), 0, &op), TIGRIS_ERR_VERSION_MISMATCH);
}

}  // namespace
