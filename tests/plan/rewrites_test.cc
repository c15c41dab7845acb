// The planner's budget-driven rewrites on its own copy of the graph (plan/rewrites.h):
// classifier-as-pointwise turns a classifier Gemm over a pooled [N, K, 1, 1] map whose
// output is a graph output into a 1x1 Conv writing [N, M, 1, 1], the caller still
// receiving [N, M]; gemm-as-banded-reduction lets a Gemm over a wider map write
// [N, M, 1, 1] so that it reads the map by bands of rows. PlanModel makes either only when
// the Gemm's input and output do not fit the fast budget together.
#include <gtest/gtest.h>

#include "analysis/macs.h"
#include "analysis/tileability.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "plan/rewrites.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using plan::PlanModel;
using plan::PlanResult;
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

TEST(ClassifierAsPointwise, AClassifierWritingTheOutputBecomesA1x1Conv) {
  ir::Graph g = Classifier();
  g.ops[0].fused_activation = ir::Activation::kRelu;
  const size_t tensors = g.tensors.size();
  ASSERT_TRUE(plan::ClassifierAsPointwise(g, 0));
  EXPECT_EQ(g.tensors.size(), tensors);  // B, read by this op alone, is the filter
  ASSERT_EQ(OpTypes(g), std::vector<std::string>{"Conv"});
  const ir::Op& conv = g.ops[0];
  EXPECT_EQ(conv.name, "fc");
  EXPECT_EQ(conv.fused_activation, ir::Activation::kRelu);
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

TEST(ClassifierAsPointwise, ASharedWeightKeepsItsShapeForItsOtherReader) {
  GraphBuilder b;
  ir::TensorId p = b.Input("p", {1, 3, 1, 1});
  ir::TensorId weights = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Output(b.Op(OpType::kGemm, "fc0", {p, weights}, "y0", {1, 2}));
  b.Output(b.Op(OpType::kGemm, "fc1", {p, weights}, "y1", {1, 2}));
  ir::Graph g = b.Take();
  ASSERT_TRUE(plan::ClassifierAsPointwise(g, 0));
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Gemm"}));
  EXPECT_NE(g.ops[0].input(1), weights);
  EXPECT_EQ(g.tensor(g.ops[0].input(1)).shape, (ir::Shape{2, 3, 1, 1}));
  EXPECT_EQ(g.tensor(g.ops[0].input(1)).DataAs<float>(), g.tensor(weights).DataAs<float>());
  EXPECT_EQ(g.tensor(weights).shape, (ir::Shape{2, 3}));
  EXPECT_EQ(g.ops[1].input(1), weights);
}

TEST(ClassifierAsPointwise, AGemmWhoseResultAnOpReadsStays) {
  ir::Graph g = Classifier(/*read_by_relu=*/true);
  EXPECT_FALSE(plan::ClassifierAsPointwise(g, 0));
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Relu"}));
  EXPECT_TRUE(g.tensor(g.outputs[0]).host_shape.empty());
}

TEST(ClassifierAsPointwise, AGemmOverAMatrixStays) {
  GraphBuilder b;
  ir::TensorId a = b.Input("a", {1, 3});
  ir::TensorId weights = b.Floats("B", {2, 3}, {1, 2, 3, 4, 5, 6});
  b.Output(b.Op(OpType::kGemm, "fc", {a, weights}, "y", {1, 2}));
  ir::Graph g = b.Take();
  EXPECT_FALSE(plan::ClassifierAsPointwise(g, 0));
  EXPECT_FALSE(plan::ClassifierAsPointwise(g, 7));  // no such op
  EXPECT_EQ(OpTypes(g), std::vector<std::string>{"Gemm"});
}

// p [1, 64, 1, 1] float (256 bytes) -> Gemm(B [32, 64]) -> y [1, 32] (128 bytes).
ir::Graph WideClassifier() {
  GraphBuilder b;
  ir::TensorId p = b.Input("p", {1, 64, 1, 1});
  std::vector<float> weights(32 * 64);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 7) - 3;
  ir::TensorId w = b.Floats("B", {32, 64}, weights);
  b.Output(b.Op(OpType::kGemm, "fc", {p, w}, "y", {1, 32}));
  return b.Take();
}

TEST(PlannerRewrites, AClassifierThatFitsStaysAGemm) {
  // 256 + 128 = 384 bytes fit 1024: nothing to gain, the plan runs the model as given.
  const ir::Graph graph = WideClassifier();
  const PlanResult p = PlanModel(graph, {1024, 0, 0});
  EXPECT_TRUE(p.rewrites.empty());
  EXPECT_EQ(OpTypes(p.graph), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(p.verdict, plan::Verdict::kOk);
}

TEST(PlannerRewrites, AClassifierOverBudgetRunsAsA1x1ConvolutionByOutputChannelGroups) {
  // 384 bytes over 320: as a Gemm there is no plan; as a 1x1 convolution its output
  // channels run in groups, each reading the whole 256-byte input.
  const ir::Graph graph = WideClassifier();
  const PlanResult p = PlanModel(graph, {320, 0, 0});
  ASSERT_EQ(p.rewrites.size(), 1u);
  EXPECT_EQ(p.rewrites[0].op, "fc");
  EXPECT_EQ(p.rewrites[0].kind, "classifier-as-pointwise");
  EXPECT_NE(p.rewrites[0].why.find("input 256 B + output 128 B"), std::string::npos)
      << p.rewrites[0].why;
  EXPECT_EQ(OpTypes(p.graph), std::vector<std::string>{"Conv"});
  EXPECT_EQ(p.verdict, plan::Verdict::kTiled);
  ASSERT_TRUE(p.stages[0].tile.has_value());
  EXPECT_GT(p.stages[0].tile->tile_channels, 0);
  EXPECT_LE(p.scheduled_peak_bytes, 320);
  testing::ExpectPlanReplays(p);
  // The caller's graph is not the planner's: it still holds the Gemm.
  EXPECT_EQ(OpTypes(graph), std::vector<std::string>{"Gemm"});
}

// gemm-as-banded-reduction. x [1, 4, 4, 4] (64 values) -> Gemm(B [8, 64]) -> h [1, 8]
// -> Gemm(B2 [2, 8]) -> y [1, 2] (graph output); optionally h read by a Relu too.
ir::Graph MapHead(bool h_read_by_relu = false) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 4, 4, 4});
  std::vector<float> weights(8 * 64);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 5) - 2;
  const ir::TensorId h =
      b.Op(OpType::kGemm, "fc6", {x, b.Floats("B", {8, 64}, weights)}, "h", {1, 8});
  b.Output(b.Op(OpType::kGemm, "fc7", {h, b.Floats("B2", {2, 8}, std::vector<float>(16, 1))}, "y",
                {1, 2}));
  if (h_read_by_relu) b.Output(b.Op(OpType::kRelu, "relu", {h}, "r", {1, 8}));
  return b.Take();
}

TEST(GemmAsBandedReduction, AGemmOverAMapWritesAPixelOfChannels) {
  ir::Graph g = MapHead();
  ASSERT_TRUE(plan::GemmAsBandedReduction(g, 0));
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).shape, (ir::Shape{1, 8, 1, 1}));
  EXPECT_TRUE(g.tensor(g.ops[0].outputs[0]).host_shape.empty());  // not a graph output
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gemm", "Gemm"}));
  // fc7 reads [1, 8, 1, 1] as [1, 8]; it reads a pixel, not a map: it does not qualify.
  EXPECT_FALSE(plan::GemmAsBandedReduction(g, 1));
}

TEST(GemmAsBandedReduction, AGraphOutputKeepsItsShapeForTheCaller) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 2, 3, 3});
  const ir::TensorId y = b.Op(OpType::kGemm, "fc",
                              {x, b.Floats("B", {4, 18}, std::vector<float>(72, 1))}, "y", {1, 4});
  b.Output(y);
  ir::Graph g = b.Take();
  ASSERT_TRUE(plan::GemmAsBandedReduction(g, 0));
  EXPECT_EQ(g.tensor(y).shape, (ir::Shape{1, 4, 1, 1}));
  EXPECT_EQ(g.tensor(y).host_shape, (ir::Shape{1, 4}));
}

TEST(GemmAsBandedReduction, OtherReadersOrAOnePixelMapKeepTheGemm) {
  ir::Graph relu = MapHead(/*h_read_by_relu=*/true);
  EXPECT_FALSE(plan::GemmAsBandedReduction(relu, 0));  // a Relu would see [1, 8, 1, 1]
  EXPECT_EQ(relu.tensor(relu.ops[0].outputs[0]).shape, (ir::Shape{1, 8}));
  ir::Graph pixel = Classifier();  // [1, 3, 1, 1]: one row, nothing to band
  EXPECT_FALSE(plan::GemmAsBandedReduction(pixel, 0));
}

TEST(PlannerRewrites, AGemmOverAMapOverBudgetReadsItOneBandAtATime) {
  // x (256 B) + h (32 B) exceed 240 B; banded, the loop holds a band of x, the
  // accumulators and h. fc7 then reads the one-pixel h and fits as a Gemm.
  const ir::Graph graph = MapHead();
  const PlanResult roomy = PlanModel(graph, {1024, 0, 0});
  EXPECT_TRUE(roomy.rewrites.empty());
  const PlanResult p = PlanModel(graph, {240, 0, 0});
  ASSERT_EQ(p.rewrites.size(), 1u);
  EXPECT_EQ(p.rewrites[0].op, "fc6");
  EXPECT_EQ(p.rewrites[0].kind, "gemm-as-banded-reduction");
  EXPECT_NE(p.rewrites[0].why.find("input 256 B + output 32 B"), std::string::npos)
      << p.rewrites[0].why;
  EXPECT_EQ(p.verdict, plan::Verdict::kTiled) << p.stages.size();
  EXPECT_LE(p.scheduled_peak_bytes, 240);
  testing::ExpectPlanReplays(p);
  EXPECT_EQ(OpTypes(p.graph), (std::vector<std::string>{"Gemm", "Gemm"}));
}

// ids [1, 8] int64 -> Gather(table [10, 4]) -> e [1, 8, 4] -> ReduceMean(axes [1]) -> m [1, 4]
//   -> Gemm(B [2, 4]) -> y [1, 2]: the FDT paper's text classifier in small.
ir::Graph TextClassifier() {
  GraphBuilder b;
  ir::TensorId ids = b.Input("ids", {1, 8}, ir::DType::kInt64);
  std::vector<float> table(40);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i);
  ir::TensorId t = b.Floats("table", {10, 4}, table);
  ir::TensorId e = b.Op(OpType::kGather, "embed", {t, ids}, "e", {1, 8, 4});
  ir::TensorId m =
      b.Op(OpType::kReduceMean, "mean", {e}, "m", {1, 4},
           testing::Attrs({{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{0}}}));
  ir::TensorId w = b.Floats("B", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  b.Output(b.Op(OpType::kGemm, "fc", {m, w}, "y", {1, 2}));
  return b.Take();
}

TEST(EmbeddingAsRows, TokensBecomeRowsAndTheMeanAPool) {
  ir::Graph g = TextClassifier();
  ASSERT_TRUE(plan::EmbeddingAsRows(g, 0));
  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Gather", "GlobalAveragePool", "Gemm"}));
  const ir::Tensor& ids = g.tensor(g.inputs[0]);
  EXPECT_EQ(ids.shape, (ir::Shape{1, 1, 8, 1}));
  EXPECT_EQ(ids.host_shape, (std::vector<int64_t>{1, 8}));  // the caller still passes [1, 8]
  EXPECT_EQ(g.tensor(g.ops[0].outputs[0]).shape, (ir::Shape{1, 4, 8, 1}));
  EXPECT_EQ(g.tensor(g.ops[1].outputs[0]).shape, (ir::Shape{1, 4, 1, 1}));
  EXPECT_TRUE(g.ops[1].attrs.GetInts("axes").empty());
  // The lookup is a row-wise op and the pool a reduction over its rows.
  EXPECT_EQ(analysis::ClassifyRowTiling(g, g.ops[0]).kind, analysis::RowTileClass::kPointwise);
  EXPECT_EQ(analysis::ClassifyRowTiling(g, g.ops[1]).kind, analysis::RowTileClass::kReduction);
}

TEST(EmbeddingAsRows, OtherFormsKeepTheirShapes) {
  {  // the ids read by another op too
    ir::Graph g = TextClassifier();
    g.ops.push_back(g.ops[0]);
    g.ops.back().name = "embed2";
    g.ops.back().outputs = {g.AddTensor(g.tensor(g.ops[0].outputs[0]))};
    EXPECT_FALSE(plan::EmbeddingAsRows(g, 0));
    EXPECT_EQ(g.tensor(g.inputs[0]).shape, (ir::Shape{1, 8}));
  }
  {  // a mean over the embedding's axis
    ir::Graph g = TextClassifier();
    g.ops[1].attrs.Set("axes", std::vector<int64_t>{2});
    EXPECT_FALSE(plan::EmbeddingAsRows(g, 0));
  }
  {  // keepdims: [1, 1, 4] is no Gemm operand
    ir::Graph g = TextClassifier();
    g.ops[1].attrs.Set("keepdims", int64_t{1});
    EXPECT_FALSE(plan::EmbeddingAsRows(g, 0));
  }
  {  // a Gather the untiled kernel runs: its rank-2 ids stay the caller's
    ir::Graph g = TextClassifier();
    EXPECT_EQ(analysis::ClassifyRowTiling(g, g.ops[0]).kind, analysis::RowTileClass::kUntileable);
  }
}

TEST(PlannerRewrites, ATextClassifierOverBudgetLooksUpABandOfTokensAtATime) {
  // The lookup is 128 B and the mean 16 B; at 112 B only bands of tokens fit.
  const ir::Graph graph = TextClassifier();
  EXPECT_TRUE(PlanModel(graph, {1024, 0, 0}).rewrites.empty());
  const PlanResult p = PlanModel(graph, {112, 0, 0});
  ASSERT_EQ(p.rewrites.size(), 1u);
  EXPECT_EQ(p.rewrites[0].op, "embed");
  EXPECT_EQ(p.rewrites[0].kind, "embedding-as-rows");
  EXPECT_EQ(p.verdict, plan::Verdict::kTiled);
  EXPECT_LE(p.scheduled_peak_bytes, 112);
  testing::ExpectPlanReplays(p);
}

}  // namespace
}  // namespace tigris
