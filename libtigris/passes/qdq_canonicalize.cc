// qdq-canonicalize: the QDQ forms other exporters write become the form qdq-fold reads
// (onnxruntime's quantize_static: every op between DequantizeLinear inputs and
// QuantizeLinear outputs). tf2onnx, converting int8 TFLite models, writes three others
// (../shared/models/onnx-from-tflite/README.md):
//
// 1. A layout op reading a quantized activation directly:
//      x -> QuantizeLinear(s, zp) -> xq -> Reshape -> yq -> DequantizeLinear(s, zp) -> ...
//    becomes
//      x -> QuantizeLinear -> xq -> DequantizeLinear -> Reshape -> QuantizeLinear -> yq -> ...
//    with the Q's own parameters on both sides; likewise for an int8/uint8 graph input read
//    by a layout op whose output only DequantizeLinear nodes read (tf2onnx's NHWC input
//    Transpose), with the DQs' parameters. Exact: Reshape, Flatten, Squeeze,
//    Unsqueeze and Transpose move elements without changing them, so they commute with
//    (de)quantization when it is per tensor (a per-axis one would follow the axis through
//    a Transpose; none is rewritten, and qdq-fold names the node). yq keeps its tensor id,
//    so its readers are untouched and a chain of layout ops unrolls one op per round.
//
// 2. A clamp between an op and its QuantizeLinear:
//      Conv -> y -> Relu -> z -> QuantizeLinear(s, zp)
//    becomes
//      Conv -> y -> QuantizeLinear(s, zp) -> DequantizeLinear(s, zp) -> Relu -> z -> QuantizeLinear
//    so Conv and Relu both fold to int8 (activation-fuse then merges the clamp into the
//    Conv). Exact for Relu and Clip with constant bounds: with r(v) = round_half_even(v / s)
//    + zp (monotone) and sat the int8 saturation, q(clamp(y)) = sat(clamp(r(y), r(lo),
//    r(hi))) because a monotone map commutes with a clamp, and the split form computes
//    sat(clamp(sat(r(y)), r(lo), r(hi))) (dq then r gives back the integer exactly). The
//    two agree for every input: inside the saturation range the inner sat does nothing;
//    above it, either the clamp's upper bound is below the range top and both give it, or
//    both saturate to the top; symmetrically below. (tests/passes/qdq_canonicalize_test.cc
//    checks this by brute force.)
//
// 3. A TFLite FullyConnected as MatMul + bias Add becomes one Gemm (FuseMatMulBias says when
//    that is exact).
//
// Everything else is left for qdq-fold, which rejects what it cannot fold by name.
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/qdq_params.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

using ir::OpType;
using ir::TensorId;

bool IsLayoutOp(OpType type) {
  return type == OpType::kReshape || type == OpType::kFlatten || type == OpType::kSqueeze ||
         type == OpType::kUnsqueeze || type == OpType::kTranspose;
}

bool PerTensor(const QdqParams& p) { return p.scales.size() == 1 && p.zero_points.size() == 1; }

// Relu, or Clip whose bounds (inputs 1 and 2 from opset 11, attributes before) are
// constants: the clamps pattern 2 moves quantization through.
bool IsConstantClamp(const ir::Graph& graph, const ir::Op& op) {
  if (op.type == OpType::kRelu) return true;
  if (op.type != OpType::kClip) return false;
  double lo = op.attrs.GetFloat("min", -std::numeric_limits<float>::infinity());
  double hi = op.attrs.GetFloat("max", std::numeric_limits<float>::infinity());
  for (size_t k = 1; k <= 2; ++k) {
    TensorId bound = op.input(k);
    if (bound == ir::kNoTensor) continue;
    const ir::Tensor& t = graph.tensor(bound);
    if (!t.is_constant || t.dtype != ir::DType::kFloat32 || t.num_elements() != 1 ||
        t.data.size() != sizeof(float)) {
      return false;
    }
    (k == 1 ? lo : hi) = t.DataAs<float>()[0];
  }
  return !std::isnan(lo) && !std::isnan(hi) && lo <= hi;
}

class QdqCanonicalizer {
 public:
  explicit QdqCanonicalizer(ir::Graph& graph) : graph_(graph), namer_(graph) {}

  // One rewrite, the first whose pattern holds, on fresh producer/consumer indexes (a
  // rewrite changes the readers the next one checks). Returns whether anything changed.
  // A rewritten op reads a DequantizeLinear output afterwards and never matches again, so
  // there are at most as many rounds as ops.
  bool Round() {
    producer_ = graph_.ProducerIndex();
    consumers_ = graph_.ConsumerIndex();
    for (size_t i = 0; i < graph_.ops.size(); ++i) {
      before_.clear();
      after_.clear();
      if (FuseMatMulBias(i)) return true;  // edits the op list itself
      if (UnwrapLayoutOp(i) || SplitClamp(i)) {
        Splice(i);
        return true;
      }
    }
    return false;
  }

 private:
  const ir::Op* QuantizeProducing(TensorId t) const {
    int p = t == ir::kNoTensor ? -1 : producer_[static_cast<size_t>(t)];
    if (p < 0 || graph_.ops[static_cast<size_t>(p)].type != OpType::kQuantizeLinear) {
      return nullptr;
    }
    return &graph_.ops[static_cast<size_t>(p)];
  }

  std::optional<QdqParams> Params(const ir::Op& qdq, TensorId quantized) const {
    QdqParams p = ReadQdqParams(graph_, qdq, graph_.tensor(quantized));
    if (!PerTensor(p) || p.quantized_dtype == ir::DType::kInt32) return std::nullopt;
    return p;
  }

  TensorId NewTensor(const std::string& base, ir::DType dtype, const ir::Shape& shape) {
    ir::Tensor t;
    t.name = graph_.UniqueTensorName(base);
    t.dtype = dtype;
    t.shape = shape;
    return graph_.AddTensor(std::move(t));
  }

  // A QuantizeLinear or DequantizeLinear op with `like`'s scale and zero point inputs.
  ir::Op QdqOp(OpType type, const std::string& name, const ir::Op& like, TensorId in,
               TensorId out) {
    ir::Op op;
    op.type = type;
    op.name = namer_.Unique(name);
    op.inputs = {in, like.input(1), like.input(2)};
    op.outputs = {out};
    return op;
  }

  // The readers of `t` when every one is a `type` node (QuantizeLinear or
  // DequantizeLinear) reading it at input 0, all with the same per-tensor parameters; the
  // first of them, or nullptr. `t` is no graph output.
  const ir::Op* SoleQdqReaders(TensorId t, OpType type) const {
    const ir::Op* first = nullptr;
    std::optional<QdqParams> params;
    if (graph_.IsGraphOutput(t) || consumers_[static_cast<size_t>(t)].empty()) return nullptr;
    for (int r : consumers_[static_cast<size_t>(t)]) {
      const ir::Op& node = graph_.ops[static_cast<size_t>(r)];
      if (node.type != type || node.input(0) != t || node.outputs.size() != 1) return nullptr;
      // The quantized side: a DQ's input, a Q's output.
      std::optional<QdqParams> p =
          Params(node, type == OpType::kDequantizeLinear ? t : node.outputs[0]);
      if (!p || (params && *params != *p)) return nullptr;
      params = p;
      if (first == nullptr) first = &node;
    }
    return first;
  }

  bool IsIntegerGraphInput(TensorId t) const {
    const ir::Tensor& x = graph_.tensor(t);
    return !x.is_constant && producer_[static_cast<size_t>(t)] < 0 &&
           (x.dtype == ir::DType::kInt8 || x.dtype == ir::DType::kUInt8);
  }

  // Pattern 1: layout op i reads a quantized activation at input 0: the output of a
  // QuantizeLinear (its parameters), or an int8/uint8 graph input whose layout op output
  // only DequantizeLinear nodes read (theirs: the NHWC input Transpose of tf2onnx).
  bool UnwrapLayoutOp(size_t i) {
    ir::Op& op = graph_.ops[i];
    if (!IsLayoutOp(op.type) || op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor ||
        op.input(0) == ir::kNoTensor) {
      return false;
    }
    const TensorId xq = op.input(0), yq = op.outputs[0];
    const ir::Op* like = QuantizeProducing(xq);
    if (like != nullptr) {
      if (!Params(*like, xq)) return false;
    } else if (IsIntegerGraphInput(xq)) {
      like = SoleQdqReaders(yq, OpType::kDequantizeLinear);
      if (like == nullptr) return false;
    } else {
      return false;
    }
    // Copied: the new tensors do not move ops, but the rewrite below reads `like` after
    // op's fields change.
    const ir::Op params = *like;
    const TensorId xd = NewTensor(graph_.tensor(xq).name + "_dequantized", ir::DType::kFloat32,
                                  graph_.tensor(xq).shape);
    const TensorId yf =
        NewTensor(graph_.tensor(yq).name + "_float", ir::DType::kFloat32, graph_.tensor(yq).shape);
    before_.push_back(QdqOp(OpType::kDequantizeLinear, op.name + "_dequantize", params, xq, xd));
    after_.push_back(QdqOp(OpType::kQuantizeLinear, op.name + "_quantize", params, yf, yq));
    if (params.type == OpType::kQuantizeLinear) after_.back().attrs = params.attrs;
    op.inputs[0] = xd;
    op.outputs[0] = yf;
    return true;
  }

  // Pattern 2: clamp i sits between a float producer and QuantizeLinear readers.
  bool SplitClamp(size_t i) {
    const ir::Op& clamp = graph_.ops[i];
    if (!IsConstantClamp(graph_, clamp) || clamp.outputs.size() != 1 ||
        clamp.outputs[0] == ir::kNoTensor) {
      return false;
    }
    const TensorId y = clamp.input(0), z = clamp.outputs[0];
    if (y == ir::kNoTensor || graph_.IsGraphOutput(y) || graph_.IsGraphOutput(z)) return false;
    const int p = producer_[static_cast<size_t>(y)];
    if (p < 0 || consumers_[static_cast<size_t>(y)].size() != 1) return false;
    const OpType producer_type = graph_.ops[static_cast<size_t>(p)].type;
    if (producer_type == OpType::kDequantizeLinear || producer_type == OpType::kQuantizeLinear) {
      return false;  // already in the canonical form
    }
    const ir::Op* first = SoleQdqReaders(z, OpType::kQuantizeLinear);
    if (first == nullptr) return false;
    const ir::Op quantize = *first;
    const ir::DType qtype = graph_.tensor(quantize.outputs[0]).dtype;
    const TensorId yq =
        NewTensor(graph_.tensor(y).name + "_quantized", qtype, graph_.tensor(y).shape);
    const TensorId yd = NewTensor(graph_.tensor(y).name + "_dequantized", ir::DType::kFloat32,
                                  graph_.tensor(y).shape);
    ir::Op& op = graph_.ops[i];
    before_.push_back(QdqOp(OpType::kQuantizeLinear, op.name + "_input_quantize", quantize, y, yq));
    before_.back().attrs = quantize.attrs;
    before_.push_back(
        QdqOp(OpType::kDequantizeLinear, op.name + "_input_dequantize", quantize, yq, yd));
    op.inputs[0] = yd;
    return true;
  }

  // The DequantizeLinear producing `t` and its parameters when it reads a constant of
  // `dtype`; nullopt otherwise.
  std::optional<std::pair<const ir::Op*, QdqParams>> DequantizedConstant(TensorId t,
                                                                         ir::DType dtype) const {
    const int p = t == ir::kNoTensor ? -1 : producer_[static_cast<size_t>(t)];
    if (p < 0) return std::nullopt;
    const ir::Op& dq = graph_.ops[static_cast<size_t>(p)];
    if (dq.type != OpType::kDequantizeLinear || !graph_.IsConstant(dq.input(0)) ||
        graph_.tensor(dq.input(0)).dtype != dtype) {
      return std::nullopt;
    }
    return std::pair{&dq, ReadQdqParams(graph_, dq, graph_.tensor(dq.input(0)))};
  }

  // Pattern 3: MatMul(DQ(a), DQ(int8 weight [K, N])) -> t -> Add(t, DQ(int32 bias [N])) ->
  // QuantizeLinear, which tf2onnx writes for a TFLite FullyConnected, becomes one
  // Gemm(DQ(a), DQ(weight), DQ(bias)) -> QuantizeLinear, the form qdq-fold folds to int8.
  // Exact when the bias scale is the product of the input and weight scales (TFLite's
  // rule): the int32 bias then adds to the integer accumulator unchanged. With any other
  // bias scale the pair stays float.
  bool FuseMatMulBias(size_t i) {
    const ir::Op& mm = graph_.ops[i];
    if (mm.type != OpType::kMatMul || mm.inputs.size() != 2 || mm.outputs.size() != 1) {
      return false;
    }
    const TensorId a = mm.inputs[0], t = mm.outputs[0];
    const int a_producer = a == ir::kNoTensor ? -1 : producer_[static_cast<size_t>(a)];
    if (a_producer < 0 || graph_.tensor(a).shape.size() != 2 ||  // Gemm's A is a matrix
        graph_.ops[static_cast<size_t>(a_producer)].type != OpType::kDequantizeLinear ||
        graph_.IsGraphOutput(t) || consumers_[static_cast<size_t>(t)].size() != 1) {
      return false;
    }
    const auto weight = DequantizedConstant(mm.inputs[1], ir::DType::kInt8);
    if (!weight || graph_.tensor(weight->first->input(0)).shape.size() != 2) return false;
    const int64_t n = graph_.tensor(weight->first->input(0)).shape[1];
    const size_t add_index = static_cast<size_t>(consumers_[static_cast<size_t>(t)][0]);
    const ir::Op& add = graph_.ops[add_index];
    if (add.type != OpType::kAdd || add.inputs.size() != 2 || add.outputs.size() != 1) {
      return false;
    }
    const TensorId c = add.inputs[0] == t ? add.inputs[1] : add.inputs[0];
    const auto bias = DequantizedConstant(c, ir::DType::kInt32);
    if (c == t || !bias || graph_.tensor(bias->first->input(0)).shape != ir::Shape{n} ||
        SoleQdqReaders(add.outputs[0], OpType::kQuantizeLinear) == nullptr) {
      return false;
    }
    const ir::Op& a_dq = graph_.ops[static_cast<size_t>(a_producer)];
    const QdqParams a_params = ReadQdqParams(graph_, a_dq, graph_.tensor(a_dq.input(0)));
    if (!PerTensor(a_params) || !BiasScaleIsProduct(a_params, weight->second, bias->second, n)) {
      return false;
    }
    ir::Op gemm;
    gemm.type = OpType::kGemm;
    gemm.name = mm.name;
    gemm.inputs = {a, mm.inputs[1], c};
    gemm.outputs = {add.outputs[0]};
    // In the Add's place: the bias's DequantizeLinear may come after the MatMul.
    graph_.ops[add_index] = std::move(gemm);
    graph_.ops.erase(graph_.ops.begin() + static_cast<std::ptrdiff_t>(i));
    return true;
  }

  // scale_c[j] == scale_a * scale_b[j] (to float rounding) and zero point 0, for every
  // output channel j; the weight and bias may each be per tensor or per channel.
  static bool BiasScaleIsProduct(const QdqParams& a, const QdqParams& b, const QdqParams& c,
                                 int64_t n) {
    auto at = [n](const QdqParams& p, int64_t j) -> std::optional<std::pair<float, int32_t>> {
      if (p.scales.size() == 1) return std::pair{p.scales[0], p.zero_points[0]};
      if (static_cast<int64_t>(p.scales.size()) != n) return std::nullopt;
      return std::pair{p.scales[static_cast<size_t>(j)], p.zero_points[static_cast<size_t>(j)]};
    };
    if (b.scales.size() > 1 && b.axis != 1) return false;  // per channel means per column
    for (int64_t j = 0; j < n; ++j) {
      const auto sb = at(b, j), sc = at(c, j);
      if (!sb || !sc || sc->second != 0) return false;
      const double product = static_cast<double>(a.scales[0]) * sb->first;
      if (!(std::fabs(sc->first - product) <= 1e-6 * product)) return false;
    }
    return true;
  }

  // Puts the new ops in execution order, right before and after op i.
  void Splice(size_t i) {
    auto at = graph_.ops.begin() + static_cast<std::ptrdiff_t>(i);
    at = graph_.ops.insert(at + 1, after_.begin(), after_.end()) - 1;
    graph_.ops.insert(at, before_.begin(), before_.end());
  }

  ir::Graph& graph_;
  OpNamer namer_;
  std::vector<int> producer_;
  std::vector<std::vector<int>> consumers_;
  std::vector<ir::Op> before_, after_;  // the ops the current rewrite adds
};

}  // namespace

void QdqCanonicalize(ir::Graph& graph) {
  QdqCanonicalizer canonicalizer(graph);
  const size_t max_rounds = graph.ops.size() + 1;  // see Round()
  for (size_t r = 0; r < max_rounds && canonicalizer.Round(); ++r) {
  }
}

}  // namespace tigris::passes
