// int8 ops of a .tflite that TFLite Micro refuses, or whose TFLite algorithm the runtime
// does not have, are refused by the compiler with a named status and a message naming the
// op and the rule (libtigris/emit/tflite_quant.h), never computed another way in silence.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emit/compile.h"
#include "format/tgrs_generated.h"
#include "passes/pass.h"
#include "runtime/executor_support.h"
#include "support/expect_error.h"
#include "support/tflite_builder.h"
#include "tflite/tflite_loader.h"
#include "util/error.h"

namespace tigris::testing {
namespace {

namespace fb = ::tigris_tflite;
using Quant = TfliteModelBuilder::Quant;
using runtime_test::PositionIn;
using runtime_test::VerifyCorrupted;

// x [1, 8] int8 -> OP -> y [1, 8] int8, with the given quantizations.
std::string UnaryInt8(fb::BuiltinOperator code, Quant in, Quant out,
                      fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE,
                      TfliteModelBuilder::Options options = nullptr) {
  TfliteModelBuilder b;
  const int x = b.Tensor("x", fb::TensorType::INT8, {1, 8}, {}, &in);
  const int y = b.Tensor("y", fb::TensorType::INT8, {1, 8}, {}, &out);
  b.Op(code, {x}, {y}, options_type, std::move(options));
  b.Inputs({x});
  b.Outputs({y});
  return b.Bytes();
}

std::vector<uint8_t> Compile(const std::string& bytes) {
  ir::Graph g = tflite_import::LoadTfliteBytes(bytes.data(), bytes.size(), "op");
  passes::Normalize(g);
  plan::Budget budget;
  budget.fast_bytes = 1 << 20;
  return emit::Compile(g, budget, emit::EmitOptions{}).emitted.bytes;
}

TfliteModelBuilder::Options SoftmaxBeta1() {
  return [](flatbuffers::FlatBufferBuilder& fbb) {
    return fb::CreateSoftmaxOptions(fbb, 1.0f).Union();
  };
}

TEST(TfliteArithmeticErrors, TheRulesTflmHoldsCompile) {
  // The quantizations TFLM requires: these compile, so the refusals below are the rules'.
  Compile(UnaryInt8(fb::BuiltinOperator::SOFTMAX, {{0.1f}, {0}, 0}, {{1.0f / 256}, {-128}, 0},
                    fb::BuiltinOptions::SoftmaxOptions, SoftmaxBeta1()));
  Compile(UnaryInt8(fb::BuiltinOperator::LOGISTIC, {{0.1f}, {0}, 0}, {{1.0f / 256}, {-128}, 0}));
}

TEST(TfliteArithmeticErrors, SoftmaxOutputOffTflitesGridIsRefused) {
  const std::string bytes =
      UnaryInt8(fb::BuiltinOperator::SOFTMAX, {{0.1f}, {0}, 0}, {{0.01f}, {-128}, 0},
                fb::BuiltinOptions::SoftmaxOptions, SoftmaxBeta1());
  ExpectLoadError([&] { Compile(bytes); }, Status::kUnsupportedQuantization,
                  {"Softmax", "1/256", "-128"});
}

TEST(TfliteArithmeticErrors, LogisticOutputZeroPointOtherThanMinus128IsRefused) {
  const std::string bytes =
      UnaryInt8(fb::BuiltinOperator::LOGISTIC, {{0.1f}, {0}, 0}, {{1.0f / 256}, {0}, 0});
  ExpectLoadError([&] { Compile(bytes); }, Status::kUnsupportedQuantization,
                  {"Sigmoid", "LOGISTIC", "zero point -128"});
}

TEST(TfliteArithmeticErrors, Int8LogSoftmaxIsRefused) {
  const std::string bytes =
      UnaryInt8(fb::BuiltinOperator::LOG_SOFTMAX, {{0.1f}, {0}, 0}, {{16.0f / 256}, {127}, 0});
  ExpectLoadError([&] { Compile(bytes); }, Status::kUnsupportedQuantization,
                  {"LogSoftmax", "LOG_SOFTMAX"});
}

TEST(TfliteArithmeticErrors, HardSwishWhoseOutputScaleTflmRefusesIsRefused) {
  // s_in / (128 s_out) above 1: TFLM's Prepare refuses a left-shifting output multiplier.
  const std::string bytes =
      UnaryInt8(fb::BuiltinOperator::HARD_SWISH, {{1.0f}, {0}, 0}, {{0.001f}, {0}, 0});
  ExpectLoadError([&] { Compile(bytes); }, Status::kUnsupportedQuantization, {"HardSwish"});
}

TEST(TfliteArithmeticErrors, Int8RsqrtIsRefusedAtLoad) {
  const std::string bytes =
      UnaryInt8(fb::BuiltinOperator::RSQRT, {{0.1f}, {-128}, 0}, {{0.05f}, {-128}, 0});
  ExpectLoadError([&] { tflite_import::LoadTfliteBytes(bytes.data(), bytes.size(), "op"); },
                  Status::kUnsupportedOp, {"RSQRT", "operator 0", "inverse square root"});
}

// A plan in TFLite's arithmetic says schema 5, so a reader built before it refuses the plan by
// its version instead of computing it in ONNX's arithmetic; the verifier holds the two
// together.
TEST(TfliteArithmeticErrors, PlanInTflitesArithmeticIsSchema5) {
  const std::vector<uint8_t> good =
      Compile(UnaryInt8(fb::BuiltinOperator::SOFTMAX, {{0.1f}, {0}, 0}, {{1.0f / 256}, {-128}, 0},
                        fb::BuiltinOptions::SoftmaxOptions, SoftmaxBeta1()));
  const tgrs::Plan* root = tgrs::GetPlan(good.data());
  ASSERT_EQ(root->schema_version(), 5u);
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(root);
  const size_t version = PositionIn(good, table->GetAddressOf(tgrs::Plan::VT_SCHEMA_VERSION));
  std::string text;
  EXPECT_EQ(VerifyCorrupted(good, version, 4u, &text), TGRS_ERR_BAD_VALUE) << text;
  EXPECT_NE(text.find("rounding: TFLite's arithmetic in a schema 4 plan"), std::string::npos)
      << text;
}

// TFLM's SELECT_V2 copies the chosen int8 code whatever the quantizations: an operand
// quantized otherwise than the output would give TFLM's bytes a value they do not hold.
TEST(TfliteArithmeticErrors, SelectOfOperandsOnAnotherGridIsRefused) {
  for (const float other_scale : {0.05f, 0.08f}) {
    TfliteModelBuilder b;
    const Quant q{{0.05f}, {-3}, 0}, other{{other_scale}, {-3}, 0};
    const int x = b.Tensor("x", fb::TensorType::INT8, {1, 8}, {}, &q);
    const int c = b.Tensor("c", fb::TensorType::BOOL, {1, 8});
    const int z = b.Tensor("z", fb::TensorType::INT8, {1, 8}, {}, &other);
    const int y = b.Tensor("y", fb::TensorType::INT8, {1, 8}, {}, &q);
    b.Op(fb::BuiltinOperator::GREATER, {x, x}, {c});
    b.Op(fb::BuiltinOperator::SELECT_V2, {c, x, z}, {y});
    b.Inputs({x, z});
    b.Outputs({y});
    if (other_scale == 0.05f) {
      Compile(b.Bytes());  // one grid: compiles
    } else {
      ExpectLoadError([&] { Compile(b.Bytes()); }, Status::kUnsupportedQuantization,
                      {"SELECT_V2", "'z'", "copies the codes"});
    }
  }
}

// TFLite casts and broadcasts int8 codes, not values: a CAST of a quantized tensor, and a
// BROADCAST_TO onto another grid, are refused by name.
TEST(TfliteArithmeticErrors, CodeCopiesTheValuesWouldNotMatchAreRefused) {
  const Quant q{{0.05f}, {-3}, 0}, other{{0.08f}, {-3}, 0};
  {
    TfliteModelBuilder b;
    const int x = b.Tensor("x", fb::TensorType::INT8, {1, 8}, {}, &q);
    const int y = b.Tensor("y", fb::TensorType::FLOAT32, {1, 8});
    b.Op(fb::BuiltinOperator::CAST, {x}, {y});
    b.Inputs({x});
    b.Outputs({y});
    ExpectLoadError([&] { Compile(b.Bytes()); }, Status::kUnsupportedDType,
                    {"CAST", "'x'", "quantized INT8"});
  }
  {
    TfliteModelBuilder b;
    const int x = b.Tensor("x", fb::TensorType::INT8, {1, 8}, {}, &q);
    const int shape = b.Int32Constant("shape", {2}, {3, 8});
    const int y = b.Tensor("y", fb::TensorType::INT8, {3, 8}, {}, &other);
    b.Op(fb::BuiltinOperator::BROADCAST_TO, {x, shape}, {y});
    b.Inputs({x});
    b.Outputs({y});
    ExpectLoadError([&] { Compile(b.Bytes()); }, Status::kUnsupportedQuantization,
                    {"BROADCAST_TO", "'x'", "copies the codes"});
  }
}

}  // namespace
}  // namespace tigris::testing
