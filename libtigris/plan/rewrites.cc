#include "plan/rewrites.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analysis/alignment.h"
#include "plan/dense_split.h"

namespace tigris::plan {
namespace {

// Whether every reader of `y` is a Gemm reading it as A only: the runtime's Gemm reads A's
// bytes as [N, K], so [N, K] and [N, K, 1, 1] are the same operand to it.
bool ReadAsGemmAOnly(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                     ir::TensorId y) {
  for (int reader : consumers[static_cast<size_t>(y)]) {
    const ir::Op& r = graph.ops[static_cast<size_t>(reader)];
    if (r.type != ir::OpType::kGemm || r.inputs.size() < 2 || r.input(0) != y || r.input(1) == y ||
        (r.inputs.size() > 2 && r.input(2) == y)) {
      return false;
    }
  }
  return true;
}

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
  return ReadAsGemmAOnly(graph, consumers, y);
}

// embedding-as-rows's conditions (rewrites.h): the index of the ReduceMean over the tokens
// of Gather `op`'s lookup, or -1 when the pair does not qualify.
int RowEmbeddingMean(const ir::Graph& graph, const std::vector<std::vector<int>>& consumers,
                     const ir::Op& op) {
  if (op.type != ir::OpType::kGather || op.inputs.size() != 2 || op.outputs.size() != 1 ||
      op.attrs.GetInt("axis", 0) != 0) {
    return -1;
  }
  const ir::TensorId table = op.input(0), ids = op.input(1), e = op.outputs[0];
  if (table == ir::kNoTensor || ids == ir::kNoTensor || e == ir::kNoTensor ||
      !graph.IsConstant(table)) {
    return -1;
  }
  const ir::Tensor& it = graph.tensor(ids);
  const ir::Shape& ts = graph.tensor(table).shape;
  const bool graph_input =
      std::find(graph.inputs.begin(), graph.inputs.end(), ids) != graph.inputs.end();
  if (!graph_input || it.is_constant || it.shape.size() != 2 || ts.size() != 2 ||
      !it.host_permutation.empty() || !it.host_shape.empty() ||
      it.host_dtype != ir::DType::kUnknown || consumers[static_cast<size_t>(ids)].size() != 1 ||
      graph.tensor(e).shape != ir::Shape{it.shape[0], it.shape[1], ts[1]} ||
      consumers[static_cast<size_t>(e)].size() != 1 || graph.IsGraphOutput(e)) {
    return -1;
  }
  const int mean = consumers[static_cast<size_t>(e)][0];
  const ir::Op& r = graph.ops[static_cast<size_t>(mean)];
  if (r.type != ir::OpType::kReduceMean || r.inputs.size() != 1 || r.outputs.size() != 1 ||
      r.attrs.GetInts("axes") != std::vector<int64_t>{1} || r.attrs.GetInt("keepdims", 1) != 0) {
    return -1;
  }
  const ir::TensorId m = r.outputs[0];
  const ir::Tensor& mt = graph.tensor(m);
  if (mt.shape != ir::Shape{it.shape[0], ts[1]} || !mt.host_permutation.empty() ||
      !mt.host_shape.empty() || !ReadAsGemmAOnly(graph, consumers, m)) {
    return -1;
  }
  return mean;
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

bool EmbeddingAsRows(ir::Graph& graph, int op_index) {
  if (op_index < 0 || static_cast<size_t>(op_index) >= graph.ops.size()) return false;
  const int mean =
      RowEmbeddingMean(graph, graph.ConsumerIndex(), graph.ops[static_cast<size_t>(op_index)]);
  if (mean < 0) return false;
  const ir::Op& gather = graph.ops[static_cast<size_t>(op_index)];
  ir::Tensor& ids = graph.tensor(gather.input(1));
  const int64_t n = ids.shape[0], t = ids.shape[1];
  const int64_t d = graph.tensor(gather.input(0)).shape[1];
  ids.host_shape = ids.shape;
  ids.shape = {n, 1, t, 1};
  graph.tensor(gather.outputs[0]).shape = {n, d, t, 1};
  ir::Op& pool = graph.ops[static_cast<size_t>(mean)];
  pool.type = ir::OpType::kGlobalAveragePool;
  pool.attrs = ir::Attributes();
  ir::Tensor& m = graph.tensor(pool.outputs[0]);
  if (graph.IsGraphOutput(pool.outputs[0])) m.host_shape = m.shape;
  m.shape = {n, d, 1, 1};
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

std::vector<Rewrite> RewriteForBudget(ir::Graph& graph, const Budget& budget, bool split_dense) {
  std::vector<Rewrite> rewrites;
  // A rewrite changes no op's readers but its own filter's, so one index serves the scan.
  const std::vector<std::vector<int>> consumers = graph.ConsumerIndex();
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    if (const int mean = budget.fdt ? RowEmbeddingMean(graph, consumers, op) : -1; mean >= 0) {
      // Untiled, the lookup and its mean are resident together.
      const int64_t e = analysis::AlignUp(graph.tensor(op.outputs[0]).byte_size());
      const int64_t m = analysis::AlignUp(
          graph.tensor(graph.ops[static_cast<size_t>(mean)].outputs[0]).byte_size());
      if (e + m <= budget.fast_bytes) continue;
      rewrites.push_back(
          {op.name, kEmbeddingAsRowsRewrite,
           "lookup " + std::to_string(e) + " B + mean " + std::to_string(m) +
               " B exceed the fast budget of " + std::to_string(budget.fast_bytes) +
               " B; with the tokens as rows of a map the mean is a pool over bands of them"});
      EmbeddingAsRows(graph, static_cast<int>(i));
      continue;
    }
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
  // Last: it adds and removes ops, which the scan above must not see.
  if (split_dense && budget.fdt) {
    for (Rewrite& rewrite : SplitDensePairsForBudget(graph, budget)) {
      rewrites.push_back(std::move(rewrite));
    }
  }
  return rewrites;
}

}  // namespace tigris::plan
