// gemm-to-pointwise: a classifier Gemm over a pooled [N, K, 1, 1] map whose output is a
// graph output becomes a 1x1 Conv writing [N, M, 1, 1], the caller still receiving [N, M]
// (passes/gemm_to_pointwise.cc).
#include <gtest/gtest.h>

#include "analysis/macs.h"
#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

// p [1, 3, 1, 1] -> Gemm(B [2, 3], C [2]) -> y [1, 2], optionally read by a Relu too.
ir::Graph Classifier(bool read_by_relu = false) {
  GraphBuilder b;
  ir::TensorId p = b.Input("p", {1, 3, 1, 1});
  ir::TensorId weights = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  ir::TensorId bias = b.Floats("C", {2}, {0.5f, -0.5f});
  ir::TensorId y = b.Op(OpType::kGemm, "fc", {p, weights, bias}, "y", {1, 2});
  b.Output(y);
  if (read_by_relu) b.Output(b.Op(OpType::kRelu, "relu", {y}, "r", {1, 2}));
  return b.Take();
}

TEST(GemmToPointwise, AClassifierWritingTheOutputBecomesA1x1Conv) {
  ir::Graph g = Classifier();
  passes::GemmToPointwise(g);
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  const ir::Op& conv = g.ops[0];
  EXPECT_EQ(conv.name, "fc");
  const ir::Tensor& filter = g.tensor(conv.input(1));
  EXPECT_EQ(filter.shape, (ir::Shape{2, 3, 1, 1}));
  EXPECT_EQ(filter.DataAs<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));  // B's rows
  EXPECT_EQ(g.tensor(conv.input(2)).name, "C");
  const ir::Tensor& y = g.tensor(g.outputs[0]);
  EXPECT_EQ(y.name, "y");
  EXPECT_EQ(y.shape, (ir::Shape{1, 2, 1, 1}));
  EXPECT_EQ(y.host_shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(analysis::OpMacs(g, conv), 6);  // 2 outputs x 3 taps, as the Gemm
}

TEST(GemmToPointwise, AGemmWhoseResultAnOpReadsStays) {
  ir::Graph g = Classifier(/*read_by_relu=*/true);
  passes::GemmToPointwise(g);
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Relu"}));
  EXPECT_TRUE(g.tensor(g.outputs[0]).host_shape.empty());
}

TEST(GemmToPointwise, AGemmOverAMatrixStays) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId weights = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Output(b.Op(OpType::kGemm, "fc", {a, weights}, "y", {1, 2}));
  ir::Graph g = b.Take();
  passes::GemmToPointwise(g);
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Gemm"});
}

}  // namespace
}  // namespace tigris
