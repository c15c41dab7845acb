// split-to-slice: a Split becomes one Slice per output over the same input, with constant
// starts/ends/axes that cover the axis in order.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

using testing::Attrs;
using testing::GraphBuilder;
using testing::OpTypes;

std::vector<int64_t> Ints(const ir::Graph& g, ir::TensorId id) {
  EXPECT_TRUE(g.IsConstant(id));
  return ir::ConstantAsInt64s(g.tensor(id));
}

TEST(SplitToSlice, EachOutputBecomesASliceOfItsRange) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 10, 4, 4});
  ir::TensorId sizes = b.Int64s("sizes", {3}, {2, 5, 3});
  ir::TensorId o0 = b.Activation("o0", {1, 2, 4, 4});
  ir::TensorId o1 = b.Activation("o1", {1, 5, 4, 4});
  ir::TensorId o2 = b.Activation("o2", {1, 3, 4, 4});
  b.OpWithOutputs(ir::OpType::kSplit, "split", {x, sizes}, {o0, o1, o2},
                  Attrs({{"axis", int64_t{-3}}}));
  for (ir::TensorId o : {o0, o1, o2}) b.Output(o);
  ir::Graph g = b.Take();

  SplitToSlice(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Slice", "Slice", "Slice"}));
  const std::vector<std::pair<int64_t, int64_t>> ranges = {{0, 2}, {2, 7}, {7, 10}};
  const ir::TensorId outs[] = {o0, o1, o2};
  for (size_t i = 0; i < 3; ++i) {
    const ir::Op& op = g.ops[i];
    SCOPED_TRACE(op.name);
    EXPECT_EQ(op.inputs[0], x);
    EXPECT_EQ(op.outputs, std::vector<ir::TensorId>{outs[i]});  // names and quantization kept
    EXPECT_EQ(Ints(g, op.inputs[1]), std::vector<int64_t>{ranges[i].first});
    EXPECT_EQ(Ints(g, op.inputs[2]), std::vector<int64_t>{ranges[i].second});
    EXPECT_EQ(Ints(g, op.inputs[3]), std::vector<int64_t>{1});  // -3 of rank 4
  }
  EXPECT_NE(g.ops[0].name, g.ops[1].name);
}

TEST(SplitToSlice, OpsAroundTheSplitKeepTheirOrder) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 4, 2, 2});
  ir::TensorId r = b.Op(ir::OpType::kRelu, "relu", {x}, "r", {1, 4, 2, 2});
  ir::TensorId a = b.Activation("a", {1, 2, 2, 2});
  ir::TensorId c = b.Activation("c", {1, 2, 2, 2});
  b.OpWithOutputs(ir::OpType::kSplit, "split", {r}, {a, c}, Attrs({{"axis", int64_t{1}}}));
  b.Output(b.Op(ir::OpType::kAdd, "add", {a, c}, "y", {1, 2, 2, 2}));
  ir::Graph g = b.Take();

  SplitToSlice(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Relu", "Slice", "Slice", "Add"}));
}

TEST(SplitToSlice, OutputsThatDoNotCoverTheAxisAreRejectedNamingTheNode) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 6});
  ir::TensorId a = b.Activation("a", {1, 2});
  ir::TensorId c = b.Activation("c", {1, 3});
  b.OpWithOutputs(ir::OpType::kSplit, "bad_split", {x}, {a, c}, Attrs({{"axis", int64_t{1}}}));
  b.Output(a);
  b.Output(c);
  ir::Graph g = b.Take();
  try {
    SplitToSlice(g);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidModel);
    EXPECT_NE(std::string(e.what()).find("bad_split"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tigris::passes
