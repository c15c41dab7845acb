// integer-order-annotate (an added pass, after qdq-fold; pipeline.cc): int8 and uint8
// tensors without quantization are integers, not codes (ONNX's test_max_int8,
// test_greater_uint8, test_clip_default_int8_min, test_maxpool_2d_uint8). Where only ops
// that compare, select or move values read and write them, such an integer is a quantized
// value with scale 1 and zero point 0, and the runtime's int8 kernels compute those ops on
// it exactly: a maximum, a comparison, a clamp or a copy of values on one grid rounds
// nothing. uint8 is stored as qdq-fold stores it: shifted to int8, zero point -128 (the
// order is kept), converted by the runtime as it copies a graph input or output.
//
//   before:  x int8 [no quantization] -> Max(x, y int8) -> z int8       (refused: rule 3)
//   after:   x int8 [scale 1, zp 0]   -> Max(x, y [1, 0]) -> z [1, 0]   (tgrs_max_s8)
//
// The tensors are taken a connected group at a time (joined by the ops that read and write
// them), and a group only when every op touching it is one of the ops above and none of
// its integer operands is quantized already. Arithmetic (Add, Sub, Mul, Div, Pow) is not
// among them: ONNX's integers wrap around where the int8 kernels saturate, so such a group
// stays unannotated and the verifier refuses it by name. A constant operand of a
// comparison, Max, Min or Where joins its group (a uint8 one with its bytes shifted); the
// bounds of a Clip do not, since they are read as values (its attributes). The runtime
// compares float32, int32, int64 and bool, and a quantized int8 tensor reaches a comparison
// only dequantized (the float island a QDQ model makes), so a comparison of integers reads
// Dequantize(x) here: exact, each integer being a float32 value.
#include <algorithm>
#include <numeric>
#include <vector>

#include "passes/passes.h"
#include "passes/rewrite_util.h"

namespace tigris::passes {
namespace {

bool ComparesOrMoves(ir::OpType type) {
  switch (type) {
    case ir::OpType::kMax:
    case ir::OpType::kMin:
    case ir::OpType::kClip:
    case ir::OpType::kEqual:
    case ir::OpType::kGreater:
    case ir::OpType::kLess:
    case ir::OpType::kGreaterOrEqual:
    case ir::OpType::kLessOrEqual:
    case ir::OpType::kWhere:
    case ir::OpType::kMaxPool:
    case ir::OpType::kReshape:
    case ir::OpType::kSqueeze:
    case ir::OpType::kUnsqueeze:
    case ir::OpType::kFlatten:
    case ir::OpType::kTranspose:
    case ir::OpType::kSlice:
    case ir::OpType::kConcat:
      return true;
    default:
      return false;
  }
}

bool IsInteger8(const ir::Tensor& t) {
  return t.dtype == ir::DType::kInt8 || t.dtype == ir::DType::kUInt8;
}

// The operands of `op` that carry its values (a Clip's bounds and a Slice's or Reshape's
// index inputs do not; Where's condition is bool and never an integer-8 tensor).
bool CarriesValues(const ir::Op& op, size_t input) {
  switch (op.type) {
    case ir::OpType::kClip:
    case ir::OpType::kReshape:
    case ir::OpType::kSqueeze:
    case ir::OpType::kUnsqueeze:
    case ir::OpType::kSlice:
      return input == 0;
    default:
      return true;
  }
}

struct Groups {
  std::vector<ir::TensorId> parent;
  explicit Groups(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  ir::TensorId Find(ir::TensorId t) {
    while (parent[static_cast<size_t>(t)] != t) {
      parent[static_cast<size_t>(t)] = parent[static_cast<size_t>(parent[static_cast<size_t>(t)])];
      t = parent[static_cast<size_t>(t)];
    }
    return t;
  }
  void Join(ir::TensorId a, ir::TensorId b) { parent[static_cast<size_t>(Find(a))] = Find(b); }
};

void Annotate(ir::Graph& graph, ir::TensorId id) {
  ir::Tensor& t = graph.tensor(id);
  const bool is_public =
      graph.IsGraphOutput(id) ||
      std::find(graph.inputs.begin(), graph.inputs.end(), id) != graph.inputs.end();
  if (t.dtype == ir::DType::kUInt8) {
    if (t.is_constant) {
      for (uint8_t& byte : t.data) byte = static_cast<uint8_t>(byte - 128u);  // v - 128 as int8
    } else if (is_public) {
      t.host_dtype = ir::DType::kUInt8;  // the caller's dtype (plan_writer.cc)
    }
    t.dtype = ir::DType::kInt8;
    t.quant = ir::QuantParams{{1.0f}, {-128}, -1};
  } else {
    t.quant = ir::QuantParams{{1.0f}, {0}, -1};
  }
}

bool IsComparison(ir::OpType type) {
  return type == ir::OpType::kEqual || type == ir::OpType::kGreater || type == ir::OpType::kLess ||
         type == ir::OpType::kGreaterOrEqual || type == ir::OpType::kLessOrEqual;
}

// Each int8 operand a comparison reads becomes float32: a constant by value, a run-time
// tensor through a Dequantize op placed before the comparison.
void CompareInFloat(ir::Graph& graph) {
  OpNamer namer(graph);
  std::vector<ir::Op> rewritten;
  rewritten.reserve(graph.ops.size());
  for (ir::Op& op : graph.ops) {
    if (IsComparison(op.type)) {
      for (ir::TensorId& in : op.inputs) {
        if (in == ir::kNoTensor || graph.tensor(in).dtype != ir::DType::kInt8 ||
            !graph.tensor(in).quant || graph.tensor(in).quant->per_channel()) {
          continue;
        }
        const ir::Tensor& q = graph.tensor(in);
        const float scale = q.quant->scales[0];
        const int32_t zero = q.quant->zero_points[0];
        if (q.is_constant) {
          std::vector<float> values;
          for (uint8_t byte : q.data) {
            values.push_back(static_cast<float>(static_cast<int8_t>(byte) - zero) * scale);
          }
          in = AddFloatConstant(graph, q.name + "_float", q.shape, values);
          continue;
        }
        const ir::TensorId real = AddTensorLike(graph, in, q.name + "_float", q.shape);
        graph.tensor(real).dtype = ir::DType::kFloat32;
        graph.tensor(real).quant.reset();
        ir::Op dequantize;
        dequantize.type = ir::OpType::kDequantize;
        dequantize.name = namer.Unique(op.name + "_dequantize");
        dequantize.inputs = {in};
        dequantize.outputs = {real};
        rewritten.push_back(std::move(dequantize));
        in = real;
      }
    }
    rewritten.push_back(std::move(op));
  }
  graph.ops = std::move(rewritten);
}

}  // namespace

void IntegerOrderAnnotate(ir::Graph& graph) {
  const size_t n = graph.tensors.size();
  auto plain = [&](ir::TensorId id) {
    return id != ir::kNoTensor && IsInteger8(graph.tensor(id)) && !graph.tensor(id).quant;
  };
  Groups groups(n);
  std::vector<bool> blocked(n, false);
  // Join every op's integer-8 operands and results; remember the groups an op may not touch.
  for (const ir::Op& op : graph.ops) {
    std::vector<ir::TensorId> members;
    bool quantized_operand = false;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const ir::TensorId id = op.inputs[i];
      if (id == ir::kNoTensor || !IsInteger8(graph.tensor(id))) continue;
      if (!CarriesValues(op, i)) {  // read as values (a Clip's bounds): keep its bytes
        if (plain(id)) blocked[static_cast<size_t>(id)] = true;
        continue;
      }
      if (graph.tensor(id).quant) quantized_operand = true;
      if (plain(id)) members.push_back(id);
    }
    for (ir::TensorId id : op.outputs) {
      if (plain(id)) members.push_back(id);
    }
    if (members.empty()) continue;
    for (size_t i = 1; i < members.size(); ++i) groups.Join(members[0], members[i]);
    if (!ComparesOrMoves(op.type) || quantized_operand) {
      for (ir::TensorId id : members) blocked[static_cast<size_t>(id)] = true;
    }
  }
  std::vector<bool> group_blocked(n, false);
  for (size_t id = 0; id < n; ++id) {
    if (blocked[id])
      group_blocked[static_cast<size_t>(groups.Find(static_cast<ir::TensorId>(id)))] = true;
  }
  // A group of constants alone (no run-time member) is left to the constant folds.
  std::vector<bool> has_activation(n, false);
  for (size_t id = 0; id < n; ++id) {
    const ir::TensorId t = static_cast<ir::TensorId>(id);
    if (plain(t) && !graph.tensor(t).is_constant)
      has_activation[static_cast<size_t>(groups.Find(t))] = true;
  }
  for (size_t id = 0; id < n; ++id) {
    const ir::TensorId t = static_cast<ir::TensorId>(id);
    if (!plain(t)) continue;
    const size_t root = static_cast<size_t>(groups.Find(t));
    if (group_blocked[root] || !has_activation[root]) continue;
    Annotate(graph, t);
  }
  CompareInFloat(graph);
}

}  // namespace tigris::passes
