// Helpers shared by the analysis and plan tests: conv-family ops with zero weights whose
// shapes follow ONNX (weights [Cout, Cin/group, KH, KW], pads [top, left, bottom, right]).
#ifndef TIGRIS_TESTS_ANALYSIS_CONV_GRAPHS_H_
#define TIGRIS_TESTS_ANALYSIS_CONV_GRAPHS_H_

#include <string>
#include <vector>

#include "support/graph_builder.h"

namespace tigris::testing {

struct ConvSpec {
  int64_t out_channels = 1;
  int64_t kernel = 3;
  int64_t stride = 1;
  int64_t pad = 1;
  int64_t dilation = 1;
  bool depthwise = false;
};

// Appends a square Conv (or DepthwiseConv) reading NCHW `in`; returns its output.
inline ir::TensorId AddConv(GraphBuilder& b, const std::string& name, ir::TensorId in,
                            const ConvSpec& spec) {
  const ir::Shape in_shape = b.graph().tensor(in).shape;
  const ir::DType dtype = b.graph().tensor(in).dtype;
  const int64_t cin = in_shape[1];
  const int64_t cout = spec.depthwise ? cin : spec.out_channels;
  const int64_t group = spec.depthwise ? cin : 1;
  const int64_t eff = (spec.kernel - 1) * spec.dilation + 1;
  const int64_t oh = (in_shape[2] + 2 * spec.pad - eff) / spec.stride + 1;
  const int64_t ow = (in_shape[3] + 2 * spec.pad - eff) / spec.stride + 1;
  const ir::Shape w_shape = {cout, cin / group, spec.kernel, spec.kernel};
  const ir::TensorId w = b.Floats(
      name + "_w", w_shape, std::vector<float>(static_cast<size_t>(ir::NumElements(w_shape))));
  ir::Attributes attrs =
      Attrs({{"kernel_shape", std::vector<int64_t>{spec.kernel, spec.kernel}},
             {"strides", std::vector<int64_t>{spec.stride, spec.stride}},
             {"pads", std::vector<int64_t>{spec.pad, spec.pad, spec.pad, spec.pad}},
             {"dilations", std::vector<int64_t>{spec.dilation, spec.dilation}},
             {"group", group}});
  return b.Op(spec.depthwise ? ir::OpType::kDepthwiseConv : ir::OpType::kConv, name, {in, w},
              name + "_out", {in_shape[0], cout, oh, ow}, attrs, dtype);
}

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_ANALYSIS_CONV_GRAPHS_H_
