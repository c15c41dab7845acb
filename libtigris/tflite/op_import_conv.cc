// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D: TFLite's
// channels-last kernels as ONNX Conv / Gemm / pools, weights permuted at import.
#include <algorithm>

#include "tflite/layout.h"
#include "tflite/op_import.h"

namespace tigris::tflite_import {
namespace {

// TFLite's padding rule (tensorflow/lite/kernels/padding.h): SAME pads so that the output
// has ceil(in / stride) positions, the odd pixel after; VALID pads nothing. Returns
// {before, after} for one spatial axis.
std::pair<int64_t, int64_t> Padding(fb::Padding padding, int64_t in, int64_t kernel, int64_t stride,
                                    int64_t dilation) {
  if (padding != fb::Padding::SAME) return {0, 0};
  const int64_t out = (in + stride - 1) / stride;
  const int64_t extent = (kernel - 1) * dilation + 1;
  const int64_t total = std::max<int64_t>((out - 1) * stride + extent - in, 0);
  return {total / 2, total - total / 2};
}

struct Window {
  int64_t kh, kw, sh, sw, dh = 1, dw = 1;
  fb::Padding padding;
};

// Strides, dilations and padding of Conv2DOptions / DepthwiseConv2DOptions (the kernel
// extent comes from the weights).
template <typename Options>
Window StridesOf(const Options& o) {
  Window w{};
  w.sh = o.stride_h();
  w.sw = o.stride_w();
  w.dh = o.dilation_h_factor();
  w.dw = o.dilation_w_factor();
  w.padding = o.padding();
  return w;
}

// The attributes ONNX Conv and the pools share, from an NHWC input shape.
ir::Attributes WindowAttrs(const ModelImporter& m, const OpSite& site,
                           const std::vector<int64_t>& in, const Window& w) {
  // 2^16 bounds every product below (a crafted dilation of 2^31 times a kernel extent of
  // 2^32 would overflow the padding arithmetic).
  constexpr int64_t kMax = int64_t{1} << 16;
  const auto bad = [&](int64_t v) { return v <= 0 || v > kMax; };
  if (bad(w.sh) || bad(w.sw) || bad(w.dh) || bad(w.dw) || bad(w.kh) || bad(w.kw)) {
    m.Refuse(site, Status::kInvalidModel,
             "its window is " + std::to_string(w.kh) + "x" + std::to_string(w.kw) +
                 " with strides " + std::to_string(w.sh) + "x" + std::to_string(w.sw) +
                 " and dilations " + std::to_string(w.dh) + "x" + std::to_string(w.dw) +
                 "; all must be in [1, 65536]");
  }
  const auto [top, bottom] = Padding(w.padding, in[1], w.kh, w.sh, w.dh);
  const auto [left, right] = Padding(w.padding, in[2], w.kw, w.sw, w.dw);
  ir::Attributes attrs;
  attrs.Set("kernel_shape", std::vector<int64_t>{w.kh, w.kw});
  attrs.Set("strides", std::vector<int64_t>{w.sh, w.sw});
  attrs.Set("pads", std::vector<int64_t>{top, left, bottom, right});
  return attrs;
}

std::vector<int64_t> Rank4Input(const ModelImporter& m, const OpSite& site, int x) {
  std::vector<int64_t> shape = m.TflShape(x);
  if (shape.size() != 4) {
    m.Refuse(site, Status::kInvalidModel,
             "its input " + m.TensorLabel(x) + " has rank " + std::to_string(shape.size()) +
                 "; the op reads [N, H, W, C]");
  }
  return shape;
}

// Conv and depthwise share everything but the weight layout and the group count.
void ImportConvLike(ModelImporter& m, const OpSite& site, const Window& window,
                    fb::ActivationFunctionType activation, bool depthwise) {
  const int x = m.Input(site, 0);
  const int w = m.Input(site, 1);
  const int b = m.Input(site, 2, /*optional=*/true);
  const std::vector<int64_t> in = Rank4Input(m, site, x);
  const std::vector<int64_t> wshape = m.TflShape(w);
  if (wshape.size() != 4) {
    m.Refuse(site, Status::kInvalidModel, "its weights " + m.TensorLabel(w) + " are not rank 4");
  }
  Window win = window;
  win.kh = wshape[1];
  win.kw = wshape[2];
  ir::Attributes attrs = WindowAttrs(m, site, in, win);
  attrs.Set("dilations", std::vector<int64_t>{win.dh, win.dw});
  int64_t group = 1;
  std::vector<int64_t> perm;
  if (depthwise) {
    // [1, KH, KW, C * M] -> ONNX's [C * M, 1, KH, KW], one group per input channel.
    if (wshape[0] != 1 || wshape[3] % in[3] != 0) {
      m.Refuse(site, Status::kInvalidModel,
               "its weights " + m.TensorLabel(w) + " are not [1, KH, KW, C * multiplier] for " +
                   std::to_string(in[3]) + " input channels");
    }
    group = in[3];
    perm = {3, 0, 1, 2};
  } else {
    // [O, KH, KW, I] -> [O, I, KH, KW]; C / I groups (grouped convolution).
    if (wshape[3] <= 0 || in[3] % wshape[3] != 0) {
      m.Refuse(site, Status::kInvalidModel,
               "its weights " + m.TensorLabel(w) + " take " + std::to_string(wshape[3]) +
                   " input channels, which do not divide the input's " + std::to_string(in[3]));
    }
    group = in[3] / wshape[3];
    perm = IrFromTflPerm(4);
  }
  attrs.Set("group", group);
  std::vector<ir::TensorId> inputs = {m.Real(x), m.Weights(site, w, perm)};
  if (b >= 0) inputs.push_back(m.Weights(site, b, {0}));
  m.Define(site, m.Output(site, 0), m.AddOp(site, ir::OpType::kConv, inputs, attrs), activation);
}

}  // namespace

void ImportConv2D(ModelImporter& m, const OpSite& site) {
  const auto& o =
      RequireOptions(m, site, site.op->builtin_options_as_Conv2DOptions(), "Conv2DOptions");
  ImportConvLike(m, site, StridesOf(o), o.fused_activation_function(), /*depthwise=*/false);
}

void ImportDepthwiseConv2D(ModelImporter& m, const OpSite& site) {
  const auto& o = RequireOptions(m, site, site.op->builtin_options_as_DepthwiseConv2DOptions(),
                                 "DepthwiseConv2DOptions");
  ImportConvLike(m, site, StridesOf(o), o.fused_activation_function(), /*depthwise=*/true);
}

void ImportPool2D(ModelImporter& m, const OpSite& site) {
  const auto& o =
      RequireOptions(m, site, site.op->builtin_options_as_Pool2DOptions(), "Pool2DOptions");
  const int x = m.Input(site, 0);
  Window w{};
  w.kh = o.filter_height();
  w.kw = o.filter_width();
  w.sh = o.stride_h();
  w.sw = o.stride_w();
  w.padding = o.padding();
  // TFLite's average pool divides by the taps inside the input, as ONNX's
  // count_include_pad = 0 (the default).
  const ir::Attributes attrs = WindowAttrs(m, site, Rank4Input(m, site, x), w);
  const ir::OpType type = site.code == fb::BuiltinOperator::MAX_POOL_2D ? ir::OpType::kMaxPool
                                                                        : ir::OpType::kAveragePool;
  m.Define(site, m.Output(site, 0), m.AddOp(site, type, {m.Real(x)}, attrs),
           o.fused_activation_function());
}

// y = x W^T + b over x flattened to [batch, I] in the file's own (channels-last) order:
// ONNX Gemm with transB = 1.
void ImportFullyConnected(ModelImporter& m, const OpSite& site) {
  const auto& o = RequireOptions(m, site, site.op->builtin_options_as_FullyConnectedOptions(),
                                 "FullyConnectedOptions");
  if (o.weights_format() != fb::FullyConnectedOptionsWeightsFormat::DEFAULT) {
    m.Refuse(site, Status::kUnsupportedOp, "its weights use the shuffled format");
  }
  const int x = m.Input(site, 0);
  const int w = m.Input(site, 1);
  const int b = m.Input(site, 2, /*optional=*/true);
  const int y = m.Output(site, 0);
  const std::vector<int64_t> wshape = m.TflShape(w);
  const std::vector<int64_t> in = m.TflShape(x);
  if (wshape.size() != 2) {
    m.Refuse(site, Status::kInvalidModel, "its weights " + m.TensorLabel(w) + " are not [O, I]");
  }
  int64_t count = 1;
  for (int64_t d : in) count *= d;
  if (count % wshape[1] != 0) {
    m.Refuse(site, Status::kInvalidModel,
             "its input " + m.TensorLabel(x) + " has " + std::to_string(count) +
                 " elements, not a multiple of the weights' " + std::to_string(wshape[1]));
  }
  if (m.Rank(y) != 2) {
    m.Refuse(site, Status::kUnsupportedOp,
             "its output " + m.TensorLabel(y) + " has rank " + std::to_string(m.Rank(y)) +
                 " (keep_num_dims); only [batch, units] outputs are supported");
  }
  ir::TensorId real = m.Real(x);
  if (!(in.size() == 2 && in[1] == wshape[1])) {
    if (in.size() == 4) {
      real = m.Restore(x, m.Transpose(site, real, TflFromIrPerm(4), "_to_nhwc"), "_q");
    }
    const std::vector<int64_t> flat = {count / wshape[1], wshape[1]};
    real = m.AddOp(site, ir::OpType::kReshape, {real, m.Int64Constant(site.name + "_shape", flat)},
                   {}, "_flatten");
    real = m.Restore(x, real, "_q");
  }
  ir::Attributes attrs;
  attrs.Set("transB", int64_t{1});
  std::vector<ir::TensorId> inputs = {real, m.Weights(site, w, {0, 1})};
  if (b >= 0) inputs.push_back(m.Weights(site, b, {0}));
  m.Define(site, y, m.AddOp(site, ir::OpType::kGemm, inputs, attrs), o.fused_activation_function());
}

}  // namespace tigris::tflite_import
