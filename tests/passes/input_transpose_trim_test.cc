// input-transpose-trim: a Transpose that alone reads a graph input moves to the host
// (passes/input_transpose_trim.cc).
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

ir::Attributes Perm(std::vector<int64_t> perm) { return Attrs({{"perm", std::move(perm)}}); }

TEST(InputTransposeTrim, LeadingTransposeMovesToHost) {
  // "x"[1,10,4] (NWC, as a Keras export declares it) -> Transpose([0,2,1]) -> t[1,4,10]
  // -> Relu. After: the graph input is t, named "x", [1,4,10], host permutation [0,2,1]:
  // t[k] = x[perm[k]] is what the caller's array becomes on the way in.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 10, 4});
  ir::TensorId t = b.Op(OpType::kTranspose, "transpose", {x}, "t", {1, 4, 10}, Perm({0, 2, 1}));
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "y", {1, 4, 10}));
  ir::Graph g = b.Take();

  passes::InputTransposeTrim(g);
  g.Compact();

  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Relu"});
  ASSERT_EQ(g.inputs.size(), 1u);
  const ir::Tensor& in = g.tensor(g.inputs[0]);
  EXPECT_EQ(in.name, "x");
  EXPECT_EQ(in.shape, (ir::Shape{1, 4, 10}));
  EXPECT_EQ(in.host_permutation, (std::vector<int64_t>{0, 2, 1}));
  EXPECT_EQ(g.ops[0].inputs, g.inputs);
  EXPECT_EQ(g.FindTensor("t"), std::nullopt);
}

TEST(InputTransposeTrim, AnInputWithOtherReadersKeepsItsTranspose) {
  // The Relu reads x too: the caller's layout is needed as is.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  ir::TensorId t = b.Op(OpType::kTranspose, "transpose", {x}, "t", {1, 3, 2}, Perm({0, 2, 1}));
  b.Output(b.Op(OpType::kRelu, "relu_t", {t}, "y", {1, 3, 2}));
  b.Output(b.Op(OpType::kRelu, "relu_x", {x}, "z", {1, 2, 3}));
  ir::Graph g = b.Take();
  passes::InputTransposeTrim(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Transpose", "Relu", "Relu"}));
  EXPECT_TRUE(g.tensor(g.inputs[0]).host_permutation.empty());
}

TEST(InputTransposeTrim, AModelThatOnlyTransposesKeepsItsOp) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  b.Output(b.Op(OpType::kTranspose, "transpose", {x}, "y", {1, 3, 2}, Perm({0, 2, 1})));
  ir::Graph g = b.Take();
  passes::InputTransposeTrim(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Transpose"});
}

TEST(InputTransposeTrim, ABadPermutationNamesTheNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 3});
  ir::TensorId t = b.Op(OpType::kTranspose, "bad_perm", {x}, "t", {1, 3, 2}, Perm({0, 2, 2}));
  b.Output(b.Op(OpType::kRelu, "relu", {t}, "y", {1, 3, 2}));
  ir::Graph g = b.Take();
  try {
    passes::InputTransposeTrim(g);
    FAIL() << "expected kInvalidModel";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_perm"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris
