#include "plan/rewrites.h"

#include <string>
#include <utility>
#include <vector>

#include "analysis/alignment.h"

namespace tigris::plan {
namespace {

// `consumers`: graph.ConsumerIndex().
bool IsClassifier(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                  const ir::Op& op) {
  if (op.type != ir::OpType::kGemm || op.inputs.size() < 2 || op.outputs.size() != 1) {
    return false;
  }
  const ir::TensorId a = op.input(0), b = op.input(1), y = op.outputs[0];
  if (a == ir::kNoTensor || b == ir::kNoTensor || !graph.IsConstant(b)) return false;
  if (op.inputs.size() > 2 && op.input(2) != ir::kNoTensor && !graph.IsConstant(op.input(2))) {
    return false;
  }
  if (!consumers[static_cast<size_t>(y)].empty()) return false;  // not only the output
  const ir::Shape& as = graph.tensor(a).shape;
  const ir::Shape& bs = graph.tensor(b).shape;
  const ir::Tensor& out = graph.tensor(y);
  return as.size() == 4 && as[2] == 1 && as[3] == 1 && bs.size() == 2 && bs[1] == as[1] &&
         out.shape.size() == 2 && out.shape[0] == as[0] && out.shape[1] == bs[0] &&
         graph.IsGraphOutput(y) && out.host_permutation.empty() && out.host_shape.empty();
}

// gemm-as-banded-reduction's conditions (rewrites.h).
bool IsBandableGemm(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                    const ir::Op& op) {
  if (op.type != ir::OpType::kGemm || op.inputs.size() < 2 || op.outputs.size() != 1) {
    return false;
  }
  const ir::TensorId a = op.input(0), b = op.input(1), y = op.outputs[0];
  if (a == ir::kNoTensor || b == ir::kNoTensor || !graph.IsConstant(b) || graph.IsConstant(a)) {
    return false;
  }
  if (op.inputs.size() > 2 && op.input(2) != ir::kNoTensor && !graph.IsConstant(op.input(2))) {
    return false;
  }
  const ir::Shape& as = graph.tensor(a).shape;
  const ir::Shape& bs = graph.tensor(b).shape;
  const ir::Tensor& out = graph.tensor(y);
  if (as.size() != 4 || as[2] * as[3] < 2 || bs.size() != 2 || bs[1] != as[1] * as[2] * as[3] ||
      out.shape.size() != 2 || out.shape[0] != as[0] || out.shape[1] != bs[0] ||
      !out.host_permutation.empty() || !out.host_shape.empty()) {
    return false;
  }
  for (int reader : consumers[static_cast<size_t>(y)]) {
    const ir::Op& r = graph.ops[static_cast<size_t>(reader)];
    if (r.type != ir::OpType::kGemm || r.inputs.size() < 2 || r.input(0) != y || r.input(1) == y ||
        (r.inputs.size() > 2 && r.input(2) == y)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool GemmAsBandedReduction(ir::Graph& graph, int op_index) {
  if (op_index < 0 || static_cast<size_t>(op_index) >= graph.ops.size()) return false;
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  const ir::Op& op = graph.ops[static_cast<size_t>(op_index)];
  if (!IsBandableGemm(graph, consumers, op)) return false;
  ir::Tensor& out = graph.tensor(op.outputs[0]);
  if (graph.IsGraphOutput(op.outputs[0])) out.host_shape = out.shape;
  out.shape = {out.shape[0], out.shape[1], 1, 1};
  return true;
}

bool ClassifierAsPointwise(ir::Graph& graph, int op_index) {
  if (op_index < 0 || static_cast<size_t>(op_index) >= graph.ops.size()) return false;
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  if (!IsClassifier(graph, consumers, graph.ops[static_cast<size_t>(op_index)])) return false;
  // The filter: B's bytes as [M, K, 1, 1] (the same row-major order). B itself when only
  // this op reads it (a copy would leave B's bytes behind, counted as weights); else a new
  // tensor, so that the other readers keep B's shape.
  const ir::TensorId b = graph.ops[static_cast<size_t>(op_index)].input(1);
  ir::TensorId filter_id = b;
  if (consumers[static_cast<size_t>(b)].size() > 1) {
    ir::Tensor filter = graph.tensor(b);
    filter.name = graph.UniqueTensorName(filter.name + "_1x1");
    filter_id = graph.AddTensor(std::move(filter));
  }
  ir::Tensor& filter = graph.tensor(filter_id);
  filter.shape = {filter.shape[0], filter.shape[1], 1, 1};
  ir::Op& op = graph.ops[static_cast<size_t>(op_index)];
  ir::Tensor& out = graph.tensor(op.outputs[0]);
  out.host_shape = out.shape;
  out.shape = {out.shape[0], out.shape[1], 1, 1};
  op.type = ir::OpType::kConv;
  op.inputs[1] = filter_id;
  op.attrs = ir::Attributes();  // Conv's defaults: 1x1 from the filter, stride 1, no pads
  return true;
}

std::vector<Rewrite> RewriteForBudget(ir::Graph& graph, const Budget& budget) {
  std::vector<Rewrite> rewrites;
  // A rewrite changes no op's readers but its own filter's, so one index serves the scan.
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (IsBandableGemm(graph, consumers, op)) {
      const int64_t in = analysis::AlignUp(graph.tensor(op.input(0)).byte_size());
      const int64_t out = analysis::AlignUp(graph.tensor(op.outputs[0]).byte_size());
      if (in + out <= budget.fast_bytes) continue;
      rewrites.push_back(
          {op.name, "gemm-as-banded-reduction",
           "input " + std::to_string(in) + " B + output " + std::to_string(out) +
               " B exceed the fast budget of " + std::to_string(budget.fast_bytes) +
               " B; as a reduction over the input's rows it reads one band at a time"});
      GemmAsBandedReduction(graph, static_cast<int>(i));
      continue;
    }
    if (!IsClassifier(graph, consumers, op)) continue;
    // As a Gemm the op needs its whole input and output resident at once.
    const int64_t in = analysis::AlignUp(graph.tensor(op.input(0)).byte_size());
    const int64_t out = analysis::AlignUp(graph.tensor(op.outputs[0]).byte_size());
    if (in + out <= budget.fast_bytes) continue;
    Rewrite rewrite{op.name, "classifier-as-pointwise",
                    "input " + std::to_string(in) + " B + output " + std::to_string(out) +
                        " B exceed the fast budget of " + std::to_string(budget.fast_bytes) +
                        " B; as a 1x1 convolution its output channels run in groups"};
    ClassifierAsPointwise(graph, static_cast<int>(i));
    rewrites.push_back(std::move(rewrite));
  }
  return rewrites;
}

}  // namespace tigris::plan
