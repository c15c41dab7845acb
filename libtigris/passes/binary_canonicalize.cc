// Binary canonicalize: every op of the op table's BINARY kind in the runtime's form, two
// operands of the output's dtype.
//
// ONNX Sum, Max, Min and Mean take any number of inputs; the runtime's binary ops take two:
//
//   Sum|Max|Min|Mean(a)  -> an Identity, removed as identity-dropout-elim removes one
//                           (readers read a; a graph output keeps its name);
//   Sum(a, b, c)         -> t = Add(a, b); Add(t, c)      (Max and Min alike, with Max/Min);
//   Mean(a, b, c)        -> the Sum's chain into t2, then Div(t2, 3).
//
// A chain is exact for float32 up to the order of the additions (ONNX does not fix one;
// its reference sums left to right and divides once, as here). Max and Min chains are
// exact in int8 too: quantization is monotone, so max(q(max(a, b)), q(c)) = q(max(a, b, c))
// with the partial results on the output's grid. A quantized Sum of three or more inputs
// would need an intermediate on a grid the model does not give, adding a rounding the
// QDQ reference lacks; it is refused (kUnsupportedQuantization) instead of approximated, as
// is a quantized Mean (the runtime has no int8 Div). A one-input op whose output is
// quantized differently from its input is a requantization, not a no-op: refused the same
// way.
//
// ONNX Pow takes its exponent in any numeric type (Pow-12+): a constant int32/int64
// exponent of a float32 Pow becomes the float32 constant of the same values, exact for
// |y| <= 2^24 (larger values are refused naming the tensor: they would round).
//
// The runtime's Max and Min compute float32 and int8; over int32 or int64 (ONNX's
// test_max_int32) a binary one becomes a selection by a comparison the runtime has for
// those dtypes, exact on integers:
//
//   Max(a, b) -> Where(GreaterOrEqual(a, b), a, b);  Min(a, b) -> Where(LessOrEqual(a, b), a, b)
//
// Runs before matmul-add-to-gemm and activation-fuse so they match the Adds made here.
#include <string>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

bool IsVariadic(ir::OpType type) {
  return type == ir::OpType::kSum || type == ir::OpType::kMax || type == ir::OpType::kMin ||
         type == ir::OpType::kMean;
}

// The binary op a chain of `type` is made of.
ir::OpType Step(ir::OpType type) {
  if (type == ir::OpType::kMax || type == ir::OpType::kMin) return type;
  return ir::OpType::kAdd;  // Sum, Mean
}

bool IsQuantized(const ir::Graph& graph, ir::TensorId id) {
  return graph.tensor(id).quant.has_value();
}

// A new tensor for a partial result of `op` with `shape`: the output's dtype and
// quantization (the grid an int8 Max/Min chain stays on).
ir::TensorId AddPartial(ir::Graph& graph, const ir::Op& op, const std::string& suffix,
                        ir::Shape shape) {
  ir::Tensor partial = graph.tensor(op.outputs.at(0));
  partial.name = graph.UniqueTensorName(partial.name + suffix);
  partial.shape = std::move(shape);
  partial.is_constant = false;
  partial.data.clear();
  return graph.AddTensor(std::move(partial));
}

// Appends to `out` the binary ops that compute `op` left to right (and Mean's division);
// the first keeps the op's name, the last writes its output.
void AppendChain(ir::Graph& graph, const ir::Op& op, OpNamer& namer, std::vector<ir::Op>& out) {
  const ir::TensorId result = op.outputs.at(0);
  const bool mean = op.type == ir::OpType::kMean;
  const ir::OpType step = Step(op.type);
  const std::string verb(ir::OpTypeName(step));
  ir::TensorId acc = op.inputs[0];
  for (size_t k = 1; k < op.inputs.size(); ++k) {
    const bool last = k + 1 == op.inputs.size() && !mean;
    const ir::TensorId dest =
        last ? result
             : AddPartial(graph, op, "_partial" + std::to_string(k),
                          BroadcastShapes(graph.tensor(acc).shape, graph.tensor(op.inputs[k]).shape,
                                          DescribeOp(op)));
    ir::Op binary;
    binary.type = step;
    binary.name = k == 1 ? op.name : namer.Unique(op.name + "_" + verb + std::to_string(k));
    binary.inputs = {acc, op.inputs[k]};
    binary.outputs = {dest};
    out.push_back(std::move(binary));
    acc = dest;
  }
  if (mean) {
    ir::Op div;
    div.type = ir::OpType::kDiv;
    div.name = namer.Unique(op.name + "_Div");
    div.inputs = {acc, AddFloatConstant(graph, graph.tensor(result).name + "_count", {},
                                        {static_cast<float>(op.inputs.size())})};
    div.outputs = {result};
    out.push_back(std::move(div));
  }
}

// Refuses the forms described at the top; true when `op` is a one-input no-op.
bool CheckVariadic(const ir::Graph& graph, const ir::Op& op) {
  for (ir::TensorId in : op.inputs) {
    if (in == ir::kNoTensor) {
      throw Error(Status::kInvalidModel, DescribeOp(op) + " has an empty input name");
    }
  }
  if (op.inputs.empty() || op.outputs.size() != 1) {
    throw Error(Status::kInvalidModel,
                DescribeOp(op) + " needs at least one input and exactly one output");
  }
  const std::string type(ir::OpTypeName(op.type));
  if (op.inputs.size() == 1) {
    const ir::Tensor& in = graph.tensor(op.inputs[0]);
    const ir::Tensor& out = graph.tensor(op.outputs[0]);
    if (!(in.quant == out.quant)) {  // QuantParams has == only
      throw Error(Status::kUnsupportedQuantization,
                  DescribeOp(op) + " requantizes its only input '" + in.name + "'; a one-input " +
                      type + " can only be removed when it is a no-op");
    }
    return true;
  }
  if (IsQuantized(graph, op.outputs[0])) {
    if (op.type == ir::OpType::kMean) {
      throw Error(Status::kUnsupportedQuantization,
                  DescribeOp(op) + " has an int8 output; the runtime has no int8 Div to divide " +
                      "the sum by " + std::to_string(op.inputs.size()));
    }
    if (op.type == ir::OpType::kSum && op.inputs.size() > 2) {
      throw Error(Status::kUnsupportedQuantization,
                  DescribeOp(op) + " has " + std::to_string(op.inputs.size()) +
                      " int8 inputs; only a two-input quantized Sum maps exactly onto Add");
    }
  }
  return false;
}

// A constant integer exponent of a float32 Pow, as float32 (see the top).
void FloatExponent(ir::Graph& graph, ir::Op& op) {
  const ir::TensorId y = op.input(1);
  if (y == ir::kNoTensor || !graph.IsConstant(y)) return;
  const ir::Tensor& t = graph.tensor(y);
  if (graph.tensor(op.outputs.at(0)).dtype != ir::DType::kFloat32 ||
      (t.dtype != ir::DType::kInt32 && t.dtype != ir::DType::kInt64)) {
    return;
  }
  RequireConstantData(t);
  std::vector<int64_t> values;
  if (t.dtype == ir::DType::kInt32) {
    for (int32_t v : t.DataAs<int32_t>()) values.push_back(v);
  } else {
    values = t.DataAs<int64_t>();
  }
  std::vector<float> exponent;
  for (int64_t v : values) {
    if (v > (int64_t{1} << 24) || v < -(int64_t{1} << 24)) {
      throw Error(Status::kUnsupportedDType,
                  DescribeOp(op) + ": exponent '" + t.name + "' holds " + std::to_string(v) +
                      ", which float32 does not hold exactly; the runtime's Pow is float32");
    }
    exponent.push_back(static_cast<float>(v));
  }
  op.inputs[1] = AddFloatConstant(graph, t.name + "_float", t.shape, exponent);
}

// Pass 3 (see the header): int32/int64 Max and Min, now binary, as Where of a comparison.
void IntegerExtremesAsSelections(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    const bool extreme = op.type == ir::OpType::kMax || op.type == ir::OpType::kMin;
    const ir::DType dtype =
        op.outputs.empty() ? ir::DType::kUnknown : graph.tensor(op.outputs[0]).dtype;
    if (!extreme || op.inputs.size() != 2 ||
        (dtype != ir::DType::kInt32 && dtype != ir::DType::kInt64)) {
      rewritten.push_back(std::move(op));
      continue;
    }
    const ir::TensorId y = op.outputs[0];
    const ir::TensorId pick =
        AddTensorLike(graph, y, graph.tensor(y).name + "_pick_first", graph.tensor(y).shape);
    graph.tensor(pick).dtype = ir::DType::kBool;
    ir::Op compare;
    compare.type =
        op.type == ir::OpType::kMax ? ir::OpType::kGreaterOrEqual : ir::OpType::kLessOrEqual;
    compare.name = namer.Unique(op.name + "_compare");
    compare.inputs = op.inputs;
    compare.outputs = {pick};
    rewritten.push_back(std::move(compare));
    op.type = ir::OpType::kWhere;
    op.inputs = {pick, op.inputs[0], op.inputs[1]};
    rewritten.push_back(std::move(op));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace

void BinaryCanonicalize(ir::Graph& graph) {
  for (ir::Op& op : graph.ops) {
    if (op.type == ir::OpType::kPow) FloatExponent(graph, op);
  }

  // Pass 1: a one-input op is an Identity, removed by identity-dropout-elim's rules (a
  // graph input read straight into a graph output becomes a copy; rewiring may touch any
  // op, so this happens before the op list is rebuilt).
  bool identities = false;
  for (ir::Op& op : graph.ops) {
    if (!IsVariadic(op.type) || !CheckVariadic(graph, op)) continue;
    op.type = ir::OpType::kIdentity;
    identities = true;
  }
  if (identities) IdentityDropoutElim(graph);

  // Pass 2: the rest become one binary op or a chain of them, in the op's place. A
  // two-input Max or Min is already the runtime's op.
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (!IsVariadic(op.type) || (op.inputs.size() == 2 && Step(op.type) == op.type)) {
      rewritten.push_back(std::move(op));
      continue;
    }
    AppendChain(graph, op, namer, rewritten);
  }
  graph.ops = std::move(rewritten);
  IntegerExtremesAsSelections(graph);
}

}  // namespace tigris::passes
