// gemm-flatten-fold: a Gemm reads a pooled [N, C, 1, 1] map without the Flatten (a
// Reshape after reshape-canonicalize) that copies it (passes/gemm_flatten_fold.cc).
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

TEST(GemmFlattenFold, AMapWiderThanOnePixelKeepsItsFlatten) {
  // [1, 3, 2, 1] flattens in C, H order; the runtime holds it H, W, C: different bytes.
  Head head = ClassifierHead(2, 1);
  passes::GemmFlattenFold(head.graph);
  EXPECT_EQ(OpTypes(head.graph), (std::vector<std::string>{"Reshape", "Gemm"}));
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
