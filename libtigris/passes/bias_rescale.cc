// bias-rescale (an added pass, after conv-bias-add-fold; pipeline.cc): an int8 layer's
// int32 bias is added to the accumulator, whose grid is s_in * s_w[c], so the bias codes
// must be on that grid. quantize_static writes them there, except where it folds Gemm's
// beta into the bias's scale (test_gemm_beta: beta = 0.5, bias scale 0.5 * s_in * s_w):
// codes added as they are would answer wrongly in silence. Here they move to the
// accumulator's grid:
//
//   before:  Gemm(x [s_in], w [s_w], c int32 [scale 0.5 * s_in * s_w], codes 47914, ...)
//   after:   Gemm(x [s_in], w [s_w], c' int32 [scale s_in * s_w], codes 23957, ...)
//
// c' = round_half_even(c * s_c / (s_in * s_w[c])), computed in double: the value moves by
// at most half a step of the accumulator's grid, far below one step of the output's (what
// onnxruntime, which adds the dequantized bias in float, would round to), so the output
// stays within its 1 LSB. A code that leaves int32 is a kUnsupportedQuantization naming
// the layer. A bias already on the grid (the exporter's usual case) is left untouched.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool HasInt32Bias(const ir::Op& op) {
  switch (op.type) {
    case ir::OpType::kConv:
    case ir::OpType::kDepthwiseConv:
    case ir::OpType::kConv1D:
    case ir::OpType::kConvTranspose:
    case ir::OpType::kGemm:
      return op.inputs.size() > 2 && op.input(2) != ir::kNoTensor;
    default:
      return false;
  }
}

// The accumulator's scale for output channel c: s_in * s_w[c] (s_w per tensor or per
// channel).
double AccumulatorScale(const ir::QuantParams& in, const ir::QuantParams& w, size_t c) {
  const float s_w = w.scales.size() == 1 ? w.scales[0] : w.scales.at(c);
  return static_cast<double>(in.scales[0]) * static_cast<double>(s_w);
}

// True when every channel's bias scale equals the accumulator's, to float32 precision (the
// exporter computes it as a float32 product).
bool OnTheGrid(const ir::QuantParams& bias, const ir::QuantParams& in, const ir::QuantParams& w,
               size_t channels) {
  for (size_t c = 0; c < channels; ++c) {
    const double want = AccumulatorScale(in, w, c);
    const double have = bias.scales.size() == 1 ? bias.scales[0] : bias.scales.at(c);
    if (std::fabs(have - want) > 1e-6 * want) return false;
  }
  return true;
}

}  // namespace

void BiasRescale(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (!HasInt32Bias(op)) continue;
    const ir::Tensor& x = graph.tensor(op.input(0));
    const ir::Tensor& w = graph.tensor(op.input(1));
    const ir::Tensor& bias = graph.tensor(op.input(2));
    if (bias.dtype != ir::DType::kInt32 || !bias.is_constant || !bias.quant || !x.quant ||
        !w.quant || x.quant->scales.size() != 1 || w.quant->scales.empty()) {
      continue;  // not an int8 layer's bias: the emitter and verifier name what is wrong
    }
    const size_t channels = static_cast<size_t>(bias.num_elements());
    const ir::QuantParams& bq = *bias.quant;
    if ((bq.scales.size() != 1 && bq.scales.size() != channels) ||
        (w.quant->scales.size() != 1 && w.quant->scales.size() != channels) ||
        OnTheGrid(bq, *x.quant, *w.quant, channels)) {
      continue;
    }
    const std::vector<int64_t> codes = ir::ConstantAsInt64s(bias);
    std::vector<int32_t> moved(channels);
    ir::QuantParams grid;
    for (size_t c = 0; c < channels; ++c) {
      const double scale = AccumulatorScale(*x.quant, *w.quant, c);
      const double have = bq.scales.size() == 1 ? bq.scales[0] : bq.scales[c];
      const double zero =
          bq.zero_points.empty() ? 0.0 : bq.zero_points[bq.scales.size() == 1 ? 0 : c];
      const double value = std::nearbyint((static_cast<double>(codes[c]) - zero) * have / scale);
      if (value < std::numeric_limits<int32_t>::min() ||
          value > std::numeric_limits<int32_t>::max()) {
        throw Error(Status::kUnsupportedQuantization, DescribeOp(op) + ": bias '" + bias.name +
                                                          "' channel " + std::to_string(c) +
                                                          " on the accumulator's grid (scale " +
                                                          std::to_string(scale) + ") leaves int32");
      }
      moved[c] = static_cast<int32_t>(value);
      grid.scales.push_back(static_cast<float>(scale));
      grid.zero_points.push_back(0);
    }
    grid.axis = channels > 1 ? 0 : -1;
    ir::Tensor rescaled;
    rescaled.name = graph.UniqueTensorName(bias.name + "_rescaled");
    rescaled.shape = bias.shape;
    rescaled.dtype = ir::DType::kInt32;
    rescaled.is_constant = true;
    rescaled.SetData(moved);
    rescaled.quant = grid;
    op.inputs[2] = graph.AddTensor(std::move(rescaled));
  }
}

}  // namespace tigris::passes
