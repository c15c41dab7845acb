// Constant-expression fold (an added pass, not in the reference): ops whose result is
// fully determined by constants become constants, in one forward sweep over the
// topologically ordered ops, so a chain folds front to back.
//
// Folded: Shape of any tensor (every extent is known after loading), and Gather, Slice,
// Cast, Squeeze, Unsqueeze, Concat, integer Add/Sub/Mul/Div and integer or bool
// comparisons, And/Or/Xor and Where whose inputs are all constants; Reshape, Flatten,
// Squeeze and Unsqueeze of constant data, which only relabel the bytes. Example (mnist8):
//
//   before: W[256,10] (initializer) -> Reshape(shape=[256,10]) -> W' -> MatMul(x, W')
//   after:  W' is a constant                                          -> MatMul(x, W')
//
// It runs right after qdq-fold, so matmul-add-to-gemm and batchnorm-fold see such weights
// as constants; shape-op-fold (reference pass 9) runs it again for chains that only
// become constant later. Concat, Squeeze and Unsqueeze of activations are data ops and
// stay (Concat runs on the MCU; reshape-canonicalize turns the other two into Reshape).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ir/slice.h"
#include "passes/passes.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

std::string Where(const ir::Graph& graph, const ir::Op& op) {
  return std::string(ir::OpTypeName(op.type)) + " node '" + op.name + "' of model '" + graph.name +
         "'";
}

int64_t NormalizeAxis(const ir::Graph& graph, const ir::Op& op, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    throw Error(Status::kInvalidModel, Where(graph, op) + ": axis " + std::to_string(axis) +
                                           " is out of range for rank " + std::to_string(rank));
  }
  return axis < 0 ? axis + rank : axis;
}

// Product of shape[begin, end).
int64_t Extent(const ir::Shape& shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) n *= shape[i];
  return n;
}

// The result of evaluating one op: element bytes, their dtype and shape.
struct Folded {
  ir::DType dtype = ir::DType::kUnknown;
  ir::Shape shape;
  std::vector<uint8_t> data;
};

// Shape(x) -> int64 vector of x's extents; opset 15 adds start/end (clamped like Slice).
Folded FoldShape(const ir::Graph& graph, const ir::Op& op) {
  const ir::Shape& dims = graph.tensor(op.input(0)).shape;
  const int64_t rank = static_cast<int64_t>(dims.size());
  auto clamp = [rank](int64_t v) {
    if (v < 0) v += rank;
    return v < 0 ? 0 : (v > rank ? rank : v);
  };
  const int64_t start = clamp(op.attrs.GetInt("start", 0));
  const int64_t end = clamp(op.attrs.GetInt("end", rank));
  std::vector<int64_t> values;
  for (int64_t i = start; i < end; ++i) values.push_back(dims[static_cast<size_t>(i)]);
  Folded out;
  out.dtype = ir::DType::kInt64;
  out.shape = {static_cast<int64_t>(values.size())};
  out.data.resize(values.size() * sizeof(int64_t));
  if (!values.empty()) std::memcpy(out.data.data(), values.data(), out.data.size());
  return out;
}

// Gather(data, indices, axis): out[outer, i..., inner] = data[outer, indices[i...], inner].
Folded FoldGather(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& data = graph.tensor(op.input(0));
  const ir::Tensor& indices_tensor = graph.tensor(op.input(1));
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  if (rank == 0) {
    throw Error(Status::kInvalidModel, Where(graph, op) + ": cannot gather from a scalar");
  }
  const size_t axis =
      static_cast<size_t>(NormalizeAxis(graph, op, op.attrs.GetInt("axis", 0), rank));
  const std::vector<int64_t> indices = ir::ConstantAsInt64s(indices_tensor);
  const int64_t outer = Extent(data.shape, 0, axis);
  const int64_t dim = data.shape[axis];
  const size_t inner_bytes = static_cast<size_t>(Extent(data.shape, axis + 1, data.shape.size())) *
                             ir::DTypeSize(data.dtype);

  Folded out;
  out.dtype = data.dtype;
  out.shape.assign(data.shape.begin(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  out.shape.insert(out.shape.end(), indices_tensor.shape.begin(), indices_tensor.shape.end());
  out.shape.insert(out.shape.end(), data.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                   data.shape.end());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : indices) {
      if (index < -dim || index >= dim) {
        throw Error(Status::kInvalidModel, Where(graph, op) + ": index " + std::to_string(index) +
                                               " is out of range for " + "extent " +
                                               std::to_string(dim));
      }
      if (index < 0) index += dim;
      const size_t at = static_cast<size_t>(o * dim + index) * inner_bytes;
      out.data.insert(out.data.end(), data.data.begin() + static_cast<std::ptrdiff_t>(at),
                      data.data.begin() + static_cast<std::ptrdiff_t>(at + inner_bytes));
    }
  }
  return out;
}

// Slice(data, starts, ends[, axes[, steps]]) (opset 10+) or with attributes (opset < 10).
std::optional<Folded> FoldSlice(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& data = graph.tensor(op.input(0));
  const int64_t rank = static_cast<int64_t>(data.shape.size());
  std::vector<int64_t> starts, ends, axes, steps;
  if (op.input(1) != ir::kNoTensor) {
    starts = ir::ConstantAsInt64s(graph.tensor(op.input(1)));
    ends = ir::ConstantAsInt64s(graph.tensor(op.input(2)));
    if (op.input(3) != ir::kNoTensor) axes = ir::ConstantAsInt64s(graph.tensor(op.input(3)));
    if (op.input(4) != ir::kNoTensor) steps = ir::ConstantAsInt64s(graph.tensor(op.input(4)));
  } else {
    starts = op.attrs.GetInts("starts");
    ends = op.attrs.GetInts("ends");
    axes = op.attrs.GetInts("axes");
  }
  ir::SliceWindow window;
  const std::string error = ir::ResolveSlice(data.shape, starts, ends, axes, steps, &window);
  if (!error.empty()) throw Error(Status::kInvalidModel, Where(graph, op) + ": " + error);
  // Per axis, the source indices it keeps.
  std::vector<std::vector<int64_t>> kept(static_cast<size_t>(rank));
  for (size_t a = 0; a < kept.size(); ++a) {
    for (int64_t k = 0; k < window.extent[a]; ++k) {
      kept[a].push_back(window.first[a] + k * window.step[a]);
    }
  }

  Folded out;
  out.dtype = data.dtype;
  for (const auto& list : kept) out.shape.push_back(static_cast<int64_t>(list.size()));
  const int64_t count = ir::NumElements(out.shape);
  const size_t elem = ir::DTypeSize(data.dtype);
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int64_t a = rank - 2; a >= 0; --a) {
    strides[static_cast<size_t>(a)] =
        strides[static_cast<size_t>(a) + 1] * data.shape[static_cast<size_t>(a) + 1];
  }
  std::vector<size_t> pos(static_cast<size_t>(rank), 0);  // odometer over `kept`
  for (int64_t n = 0; n < count; ++n) {
    int64_t src = 0;
    for (size_t a = 0; a < pos.size(); ++a) src += kept[a][pos[a]] * strides[a];
    const size_t at = static_cast<size_t>(src) * elem;
    out.data.insert(out.data.end(), data.data.begin() + static_cast<std::ptrdiff_t>(at),
                    data.data.begin() + static_cast<std::ptrdiff_t>(at + elem));
    for (size_t a = pos.size(); a-- > 0;) {
      if (++pos[a] < kept[a].size()) break;
      pos[a] = 0;
    }
  }
  return out;
}

// Concat of constants along `axis`: per outer index, each input's contiguous block.
Folded FoldConcat(const ir::Graph& graph, const ir::Op& op) {
  const ir::Tensor& first = graph.tensor(op.input(0));
  const int64_t rank = static_cast<int64_t>(first.shape.size());
  const size_t axis =
      static_cast<size_t>(NormalizeAxis(graph, op, op.attrs.GetInt("axis", 1), rank));
  const size_t elem = ir::DTypeSize(first.dtype);
  Folded out;
  out.dtype = first.dtype;
  out.shape = first.shape;
  out.shape[axis] = 0;
  for (ir::TensorId in : op.inputs) {
    const ir::Tensor& t = graph.tensor(in);
    if (t.shape.size() != first.shape.size() || t.dtype != first.dtype) {
      throw Error(Status::kInvalidModel,
                  Where(graph, op) + ": input '" + t.name + "' differs in rank or dtype");
    }
    out.shape[axis] += t.shape[axis];
  }
  const int64_t outer = Extent(first.shape, 0, axis);
  for (int64_t o = 0; o < outer; ++o) {
    for (ir::TensorId in : op.inputs) {
      const ir::Tensor& t = graph.tensor(in);
      const size_t block = static_cast<size_t>(Extent(t.shape, axis, t.shape.size())) * elem;
      const size_t at = static_cast<size_t>(o) * block;
      out.data.insert(out.data.end(), t.data.begin() + static_cast<std::ptrdiff_t>(at),
                      t.data.begin() + static_cast<std::ptrdiff_t>(at + block));
    }
  }
  return out;
}

template <typename T>
void AppendAs(std::vector<uint8_t>& bytes, T value) {
  uint8_t raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

bool IsFloatType(ir::DType t) { return t == ir::DType::kFloat32 || t == ir::DType::kFloat64; }

// Cast to the dtype the loader gave the output (it mirrors attribute "to"). Integer to
// integer goes through int64 so shape values like INT64_MAX survive; float to integer
// truncates toward zero like onnxruntime. Targets outside this list stay unfolded.
std::optional<Folded> FoldCast(const ir::Graph& graph, const ir::Op& op, ir::DType to) {
  const ir::Tensor& in = graph.tensor(op.input(0));
  if (in.dtype == ir::DType::kFloat16 || in.dtype == ir::DType::kUnknown) return std::nullopt;
  Folded out;
  out.dtype = to;
  out.shape = in.shape;
  if (IsFloatType(to) || IsFloatType(in.dtype)) {
    for (double v : ir::ConstantAsDoubles(in)) {
      switch (to) {
        case ir::DType::kFloat32:
          AppendAs<float>(out.data, static_cast<float>(v));
          break;
        case ir::DType::kFloat64:
          AppendAs<double>(out.data, v);
          break;
        case ir::DType::kInt64:
          AppendAs<int64_t>(out.data, static_cast<int64_t>(v));
          break;
        case ir::DType::kInt32:
          AppendAs<int32_t>(out.data, static_cast<int32_t>(v));
          break;
        case ir::DType::kBool:
          AppendAs<uint8_t>(out.data, v != 0.0 ? 1 : 0);
          break;
        default:
          return std::nullopt;
      }
    }
    return out;
  }
  for (int64_t v : ir::ConstantAsInt64s(in)) {
    switch (to) {
      case ir::DType::kInt64:
        AppendAs<int64_t>(out.data, v);
        break;
      case ir::DType::kInt32:
        AppendAs<int32_t>(out.data, static_cast<int32_t>(v));
        break;
      case ir::DType::kInt16:
        AppendAs<int16_t>(out.data, static_cast<int16_t>(v));
        break;
      case ir::DType::kUInt16:
        AppendAs<uint16_t>(out.data, static_cast<uint16_t>(v));
        break;
      case ir::DType::kInt8:
        AppendAs<int8_t>(out.data, static_cast<int8_t>(v));
        break;
      case ir::DType::kUInt8:
        AppendAs<uint8_t>(out.data, static_cast<uint8_t>(v));
        break;
      case ir::DType::kBool:
        AppendAs<uint8_t>(out.data, v != 0 ? 1 : 0);
        break;
      default:
        return std::nullopt;
    }
  }
  return out;
}

// The element of values `v` (of a tensor of shape `shape`) that ONNX's multidirectional
// broadcasting gives output element `index` of `out_shape`.
int64_t BroadcastValue(const ir::Shape& out_shape, const ir::Shape& shape,
                       const std::vector<int64_t>& v, int64_t index) {
  int64_t offset = 0, stride = 1;
  const size_t skip = out_shape.size() - shape.size();
  for (size_t d = out_shape.size(); d-- > 0;) {
    const int64_t coord = index % out_shape[d];
    index /= out_shape[d];
    if (d < skip) continue;
    const int64_t extent = shape[d - skip];
    offset += (extent == 1 ? 0 : coord) * stride;
    stride *= extent;
  }
  return v[static_cast<size_t>(offset)];
}

bool IsIntegerOrBool(ir::DType t) {
  return t == ir::DType::kInt64 || t == ir::DType::kInt32 || t == ir::DType::kBool;
}

void AppendInteger(std::vector<uint8_t>& bytes, ir::DType dtype, int64_t v) {
  if (dtype == ir::DType::kInt64) {
    AppendAs<int64_t>(bytes, v);
  } else if (dtype == ir::DType::kInt32) {
    AppendAs<int32_t>(bytes, static_cast<int32_t>(v));
  } else {
    AppendAs<uint8_t>(bytes, static_cast<uint8_t>(v != 0));
  }
}

// Add, Sub, Mul or Div of two integer constants of one dtype (int32 or int64), with ONNX's
// multidirectional broadcasting: the shape arithmetic exporters write around Shape (torch's
// `chunk` computes its split point as (Shape[1] + 1) / 2 * 1). Div truncates toward zero,
// as onnxruntime's integer Div does; a division by zero is an invalid model. Also the
// comparisons, And, Or, Xor and Where over integer or bool constants, which exporters
// write around shape vectors (torch's expand(-1, ...) keeps an extent by
// Where(Equal(shape, -1), ones, shape)); their bool results are bool constants.
std::optional<Folded> FoldIntegerArithmetic(const ir::Graph& graph, const ir::Op& op,
                                            const ir::Tensor& result) {
  const ir::Shape& out_shape = result.shape;
  std::vector<std::vector<int64_t>> values;
  for (ir::TensorId in : op.inputs) {
    const ir::Tensor& t = graph.tensor(in);
    if (!IsIntegerOrBool(t.dtype) || t.shape.size() > out_shape.size()) return std::nullopt;
    values.push_back(ir::ConstantAsInt64s(t));
  }
  if (!IsIntegerOrBool(result.dtype) ||
      (op.type != ir::OpType::kWhere &&
       graph.tensor(op.input(0)).dtype != graph.tensor(op.input(1)).dtype)) {
    return std::nullopt;
  }
  const auto at = [&](size_t input, int64_t index) {
    return BroadcastValue(out_shape, graph.tensor(op.input(input)).shape, values[input], index);
  };
  Folded out;
  out.dtype = result.dtype;
  out.shape = out_shape;
  const int64_t count = ir::NumElements(out_shape);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t l = at(0, i);
    if (op.type == ir::OpType::kWhere) {
      AppendInteger(out.data, out.dtype, l != 0 ? at(1, i) : at(2, i));
      continue;
    }
    const int64_t r = at(1, i);
    int64_t v = 0;
    switch (op.type) {
      case ir::OpType::kAdd:
        v = l + r;
        break;
      case ir::OpType::kSub:
        v = l - r;
        break;
      case ir::OpType::kMul:
        v = l * r;
        break;
      case ir::OpType::kDiv:
        if (r == 0) throw Error(Status::kInvalidModel, Where(graph, op) + ": divides by zero");
        v = l / r;
        break;
      case ir::OpType::kEqual:
        v = l == r;
        break;
      case ir::OpType::kGreater:
        v = l > r;
        break;
      case ir::OpType::kLess:
        v = l < r;
        break;
      case ir::OpType::kGreaterOrEqual:
        v = l >= r;
        break;
      case ir::OpType::kLessOrEqual:
        v = l <= r;
        break;
      case ir::OpType::kAnd:
        v = l != 0 && r != 0;
        break;
      case ir::OpType::kOr:
        v = l != 0 || r != 0;
        break;
      case ir::OpType::kXor:
        v = (l != 0) != (r != 0);
        break;
      default:
        return std::nullopt;
    }
    AppendInteger(out.data, out.dtype, v);
  }
  return out;
}

bool AllInputsConstant(const ir::Graph& graph, const ir::Op& op) {
  for (ir::TensorId in : op.inputs) {
    if (in != ir::kNoTensor && !graph.IsConstant(in)) return false;
  }
  return !op.inputs.empty();
}

// Evaluates `op` if it is a shape op over constants (or a relabeling of constant data);
// nullopt leaves it in place.
std::optional<Folded> TryFold(const ir::Graph& graph, const ir::Op& op) {
  if (op.outputs.size() != 1 || op.input(0) == ir::kNoTensor) return std::nullopt;
  const ir::Tensor& result = graph.tensor(op.outputs[0]);
  switch (op.type) {
    case ir::OpType::kShape:
      return FoldShape(graph, op);  // every extent is known after loading
    case ir::OpType::kGather:
      if (!AllInputsConstant(graph, op)) return std::nullopt;
      return FoldGather(graph, op);
    case ir::OpType::kSlice:
      if (!AllInputsConstant(graph, op)) return std::nullopt;
      return FoldSlice(graph, op);
    case ir::OpType::kConcat:
      if (!AllInputsConstant(graph, op)) return std::nullopt;
      return FoldConcat(graph, op);
    case ir::OpType::kCast:
      if (!AllInputsConstant(graph, op)) return std::nullopt;
      return FoldCast(graph, op, result.dtype);
    case ir::OpType::kCastLike:  // input 1 gives only the dtype
      if (!graph.IsConstant(op.input(0))) return std::nullopt;
      return FoldCast(graph, op, result.dtype);
    case ir::OpType::kAdd:
    case ir::OpType::kSub:
    case ir::OpType::kMul:
    case ir::OpType::kDiv:
    case ir::OpType::kEqual:
    case ir::OpType::kGreater:
    case ir::OpType::kLess:
    case ir::OpType::kGreaterOrEqual:
    case ir::OpType::kLessOrEqual:
    case ir::OpType::kAnd:
    case ir::OpType::kOr:
    case ir::OpType::kXor:
      if (op.inputs.size() != 2 || !AllInputsConstant(graph, op)) return std::nullopt;
      return FoldIntegerArithmetic(graph, op, result);
    case ir::OpType::kWhere:
      if (op.inputs.size() != 3 || !AllInputsConstant(graph, op)) return std::nullopt;
      return FoldIntegerArithmetic(graph, op, result);
    case ir::OpType::kSqueeze:
    case ir::OpType::kUnsqueeze:
    case ir::OpType::kReshape:
    case ir::OpType::kFlatten: {
      // Same bytes under the output's (already resolved) shape; only the data operand has
      // to be constant (FoldedQuant below keeps per-channel data, whose axis would move).
      const ir::Tensor& data = graph.tensor(op.input(0));
      if (!data.is_constant) return std::nullopt;
      Folded out;
      out.dtype = data.dtype;
      out.shape = result.shape;
      out.data = data.data;
      return out;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

// Which quantization a folded result carries, or nullopt when the op must not fold: folding
// computes on stored codes, so an op reading a quantized constant folds only when it moves
// codes (Gather, Slice, Concat, the relabelings), every quantized input and the output (as
// qdq-fold annotated it) share one per-tensor quantization, and the result keeps it. An
// output quantized differently needs its codes requantized (the runtime's job), and per-
// channel data would need its axis remapped.
std::optional<std::optional<ir::QuantParams>> FoldedQuant(const ir::Graph& graph,
                                                          const ir::Op& op) {
  const bool moves_codes = op.type == ir::OpType::kGather || op.type == ir::OpType::kSlice ||
                           op.type == ir::OpType::kConcat || op.type == ir::OpType::kSqueeze ||
                           op.type == ir::OpType::kUnsqueeze || op.type == ir::OpType::kReshape ||
                           op.type == ir::OpType::kFlatten;
  std::optional<ir::QuantParams> quant;
  for (ir::TensorId in : op.inputs) {
    if (in == ir::kNoTensor || !graph.tensor(in).quant) continue;
    const ir::QuantParams& q = *graph.tensor(in).quant;
    if (!moves_codes || q.per_channel() || (quant && !(*quant == q))) return std::nullopt;
    quant = q;
  }
  const ir::Tensor& result = graph.tensor(op.outputs[0]);
  if (result.quant && !(quant && *quant == *result.quant)) return std::nullopt;
  return quant;
}

void ConstantExpressionFold(ir::Graph& graph) {
  std::vector<bool> folded(graph.ops.size(), false);
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    // A graph output must stay an op's result (outputs are activations the host reads).
    if (op.outputs.size() != 1 || graph.IsGraphOutput(op.outputs[0])) continue;
    const std::optional<std::optional<ir::QuantParams>> quant = FoldedQuant(graph, op);
    if (!quant) continue;
    std::optional<Folded> value = TryFold(graph, op);
    if (!value) continue;
    ir::Tensor& result = graph.tensor(op.outputs[0]);
    if (value->shape != result.shape) {
      throw Error(Status::kInvalidModel, Where(graph, op) + ": evaluates to shape " +
                                             ir::ShapeToString(value->shape) + " but output '" +
                                             result.name + "' was resolved as " +
                                             ir::ShapeToString(result.shape));
    }
    // The output tensor itself becomes the constant: same id and name, no rewiring.
    result.quant = *quant;
    result.dtype = value->dtype;
    result.is_constant = true;
    result.data = std::move(value->data);
    folded[i] = true;
  }
  graph.EraseOps(folded);
}

}  // namespace tigris::passes
