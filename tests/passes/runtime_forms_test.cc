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

// tgrs_matmul_strided_f32: float32 MatMuls of ranks 1 to 4 run; rank 5 does not.
TEST(RuntimeForms, MatMulsOfRanksOneToFourAreAccepted) {
  GraphBuilder b("m");
  ir::TensorId a = b.Input("a", {2, 3, 4});
  ir::TensorId c = b.Input("c", {2, 4, 5});
  ir::TensorId v = b.Input("v", {4});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, c}, "y", {2, 3, 5}));
  b.Output(b.Op(OpType::kMatMul, "row", {v, b.Floats("w", {4, 2}, std::vector<float>(8, 1.0f))},
                "z", {2}));
  EXPECT_EQ(Refusal(b.Take()), "");
}

TEST(RuntimeForms, MatMulOfRankFiveIsRefused) {
  GraphBuilder b("m");
  ir::TensorId a = b.Input("a", {2, 2, 2, 3, 4});
  ir::TensorId c = b.Input("c", {4, 5});
  b.Output(b.Op(OpType::kMatMul, "mm", {a, c}, "y", {2, 2, 2, 3, 5}));
  const std::string why = Refusal(b.Take());  // the rank rule of every activation
  EXPECT_TRUE(Contains(why, "rank 5")) << why;
}

// tgrs_matmul_strided_s8: an int8 MatMul beyond two matrices, of two run-time operands or
// by a constant B quantized per column; a B quantized along K has no per-column form.
ir::Graph Int8MatMul(bool constant_b, int32_t b_axis) {
  GraphBuilder b("m");
  ir::TensorId a = b.Input("a", {2, 3, 4}, DType::kInt8);
  ir::TensorId w = constant_b ? b.Const("w", {4, 5}, DType::kInt8, std::vector<int8_t>(20, 1))
                              : b.Input("w", {2, 4, 5}, DType::kInt8);
  ir::TensorId y = b.Op(OpType::kMatMul, "mm", {a, w}, "y", {2, 3, 5}, {}, DType::kInt8);
  b.Output(y);
  ir::Graph g = b.Take();
  g.tensor(a).quant = ir::QuantParams{{0.1f}, {3}, -1};
  g.tensor(y).quant = ir::QuantParams{{0.2f}, {-1}, -1};
  if (!constant_b) {
    g.tensor(w).quant = ir::QuantParams{{0.05f}, {7}, -1};
  } else {
    const size_t channels = b_axis == 0 ? 4 : 5;
    g.tensor(w).quant = ir::QuantParams{std::vector<float>(channels, 0.01f),
                                        std::vector<int32_t>(channels, 0), b_axis};
  }
  return g;
}

TEST(RuntimeForms, Int8MatMulBeyondTwoMatricesIsAccepted) {
  EXPECT_EQ(Refusal(Int8MatMul(false, -1)), "");
  EXPECT_EQ(Refusal(Int8MatMul(true, 1)), "");
}

TEST(RuntimeForms, Int8MatMulByAConstantQuantizedAlongKIsRefusedNamingTheAxis) {
  const std::string why = Refusal(Int8MatMul(true, 0));
  EXPECT_TRUE(Contains(why, "'mm'") && Contains(why, "'w'") && Contains(why, "along axis 0") &&
              Contains(why, "per column"))
      << why;
}

// The comparisons, logic ops, Where and Cast (tgrs_op_logical): their dtypes, or a refusal
// naming the tensor (an unsupported dtype, op form or quantization).
std::string DTypeRefusal(const ir::Graph& g) {
  try {
    passes::CheckRuntimeForms(g);
  } catch (const Error& e) {
    EXPECT_TRUE(e.status() == Status::kUnsupportedDType || e.status() == Status::kUnsupportedOp ||
                e.status() == Status::kUnsupportedQuantization)
        << e.what();
    return e.what();
  }
  return "";
}

TEST(RuntimeForms, ComparisonsLogicAndWhereOverFloatIntegersAndBoolAreAccepted) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId ids = b.Input("ids", {1, 4}, DType::kInt64);
  ir::TensorId gt = b.Op(OpType::kGreater, "gt", {x, b.Floats("zero", {1}, {0.0f})}, "gt", {1, 4},
                         {}, DType::kBool);
  ir::TensorId eq = b.Op(OpType::kEqual, "eq", {ids, b.Int64s("three", {1}, {3})}, "eq", {1, 4}, {},
                         DType::kBool);
  ir::TensorId both = b.Op(OpType::kAnd, "and", {gt, eq}, "both", {1, 4}, {}, DType::kBool);
  ir::TensorId neither = b.Op(OpType::kNot, "not", {both}, "neither", {1, 4}, {}, DType::kBool);
  ir::TensorId as_float =
      b.Op(OpType::kCast, "cast", {neither}, "as_float", {1, 4}, {}, DType::kFloat32);
  b.Output(b.Op(OpType::kWhere, "where", {both, x, as_float}, "y", {1, 4}));
  EXPECT_EQ(DTypeRefusal(b.Take()), "");
}

TEST(RuntimeForms, OrderingBoolsIsRefused) {
  GraphBuilder b("m");
  ir::TensorId p = b.Input("p", {1, 4}, DType::kBool);
  ir::TensorId q = b.Input("q", {1, 4}, DType::kBool);
  b.Output(b.Op(OpType::kGreater, "gt", {p, q}, "y", {1, 4}, {}, DType::kBool));
  const std::string why = DTypeRefusal(b.Take());
  EXPECT_TRUE(Contains(why, "'gt'") && Contains(why, "only Equal compares bool values")) << why;
}

// Where over quantized int8 (qdq_fold's int8 Where), each of X, Y and the output on its own
// per-tensor grid; `quantized` false leaves them integers, which nothing runs.
ir::Graph Int8Where(bool quantized, size_t channel_scales = 1) {
  GraphBuilder b("m");
  ir::TensorId c = b.Input("c", {1, 4}, DType::kBool);
  ir::TensorId x = b.Input("x", {1, 4}, DType::kInt8);
  ir::TensorId y = b.Input("y", {1, 4}, DType::kInt8);
  ir::TensorId z = b.Op(OpType::kWhere, "where", {c, x, y}, "z", {1, 4}, {}, DType::kInt8);
  b.Output(z);
  ir::Graph g = b.Take();
  if (quantized) {
    for (ir::TensorId id : {x, y, z}) {
      ir::QuantParams q;
      q.scales.assign(channel_scales, 0.1f * static_cast<float>(id + 1));
      q.zero_points.assign(channel_scales, 0);
      q.axis = 1;
      g.tensor(id).quant = q;
    }
  }
  return g;
}

TEST(RuntimeForms, WhereOfQuantizedInt8IsAcceptedAndOfPlainInt8Refused) {
  EXPECT_EQ(DTypeRefusal(Int8Where(true)), "");
  const std::string why = DTypeRefusal(Int8Where(false));
  EXPECT_TRUE(Contains(why, "'where'") && Contains(why, "'x' is int8") &&
              Contains(why, "Where also quantized int8"))
      << why;
  const std::string per_channel = DTypeRefusal(Int8Where(true, 4));
  EXPECT_TRUE(Contains(per_channel, "quantized per channel")) << per_channel;
}

TEST(RuntimeForms, LogicOfNumbersIsRefused) {
  GraphBuilder b("m");
  ir::TensorId p = b.Input("p", {1, 4}, DType::kInt32);
  ir::TensorId q = b.Input("q", {1, 4}, DType::kInt32);
  b.Output(b.Op(OpType::kXor, "xor", {p, q}, "y", {1, 4}, {}, DType::kBool));
  const std::string why = DTypeRefusal(b.Take());
  EXPECT_TRUE(Contains(why, "'xor'") && Contains(why, "logic ops read bool")) << why;
}

TEST(RuntimeForms, CastToFloat64IsRefused) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 4});
  b.Output(b.Op(OpType::kCast, "cast", {x}, "y", {1, 4}, {}, DType::kFloat64));
  const std::string why = DTypeRefusal(b.Take());
  EXPECT_TRUE(Contains(why, "'cast'") && Contains(why, "'y' is float64")) << why;
}

}  // namespace
}  // namespace tigris
