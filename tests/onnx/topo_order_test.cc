// The execution order: DFS post-order with reversed child order (topo_order.h;
// tigris-compilation-pipeline.txt, stage 1).
#include <gtest/gtest.h>

#include "loader_test_util.h"

namespace tigris::testing {
namespace {

std::vector<std::string> OpNames(const ir::Graph& g) {
  std::vector<std::string> names;
  for (const ir::Op& op : g.ops) names.push_back(op.name);
  return names;
}

TEST(TopoOrder, DiamondSchedulesFirstConsumerSubtreeFirst) {
  //   x -> A -> C --+
  //   |              +--> E (Add)
  //   +--> B -> D ---+
  // ONNX order is A B C D E. consumers(x) = [A, B], visited reversed: B, D, E are
  // post-ordered first (E, D, B), then A, C (C, A). Post-order E D B C A, reversed:
  // A C B D E. A's branch (A, C) completes before B starts.
  OnnxModelBuilder b("diamond", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"a"}, "A");
  b.Node("Sigmoid", {"x"}, {"b"}, "B");
  b.Node("Tanh", {"a"}, {"c"}, "C");
  b.Node("Relu", {"b"}, {"d"}, "D");
  b.Node("Add", {"c", "d"}, {"e"}, "E");
  b.Output("e");
  EXPECT_EQ(OpNames(LoadBuilt(b)), (std::vector<std::string>{"A", "C", "B", "D", "E"}));
}

TEST(TopoOrder, DiamondBehindAnOpReversesThatOpsChildren) {
  //   x -> S -> A -> C --+
  //        |             +--> E (Add)
  //        +--> B -> D --+
  // The fork is at op S: succ(S) = [A, B] (ONNX order), visited reversed: B, D, E first
  // (post E D B), then A, C (post C A), then S. Post-order E D B C A S, reversed:
  // S A C B D E. Visiting S's children in ONNX order would give S B D A C E instead.
  OnnxModelBuilder b("diamond2", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"s"}, "S");
  b.Node("Relu", {"s"}, {"a"}, "A");
  b.Node("Sigmoid", {"s"}, {"b"}, "B");
  b.Node("Tanh", {"a"}, {"c"}, "C");
  b.Node("Relu", {"b"}, {"d"}, "D");
  b.Node("Add", {"c", "d"}, {"e"}, "E");
  b.Output("e");
  EXPECT_EQ(OpNames(LoadBuilt(b)), (std::vector<std::string>{"S", "A", "C", "B", "D", "E"}));
}

TEST(TopoOrder, UnsortedNodeListIsSorted) {
  // The same diamond listed backwards: the order depends on the graph, not the listing,
  // except for the consumer order of x, which is now [B, A] (B listed first) -> B D A C E.
  OnnxModelBuilder b("reversed", 13);
  b.Input("x", {1, 4});
  b.Node("Add", {"c", "d"}, {"e"}, "E");
  b.Node("Relu", {"b"}, {"d"}, "D");
  b.Node("Tanh", {"a"}, {"c"}, "C");
  b.Node("Sigmoid", {"x"}, {"b"}, "B");
  b.Node("Relu", {"x"}, {"a"}, "A");
  b.Output("e");
  EXPECT_EQ(OpNames(LoadBuilt(b)), (std::vector<std::string>{"B", "D", "A", "C", "E"}));
}

TEST(TopoOrder, ConstantNodesPrecedeTheirConsumer) {
  // x -> Conv-free chain: R = Relu(x); K = Constant; M = Mul(R, K).
  // Root children: consumers(x) = [R], then input-less [K]; visited reversed: K first
  // (post M, K), then R (post R). Post-order M K R, reversed: R K M.
  OnnxModelBuilder b("consts", 13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"r"}, "R");
  b.Node("Constant", {}, {"k"}, "K").Attr("value_float", 2.0f);
  b.Node("Mul", {"r", "k"}, {"m"}, "M");
  b.Output("m");
  EXPECT_EQ(OpNames(LoadBuilt(b)), (std::vector<std::string>{"R", "K", "M"}));
}

TEST(TopoOrder, EveryOpReadsOnlyEarlierTensors) {
  OnnxModelBuilder b("wide", 13);
  b.Input("x", {1, 4});
  // Three branches of different depth merging pairwise, listed in a scrambled order.
  b.Node("Add", {"s1", "b3"}, {"out"}, "merge2");
  b.Node("Relu", {"x"}, {"a1"}, "a1");
  b.Node("Add", {"a2", "b1"}, {"s1"}, "merge1");
  b.Node("Relu", {"a1"}, {"a2"}, "a2");
  b.Node("Sigmoid", {"x"}, {"b1"}, "b1");
  b.Node("Tanh", {"b2"}, {"b3"}, "b3");
  b.Node("Relu", {"x"}, {"b2"}, "b2");
  b.Output("out");
  ir::Graph g = LoadBuilt(b);
  ASSERT_EQ(g.ops.size(), 7u);
  std::vector<bool> ready(g.tensors.size(), false);
  for (ir::TensorId id : g.inputs) ready[static_cast<size_t>(id)] = true;
  for (const ir::Op& op : g.ops) {
    for (ir::TensorId in : op.inputs) {
      EXPECT_TRUE(ready[static_cast<size_t>(in)]) << op.name << " reads " << g.tensor(in).name;
    }
    for (ir::TensorId out : op.outputs) ready[static_cast<size_t>(out)] = true;
  }
}

}  // namespace
}  // namespace tigris::testing
