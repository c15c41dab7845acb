// Initializers stored outside the model (TensorProto.data_location = EXTERNAL), and the
// other ways ONNX stores initializer bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "loader_test_util.h"

namespace tigris::testing {
namespace {

using onnx_import::LoadOnnxFile;
using onnx_import::LoadOptions;

std::string TestDir(const std::string& leaf) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "tigris_onnx_ext" / leaf;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// y = x + w, with w (1x4 float) stored in weights.bin at `offset`.
OnnxModelBuilder ExternalModel(int64_t offset, int64_t length) {
  OnnxModelBuilder b("ext", 13);
  b.Input("x", {1, 4});
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(1);
  w.add_dims(4);
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const char* k, const std::string& v) {
    auto* e = w.add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", "weights.bin");
  add("offset", std::to_string(offset));
  add("length", std::to_string(length));
  b.Initializer(w);
  b.Node("Add", {"x", "w"}, {"y"}, "add");
  b.Output("y");
  return b;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(ExternalData, LoadsBytesAtOffsetFromModelFolder) {
  std::string dir = TestDir("ok");
  const float values[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  std::string blob = "PAD!";  // 4 bytes before the tensor: offset 4
  blob.append(reinterpret_cast<const char*>(values), sizeof(values));
  WriteFile(dir + "/weights.bin", blob);
  WriteFile(dir + "/model.onnx", ExternalModel(4, 16).Bytes());

  ir::Graph g = LoadOnnxFile(dir + "/model.onnx", {});
  const ir::Tensor& w = TensorNamed(g, "w");
  EXPECT_TRUE(w.is_constant);
  EXPECT_EQ(w.DataAs<float>(), (std::vector<float>{1.5f, -2.0f, 3.25f, 4.0f}));
  EXPECT_EQ(g.name, "ext");
}

TEST(ExternalData, ExternalDataDirOptionWins) {
  std::string model_dir = TestDir("model_only");
  std::string data_dir = TestDir("data_only");
  const float values[4] = {1, 2, 3, 4};
  WriteFile(data_dir + "/weights.bin", std::string(reinterpret_cast<const char*>(values), 16));
  WriteFile(model_dir + "/model.onnx", ExternalModel(0, 16).Bytes());
  LoadOptions options;
  options.external_data_dir = data_dir;
  ir::Graph g = LoadOnnxFile(model_dir + "/model.onnx", options);
  EXPECT_EQ(TensorNamed(g, "w").DataAs<float>(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(ExternalData, MissingFileNamesTensorAndPath) {
  std::string dir = TestDir("missing");
  WriteFile(dir + "/model.onnx", ExternalModel(0, 16).Bytes());
  ExpectLoadError([&] { LoadOnnxFile(dir + "/model.onnx", {}); }, Status::kExternalData,
                  {"'w'", dir + "/weights.bin"});
}

TEST(ExternalData, ShortFileNamesTensorAndPath) {
  std::string dir = TestDir("short");
  WriteFile(dir + "/weights.bin", std::string(10, '\0'));  // 16 bytes needed
  WriteFile(dir + "/model.onnx", ExternalModel(0, 16).Bytes());
  ExpectLoadError([&] { LoadOnnxFile(dir + "/model.onnx", {}); }, Status::kExternalData,
                  {"'w'", dir + "/weights.bin", "too short"});
}

TEST(ExternalData, FromMemoryWithoutDirIsExternalDataError) {
  ExpectLoadError([&] { LoadBuilt(ExternalModel(0, 16)); }, Status::kExternalData,
                  {"'w'", "weights.bin"});
}

TEST(InitializerStorage, TypedFieldsMatchRawData) {
  // Same values through float_data / int64_data / int32_data (for int8) and raw_data.
  OnnxModelBuilder b("typed", 13);
  b.Input("x", {3});
  b.Initializer(FloatTensor("f", {3}, Floats{1.0f, -2.5f, 8.0f}, /*raw=*/false));
  b.Initializer(Int64Tensor("i", {2}, Ints{-7, 1LL << 40}, /*raw=*/false));
  onnx::TensorProto q;
  q.set_name("q");
  q.set_data_type(onnx::TensorProto::INT8);
  q.add_dims(3);
  for (int v : {-128, 0, 127}) q.add_int32_data(v);
  b.Initializer(q);
  onnx::TensorProto d;
  d.set_name("d");
  d.set_data_type(onnx::TensorProto::DOUBLE);
  d.add_dims(1);
  d.add_double_data(0.25);
  b.Initializer(d);
  b.Node("Add", {"x", "f"}, {"y"}, "add");
  b.Output("y");
  ir::Graph g = LoadBuilt(b);
  EXPECT_EQ(TensorNamed(g, "f").DataAs<float>(), (std::vector<float>{1.0f, -2.5f, 8.0f}));
  EXPECT_EQ(TensorNamed(g, "i").DataAs<int64_t>(), (std::vector<int64_t>{-7, 1LL << 40}));
  EXPECT_EQ(TensorNamed(g, "q").dtype, ir::DType::kInt8);
  EXPECT_EQ(TensorNamed(g, "q").DataAs<int8_t>(), (std::vector<int8_t>{-128, 0, 127}));
  EXPECT_EQ(TensorNamed(g, "d").DataAs<double>(), (std::vector<double>{0.25}));
}

}  // namespace
}  // namespace tigris::testing
