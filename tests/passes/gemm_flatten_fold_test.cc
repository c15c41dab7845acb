// gemm-flatten-fold: a Gemm reads a [N, C, H, W] map without the Flatten (a Reshape after
// reshape-canonicalize) that copies it, B's columns permuted to the runtime's H, W, C order
// when H W > 1 (passes/gemm_flatten_fold.cc).
#include <gtest/gtest.h>

#include "analysis/macs.h"
#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

// x [1, 3, h, w] -> GlobalAveragePool or identity-shaped input -> Reshape [1, 3 h w] ->
// Gemm(B [2, 3 h w], C [2]) -> y [1, 2].
struct Head {
  ir::Graph graph;
  ir::TensorId pooled = ir::kNoTensor;
  ir::TensorId flat = ir::kNoTensor;
};

Head ClassifierHead(int64_t h, int64_t w, bool flat_is_output = false) {
  GraphBuilder b;
  Head head;
  const int64_t k = 3 * h * w;
  head.pooled = b.Input("p", {1, 3, h, w});
  head.flat = b.Op(OpType::kReshape, "flatten", {head.pooled}, "f", {1, k});
  ir::TensorId weights = b.Floats("B", {2, k}, std::vector<float>(static_cast<size_t>(2 * k), 1));
  ir::TensorId bias = b.Floats("C", {2}, {0.5f, -0.5f});
  b.Output(b.Op(OpType::kGemm, "fc", {head.flat, weights, bias}, "y", {1, 2}));
  if (flat_is_output) b.Output(head.flat);
  head.graph = b.Take();
  return head;
}

TEST(GemmFlattenFold, TheGemmReadsThePooledMap) {
  Head head = ClassifierHead(1, 1);
  passes::GemmFlattenFold(head.graph);
  ASSERT_EQ(OpTypes(head.graph), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(head.graph.ops[0].input(0), head.pooled);
  // K = 3 from B [2, 3], not A's last extent (1): 2 outputs x 3 MACs.
  EXPECT_EQ(analysis::OpMacs(head.graph, head.graph.ops[0]), 6);
}

// B [2, 12] for a [1, 3, 2, 2] map holding column index c * 4 + h * 2 + w (Flatten's
// order) in row 0 and 100 + that in row 1.
std::vector<float> FlattenOrderedB() {
  std::vector<float> b(24);
  for (int i = 0; i < 12; ++i) {
    b[static_cast<size_t>(i)] = static_cast<float>(i);
    b[static_cast<size_t>(12 + i)] = static_cast<float>(100 + i);
  }
  return b;
}

// Column j of B' is the Flatten column of the runtime position j = (h * 2 + w) * 3 + c,
// worked out by hand: c * 4 + h * 2 + w.
const std::vector<float> kHwcColumns = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};

TEST(GemmFlattenFold, AWiderMapFoldsWithBsColumnsInHwcOrder) {
  Head head = ClassifierHead(2, 2);
  head.graph.tensor(head.graph.ops[1].input(1)).SetData(FlattenOrderedB());
  passes::GemmFlattenFold(head.graph);
  ASSERT_EQ(OpTypes(head.graph), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(head.graph.ops[0].input(0), head.pooled);
  const std::vector<float> b = head.graph.tensor(head.graph.ops[0].input(1)).DataAs<float>();
  std::vector<float> want = kHwcColumns;
  for (float v : kHwcColumns) want.push_back(100 + v);
  EXPECT_EQ(b, want);
}

TEST(GemmFlattenFold, ABSharedWithAnotherOpIsPermutedInACopy) {
  GraphBuilder g;
  const ir::TensorId map = g.Input("p", {1, 3, 2, 2});
  const ir::TensorId flat = g.Op(OpType::kReshape, "flatten", {map}, "f", {1, 12});
  const ir::TensorId weights = g.Floats("B", {2, 12}, FlattenOrderedB());
  g.Output(g.Op(OpType::kGemm, "fc", {flat, weights}, "y", {1, 2}));
  const ir::TensorId v = g.Input("v", {1, 12});
  g.Output(g.Op(OpType::kGemm, "fc_other", {v, weights}, "z", {1, 2}));
  ir::Graph graph = g.Take();
  passes::GemmFlattenFold(graph);
  ASSERT_EQ(OpTypes(graph), (std::vector<std::string>{"Gemm", "Gemm"}));
  EXPECT_NE(graph.ops[0].input(1), weights);
  EXPECT_EQ(graph.ops[1].input(1), weights);
  EXPECT_EQ(graph.tensor(weights).DataAs<float>(), FlattenOrderedB());      // untouched
  EXPECT_EQ(graph.tensor(graph.ops[0].input(1)).DataAs<float>()[4], 5.0f);  // c 1, h 0, w 1
}

TEST(GemmFlattenFold, AFlattenSomeoneElseReadsStays) {
  Head head = ClassifierHead(1, 1, /*flat_is_output=*/true);
  passes::GemmFlattenFold(head.graph);
  EXPECT_EQ(OpTypes(head.graph), (std::vector<std::string>{"Reshape", "Gemm"}));
  EXPECT_EQ(head.graph.ops[1].input(0), head.flat);
}

TEST(GemmFlattenFold, AFlattenThatRequantizesStays) {
  Head head = ClassifierHead(1, 1);
  head.graph.tensor(head.pooled).dtype = ir::DType::kInt8;
  head.graph.tensor(head.pooled).quant = ir::QuantParams{{0.5f}, {0}, -1};
  head.graph.tensor(head.flat).dtype = ir::DType::kInt8;
  head.graph.tensor(head.flat).quant = ir::QuantParams{{0.25f}, {0}, -1};
  passes::GemmFlattenFold(head.graph);
  EXPECT_EQ(OpTypes(head.graph), (std::vector<std::string>{"Reshape", "Gemm"}));
}

}  // namespace
}  // namespace tigris
