// The verifier that closes normalization (tigris-compilation-pipeline.txt, stage 2; the
// IREE habit of a verifier between phases). Everything after normalization (analysis,
// planning, emission, the runtime) assumes these invariants instead of re-checking them:
//  1. every op is a runtime op (op_type.h) with at most kMaxOpInputs inputs (what the
//     runtime's op call holds); a transient op left over means a pass could not fold it,
//     reported as kUnsupportedOp naming op type, node and model;
//  2. ops are in topological order: each input is a constant, a graph input or the output
//     of an earlier op; each tensor is produced once; graph outputs are produced;
//  3. every activation has a known dtype and a concrete shape with no zero or negative
//     extent (rank 0 is a scalar); every constant holds exactly its shape's bytes;
//  4. int8 consistency: int8 activations carry QuantParams; only Quantize goes from
//     float32 to int8 and only Dequantize from int8 to float32; every other op reads
//     activations of one kind (int8 or float32) and writes that kind;
//  5. a Gather is an embedding lookup, the one form the runtime executes (tgrs_gather):
//     axis 0 of a constant float32 or int8 table of rank 1 or 2 (per-tensor quantization),
//     by run-time int32 or int64 indices of rank <= 2. Other Gathers (of activations, or
//     along another axis) are kUnsupportedOp naming the node and the rule;
//  6. every op is in a form the runtime executes (runtime_forms.cc): activations of rank
//     <= 4 in float32 or int8, constant filters, and the pool ranks, pad modes and resize
//     transforms the runtime's op functions accept, so that a plan compile writes never
//     meets TGRS_ERR_UNSUPPORTED_OP at run time (kUnsupportedOp naming the op and the rule).
// Broken invariants 2-4 are kInvalidModel: they are defects of the model or of a pass;
// except an int8 activation without quantization (kUnsupportedDType): integer arithmetic
// a valid model may hold.
#include <string>
#include <vector>

#include "passes/pass.h"
#include "passes/passes.h"
#include "passes/rewrite_util.h"
#include "util/error.h"

namespace tigris::passes {
namespace {

std::string Where(const ir::Graph& graph, const ir::Op& op) {
  return DescribeOp(op) + " in model '" + graph.name + "'";
}

[[noreturn]] void Invalid(const std::string& message) {
  throw Error(Status::kInvalidModel, message);
}

void CheckRuntimeOps(const ir::Graph& graph) {
  for (const ir::Op& op : graph.ops) {
    if (!ir::IsRuntimeOp(op.type)) {
      throw Error(Status::kUnsupportedOp,
                  Where(graph, op) +
                      " is not supported by the runtime (it should have been folded by "
                      "normalization)");
    }
    if (op.inputs.size() > kMaxOpInputs) {
      throw Error(Status::kUnsupportedOp,
                  Where(graph, op) + " has " + std::to_string(op.inputs.size()) +
                      " inputs; the runtime runs ops of at most " + std::to_string(kMaxOpInputs));
    }
  }
}

void CheckId(const ir::Graph& graph, ir::TensorId id, const std::string& where) {
  if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) {
    Invalid(where + " refers to tensor id " + std::to_string(id) + ", which does not exist");
  }
}

// Invariant 2; returns which tensors are referenced at all (for invariant 3).
std::vector<bool> CheckTopologicalOrder(const ir::Graph& graph) {
  std::vector<bool> defined(graph.tensors.size(), false);
  std::vector<bool> used(graph.tensors.size(), false);
  for (size_t i = 0; i < graph.tensors.size(); ++i) defined[i] = graph.tensors[i].is_constant;
  for (ir::TensorId id : graph.inputs) {
    CheckId(graph, id, "graph input of model '" + graph.name + "'");
    if (graph.tensor(id).is_constant) {
      Invalid("graph input '" + graph.tensor(id).name + "' of model '" + graph.name +
              "' is a constant");
    }
    defined[static_cast<size_t>(id)] = used[static_cast<size_t>(id)] = true;
  }
  for (const ir::Op& op : graph.ops) {
    for (ir::TensorId id : op.inputs) {
      if (id == ir::kNoTensor) continue;  // absent optional input
      CheckId(graph, id, Where(graph, op));
      if (!defined[static_cast<size_t>(id)]) {
        Invalid(Where(graph, op) + " reads tensor '" + graph.tensor(id).name +
                "' before any op produces it");
      }
      used[static_cast<size_t>(id)] = true;
    }
    for (ir::TensorId id : op.outputs) {
      if (id == ir::kNoTensor) continue;  // absent optional output
      CheckId(graph, id, Where(graph, op));
      if (defined[static_cast<size_t>(id)]) {
        Invalid(Where(graph, op) + " writes tensor '" + graph.tensor(id).name +
                "', which is already a constant, a graph input or another op's output");
      }
      defined[static_cast<size_t>(id)] = used[static_cast<size_t>(id)] = true;
    }
  }
  for (ir::TensorId id : graph.outputs) {
    CheckId(graph, id, "graph output of model '" + graph.name + "'");
    if (!defined[static_cast<size_t>(id)]) {
      Invalid("graph output '" + graph.tensor(id).name + "' of model '" + graph.name +
              "' is never produced");
    }
    used[static_cast<size_t>(id)] = true;
  }
  return used;
}

// Invariant 3.
void CheckTensor(const ir::Graph& graph, const ir::Tensor& t) {
  const std::string what = "tensor '" + t.name + "' in model '" + graph.name + "'";
  if (t.dtype == ir::DType::kUnknown) Invalid(what + " has no known dtype");
  for (int64_t extent : t.shape) {
    if (extent <= 0) {
      Invalid(what + " has shape " + ir::ShapeToString(t.shape) +
              "; every extent must be a known positive number");
    }
  }
  if (t.is_constant && static_cast<int64_t>(t.data.size()) != t.byte_size()) {
    Invalid(what + " holds " + std::to_string(t.data.size()) + " bytes, its shape and dtype need " +
            std::to_string(t.byte_size()));
  }
  if (!t.is_constant && t.dtype == ir::DType::kInt8 && !t.quant) {
    // A valid ONNX model (int8 arithmetic, as ONNX's test_add_int8), but not one the
    // runtime computes: its int8 is quantized real numbers, from QDQ. Integers only
    // compared, selected or moved run as scale-1 int8 (integer-order-annotate).
    throw Error(Status::kUnsupportedDType,
                what +
                    " is an int8 activation without quantization parameters that arithmetic "
                    "reads or writes; the runtime's int8 is quantized "
                    "(QuantizeLinear/DequantizeLinear) and saturates where ONNX's integers "
                    "wrap around");
  }
}

// Invariant 4 for one op: the activation dtype class (int8 or float32) it reads and writes.
void CheckInt8Consistency(const ir::Graph& graph, const ir::Op& op) {
  bool reads_int8 = false;
  bool reads_float = false;
  for (ir::TensorId id : op.inputs) {
    if (id == ir::kNoTensor || graph.IsConstant(id)) continue;
    reads_int8 |= graph.tensor(id).dtype == ir::DType::kInt8;
    reads_float |= graph.tensor(id).dtype == ir::DType::kFloat32;
  }
  bool writes_int8 = false;
  bool writes_float = false;
  for (ir::TensorId id : op.outputs) {
    if (id == ir::kNoTensor) continue;
    writes_int8 |= graph.tensor(id).dtype == ir::DType::kInt8;
    writes_float |= graph.tensor(id).dtype == ir::DType::kFloat32;
  }
  if (reads_int8 && reads_float) {
    Invalid(Where(graph, op) + " reads both int8 and float32 activations");
  }
  if (op.type == ir::OpType::kQuantize) {
    if (reads_int8 || writes_float) Invalid(Where(graph, op) + " must map float32 to int8");
    return;
  }
  if (op.type == ir::OpType::kDequantize) {
    if (reads_float || writes_int8) Invalid(Where(graph, op) + " must map int8 to float32");
    return;
  }
  if (reads_int8 && writes_float) {
    Invalid(Where(graph, op) +
            " reads int8 activations but writes float32 (only Dequantize leaves int8)");
  }
  if (reads_float && writes_int8) {
    Invalid(Where(graph, op) +
            " reads float32 activations but writes int8 (only Quantize enters int8)");
  }
}

// Invariant 5.
void CheckGather(const ir::Graph& graph, const ir::Op& op) {
  const auto unsupported = [&](const std::string& why) {
    throw Error(Status::kUnsupportedOp,
                Where(graph, op) + ": " + why +
                    "; the runtime gathers rows of a constant table by run-time indices only "
                    "(axis 0, a float32 or int8 table of rank 1 or 2, int32/int64 indices of "
                    "rank <= 2)");
  };
  if (op.inputs.size() != 2 || op.outputs.size() != 1) unsupported("expects 2 inputs, 1 output");
  const ir::Tensor& table = graph.tensor(op.input(0));
  const ir::Tensor& indices = graph.tensor(op.input(1));
  if (!table.is_constant) unsupported("its data '" + table.name + "' is computed at run time");
  if (indices.is_constant) unsupported("its indices '" + indices.name + "' are constant");
  const int64_t rank = static_cast<int64_t>(table.shape.size());
  const int64_t axis = op.attrs.GetInt("axis", 0);
  if (rank < 1 || rank > 2) {
    unsupported("its table '" + table.name + "' has rank " + std::to_string(rank));
  }
  if (axis != 0 && axis != -rank) unsupported("it gathers along axis " + std::to_string(axis));
  if (table.dtype != ir::DType::kFloat32 && table.dtype != ir::DType::kInt8) {
    unsupported("its table '" + table.name + "' is " + std::string(ir::DTypeName(table.dtype)));
  }
  if (table.quant && table.quant->scales.size() != 1) {
    unsupported("its table '" + table.name + "' is quantized per channel");
  }
  if ((indices.dtype != ir::DType::kInt64 && indices.dtype != ir::DType::kInt32) ||
      indices.shape.size() > 2) {
    unsupported("its indices '" + indices.name + "' are " +
                std::string(ir::DTypeName(indices.dtype)) + " of rank " +
                std::to_string(indices.shape.size()));
  }
}

}  // namespace

void Verify(const ir::Graph& graph) {
  CheckRuntimeOps(graph);
  const std::vector<bool> used = CheckTopologicalOrder(graph);
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    if (used[i]) CheckTensor(graph, graph.tensors[i]);
  }
  for (const ir::Op& op : graph.ops) {
    CheckInt8Consistency(graph, op);
    if (op.type == ir::OpType::kGather) CheckGather(graph, op);
  }
  CheckRuntimeForms(graph);
}

}  // namespace tigris::passes
