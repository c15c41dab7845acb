#include "passes/qdq_params.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "util/error.h"

namespace tigris::passes {
namespace {

std::string Describe(const ir::Op& op) {
  return std::string(ir::OpTypeName(op.type)) + " node '" + op.name + "'";
}

[[noreturn]] void Fail(const ir::Op& op, const std::string& what) {
  throw Error(Status::kUnsupportedQuantization, Describe(op) + " " + what);
}

// ONNX TensorProto.DataType values of the output_dtype attribute (opset 21).
constexpr int64_t kOnnxUInt8 = 2;
constexpr int64_t kOnnxInt8 = 3;

ir::DType IntegerSide(const ir::Graph& graph, const ir::Op& op, const ir::Tensor& quantized) {
  if (op.input(2) != ir::kNoTensor) return graph.tensor(op.input(2)).dtype;
  if (quantized.dtype != ir::DType::kUnknown && quantized.dtype != ir::DType::kFloat32) {
    return quantized.dtype;
  }
  int64_t output_dtype = op.attrs.GetInt("output_dtype", 0);
  if (output_dtype == kOnnxInt8) return ir::DType::kInt8;
  if (output_dtype == kOnnxUInt8 || output_dtype == 0) return ir::DType::kUInt8;
  Fail(op,
       "has output_dtype " + std::to_string(output_dtype) + "; only int8 and uint8 are supported");
}

}  // namespace

QdqParams ReadQdqParams(const ir::Graph& graph, const ir::Op& op, const ir::Tensor& quantized) {
  if (op.input(1) == ir::kNoTensor) Fail(op, "has no scale input");
  if (op.attrs.GetInt("block_size", 0) != 0) {
    Fail(op, "uses blocked quantization (block_size), which is not supported");
  }
  const ir::Tensor& scale = graph.tensor(op.input(1));
  if (!scale.is_constant)
    Fail(op, "has a computed scale '" + scale.name + "'; it must be a constant");
  QdqParams params;
  params.quantized_dtype = IntegerSide(graph, op, quantized);
  if (params.quantized_dtype != ir::DType::kInt8 && params.quantized_dtype != ir::DType::kUInt8 &&
      params.quantized_dtype != ir::DType::kInt32) {
    Fail(op, "quantizes to " + std::string(ir::DTypeName(params.quantized_dtype)) +
                 "; only int8, uint8 (and int32 biases) are supported");
  }
  for (double s : ir::ConstantAsDoubles(scale)) params.scales.push_back(static_cast<float>(s));
  if (params.scales.empty()) Fail(op, "has an empty scale '" + scale.name + "'");
  for (float s : params.scales) {
    if (!(s > 0.0f)) Fail(op, "has a scale <= 0 or NaN in '" + scale.name + "'");
  }
  if (op.input(2) != ir::kNoTensor) {
    const ir::Tensor& zp = graph.tensor(op.input(2));
    if (!zp.is_constant)
      Fail(op, "has a computed zero point '" + zp.name + "'; it must be a constant");
    for (int64_t z : ir::ConstantAsInt64s(zp))
      params.zero_points.push_back(static_cast<int32_t>(z));
    if (params.zero_points.size() != params.scales.size()) {
      Fail(op, "has " + std::to_string(params.zero_points.size()) + " zero points in '" + zp.name +
                   "' for " + std::to_string(params.scales.size()) + " scales");
    }
  } else {
    params.zero_points.assign(params.scales.size(), 0);
  }
  if (params.scales.size() == 1) return params;  // per tensor, whatever the scale's rank

  if (scale.shape.size() != 1) Fail(op, "has a scale '" + scale.name + "' of rank > 1");
  int64_t rank = static_cast<int64_t>(quantized.shape.size());
  int64_t axis = op.attrs.GetInt("axis", 1);  // ONNX default
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    Fail(op, "has axis " + std::to_string(op.attrs.GetInt("axis", 1)) + " outside tensor '" +
                 quantized.name + "' of shape " + ir::ShapeToString(quantized.shape));
  }
  if (quantized.shape[static_cast<size_t>(axis)] != static_cast<int64_t>(params.scales.size())) {
    Fail(op, "has " + std::to_string(params.scales.size()) + " scales for axis " +
                 std::to_string(axis) + " of '" + quantized.name + "' (shape " +
                 ir::ShapeToString(quantized.shape) + ")");
  }
  params.axis = static_cast<int32_t>(axis);
  return params;
}

ir::QuantParams ToIrQuant(const QdqParams& params) {
  ir::QuantParams q;
  q.scales = params.scales;
  q.zero_points = params.zero_points;
  q.axis = params.axis;
  if (params.quantized_dtype == ir::DType::kUInt8) {
    for (int32_t& z : q.zero_points) z -= 128;
  }
  return q;
}

ir::DType RuntimeDType(const QdqParams& params) {
  return params.quantized_dtype == ir::DType::kInt32 ? ir::DType::kInt32 : ir::DType::kInt8;
}

std::vector<uint8_t> ShiftedToRuntime(const ir::Tensor& constant, const QdqParams& params) {
  if (params.quantized_dtype != ir::DType::kUInt8) return constant.data;
  std::vector<uint8_t> out(constant.data.size());
  for (size_t i = 0; i < out.size(); ++i) {
    // uint8 q in [0, 255] -> int8 q - 128 in [-128, 127], stored as its two's-complement byte.
    out[i] = static_cast<uint8_t>(static_cast<int8_t>(static_cast<int>(constant.data[i]) - 128));
  }
  return out;
}

namespace {

void CheckBytes(const ir::Tensor& constant) {
  if (static_cast<int64_t>(constant.data.size()) != constant.byte_size()) {
    throw Error(Status::kInvalidModel,
                "constant '" + constant.name + "' holds " + std::to_string(constant.data.size()) +
                    " bytes, its shape and dtype need " + std::to_string(constant.byte_size()));
  }
}

// The index into params.scales of element `i` of `constant`: elements sharing one channel
// index are contiguous runs of `inner` along params.axis.
class ChannelOf {
 public:
  ChannelOf(const ir::Tensor& constant, const QdqParams& params) {
    if (params.axis < 0) return;
    channels_ = constant.shape[static_cast<size_t>(params.axis)];
    for (size_t d = static_cast<size_t>(params.axis) + 1; d < constant.shape.size(); ++d) {
      inner_ *= constant.shape[d];
    }
  }
  size_t operator()(size_t i) const {
    return static_cast<size_t>((static_cast<int64_t>(i) / inner_) % channels_);
  }

 private:
  int64_t inner_ = 1;
  int64_t channels_ = 1;
};

}  // namespace

std::vector<float> DequantizeConstant(const ir::Tensor& constant, const QdqParams& params) {
  CheckBytes(constant);
  const std::vector<double> q = ir::ConstantAsDoubles(constant);
  const ChannelOf channel(constant, params);
  std::vector<float> out(q.size());
  for (size_t i = 0; i < q.size(); ++i) {
    const size_t c = channel(i);
    // ONNX computes (x - zero_point) * scale in float32.
    out[i] = static_cast<float>(q[i] - params.zero_points[c]) * params.scales[c];
  }
  return out;
}

std::vector<uint8_t> QuantizeConstant(const ir::Tensor& constant, const QdqParams& params) {
  CheckBytes(constant);
  const bool is_signed = params.quantized_dtype == ir::DType::kInt8;
  const float lo = is_signed ? -128.0f : 0.0f;
  const float hi = is_signed ? 127.0f : 255.0f;
  const ChannelOf channel(constant, params);
  std::vector<uint8_t> out(constant.data.size() / sizeof(float));
  for (size_t i = 0; i < out.size(); ++i) {
    float x;
    std::memcpy(&x, constant.data.data() + i * sizeof(float), sizeof(float));
    const size_t c = channel(i);
    // nearbyint rounds half to even in the default rounding mode, as QuantizeLinear does.
    const float v = std::isnan(x) ? 0.0f : std::nearbyint(x / params.scales[c]);
    const float q = std::clamp(v + static_cast<float>(params.zero_points[c]), lo, hi);
    out[i] = is_signed ? static_cast<uint8_t>(static_cast<int8_t>(q)) : static_cast<uint8_t>(q);
  }
  return out;
}

}  // namespace tigris::passes
