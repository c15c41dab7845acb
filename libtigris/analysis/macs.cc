#include "analysis/macs.h"

#include <string>

#include "ir/recurrent.h"
#include "util/error.h"

namespace tigris::analysis {
namespace {

const ir::Shape& OperandShape(const ir::Graph& graph, const ir::Op& op, size_t index, size_t rank) {
  const ir::TensorId id = op.input(index);
  if (id == ir::kNoTensor || graph.tensor(id).shape.size() != rank) {
    throw Error(Status::kInvalidModel,
                "op '" + op.name + "' (" + std::string(ir::OpTypeName(op.type)) + "): input " +
                    std::to_string(index) + " must be a " + std::to_string(rank) + "-D tensor");
  }
  return graph.tensor(id).shape;
}

}  // namespace

int64_t MacsPerOutputElement(const ir::Graph& graph, const ir::Op& op) {
  switch (op.type) {
    case ir::OpType::kConv:
    case ir::OpType::kDepthwiseConv: {
      const ir::Shape& w = OperandShape(graph, op, 1, 4);  // [Cout, Cin/group, KH, KW]
      return w[1] * w[2] * w[3];
    }
    case ir::OpType::kConv1D: {
      const ir::Shape& w = OperandShape(graph, op, 1, 3);  // [Cout, Cin/group, K]
      return w[1] * w[2];
    }
    case ir::OpType::kGemm:
      if (op.inputs.size() > 1 && op.input(1) != ir::kNoTensor &&
          graph.tensor(op.input(1)).shape.size() == 2) {
        // K from B [N, K] (gemm-normalize): A may be a pooled [N, K, 1, 1] map whose
        // Flatten gemm-flatten-fold removed.
        return graph.tensor(op.input(1)).shape[1];
      }
      [[fallthrough]];
    case ir::OpType::kMatMul: {
      const ir::TensorId a = op.input(0);
      if (a == ir::kNoTensor || graph.tensor(a).shape.empty()) {
        throw Error(Status::kInvalidModel, "op '" + op.name + "' has no data input");
      }
      return graph.tensor(a).shape.back();  // K (gemm-normalize folded transA)
    }
    default:
      return 0;
  }
}

int64_t OpMacs(const ir::Graph& graph, const ir::Op& op) {
  if (ir::IsRecurrentOp(op.type)) {
    // Every step of every direction and batch entry: W [D, G H, I] times X_t and
    // R [D, G H, H] times H_{t-1}, whatever outputs the op keeps.
    const ir::Shape& x = OperandShape(graph, op, ir::kRecurrentX, 3);
    const ir::Shape& w = OperandShape(graph, op, ir::kRecurrentW, 3);
    const ir::Shape& r = OperandShape(graph, op, ir::kRecurrentR, 3);
    return x[0] * x[1] * r[0] * r[1] * (w[2] + r[2]);
  }
  if (op.type == ir::OpType::kConvTranspose) {
    const ir::Shape& w = OperandShape(graph, op, 1, 4);  // [Cin, Cout/group, KH, KW]
    return graph.tensor(op.input(0)).num_elements() * w[1] * w[2] * w[3];
  }
  const int64_t per_element = MacsPerOutputElement(graph, op);
  if (per_element == 0 || op.outputs.empty() || op.outputs[0] == ir::kNoTensor) return 0;
  return graph.tensor(op.outputs[0]).num_elements() * per_element;
}

int64_t GraphMacs(const ir::Graph& graph) {
  int64_t macs = 0;
  for (const ir::Op& op : graph.ops) macs += OpMacs(graph, op);
  return macs;
}

}  // namespace tigris::analysis
