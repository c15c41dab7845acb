// passes::Verify: the invariants a normalized graph must hold (pass.h).
#include <gtest/gtest.h>

#include "passes/pass.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::DType;
using ir::OpType;
using testing::GraphBuilder;

// Runs Verify and returns the error it throws (kOk when it does not throw).
Error VerifyError(const ir::Graph& g) {
  try {
    passes::Verify(g);
  } catch (const Error& e) {
    return e;
  }
  return Error(Status::kOk, "");
}

ir::Graph ValidFloatGraph() {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, b.Floats("w", {2, 2, 1, 1}, {1, 0, 0, 1})}, "t",
                        {1, 2, 4, 4});
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "y", {1, 2, 4, 4}));
  return b.Take();
}

TEST(Verify, AcceptsNormalizedGraph) { EXPECT_NO_THROW(passes::Verify(ValidFloatGraph())); }

TEST(Verify, LeftoverTransientOpIsUnsupportedOpNamingTypeNodeAndModel) {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  ir::TensorId s = b.Op(OpType::kShape, "n1", {x}, "s", {4}, {}, DType::kInt64);
  b.Output(s);
  Error e = VerifyError(b.Take());
  EXPECT_EQ(e.status(), Status::kUnsupportedOp);
  EXPECT_EQ(std::string(e.what()),
            "op 'Shape' at node 'n1' in model 'm' is not supported by the runtime (it should "
            "have been folded by normalization)");
}

TEST(Verify, UseBeforeDefinitionIsInvalidModel) {
  ir::Graph g = ValidFloatGraph();
  std::swap(g.ops[0], g.ops[1]);  // relu now reads t before conv writes it
  Error e = VerifyError(g);
  EXPECT_EQ(e.status(), Status::kInvalidModel);
  EXPECT_NE(std::string(e.what()).find("'relu'"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("'t'"), std::string::npos) << e.what();
}

TEST(Verify, TensorWrittenTwiceIsInvalidModel) {
  ir::Graph g = ValidFloatGraph();
  g.ops[1].outputs = g.ops[0].outputs;
  g.ops[1].inputs = {g.inputs[0]};
  EXPECT_EQ(VerifyError(g).status(), Status::kInvalidModel);
}

TEST(Verify, UnproducedGraphOutputIsInvalidModel) {
  ir::Graph g = ValidFloatGraph();
  ir::Tensor dangling;
  dangling.name = "dangling";
  dangling.dtype = DType::kFloat32;
  dangling.shape = {1};
  g.outputs.push_back(g.AddTensor(dangling));
  Error e = VerifyError(g);
  EXPECT_EQ(e.status(), Status::kInvalidModel);
  EXPECT_NE(std::string(e.what()).find("'dangling'"), std::string::npos) << e.what();
}

TEST(Verify, UnknownDtypeOrEmptyShapeIsInvalidModel) {
  ir::Graph no_dtype = ValidFloatGraph();
  no_dtype.tensor(no_dtype.ops[0].outputs[0]).dtype = DType::kUnknown;
  EXPECT_EQ(VerifyError(no_dtype).status(), Status::kInvalidModel);

  ir::Graph zero_extent = ValidFloatGraph();
  zero_extent.tensor(zero_extent.ops[0].outputs[0]).shape = {1, 0, 4, 4};
  Error e = VerifyError(zero_extent);
  EXPECT_EQ(e.status(), Status::kInvalidModel);
  EXPECT_NE(std::string(e.what()).find("'t'"), std::string::npos) << e.what();
}

TEST(Verify, ConstantWithWrongByteCountIsInvalidModel) {
  ir::Graph g = ValidFloatGraph();
  g.tensor(g.ops[0].inputs[1]).data.resize(3);
  EXPECT_EQ(VerifyError(g).status(), Status::kInvalidModel);
}

// x (float) -> Quantize -> q (int8) -> Relu -> r (int8) -> Dequantize -> y (float).
ir::Graph Int8Island() {
  GraphBuilder b("m");
  ir::TensorId x = b.Input("x", {1, 4});
  ir::TensorId q = b.Op(OpType::kQuantize, "q", {x}, "q", {1, 4}, {}, DType::kInt8);
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {q}, "r", {1, 4}, {}, DType::kInt8);
  b.Output(b.Op(OpType::kDequantize, "dq", {r}, "y", {1, 4}));
  ir::Graph g = b.Take();
  g.tensor(q).quant = ir::QuantParams{{0.1f}, {0}, -1};
  g.tensor(r).quant = ir::QuantParams{{0.1f}, {0}, -1};
  return g;
}

TEST(Verify, Int8IslandWithQuantizeAndDequantizeIsAccepted) {
  EXPECT_NO_THROW(passes::Verify(Int8Island()));
}

TEST(Verify, OpLeavingInt8WithoutDequantizeIsInvalidModel) {
  ir::Graph g = Int8Island();
  g.tensor(g.ops[1].outputs[0]).dtype = DType::kFloat32;  // relu: int8 in, float32 out
  g.tensor(g.ops[1].outputs[0]).quant.reset();
  Error e = VerifyError(g);
  EXPECT_EQ(e.status(), Status::kInvalidModel);
  EXPECT_NE(std::string(e.what()).find("'relu'"), std::string::npos) << e.what();
}

// Integer arithmetic (ONNX's test_add_int8) is a valid model the runtime does not compute.
TEST(Verify, Int8ActivationWithoutQuantParamsIsUnsupportedDType) {
  ir::Graph g = Int8Island();
  g.tensor(g.ops[1].outputs[0]).quant.reset();
  Error e = VerifyError(g);
  EXPECT_EQ(e.status(), Status::kUnsupportedDType);
  EXPECT_NE(std::string(e.what()).find("'r'"), std::string::npos) << e.what();
}

TEST(Verify, DequantizeOfFloatIsInvalidModel) {
  ir::Graph g = Int8Island();
  g.ops[2].inputs = {g.inputs[0]};  // Dequantize reading the float32 input
  EXPECT_EQ(VerifyError(g).status(), Status::kInvalidModel);
}

// Invariant 5: ids [1, 3] int64 -> Gather(table [5, 2]) -> y [1, 3, 2], with one thing
// changed per case.
struct GatherCase {
  const char* what;
  ir::Shape table_shape;
  DType ids_dtype;
  int64_t axis;
  bool table_at_run_time;
  const char* expected;  // in the message; nullptr: accepted
};

Error VerifyGather(const GatherCase& c) {
  GraphBuilder b("m");
  const ir::TensorId ids = b.Input("ids", {1, 3}, c.ids_dtype);
  int64_t elements = 1;
  for (int64_t d : c.table_shape) elements *= d;
  ir::TensorId table =
      b.Floats("table", c.table_shape, std::vector<float>(static_cast<size_t>(elements), 0.5f));
  if (c.table_at_run_time) table = b.Input("table_in", c.table_shape);
  ir::Shape out = {1, 3};
  out.insert(out.end(), c.table_shape.begin() + 1, c.table_shape.end());
  b.Output(
      b.Op(OpType::kGather, "embed", {table, ids}, "y", out, testing::Attrs({{"axis", c.axis}})));
  return VerifyError(b.Take());
}

TEST(Verify, GatherIsAcceptedAsAnEmbeddingLookupOnly) {
  const GatherCase cases[] = {
      {"int64 ids", {5, 2}, DType::kInt64, 0, false, nullptr},
      {"int32 ids, axis -2", {5, 2}, DType::kInt32, -2, false, nullptr},
      {"1-D table", {5}, DType::kInt64, 0, false, nullptr},
      {"axis 1", {5, 2}, DType::kInt64, 1, false, "gathers along axis 1"},
      {"rank-3 table", {5, 2, 2}, DType::kInt64, 0, false, "has rank 3"},
      {"float ids", {5, 2}, DType::kFloat32, 0, false, "are float32 of rank 2"},
      {"table computed at run time", {5, 2}, DType::kInt64, 0, true, "computed at run time"},
  };
  for (const GatherCase& c : cases) {
    SCOPED_TRACE(c.what);
    const Error got = VerifyGather(c);
    if (c.expected == nullptr) {
      EXPECT_EQ(got.status(), Status::kOk) << got.what();
      continue;
    }
    EXPECT_EQ(got.status(), Status::kUnsupportedOp) << got.what();
    EXPECT_NE(std::string(got.what()).find("node 'embed'"), std::string::npos) << got.what();
    EXPECT_NE(std::string(got.what()).find(c.expected), std::string::npos) << got.what();
  }
}

}  // namespace
}  // namespace tigris
