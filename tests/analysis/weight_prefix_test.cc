#include "analysis/weight_prefix.h"

#include <gtest/gtest.h>

#include "support/graph_builder.h"

namespace tigris::analysis {
namespace {

using testing::GraphBuilder;

// x 1x1x4x4 -> Conv(w 1x1x3x3 float = 36 B, b [1] = 4 B) -> c -> Add(c, w2 [1] = 4 B)
// -> a -> Reshape(a, shape int64 [4] = 32 B) -> r -> Conv(r', w, b) reusing w and b.
struct Graph3 {
  ir::Graph g;
  ir::TensorId w, b, w2, shape;
};

Graph3 Build() {
  GraphBuilder g;
  Graph3 out;
  const ir::TensorId x = g.Input("x", {1, 1, 4, 4});
  out.w = g.Floats("w", {1, 1, 3, 3}, std::vector<float>(9, 0.0f));
  out.b = g.Floats("b", {1}, {0.0f});
  out.w2 = g.Floats("w2", {1}, {1.0f});
  out.shape = g.Int64s("shape", {4}, {1, 1, 4, 4});
  const ir::TensorId c = g.Op(ir::OpType::kConv, "conv1", {x, out.w, out.b}, "c", {1, 1, 4, 4});
  const ir::TensorId a = g.Op(ir::OpType::kAdd, "add", {c, out.w2}, "a", {1, 1, 4, 4});
  const ir::TensorId r = g.Op(ir::OpType::kReshape, "reshape", {a, out.shape}, "r", {1, 1, 4, 4});
  g.Output(g.Op(ir::OpType::kConv, "conv2", {r, out.w, out.b}, "y", {1, 1, 4, 4}));
  out.g = g.Take();
  return out;
}

TEST(WeightPrefixTest, ResidentConstantsSkipFoldedOperands) {
  const Graph3 m = Build();
  EXPECT_EQ(ResidentConstants(m.g, m.g.ops[0]), (std::vector<ir::TensorId>{m.w, m.b}));
  EXPECT_EQ(ResidentConstants(m.g, m.g.ops[1]), (std::vector<ir::TensorId>{m.w2}));
  // Reshape's shape becomes an attribute in the plan (emit/op_attrs.cc): nothing resident.
  EXPECT_TRUE(ResidentConstants(m.g, m.g.ops[2]).empty());
}

TEST(WeightPrefixTest, DistinctConstantsEachAlignedTo16) {
  const Graph3 m = Build();
  // conv1: w 36 B -> 48, b 4 B -> 16: 64.
  EXPECT_EQ(WeightPrefixBytes(m.g, {0}), 64);
  // + add's w2 4 B -> 16: 80. The Reshape adds nothing (its 32-byte shape is folded).
  EXPECT_EQ(WeightPrefixBytes(m.g, {0, 1, 2}), 80);
  // conv2 reads the same w and b: one copy per unit, still 80.
  EXPECT_EQ(WeightPrefixBytes(m.g, {0, 1, 2, 3}), 80);
  // conv2 alone (its own unit): 64 again.
  EXPECT_EQ(WeightPrefixBytes(m.g, {3}), 64);
  EXPECT_EQ(WeightPrefixBytes(m.g, {}), 0);
}

TEST(WeightPrefixTest, CopiesRestoreAnEarlierState) {
  const Graph3 m = Build();
  WeightPrefix p;
  p.AddOp(m.g, 0);
  const WeightPrefix saved = p;
  p.AddOp(m.g, 1);
  EXPECT_EQ(p.bytes(), 80);
  p = saved;
  EXPECT_EQ(p.bytes(), 64);
  p.AddOp(m.g, 3);  // w and b already held
  EXPECT_EQ(p.bytes(), 64);
}

}  // namespace
}  // namespace tigris::analysis
