// Activation fuse (tigris-compilation-pipeline.txt, stage 2, pass 13): a Relu or Relu6
// right after a Conv, DepthwiseConv, Gemm or Conv1D is applied by that op's kernel as it
// writes its output (Op::fused_activation), saving a pass over the activation and its
// buffer.
//
// Before:  x -> Conv -> t -> Relu6 -> y
// After:   x -> Conv[fused_activation = relu6] -> y
//
// Conditions: t has no other reader and is not a graph output (its pre-activation value
// must not be needed anywhere), and the producer has no fused activation yet. The producer
// then writes the activation's output tensor y, so y's name (a graph output stays one),
// dtype and quantization are kept.
//
// int8 graphs: the fused op's output takes y's QuantParams, not t's. That is exact up to
// 1 LSB: the kernel requantizes its accumulator straight to y's scale and then clamps at
// y's zero point (and at the quantized 6 for Relu6), while the reference requantizes to
// t's scale, clamps, and requantizes to y's scale; the two differ only in the rounding of
// that extra step.
//
// Runs last so every relabel (depthwise-conv, conv1d, clip-to-relu6) and rewire is done.
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool IsFusableProducer(ir::OpType type) {
  return type == ir::OpType::kConv || type == ir::OpType::kDepthwiseConv ||
         type == ir::OpType::kGemm || type == ir::OpType::kConv1D;
}

ir::Activation ActivationOf(ir::OpType type) {
  if (type == ir::OpType::kRelu) return ir::Activation::kRelu;
  if (type == ir::OpType::kRelu6) return ir::Activation::kRelu6;
  return ir::Activation::kNone;
}

}  // namespace

void ActivationFuse(ir::Graph& graph) {
  std::vector<int> producers = graph.ProducerIndex();
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& act = graph.ops[i];
    const ir::Activation activation = ActivationOf(act.type);
    if (activation == ir::Activation::kNone || act.outputs.size() != 1) continue;
    const ir::TensorId t = act.input(0);
    if (t == ir::kNoTensor) continue;
    const int p = producers.at(static_cast<size_t>(t));
    if (p < 0) continue;
    ir::Op& producer = graph.ops[static_cast<size_t>(p)];
    if (!IsFusableProducer(producer.type) || producer.fused_activation != ir::Activation::kNone ||
        producer.outputs.size() != 1) {
      continue;
    }
    if (SoleConsumer(graph, consumers, t) != static_cast<int>(i)) continue;
    const ir::TensorId y = act.outputs[0];
    producer.fused_activation = activation;
    AbsorbSuccessor(graph, p, static_cast<int>(i), dead);
    producers.at(static_cast<size_t>(y)) = p;
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
