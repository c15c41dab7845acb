#include "plan/dense_split.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "analysis/alignment.h"

namespace tigris::plan {
namespace {

bool IsFloat(const ir::Tensor& t) { return t.dtype == ir::DType::kFloat32 && !t.quant; }

// One scale and zero point: an int8 activation as qdq-fold annotates it.
bool IsInt8Activation(const ir::Tensor& t) {
  return t.dtype == ir::DType::kInt8 && t.quant && t.quant->scales.size() == 1 &&
         t.quant->zero_points.size() == 1;
}

// An int8 weight [M, K] quantized per tensor or per output row (axis 0): its rows can be
// cut into parts with their scales, and its columns with the scales unchanged.
bool IsInt8Weight(const ir::Tensor& t) {
  return t.dtype == ir::DType::kInt8 && t.quant && !t.quant->scales.empty() &&
         (!t.quant->per_channel() || t.quant->axis == 0);
}

// gemm-normalize's canonical Gemm: A non-constant, B a constant [M, K], C absent or a
// constant [M]; float32 with nothing quantized, or int8 as qdq-fold leaves it (A and the
// output int8 per tensor, B int8 per tensor or per row, C the int32 bias).
bool IsCanonicalGemm(const ir::Graph& graph, const ir::Op& op) {
  if (op.type != ir::OpType::kGemm || op.inputs.size() < 2 || op.inputs.size() > 3 ||
      op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor) {
    return false;
  }
  const ir::TensorId a = op.input(0), b = op.input(1), c = op.input(2);
  if (a == ir::kNoTensor || graph.IsConstant(a) || !graph.IsConstant(b) ||
      graph.tensor(b).shape.size() != 2) {
    return false;
  }
  const bool int8 = IsInt8Activation(graph.tensor(a));
  if (int8 ? !IsInt8Weight(graph.tensor(b)) || !IsInt8Activation(graph.tensor(op.outputs[0]))
           : !IsFloat(graph.tensor(a)) || !IsFloat(graph.tensor(b)) ||
                 !IsFloat(graph.tensor(op.outputs[0]))) {
    return false;
  }
  if (c != ir::kNoTensor) {
    const ir::Tensor& bias = graph.tensor(c);
    if (!graph.IsConstant(c) || bias.shape != ir::Shape{graph.tensor(b).shape[0]} ||
        (int8 ? bias.dtype != ir::DType::kInt32 : !IsFloat(bias))) {
      return false;
    }
  }
  return op.attrs.GetInt("transA", 0) == 0 && op.attrs.GetInt("transB", 1) == 1;
}

// The same kind of value as h: float32, or int8 per tensor (a per-element op between the
// two may requantize, as an int8 Sigmoid does).
bool LikeH(const ir::Tensor& t, const ir::Tensor& h) {
  return h.quant ? IsInt8Activation(t) : IsFloat(t);
}

// The paper's other layer with every output reading every input: a convolution with one
// group (section 3: FDT fan-out splits any op's output channels, FDT fan-in any op's
// input channels; Fig. 4 has pointwise ones around a depthwise block). Its output channels
// are the rows of its weight [M, K, kh, kw], its input channels the columns of kh kw
// values: each part keeps the strides, padding and dilations (zero padding adds zero to
// every partial sum). float32 only: int8 parts would need int32 outputs from the
// convolution kernels.
bool IsDenseConv(const ir::Graph& graph, const ir::Op& op) {
  if (op.type != ir::OpType::kConv || op.inputs.size() < 2 || op.inputs.size() > 3 ||
      op.outputs.size() != 1 || op.outputs[0] == ir::kNoTensor ||
      op.attrs.GetInt("group", 1) != 1) {
    return false;
  }
  const ir::TensorId x = op.input(0), w = op.input(1), c = op.input(2);
  if (x == ir::kNoTensor || w == ir::kNoTensor || graph.IsConstant(x) || !graph.IsConstant(w)) {
    return false;
  }
  const ir::Tensor& xt = graph.tensor(x);
  const ir::Tensor& wt = graph.tensor(w);
  const ir::Tensor& yt = graph.tensor(op.outputs[0]);
  if (!IsFloat(xt) || !IsFloat(wt) || !IsFloat(yt) || xt.shape.size() != 4 ||
      yt.shape.size() != 4 || wt.shape.size() != 4 || wt.shape[0] != yt.shape[1] ||
      wt.shape[1] != xt.shape[1] || yt.shape[0] != xt.shape[0]) {
    return false;
  }
  return c == ir::kNoTensor || (graph.IsConstant(c) && IsFloat(graph.tensor(c)) &&
                                graph.tensor(c).shape == ir::Shape{yt.shape[1]});
}

// An op on each channel of map h on its own (the paper's PART blocks of a depthwise
// block): a depthwise convolution with one output channel per input channel, constant
// weights and bias, or a max, average or global pool. It may change the height and width.
bool IsPerChannel(const ir::Graph& graph, const ir::Op& op, ir::TensorId h) {
  if (op.outputs.size() != 1 || op.input(0) != h || graph.tensor(h).shape.size() != 4) {
    return false;
  }
  const int64_t channels = graph.tensor(h).shape[1];
  switch (op.type) {
    case ir::OpType::kMaxPool:
    case ir::OpType::kAveragePool:
    case ir::OpType::kGlobalAveragePool:
    case ir::OpType::kGlobalMaxPool:
      return op.inputs.size() == 1;
    case ir::OpType::kDepthwiseConv: {
      const ir::TensorId w = op.input(1), c = op.input(2);
      if (op.inputs.size() > 3 || w == ir::kNoTensor || !graph.IsConstant(w) ||
          graph.tensor(w).shape.size() != 4 || graph.tensor(w).shape[0] != channels ||
          graph.tensor(w).shape[1] != 1) {
        return false;
      }
      return c == ir::kNoTensor ||
             (graph.IsConstant(c) && graph.tensor(c).shape == ir::Shape{channels});
    }
    default:
      return false;
  }
}

// An op applied to each element of h on its own (the paper's PART blocks between a fan-out
// and a fan-in): an activation with constant parameters, or a binary op (Add, Max, Pow,
// ...) with a constant scalar. `h` is the input it reads; the op runs per part unchanged.
bool IsPerElement(const ir::Graph& graph, const ir::Op& op, ir::TensorId h) {
  if (op.outputs.size() != 1 || op.input(0) == ir::kNoTensor) return false;
  if (ir::IsUnaryOp(op.type)) {  // the op table's unary ops (tgrs_ops.def)
    if (op.input(0) != h) return false;
    for (size_t i = 1; i < op.inputs.size(); ++i) {
      if (op.input(i) != ir::kNoTensor && !graph.IsConstant(op.input(i))) return false;
    }
    return true;
  }
  if (!ir::IsBinaryOp(op.type)) return false;
  if (op.inputs.size() != 2 || (op.input(0) == h) == (op.input(1) == h)) return false;
  const ir::TensorId other = op.input(0) == h ? op.input(1) : op.input(0);
  return graph.IsConstant(other) && graph.tensor(other).num_elements() == 1;
}

int64_t Aligned(const ir::Graph& graph, ir::TensorId id) {
  return analysis::AlignUp(graph.tensor(id).byte_size());
}

// Part k's first neuron and extent when `total` neurons are cut into `parts` parts (the
// first total % parts parts one neuron longer).
std::pair<int64_t, int64_t> PartRange(int64_t total, int parts, int k) {
  const int64_t base = total / parts, extra = total % parts;
  const int64_t begin = k * base + std::min<int64_t>(k, extra);
  return {begin, base + (k < extra ? 1 : 0)};
}

// The 16-byte aligned bytes of the largest part of tensor `id` when its axis 1 (h's neurons
// or channels) is cut into `parts` parts; its whole bytes for one part.
int64_t PartBytes(const ir::Graph& graph, ir::TensorId id, int parts) {
  const ir::Tensor& t = graph.tensor(id);
  const int64_t channels = t.shape[1];
  return analysis::AlignUp(t.byte_size() / channels * PartRange(channels, parts, 0).second);
}

// `shape` with `count` on axis 1: a part's shape.
ir::Shape WithChannels(ir::Shape shape, int64_t count) {
  shape[1] = count;
  return shape;
}

// Rows [begin, begin + count) of a row-major [rows, cols] constant.
std::vector<uint8_t> Rows(const ir::Tensor& t, int64_t cols, int64_t begin, int64_t count) {
  const size_t elem = ir::DTypeSize(t.dtype);
  const auto* from = t.data.data() + static_cast<size_t>(begin * cols) * elem;
  return std::vector<uint8_t>(from, from + static_cast<size_t>(count * cols) * elem);
}

// Columns [begin, begin + count) of every row of a row-major [rows, cols] constant whose
// columns are `inner` values each (a convolution weight's kh kw taps per input channel).
std::vector<uint8_t> Columns(const ir::Tensor& t, int64_t rows, int64_t cols, int64_t begin,
                             int64_t count, int64_t inner = 1) {
  const size_t elem = ir::DTypeSize(t.dtype) * static_cast<size_t>(inner);
  std::vector<uint8_t> out(static_cast<size_t>(rows * count) * elem);
  for (int64_t r = 0; r < rows; ++r) {
    std::memcpy(out.data() + static_cast<size_t>(r * count) * elem,
                t.data.data() + static_cast<size_t>(r * cols + begin) * elem,
                static_cast<size_t>(count) * elem);
  }
  return out;
}

// A quantization annotation cut to entries [begin, begin + count) along axis 0 (the rows
// of a weight, the entries of a bias); per tensor, it is kept whole.
std::optional<ir::QuantParams> RowsQuant(const std::optional<ir::QuantParams>& quant, int64_t begin,
                                         int64_t count) {
  if (!quant || !quant->per_channel()) return quant;
  ir::QuantParams q = *quant;
  const auto cut = [&](auto& v) { v.assign(v.begin() + begin, v.begin() + begin + count); };
  cut(q.scales);
  cut(q.zero_points);
  return q;
}

// The part of constant `t` made of `data` with `shape`, quantized as `quant`.
ir::TensorId AddPart(ir::Graph& graph, const ir::Tensor& t, const std::string& part,
                     ir::Shape shape, std::vector<uint8_t> data,
                     std::optional<ir::QuantParams> quant) {
  const ir::TensorId id =
      graph.AddConstant(t.name + part, t.dtype, std::move(shape), std::move(data));
  graph.tensor(id).quant = std::move(quant);
  return id;
}

ir::TensorId AddActivation(ir::Graph& graph, const ir::Tensor& like, const std::string& name,
                           ir::Shape shape) {
  ir::Tensor t;
  t.name = graph.UniqueTensorName(name);
  t.dtype = like.dtype;
  t.quant = like.quant;
  t.shape = std::move(shape);
  return graph.AddTensor(std::move(t));
}

// The bytes the ops between the two layers hold at once, the largest: an op's input and
// output, parts of them when h is cut into `parts`.
int64_t BetweenBytes(const ir::Graph& graph, const DensePair& pair, int parts) {
  int64_t most = 0;
  for (int index : pair.between) {
    const ir::Op& op = graph.ops[static_cast<size_t>(index)];
    most = std::max(most,
                    PartBytes(graph, op.input(0), parts) + PartBytes(graph, op.outputs[0], parts));
  }
  return most;
}

}  // namespace

std::vector<DensePair> FindDensePairs(const ir::Graph& graph) {
  std::vector<DensePair> pairs;
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& a = graph.ops[i];
    const bool gemm = IsCanonicalGemm(graph, a);
    if (!gemm && !IsDenseConv(graph, a)) continue;
    const ir::Tensor& h0 = graph.tensor(a.outputs[0]);
    // Down from h through per-element ops (and, on a map, per-channel ops), each the only
    // reader of what it reads, to the second layer; every tensor on the way has h's rank,
    // batch, neurons (channels) and kind (float, or int8).
    DensePair pair{static_cast<int>(i), -1, {}};
    ir::TensorId h = a.outputs[0];
    for (;;) {
      const std::vector<int>& readers = consumers[static_cast<size_t>(h)];
      const ir::Tensor& t = graph.tensor(h);
      if (readers.size() != 1 || graph.IsGraphOutput(h) || t.shape.size() != h0.shape.size() ||
          t.shape[0] != h0.shape[0] || t.shape[1] != h0.shape[1] || !LikeH(t, h0)) {
        break;
      }
      const ir::Op& next = graph.ops[static_cast<size_t>(readers[0])];
      if (IsPerElement(graph, next, h) || (!gemm && IsPerChannel(graph, next, h))) {
        pair.between.push_back(readers[0]);
        h = next.outputs[0];
        continue;
      }
      pair.b = readers[0];
      break;
    }
    if (pair.b < 0) continue;
    const ir::Op& b = graph.ops[static_cast<size_t>(pair.b)];
    if (b.input(0) != h || b.input(1) == h || b.input(2) == h ||
        (gemm ? !IsCanonicalGemm(graph, b) || !LikeH(graph.tensor(b.outputs[0]), h0)
              : !IsDenseConv(graph, b))) {
      continue;
    }
    const ir::Tensor& y = graph.tensor(b.outputs[0]);
    const int64_t m = h0.shape[1];
    const ir::Shape& ba = graph.tensor(a.input(1)).shape;
    const ir::Shape& bb = graph.tensor(b.input(1)).shape;
    if (ba[0] != m || bb[1] != m || m < kMinDenseParts || !y.host_permutation.empty() ||
        !y.host_shape.empty()) {
      continue;
    }
    // Gemms: h is [n, M] and y [n, L] (a convolution's shapes IsDenseConv checks).
    if (gemm && (h0.shape.size() != 2 || y.shape != ir::Shape{h0.shape[0], bb[0]})) continue;
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

int64_t UnsplitPairBytes(const ir::Graph& graph, const DensePair& pair) {
  const ir::Op& a = graph.ops[static_cast<size_t>(pair.a)];
  const ir::Op& b = graph.ops[static_cast<size_t>(pair.b)];
  const int64_t x = Aligned(graph, a.input(0)), h = Aligned(graph, a.outputs[0]);
  return std::max({x + h, BetweenBytes(graph, pair, 1),
                   Aligned(graph, b.input(0)) + Aligned(graph, b.outputs[0])});
}

int64_t SplitPairBytes(const ir::Graph& graph, const DensePair& pair, int parts) {
  const ir::Op& a = graph.ops[static_cast<size_t>(pair.a)];
  const ir::Op& b = graph.ops[static_cast<size_t>(pair.b)];
  const int64_t x = Aligned(graph, a.input(0)), y = Aligned(graph, b.outputs[0]);
  const int64_t first = PartBytes(graph, a.outputs[0], parts);
  const int64_t last = PartBytes(graph, b.input(0), parts);
  const int64_t between = BetweenBytes(graph, pair, parts);
  // x stays live for the parts still to come.
  if (graph.tensor(a.outputs[0]).quant) {
    // int8: the second layer's part k reads its part of h and the int32 sums of the parts
    // before and writes the sums with its own (the last part writes y in their place,
    // smaller); the first layer's part and an op between them, next to the sums.
    const int64_t sums = analysis::AlignUp(graph.tensor(b.outputs[0]).num_elements() * 4);
    return x + std::max({last + 2 * sums, first + sums, between + sums});
  }
  // float: the second layer's part k writes p_k next to acc_{k-1}; the Add then holds
  // acc_{k-1}, p_k and acc_k; the first layer's part and an op between them, next to
  // acc_{k-1}.
  return x + std::max({last + 2 * y, 3 * y, first + y, between + y});
}

void SplitDensePair(ir::Graph& graph, const DensePair& pair, int parts) {
  const ir::Op a = graph.ops[static_cast<size_t>(pair.a)];
  const ir::Op b = graph.ops[static_cast<size_t>(pair.b)];
  const ir::Tensor h = graph.tensor(a.outputs[0]);
  const ir::Tensor ba = graph.tensor(a.input(1));
  const ir::Tensor bb = graph.tensor(b.input(1));
  // A Gemm's B is [M, K], a convolution's weight [M, K, kh, kw]: rows of K kh kw values.
  const int64_t m = h.shape[1], k_in = ba.num_elements() / ba.shape[0], l = bb.shape[0];
  const ir::TensorId y = b.outputs[0];
  const ir::Shape y_shape = graph.tensor(y).shape;

  std::vector<ir::Op> split;
  ir::TensorId acc = ir::kNoTensor;
  for (int k = 0; k < parts; ++k) {
    const auto [begin, count] = PartRange(m, parts, k);
    const std::string part = "_part" + std::to_string(k);

    ir::Op fan_out = a;  // name, attributes and fused activation kept
    fan_out.name = a.name + part;
    ir::Shape rows = ba.shape;
    rows[0] = count;
    fan_out.inputs[1] = AddPart(graph, ba, part, std::move(rows), Rows(ba, k_in, begin, count),
                                RowsQuant(ba.quant, begin, count));
    if (a.input(2) != ir::kNoTensor) {
      const ir::Tensor ca = graph.tensor(a.input(2));
      fan_out.inputs[2] = AddPart(graph, ca, part, {count}, Rows(ca, 1, begin, count),
                                  RowsQuant(ca.quant, begin, count));
    }
    const ir::TensorId h_k = AddActivation(graph, h, h.name + part, WithChannels(h.shape, count));
    fan_out.outputs = {h_k};
    split.push_back(std::move(fan_out));
    // The ops between the two, on this part: per-element ops unchanged, a depthwise
    // convolution with its part's filters, bias and group.
    ir::TensorId in_k = h_k;
    for (int index : pair.between) {
      ir::Op each = graph.ops[static_cast<size_t>(index)];
      const ir::Tensor out = graph.tensor(each.outputs[0]);
      for (ir::TensorId& input : each.inputs) {
        if (input != ir::kNoTensor && !graph.IsConstant(input)) input = in_k;
      }
      if (each.type == ir::OpType::kDepthwiseConv) {
        for (size_t i = 1; i < each.inputs.size(); ++i) {
          if (each.inputs[i] == ir::kNoTensor) continue;
          const ir::Tensor c = graph.tensor(each.inputs[i]);
          ir::Shape shape = c.shape;
          shape[0] = count;
          each.inputs[i] = AddPart(graph, c, part, std::move(shape),
                                   Rows(c, c.num_elements() / c.shape[0], begin, count),
                                   RowsQuant(c.quant, begin, count));
        }
        each.attrs.Set("group", count);
      }
      each.name += part;
      in_k = AddActivation(graph, out, out.name + part, WithChannels(out.shape, count));
      each.outputs = {in_k};
      split.push_back(std::move(each));
    }

    ir::Op fan_in = b;
    fan_in.name = b.name + part;
    // B_b's columns of [L, M] (or of [L, M, kh, kw], kh kw taps each): its rows, and their
    // scales, stay whole.
    fan_in.inputs = {
        in_k, AddPart(graph, bb, part, WithChannels(bb.shape, count),
                      Columns(bb, l, m, begin, count, bb.num_elements() / (l * m)), bb.quant)};
    const bool last = k + 1 == parts;
    if (h.quant) {
      // int8: C is the bias on the first part and the int32 sums of the parts before on
      // the others; every part but the last writes the sums raw, the last adds its own and
      // requantizes once with Gemm_b's activation (the Merge): the unsplit layer's integer
      // sum, so its bytes.
      if (k > 0) {
        fan_in.inputs.push_back(acc);
      } else if (b.input(2) != ir::kNoTensor) {
        fan_in.inputs.push_back(b.input(2));
      }
      if (last) {
        fan_in.outputs = {y};
      } else {
        fan_in.fused_activation = ir::Activation::kNone;
        ir::Tensor sums;
        sums.name = graph.UniqueTensorName(graph.tensor(y).name + "_sums" + part);
        sums.dtype = ir::DType::kInt32;
        sums.shape = y_shape;
        acc = graph.AddTensor(std::move(sums));
        fan_in.outputs = {acc};
      }
      split.push_back(std::move(fan_in));
      continue;
    }
    fan_in.fused_activation = ir::Activation::kNone;  // applied once, after the merge
    if (k == 0 && b.input(2) != ir::kNoTensor) fan_in.inputs.push_back(b.input(2));
    const bool activation_after = b.fused_activation != ir::Activation::kNone;
    const ir::TensorId p_k =
        AddActivation(graph, graph.tensor(y), graph.tensor(y).name + "_partial" + part, y_shape);
    fan_in.outputs = {p_k};
    split.push_back(std::move(fan_in));
    if (k == 0) {
      acc = p_k;
    } else {
      ir::Op merge;
      merge.type = ir::OpType::kAdd;
      merge.name = b.name + "_merge" + std::to_string(k);
      merge.inputs = {acc, p_k};
      acc = last && !activation_after
                ? y
                : AddActivation(graph, graph.tensor(y),
                                graph.tensor(y).name + "_sum" + std::to_string(k), y_shape);
      merge.outputs = {acc};
      split.push_back(std::move(merge));
    }
  }
  if (!h.quant && b.fused_activation != ir::Activation::kNone) {
    ir::Op activation;
    activation.type =
        b.fused_activation == ir::Activation::kRelu ? ir::OpType::kRelu : ir::OpType::kRelu6;
    activation.name = b.name + "_activation";
    activation.inputs = {acc};
    activation.outputs = {y};
    split.push_back(std::move(activation));
  }

  // The parts take Gemm_b's place (x is ready there: Gemm_a ran before it); Gemm_a and
  // the ops between go.
  std::vector<ir::Op> ops;
  ops.reserve(graph.ops.size() + split.size());
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const int index = static_cast<int>(i);
    if (index == pair.a ||
        std::find(pair.between.begin(), pair.between.end(), index) != pair.between.end()) {
      continue;
    }
    if (index == pair.b) {
      for (ir::Op& op : split) ops.push_back(std::move(op));
      continue;
    }
    ops.push_back(std::move(graph.ops[i]));
  }
  graph.ops = std::move(ops);
}

std::vector<Rewrite> SplitDensePairsForBudget(ir::Graph& graph, const Budget& budget) {
  std::vector<Rewrite> rewrites;
  // Splitting moves op indices, so the pairs are found again after each split. Each part
  // is itself a Gemm pair, never split again; a pair no split improves is kept. Each round
  // settles one pair, so this ends.
  std::set<std::string> settled;
  for (bool changed = true; changed;) {
    changed = false;
    for (const DensePair& pair : FindDensePairs(graph)) {
      const ir::Op& a = graph.ops[static_cast<size_t>(pair.a)];
      const ir::Op& b = graph.ops[static_cast<size_t>(pair.b)];
      if (settled.count(a.name) || settled.count(b.name)) continue;
      settled.insert(a.name);
      changed = true;
      const int64_t unsplit = UnsplitPairBytes(graph, pair);
      if (unsplit <= budget.fast_bytes) break;
      const int64_t neurons = graph.tensor(a.outputs[0]).shape[1];
      int best = 0;
      int64_t best_bytes = unsplit;
      for (int parts = kMinDenseParts; parts <= kMaxDenseParts && parts <= neurons; ++parts) {
        const int64_t bytes = SplitPairBytes(graph, pair, parts);
        if (bytes < best_bytes) {
          best = parts;
          best_bytes = bytes;
        }
        if (bytes <= budget.fast_bytes) break;  // the fewest parts that fit
      }
      if (best == 0) break;
      rewrites.push_back({a.name + "+" + b.name, kDenseSplitRewrite,
                          "the pair needs " + std::to_string(unsplit) +
                              " B unsplit, over the fast budget of " +
                              std::to_string(budget.fast_bytes) + " B; in " + std::to_string(best) +
                              " parts of '" + graph.tensor(a.outputs[0]).name + "' an estimated " +
                              std::to_string(best_bytes) + " B"});
      for (int k = 0; k < best; ++k) {
        settled.insert(a.name + "_part" + std::to_string(k));
        settled.insert(b.name + "_part" + std::to_string(k));
      }
      SplitDensePair(graph, pair, best);
      break;
    }
  }
  return rewrites;
}

}  // namespace tigris::plan
