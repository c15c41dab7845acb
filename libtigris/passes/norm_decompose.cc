// Norm decompose: LayerNormalization, InstanceNormalization and LpNormalization become the
// runtime's reductions and binary ops, computed as ONNX's reference computes them
// (onnx/reference/ops/op_layer_normalization.py and friends, float32 throughout):
//
//   LayerNorm(X, scale, B; axis, epsilon), A = [axis, rank):
//     mean = ReduceMean(X, A, keepdims);  d = X - mean;  var = ReduceMean(d * d, A, keepdims)
//     Y = d / Sqrt(var + epsilon) * scale + B
//   InstanceNorm(X, scale, B; epsilon): the same over A = [2, rank), with scale and B of
//     shape [C] reshaped to [C, 1, ...] so that they broadcast along channels;
//   LpNorm(X; axis, p): Y = X / max(ReduceL{p}(X, [axis], keepdims), 2^-149), p = 1 or 2
//     (the max keeps a zero vector zero, as the reference's where(norm == 0, x, x / norm)).
//   GroupNorm(X, scale, bias; num_groups G, epsilon), opset 21: the mean and variance of
//     each group of C / G channels over the map, every channel's from a 1x1 convolution of
//     the per-channel statistics (RunGroup says why not ONNX's reshapes); scale and bias
//     per channel.
//
// Runs before qdq-fold: in a QDQ model (quantize_static quantizes LayerNormalization and
// InstanceNormalization) the decomposed ops sit between a DequantizeLinear and a
// QuantizeLinear and become a float island, which is what onnxruntime computes too; their
// intermediates need no quantization the model does not give. LayerNormalization's
// optional Mean and InvStdDev outputs may be declared but not read (a training output).
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool IsNorm(ir::OpType type) {
  return type == ir::OpType::kLayerNormalization || type == ir::OpType::kInstanceNormalization ||
         type == ir::OpType::kGroupNormalization || type == ir::OpType::kLpNormalization;
}

// Emits the decomposition of one op into `out`, naming new ops and tensors after it.
class Decomposer {
 public:
  Decomposer(ir::Graph& graph, const ir::Op& op, OpNamer& namer, std::vector<ir::Op>& out)
      : graph_(graph), op_(op), namer_(namer), out_(out) {}

  void Run() {
    const ir::Shape shape = graph_.tensor(op_.input(0)).shape;
    const int64_t rank = static_cast<int64_t>(shape.size());
    if (op_.type == ir::OpType::kLpNormalization) {
      const int64_t p = op_.attrs.GetInt("p", 2);
      const int64_t axis = Axis(op_.attrs.GetInt("axis", -1), rank);
      const ir::Shape reduced = Reduced(shape, axis);
      const ir::TensorId norm = Emit(p == 1 ? ir::OpType::kReduceL1 : ir::OpType::kReduceL2,
                                     {op_.input(0), Axes({axis})}, "norm", reduced);
      // ONNX's reference keeps x where the norm is 0 (x is all zeros there): dividing by
      // max(norm, 2^-149), the smallest float above 0, gives 0 / 2^-149 = 0 there and
      // x / norm everywhere else.
      const ir::TensorId tiny = AddFloatConstant(graph_, Name("tiny"), {}, {0x1p-149f});
      const ir::TensorId safe = Emit(ir::OpType::kMax, {norm, tiny}, "norm_safe", reduced);
      Emit(ir::OpType::kDiv, {op_.input(0), safe}, "", shape, op_.outputs[0]);
      return;
    }
    if (op_.type == ir::OpType::kGroupNormalization) {
      RunGroup(shape);
      return;
    }
    const int64_t first = op_.type == ir::OpType::kInstanceNormalization
                              ? 2
                              : Axis(op_.attrs.GetInt("axis", -1), rank);
    const ir::TensorId n = Standardize(op_.input(0), shape, first);
    ir::TensorId scale = op_.input(1), bias = op_.input(2);
    if (op_.type == ir::OpType::kInstanceNormalization) {
      scale = PerChannel(scale, rank, "scale");
      bias = bias != ir::kNoTensor ? PerChannel(bias, rank, "bias") : ir::kNoTensor;
    }
    Affine(n, scale, bias, shape);
  }

 private:
  // GroupNorm without leaving X's shape: a Reshape to [N, G, ...] would move channels-last
  // bytes twice (the runtime's Reshape transposes once). Per-channel means over the map,
  // then a 1x1 convolution by the constant matrix M (M[c][c'] = 1 / (C / G) when c and c'
  // share a group, else 0), give each channel its group's mean; the variance likewise from
  // the squared deviations. Y = (X - mean) / sqrt(var + epsilon) * scale + bias per channel.
  void RunGroup(const ir::Shape& shape) {
    const int64_t groups = op_.attrs.GetInt("num_groups");
    const int64_t rank = static_cast<int64_t>(shape.size());
    const int64_t channels = shape[1], size = channels / groups;
    std::vector<int64_t> axes;
    ir::Shape kept(static_cast<size_t>(rank), 1);
    kept[0] = shape[0];
    kept[1] = channels;
    for (int64_t a = 2; a < rank; ++a) axes.push_back(a);
    std::vector<float> m(static_cast<size_t>(channels * channels), 0.0f);
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t k = 0; k < channels; ++k) {
        if (c / size == k / size) m[static_cast<size_t>(c * channels + k)] = 1.0f / size;
      }
    }
    ir::Shape m_shape(static_cast<size_t>(rank), 1);
    m_shape[0] = m_shape[1] = channels;
    const ir::TensorId group_mean = AddFloatConstant(graph_, Name("group_mean"), m_shape, m);
    const ir::TensorId x = op_.input(0);
    const ir::TensorId mean_c = Emit(ir::OpType::kReduceMean, {x, Axes(axes)}, "mean_c", kept);
    const ir::TensorId mean = Emit(ir::OpType::kConv, {mean_c, group_mean}, "mean", kept);
    const ir::TensorId d = Emit(ir::OpType::kSub, {x, mean}, "centered", shape);
    const ir::TensorId sq = Emit(ir::OpType::kMul, {d, d}, "squared", shape);
    const ir::TensorId var_c = Emit(ir::OpType::kReduceMean, {sq, Axes(axes)}, "var_c", kept);
    const ir::TensorId var = Emit(ir::OpType::kConv, {var_c, group_mean}, "var", kept);
    const ir::TensorId n = Emit(ir::OpType::kDiv, {d, StdDev(var, kept)}, "normalized", shape);
    Affine(n, PerChannel(op_.input(1), rank, "scale"), PerChannel(op_.input(2), rank, "bias"),
           shape);
  }

  // sqrt(var + epsilon).
  ir::TensorId StdDev(ir::TensorId var, const ir::Shape& shape) {
    const float epsilon = op_.attrs.GetFloat("epsilon", 1e-5f);
    const ir::TensorId eps = AddFloatConstant(graph_, Name("epsilon"), {}, {epsilon});
    const ir::TensorId ve = Emit(ir::OpType::kAdd, {var, eps}, "var_eps", shape);
    return Emit(ir::OpType::kSqrt, {ve}, "std", shape);
  }

  // (x - mean) / sqrt(var + epsilon), mean and variance over the axes [first, rank).
  ir::TensorId Standardize(ir::TensorId x, const ir::Shape& shape, int64_t first) {
    std::vector<int64_t> axes;
    ir::Shape kept = shape;
    for (int64_t a = first; a < static_cast<int64_t>(shape.size()); ++a) {
      axes.push_back(a);
      kept[static_cast<size_t>(a)] = 1;
    }
    const ir::TensorId mean = Emit(ir::OpType::kReduceMean, {x, Axes(axes)}, "mean", kept);
    const ir::TensorId d = Emit(ir::OpType::kSub, {x, mean}, "centered", shape);
    const ir::TensorId sq = Emit(ir::OpType::kMul, {d, d}, "squared", shape);
    const ir::TensorId var = Emit(ir::OpType::kReduceMean, {sq, Axes(axes)}, "var", kept);
    return Emit(ir::OpType::kDiv, {d, StdDev(var, kept)}, "normalized", shape);
  }

  // Y = n * scale (+ bias), written into the op's output.
  void Affine(ir::TensorId n, ir::TensorId scale, ir::TensorId bias, const ir::Shape& shape) {
    if (bias == ir::kNoTensor) {
      Emit(ir::OpType::kMul, {n, scale}, "", shape, op_.outputs[0]);
      return;
    }
    const ir::TensorId scaled = Emit(ir::OpType::kMul, {n, scale}, "scaled", shape);
    Emit(ir::OpType::kAdd, {scaled, bias}, "", shape, op_.outputs[0]);
  }

  int64_t Axis(int64_t axis, int64_t rank) const {
    if (axis < -rank || axis >= rank) {
      throw Error(Status::kInvalidModel, DescribeOp(op_) + ": axis " + std::to_string(axis) +
                                             " is outside rank " + std::to_string(rank));
    }
    return axis < 0 ? axis + rank : axis;
  }

  std::string Name(const std::string& what) const {
    return graph_.tensor(op_.outputs[0]).name + "_" + what;
  }

  static ir::Shape Reduced(ir::Shape shape, int64_t axis) {
    shape[static_cast<size_t>(axis)] = 1;
    return shape;
  }

  ir::TensorId Axes(const std::vector<int64_t>& axes) {
    ir::Tensor t;
    t.SetData(axes);
    return graph_.AddConstant(Name("axes"), ir::DType::kInt64, {static_cast<int64_t>(axes.size())},
                              std::move(t.data));
  }

  // An [C] operand as [C, 1, ...] (rank - 1 dims), so that it broadcasts along axis 1.
  ir::TensorId PerChannel(ir::TensorId id, int64_t rank, const std::string& what) {
    ir::Shape shape(static_cast<size_t>(rank - 1), 1);
    shape[0] = graph_.tensor(id).num_elements();
    const ir::TensorId reshaped = AddTensorLike(graph_, id, Name(what), shape);
    out_.push_back(MakeReshape(namer_.Unique(op_.name + "_" + what), id, reshaped, shape));
    return reshaped;
  }

  // Appends op `type`(inputs) writing a new float32 tensor `what` of `shape`, or `into`.
  ir::TensorId Emit(ir::OpType type, std::vector<ir::TensorId> inputs, const std::string& what,
                    const ir::Shape& shape, ir::TensorId into = ir::kNoTensor) {
    if (into == ir::kNoTensor) {
      ir::Tensor t;
      t.name = graph_.UniqueTensorName(Name(what));
      t.dtype = ir::DType::kFloat32;
      t.shape = shape;
      into = graph_.AddTensor(std::move(t));
    }
    ir::Op op;
    op.type = type;
    op.name = namer_.Unique(op_.name + (what.empty() ? "" : "_" + what));
    op.inputs = std::move(inputs);
    op.outputs = {into};
    out_.push_back(std::move(op));
    return into;
  }

  ir::Graph& graph_;
  const ir::Op& op_;
  OpNamer& namer_;
  std::vector<ir::Op>& out_;
};

// The forms decomposed here; anything else is refused naming the op.
void Check(const ir::Graph& graph, const ir::Op& op) {
  if (op.input(0) == ir::kNoTensor || op.outputs.empty()) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + " needs its data input and output");
  }
  if (graph.tensor(op.input(0)).dtype != ir::DType::kFloat32) {
    throw Error(Status::kUnsupportedDType, DescribeOp(op) + ": input '" +
                                               graph.tensor(op.input(0)).name +
                                               "' is not float32 (dequantize it first)");
  }
  if (op.type != ir::OpType::kLpNormalization && op.input(1) == ir::kNoTensor) {
    throw Error(Status::kInvalidModel, DescribeOp(op) + " needs its scale input");
  }
  for (size_t i = 1; i < op.outputs.size(); ++i) {
    const ir::TensorId extra = op.outputs[i];
    bool read = extra != ir::kNoTensor && graph.IsGraphOutput(extra);
    for (const ir::Op& other : graph.ops) {
      for (ir::TensorId in : other.inputs) read = read || (extra != ir::kNoTensor && in == extra);
    }
    if (read) {
      throw Error(Status::kUnsupportedOp,
                  DescribeOp(op) + ": output " + std::to_string(i) + " ('" +
                      graph.tensor(extra).name +
                      "', a training statistic) is read; the runtime computes Y only");
    }
  }
}

}  // namespace

void NormDecompose(ir::Graph& graph) {
  bool any = false;
  for (const ir::Op& op : graph.ops) {
    if (!IsNorm(op.type)) continue;
    Check(graph, op);
    any = true;
  }
  if (!any) return;
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (!IsNorm(op.type)) {
      rewritten.push_back(std::move(op));
      continue;
    }
    Decomposer(graph, op, namer, rewritten).Run();
  }
  graph.ops = std::move(rewritten);
}

}  // namespace tigris::passes
