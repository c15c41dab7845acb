// Every kind of bad .tflite gets its own status and a message naming the op, tensor or
// field at fault (libtigris/tflite/tflite_loader.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/expect_error.h"
#include "support/tflite_builder.h"
#include "tflite/tflite_loader.h"
#include "tigris.h"
#include "util/error.h"

namespace tigris::testing {
namespace {

namespace fb = ::tigris_tflite;
using tflite_import::LoadTfliteBytes;

ir::Graph Load(const std::string& bytes) {
  return LoadTfliteBytes(bytes.data(), bytes.size(), "bad");
}

// x [1, 4] float -> RELU -> y: the smallest valid model, broken one way per test.
TfliteModelBuilder Tiny() {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::RELU, {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  return b;
}

TEST(TfliteLoaderErrors, TinyModelLoads) {
  const ir::Graph g = Load(Tiny().Bytes());
  ASSERT_EQ(g.inputs.size(), 1u);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.tensor(g.outputs[0]).name, "y");
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (ir::Shape{1, 4}));
}

TEST(TfliteLoaderErrors, EmptyBytes) {
  ExpectLoadError([] { LoadTfliteBytes("", 0, "mem"); }, Status::kEmptyModel, {"mem"});
}

TEST(TfliteLoaderErrors, BytesWithoutTheIdentifierAreNotTflite) {
  ExpectLoadError([] { Load(std::string(64, 'x')); }, Status::kNotOnnx, {"TFL3"});
}

TEST(TfliteLoaderErrors, FileCutBeforeItsRootIsTruncated) {
  const std::string bytes = Tiny().Bytes();
  ExpectLoadError([&] { Load(bytes.substr(0, 8)); }, Status::kTruncatedModel, {"truncated"});
}

TEST(TfliteLoaderErrors, FileCutInTheMiddleFailsVerification) {
  const std::string bytes = Tiny().Bytes();
  ExpectLoadError([&] { Load(bytes.substr(0, bytes.size() / 2)); }, Status::kInvalidModel,
                  {"verification", "truncated or corrupt"});
}

TEST(TfliteLoaderErrors, UnsupportedBuiltinIsNamedWithItsIndex) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int h = b.Tensor("h", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::RELU, {x}, {h});
  b.Op(fb::BuiltinOperator::SQUARED_DIFFERENCE, {h, h}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedOp,
                  {"operator 1", "SQUARED_DIFFERENCE", "docs/tflite.md"});
}

TEST(TfliteLoaderErrors, CustomOpIsNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.CustomOp("TFLite_Detection_PostProcess", {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedOp,
                  {"TFLite_Detection_PostProcess", "operator 0"});
}

TEST(TfliteLoaderErrors, Int16ActivationsAreNamed) {
  TfliteModelBuilder b;
  TfliteModelBuilder::Quant q{{0.5f}, {0}, 0};
  const int x = b.Tensor("x16", fb::TensorType::INT16, {1, 4}, {}, &q);
  const int y = b.Tensor("y16", fb::TensorType::INT16, {1, 4}, {}, &q);
  b.Op(fb::BuiltinOperator::RELU, {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedDType, {"INT16", "'x16'", "16x8"});
}

TEST(TfliteLoaderErrors, Float16WeightsAreNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int c = b.Tensor("c16", fb::TensorType::FLOAT16, {1, 4}, std::vector<uint8_t>(8, 0));
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::ADD, {x, c}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedDType, {"FLOAT16", "'c16'"});
}

TEST(TfliteLoaderErrors, ZeroPointOutsideItsTypeIsNamed) {
  TfliteModelBuilder b;
  TfliteModelBuilder::Quant q{{0.5f}, {300}, 0};
  const int x = b.Tensor("x8", fb::TensorType::INT8, {1, 4}, {}, &q);
  const int y = b.Tensor("y8", fb::TensorType::INT8, {1, 4}, {}, &q);
  b.Op(fb::BuiltinOperator::RELU, {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedQuantization,
                  {"'x8'", "zero point 300"});
}

TEST(TfliteLoaderErrors, SeveralSubgraphsAreControlFlow) {
  TfliteModelBuilder b = Tiny();
  b.Subgraphs(2);
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kInvalidModel, {"2 subgraphs", "WHILE"});
}

TEST(TfliteLoaderErrors, BufferOfTheWrongSizeIsNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int c = b.Tensor("short_const", fb::TensorType::FLOAT32, {1, 4}, {0, 0, 0, 0});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::ADD, {x, c}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kInvalidModel, {"'short_const'", "4 bytes"});
}

TEST(TfliteLoaderErrors, TensorIndexOutOfRange) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::ADD, {x, 7}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kInvalidModel, {"tensor 7"});
}

TEST(TfliteLoaderErrors, ReadBeforeWrittenIsDangling) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int h = b.Tensor("never_written", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::ADD, {x, h}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kDanglingInput, {"'never_written'"});
}

TEST(TfliteLoaderErrors, MissingOptionsAreNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::SOFTMAX, {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kInvalidModel,
                  {"operator 0", "SoftmaxOptions"});
}

TEST(TfliteLoaderErrors, SoftmaxBetaOtherThanOneIsRefused) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 4});
  b.Op(fb::BuiltinOperator::SOFTMAX, {x}, {y}, fb::BuiltinOptions::SoftmaxOptions,
       [](flatbuffers::FlatBufferBuilder& fbb) {
         return fb::CreateSoftmaxOptions(fbb, 0.5f).Union();
       });
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedOp, {"SOFTMAX", "beta"});
}

TEST(TfliteLoaderErrors, ArgMaxWithNonIntegerIndicesIsNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {2, 5});
  const int axis = b.Int32Constant("axis", {1}, {1});
  const int y = b.Tensor("idx", fb::TensorType::FLOAT32, {2});
  b.Op(fb::BuiltinOperator::ARG_MAX, {x, axis}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kUnsupportedDType,
                  {"ARG_MAX", "'idx'", "FLOAT32", "int32 or int64"});
}

TEST(TfliteLoaderErrors, Padv2ValueThatIsNotOneConstantIsNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int pads = b.Int32Constant("pads", {2, 2}, {0, 0, 1, 1});
  const int value = b.FloatConstant("two_values", {2}, {1.0f, 2.0f});
  const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 6});
  b.Op(fb::BuiltinOperator::PADV2, {x, pads, value}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kInvalidModel,
                  {"PADV2", "'two_values'", "one-element"});
}

TEST(TfliteLoaderErrors, StatedShapeThatContradictsTheOpIsNamed) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::FLOAT32, {1, 4});
  const int y = b.Tensor("y_wrong", fb::TensorType::FLOAT32, {1, 5});
  b.Op(fb::BuiltinOperator::RELU, {x}, {y});
  b.Inputs({x});
  b.Outputs({y});
  ExpectLoadError([&] { Load(b.Bytes()); }, Status::kShapeInference, {"y_wrong"});
}

// Through the C ABI: the format is picked by content, and ONNX-only options are refused.
TEST(TfliteLoaderErrors, OnnxOnlyOptionsAreRefusedForTflite) {
  const std::string bytes = Tiny().Bytes();
  tigris_load_options options = TIGRIS_LOAD_OPTIONS_INIT;
  const int64_t dims[] = {1, 8};
  tigris_input_shape shape = {"x", 2, dims};
  options.input_shapes = &shape;
  options.num_input_shapes = 1;
  tigris_model* model = nullptr;
  EXPECT_EQ(tigris_load_from_memory(&model, bytes.data(), bytes.size(), &options),
            TIGRIS_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tigris_last_error()).find("TFLite"), std::string::npos);
  ASSERT_EQ(tigris_load_from_memory(&model, bytes.data(), bytes.size(), nullptr), TIGRIS_OK)
      << tigris_last_error();
  tigris_model_free(model);
}

}  // namespace
}  // namespace tigris::testing
