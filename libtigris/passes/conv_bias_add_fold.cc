// Conv bias-add fold (an added pass, not in the reference): a float Conv without a fused
// activation, followed by an Add of a constant that varies only along channels, takes the
// constant into its bias.
//
//   before: x -> Conv(W)            -> t -> Add(t, b[C,1,1]) -> y -> Relu
//   after:  x -> Conv(W, bias=b[C]) -> y                          -> Relu
//
// CNTK (mnist8) and some Keras exports write the bias this way. Folding it is exact in
// float32 (the kernel adds the bias to the accumulator, the Add added it to the result:
// the same single rounding), and it lets activation-fuse absorb the Relu that follows.
// int8 graphs are left alone: there the Add rounds to int8 between the two.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool IsConvFamily(ir::OpType type) {
  return type == ir::OpType::kConv || type == ir::OpType::kDepthwiseConv ||
         type == ir::OpType::kConv1D;
}

// The per-channel values of `addend` for a conv output of shape `out` ([N, C, ...]), or
// empty when the constant varies along anything but C (or broadcasts the output larger).
std::vector<float> PerChannel(const ir::Tensor& addend, const ir::Shape& out) {
  if (addend.dtype != ir::DType::kFloat32 || addend.quant || out.size() < 2) return {};
  const int64_t channels = out[1];
  const ir::Shape& s = addend.shape;
  if (s.size() > out.size()) return {};
  // Align right (numpy broadcasting); every axis other than C must be 1, and C must be 1
  // (scalar) or match.
  size_t offset = out.size() - s.size();
  int64_t addend_channels = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    size_t axis = i + offset;
    if (axis == 1) {
      if (s[i] != 1 && s[i] != channels) return {};
      addend_channels = s[i];
    } else if (s[i] != 1) {
      return {};
    }
  }
  std::vector<float> values = FloatConstant(addend);
  if (addend_channels == channels) return values;
  return std::vector<float>(static_cast<size_t>(channels), values.at(0));
}

}  // namespace

void ConvBiasAddFold(ir::Graph& graph) {
  std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  std::vector<bool> dead(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    ir::Op& conv = graph.ops[i];
    if (!IsConvFamily(conv.type) || conv.fused_activation != ir::Activation::kNone) continue;
    const ir::Tensor& conv_out = graph.tensor(conv.outputs.at(0));
    if (conv_out.dtype != ir::DType::kFloat32 || conv_out.quant) continue;
    int add_index = SoleConsumer(graph, consumers, conv.outputs[0]);
    if (add_index < 0 || graph.ops[add_index].type != ir::OpType::kAdd) continue;
    const ir::Op& add = graph.ops[add_index];
    if (add.inputs.size() != 2) continue;
    ir::TensorId other = add.inputs[0] == conv.outputs[0] ? add.inputs[1] : add.inputs[0];
    if (!graph.IsConstant(other)) continue;
    // The Add must not broadcast the result to a larger shape.
    if (graph.tensor(add.outputs.at(0)).shape != conv_out.shape) continue;
    std::vector<float> addend = PerChannel(graph.tensor(other), conv_out.shape);
    if (addend.empty()) continue;

    std::vector<float> bias(addend.size(), 0.0f);
    if (conv.input(2) != ir::kNoTensor) bias = FloatConstant(graph.tensor(conv.input(2)));
    if (bias.size() != addend.size()) continue;
    for (size_t c = 0; c < bias.size(); ++c) bias[c] += addend[c];
    // A new constant: the old bias may be shared with another Conv.
    ir::TensorId bias_id =
        AddFloatConstant(graph, conv.name + "_bias", {static_cast<int64_t>(bias.size())}, bias);
    conv.inputs.resize(3, ir::kNoTensor);
    conv.inputs[2] = bias_id;
    AbsorbSuccessor(graph, static_cast<int>(i), add_index, dead);
  }
  graph.EraseOps(dead);
}

}  // namespace tigris::passes
