// Reference pass 13 (tigris-compilation-pipeline.txt, stage 2): Relu / Relu6 after Conv,
// DepthwiseConv, Gemm or Conv1D becomes the producer's fused_activation.
#include <gtest/gtest.h>

#include "passes/passes.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::Activation;
using ir::DType;
using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

struct Chain {
  ir::Graph graph;
  ir::TensorId t;  // producer output
  ir::TensorId y;  // activation output
};

// x -> producer -> t -> activation -> y (graph output).
Chain ProducerThenActivation(OpType producer, OpType activation) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  ir::TensorId w = b.Floats("w", {2, 1, 1, 1}, {1.0f, 2.0f});
  ir::TensorId t = b.Op(producer, "producer", {x, w}, "t", {1, 2, 4, 4});
  ir::TensorId y = b.Op(activation, "act", {t}, "y", {1, 2, 4, 4});
  b.Output(y);
  return {b.Take(), t, y};
}

TEST(ActivationFuse, ReluAfterConvFuses) {
  Chain c = ProducerThenActivation(OpType::kConv, OpType::kRelu);
  passes::ActivationFuse(c.graph);
  ASSERT_EQ(OpTypes(c.graph), std::vector<std::string>{"Conv"});
  EXPECT_EQ(c.graph.ops[0].fused_activation, Activation::kRelu);
  // The Conv writes the Relu's output, which stays the graph output.
  EXPECT_EQ(c.graph.ops[0].outputs, std::vector<ir::TensorId>{c.y});
  EXPECT_EQ(c.graph.outputs, std::vector<ir::TensorId>{c.y});
}

TEST(ActivationFuse, Relu6FusesIntoEveryWeightedKernel) {
  for (OpType producer : {OpType::kConv, OpType::kDepthwiseConv, OpType::kGemm, OpType::kConv1D}) {
    Chain c = ProducerThenActivation(producer, OpType::kRelu6);
    passes::ActivationFuse(c.graph);
    ASSERT_EQ(c.graph.ops.size(), 1u) << ir::OpTypeName(producer);
    EXPECT_EQ(c.graph.ops[0].type, producer);
    EXPECT_EQ(c.graph.ops[0].fused_activation, Activation::kRelu6);
  }
}

TEST(ActivationFuse, ConvOutputThatIsGraphOutputIsNotFused) {
  Chain c = ProducerThenActivation(OpType::kConv, OpType::kRelu);
  c.graph.outputs.push_back(c.t);
  passes::ActivationFuse(c.graph);
  EXPECT_EQ(OpTypes(c.graph), (std::vector<std::string>{"Conv", "Relu"}));
  EXPECT_EQ(c.graph.ops[0].fused_activation, Activation::kNone);
}

TEST(ActivationFuse, ConvOutputWithAnotherReaderIsNotFused) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  ir::TensorId t = b.Op(OpType::kConv, "conv", {x, b.Floats("w", {2, 2, 1, 1}, {1, 0, 0, 1})}, "t",
                        {1, 2, 4, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {t}, "r", {1, 2, 4, 4});
  b.Output(b.Op(OpType::kAdd, "add", {t, r}, "y", {1, 2, 4, 4}));
  ir::Graph g = b.Take();

  passes::ActivationFuse(g);

  EXPECT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu", "Add"}));
  EXPECT_EQ(g.ops[0].fused_activation, Activation::kNone);
}

TEST(ActivationFuse, OtherProducersAndClipAreNotFused) {
  Chain pool = ProducerThenActivation(OpType::kMaxPool, OpType::kRelu);
  passes::ActivationFuse(pool.graph);
  EXPECT_EQ(OpTypes(pool.graph), (std::vector<std::string>{"MaxPool", "Relu"}));

  Chain clip = ProducerThenActivation(OpType::kConv, OpType::kClip);
  passes::ActivationFuse(clip.graph);
  EXPECT_EQ(OpTypes(clip.graph), (std::vector<std::string>{"Conv", "Clip"}));
}

TEST(ActivationFuse, SecondActivationAfterFusedOneStays) {
  // Conv -> Relu -> Relu6: the Relu fuses; the Conv then has an activation, so the Relu6
  // (reading the Conv's new output) stays a separate op.
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 2, 4, 4});
  ir::TensorId t =
      b.Op(OpType::kConv, "conv", {x, b.Floats("w", {2, 1, 1, 1}, {1, 2})}, "t", {1, 2, 4, 4});
  ir::TensorId r = b.Op(OpType::kRelu, "relu", {t}, "r", {1, 2, 4, 4});
  b.Output(b.Op(OpType::kRelu6, "relu6", {r}, "y", {1, 2, 4, 4}));
  ir::Graph g = b.Take();

  passes::ActivationFuse(g);

  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Conv", "Relu6"}));
  EXPECT_EQ(g.ops[0].fused_activation, Activation::kRelu);
  EXPECT_EQ(g.ops[1].inputs, std::vector<ir::TensorId>{r});
}

TEST(ActivationFuse, Int8FusedOutputTakesActivationQuantization) {
  Chain c = ProducerThenActivation(OpType::kConv, OpType::kRelu);
  c.graph.tensor(c.t).dtype = DType::kInt8;
  c.graph.tensor(c.t).quant = ir::QuantParams{{0.1f}, {5}, -1};
  c.graph.tensor(c.y).dtype = DType::kInt8;
  c.graph.tensor(c.y).quant = ir::QuantParams{{0.05f}, {-128}, -1};

  passes::ActivationFuse(c.graph);

  ASSERT_EQ(c.graph.ops.size(), 1u);
  const ir::Tensor& out = c.graph.tensor(c.graph.ops[0].outputs.at(0));
  ASSERT_TRUE(out.quant.has_value());
  EXPECT_EQ(out.quant->scales, std::vector<float>{0.05f});
  EXPECT_EQ(out.quant->zero_points, std::vector<int32_t>{-128});
}

}  // namespace
}  // namespace tigris
