// passes::CheckRuntimeForms (Verify's invariant 6): the forms the runtime refuses are
// refused at compile time, kUnsupportedOp naming the op and the rule.
#include <gtest/gtest.h>

#include <string>

#include "passes/pass.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;

// The message CheckRuntimeForms throws ("" when it accepts the graph); any other status
// fails the test.
std::string Refusal(const ir::Graph& g) {
  try {
    passes::CheckRuntimeForms(g);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kUnsupportedOp) << e.what();
    return e.what();
  }
  return "";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RuntimeForms, AcceptsAConvolutionWithConstantWeights) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  b.Output(b.Op(OpType::kConv, "conv", {x, b.Floats("w", {2, 2, 1, 1}, {1, 0, 0, 1})}, "y",
                {1, 2, 4, 4}));
  EXPECT_EQ(Refusal(b.Take()), "");
}

TEST(RuntimeForms, RankFiveActivationIsRefusedNamingTheTensor) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 2, 3, 4, 5});
  b.Output(b.Op(OpType::kRelu, "relu", {x}, "y", {1, 2, 3, 4, 5}));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "'relu'") && Contains(why, "'x' has rank 5")) << why;
}

TEST(RuntimeForms, IntegerActivationIsRefused) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 4}, DType::kInt32);
  ir::TensorId y = b.Input("y", {1, 4}, DType::kInt32);
  b.Output(b.Op(OpType::kAdd, "add", {x, y}, "z", {1, 4}, {}, DType::kInt32));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "'x' is int32 without quantization")) << why;
}

TEST(RuntimeForms, RunTimeFilterIsRefused) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 1, 3, 3});
  ir::TensorId w = b.Input("w", {1, 2, 3, 3});
  b.Output(b.Op(OpType::kConvTranspose, "deconv", {x, w}, "y", {1, 2, 5, 5}));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "its weights 'w' are computed at run time")) << why;
}

TEST(RuntimeForms, OneDimensionalPoolIsRefused) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 3, 32});
  b.Output(b.Op(OpType::kMaxPool, "pool", {x}, "y", {1, 3, 31},
                Attrs({{"kernel_shape", std::vector<int64_t>{2}}})));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "pools a rank-3 input")) << why;
}

ir::Graph PadGraph(const std::string& mode) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 3, 4, 4});
  b.Output(b.Op(OpType::kPad, "pad", {x}, "y", {1, 3, 6, 6},
                Attrs({{"mode", mode}, {"pads", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1}}})));
  return b.Take();
}

TEST(RuntimeForms, WrapPadIsRefusedNamingTheModeAndReflectIsAccepted) {
  const std::string why = Refusal(PadGraph("wrap"));
  EXPECT_TRUE(Contains(why, "mode = 'wrap'")) << why;
  EXPECT_EQ(Refusal(PadGraph("reflect")), "");
  EXPECT_EQ(Refusal(PadGraph("edge")), "");
}

TEST(RuntimeForms, CroppingPadIsRefused) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 3, 4, 4});
  b.Output(b.Op(OpType::kPad, "crop", {x}, "y", {1, 3, 2, 4},
                Attrs({{"pads", std::vector<int64_t>{0, 0, -1, 0, 0, 0, -1, 0}}})));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "crops (a negative pad)")) << why;
}

TEST(RuntimeForms, UnknownResizeTransformIsRefusedNamingIt) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 1, 4, 4});
  b.Output(b.Op(OpType::kResize, "up", {x}, "y", {1, 1, 8, 8},
                Attrs({{"mode", std::string("linear")},
                       {"coordinate_transformation_mode", std::string("half_pixel_symmetric")}})));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "coordinate_transformation_mode = 'half_pixel_symmetric'")) << why;
}

TEST(RuntimeForms, MatMulOfTwoRunTimeOperandsAboveRankTwoIsRefused) {
  GraphBuilder b("m");
  ir::TensorId a = b.Input("a", {2, 3, 4});
  ir::TensorId c = b.Input("c", {2, 4, 5});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, c}, "y", {2, 3, 5}));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "of rank 2 only")) << why;
}

TEST(RuntimeForms, MatMulWithAVectorIsRefused) {
  GraphBuilder b("m");
  ir::TensorId a = b.Input("a", {4});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, b.Floats("w", {4, 2}, std::vector<float>(8, 1.0f))}, "y",
                {2}));
  const std::string why = Refusal(b.Take());
  EXPECT_TRUE(Contains(why, "no vector (rank-1) operand")) << why;
}

}  // namespace
}  // namespace tigris
