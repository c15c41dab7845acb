// BatchNorm fold (tigris-compilation-pipeline.txt, stage 2, pass 3; extended to Gemm).
//
// At inference BatchNormalization is a per-channel affine map,
//   y = (x - mean) * gamma / sqrt(var + eps) + beta = x * s + (beta - mean * s),
// so when x is the output of a Conv (or the Conv's later relabels) or of a canonical Gemm
// (after gemm-normalize: B is [N, K], one row per output channel) the map folds into that
// op's weights and bias:
//   w'[c, ...] = w[c, ...] * s[c]        b'[c] = (b[c] - mean[c]) * s[c] + beta[c]
// (a missing bias counts as 0). The producer then writes the BatchNorm's output tensor.
//
// Before:  x -> Conv(w, b) -> t -> BatchNormalization(gamma, beta, mean, var) -> y
// After:   x -> Conv(w', b') -> y
//
// Left alone (BatchNormalization is itself a runtime op, so these still run):
//  - t has another reader or is a graph output (the unnormalized value is still needed);
//  - the producer is anything else (e.g. Selu in conv2d_small_maxpool.onnx);
//  - int8 weights (qdq-fold kept them quantized; rescaling them would change their
//    quantization), non-constant weights or BN parameters, a non-canonical Gemm.
#include <cmath>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool HasChannelWeights(ir::OpType type) {
  return type == ir::OpType::kConv || type == ir::OpType::kDepthwiseConv ||
         type == ir::OpType::kConv1D || type == ir::OpType::kGemm;
}

// The form gemm-normalize produces: y = A * B^T + C with B [N, K] and C absent or [N].
bool IsCanonicalGemm(const ir::Op& op) {
  return op.attrs.GetInt("transA", 0) == 0 && op.attrs.GetInt("transB", 0) == 1 &&
         op.attrs.GetFloat("alpha", 1.0f) == 1.0f && op.attrs.GetFloat("beta", 1.0f) == 1.0f;
}

bool IsFloatConstant(const ir::Graph& graph, ir::TensorId id) {
  return graph.IsConstant(id) && graph.tensor(id).dtype == ir::DType::kFloat32;
}

// Extra BatchNormalization outputs (training-mode running statistics) must be unused.
bool OnlyFirstOutputUsed(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                         const ir::Op& bn) {
  for (size_t i = 1; i < bn.outputs.size(); ++i) {
    ir::TensorId out = bn.outputs[i];
    if (out == ir::kNoTensor) continue;
    if (graph.IsGraphOutput(out) || !consumers.at(static_cast<size_t>(out)).empty()) return false;
  }
  return true;
}

// Per-channel scale s and shift (beta - mean * s) of a BatchNormalization whose four
// parameter inputs are float32 constants of `channels` elements.
struct ChannelAffine {
  std::vector<double> scale;
  std::vector<double> mean;
  std::vector<double> beta;
};

ChannelAffine ReadBatchNorm(const ir::Graph& graph, const ir::Op& bn, int64_t channels) {
  std::vector<float> gamma = FloatConstant(graph.tensor(bn.input(1)));
  std::vector<float> beta = FloatConstant(graph.tensor(bn.input(2)));
  std::vector<float> mean = FloatConstant(graph.tensor(bn.input(3)));
  std::vector<float> var = FloatConstant(graph.tensor(bn.input(4)));
  const size_t c = static_cast<size_t>(channels);
  if (gamma.size() != c || beta.size() != c || mean.size() != c || var.size() != c) {
    throw Error(Status::kInvalidModel, DescribeOp(bn) + ": scale/B/mean/var must have " +
                                           std::to_string(channels) +
                                           " elements, one per output channel of its input");
  }
  const double eps = bn.attrs.GetFloat("epsilon", 1e-5f);
  ChannelAffine affine;
  for (size_t i = 0; i < c; ++i) {
    double denom = static_cast<double>(var[i]) + eps;
    if (!(denom > 0.0)) {
      throw Error(
          Status::kInvalidModel,
          DescribeOp(bn) + ": var + epsilon must be positive (channel " + std::to_string(i) + ")");
    }
    affine.scale.push_back(gamma[i] / std::sqrt(denom));
    affine.mean.push_back(mean[i]);
    affine.beta.push_back(beta[i]);
  }
  return affine;
}

// Folds `bn` into `producer`'s weight (input 1) and bias (input 2). Returns false (graph
// unchanged) when the operands are not foldable float32 constants.
bool FoldInto(ir::Graph& graph, ir::Op& producer, const ir::Op& bn) {
  ir::TensorId weight_id = producer.input(1);
  ir::TensorId bias_id = producer.input(2);
  if (!IsFloatConstant(graph, weight_id)) return false;  // int8 or runtime-computed weights
  if (bias_id != ir::kNoTensor && !IsFloatConstant(graph, bias_id)) return false;
  for (size_t i = 1; i <= 4; ++i) {
    if (!IsFloatConstant(graph, bn.input(i))) return false;
  }
  if (producer.type == ir::OpType::kGemm && !IsCanonicalGemm(producer)) return false;

  const ir::Tensor& weight = graph.tensor(weight_id);
  if (weight.shape.empty() || weight.shape[0] <= 0) {
    throw Error(Status::kInvalidModel, DescribeOp(producer) + ": weight '" + weight.name +
                                           "' has shape " + ir::ShapeToString(weight.shape) +
                                           ", expected [C_out, ...]");
  }
  const int64_t channels = weight.shape[0];
  ChannelAffine affine = ReadBatchNorm(graph, bn, channels);

  std::vector<float> w = FloatConstant(weight);
  const size_t per_channel = w.size() / static_cast<size_t>(channels);
  for (size_t c = 0; c < static_cast<size_t>(channels); ++c) {
    for (size_t k = 0; k < per_channel; ++k) {
      float& v = w[c * per_channel + k];
      v = static_cast<float>(v * affine.scale[c]);
    }
  }
  std::vector<float> b(static_cast<size_t>(channels), 0.0f);
  if (bias_id != ir::kNoTensor) {
    b = FloatConstant(graph.tensor(bias_id));
    if (b.size() != static_cast<size_t>(channels)) {
      throw Error(Status::kInvalidModel, DescribeOp(producer) + ": bias '" +
                                             graph.tensor(bias_id).name + "' must have " +
                                             std::to_string(channels) + " elements");
    }
  }
  for (size_t c = 0; c < b.size(); ++c) {
    b[c] = static_cast<float>((b[c] - affine.mean[c]) * affine.scale[c] + affine.beta[c]);
  }

  // New constants, never edits in place: a weight may be shared with another op.
  ir::Shape weight_shape = weight.shape;
  std::string weight_name = weight.name + "_bn";
  ir::TensorId new_weight = AddFloatConstant(graph, weight_name, weight_shape, w);
  ir::TensorId new_bias = AddFloatConstant(graph, producer.name + "_bn_bias", {channels}, b);
  if (producer.inputs.size() < 3) producer.inputs.resize(3, ir::kNoTensor);
  producer.inputs[1] = new_weight;
  producer.inputs[2] = new_bias;
  return true;
}

}  // namespace

void BatchNormFold(ir::Graph& graph) {
  std::vector<int> producers = graph.ProducerIndex();
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& bn = graph.ops[i];
    if (bn.type != ir::OpType::kBatchNormalization || bn.outputs.empty()) continue;
    ir::TensorId x = bn.input(0);
    if (x == ir::kNoTensor) continue;
    int p = producers.at(static_cast<size_t>(x));
    if (p < 0 || !HasChannelWeights(graph.ops[static_cast<size_t>(p)].type)) continue;
    if (SoleConsumer(graph, consumers, x) != static_cast<int>(i)) continue;
    if (!OnlyFirstOutputUsed(graph, consumers, bn)) continue;
    if (!FoldInto(graph, graph.ops[static_cast<size_t>(p)], graph.ops[i])) continue;
    ir::TensorId y = graph.ops[i].outputs[0];
    AbsorbSuccessor(graph, p, static_cast<int>(i), dead);
    // A second BatchNormalization reading y now sees the producer (folds again).
    producers.at(static_cast<size_t>(y)) = p;
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
