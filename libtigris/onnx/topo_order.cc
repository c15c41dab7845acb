#include "onnx/topo_order.h"

#include <algorithm>
#include <string>

#include "util/error.h"

namespace tigris::onnx_import {
namespace {

// Consumer ops of every op (edges op -> consumer), each list in op order, deduplicated.
std::vector<std::vector<int>> OpSuccessors(const ir::Graph& graph) {
  std::vector<int> producer = graph.ProducerIndex();
  std::vector<std::vector<int>> succ(graph.ops.size());
  for (size_t i = 0; i < graph.ops.size(); ++i) {
    for (ir::TensorId in : graph.ops[i].inputs) {
      if (in == ir::kNoTensor) continue;
      int p = producer[static_cast<size_t>(in)];
      if (p < 0) continue;
      auto& list = succ[static_cast<size_t>(p)];
      if (std::find(list.begin(), list.end(), static_cast<int>(i)) == list.end()) {
        list.push_back(static_cast<int>(i));
      }
    }
  }
  return succ;
}

}  // namespace

void CheckAcyclic(const ir::Graph& graph) {
  // Kahn's algorithm: ops never released all sit on or downstream of a cycle.
  std::vector<std::vector<int>> succ = OpSuccessors(graph);
  std::vector<int> indegree(graph.ops.size(), 0);
  for (const auto& list : succ) {
    for (int s : list) ++indegree[static_cast<size_t>(s)];
  }
  std::vector<int> ready;
  for (size_t i = 0; i < indegree.size(); ++i) {
    if (indegree[i] == 0) ready.push_back(static_cast<int>(i));
  }
  size_t released = 0;
  while (!ready.empty()) {
    int op = ready.back();
    ready.pop_back();
    ++released;
    for (int s : succ[static_cast<size_t>(op)]) {
      if (--indegree[static_cast<size_t>(s)] == 0) ready.push_back(s);
    }
  }
  if (released == graph.ops.size()) return;

  // Every unreleased op has an unreleased predecessor; walking predecessors from any of
  // them must revisit an op, and that op lies on a cycle.
  std::vector<int> producer = graph.ProducerIndex();
  int op = 0;
  while (indegree[static_cast<size_t>(op)] == 0) ++op;
  std::vector<bool> seen(graph.ops.size(), false);
  while (!seen[static_cast<size_t>(op)]) {
    seen[static_cast<size_t>(op)] = true;
    for (ir::TensorId in : graph.ops[static_cast<size_t>(op)].inputs) {
      int p = in == ir::kNoTensor ? -1 : producer[static_cast<size_t>(in)];
      if (p >= 0 && indegree[static_cast<size_t>(p)] > 0) {
        op = p;
        break;
      }
    }
  }
  const ir::Op& on_cycle = graph.ops[static_cast<size_t>(op)];
  throw Error(Status::kGraphCycle, "model '" + graph.name + "' has a cycle through node '" +
                                       on_cycle.name + "' (" +
                                       std::string(ir::OpTypeName(on_cycle.type)) + ")");
}

void SortOpsDfsReversedChildren(ir::Graph& graph) {
  const size_t n = graph.ops.size();
  std::vector<std::vector<int>> succ = OpSuccessors(graph);
  std::vector<std::vector<int>> consumers = graph.ConsumerIndex();

  std::vector<int> roots;
  std::vector<bool> is_root(n, false);
  auto add_root = [&](int op) {
    if (!is_root[static_cast<size_t>(op)]) {
      is_root[static_cast<size_t>(op)] = true;
      roots.push_back(op);
    }
  };
  for (ir::TensorId in : graph.inputs) {
    for (int c : consumers[static_cast<size_t>(in)]) add_root(c);
  }
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    if (graph.tensors[t].is_constant) {
      for (int c : consumers[t]) add_root(c);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    const auto& ins = graph.ops[i].inputs;
    if (std::all_of(ins.begin(), ins.end(), [](ir::TensorId t) { return t == ir::kNoTensor; })) {
      add_root(static_cast<int>(i));
    }
  }

  // Iterative DFS (deep graphs must not exhaust the C++ stack).
  std::vector<bool> visited(n, false);
  std::vector<int> post;
  post.reserve(n);
  struct Frame {
    int op;
    size_t next;  // children visited so far, counted from the back
  };
  std::vector<Frame> stack;
  auto visit = [&](int start) {
    if (visited[static_cast<size_t>(start)]) return;
    visited[static_cast<size_t>(start)] = true;
    stack.push_back({start, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const auto& children = succ[static_cast<size_t>(f.op)];
      if (f.next < children.size()) {
        int child = children[children.size() - 1 - f.next];  // reversed child order
        ++f.next;
        if (!visited[static_cast<size_t>(child)]) {
          visited[static_cast<size_t>(child)] = true;
          stack.push_back({child, 0});
        }
      } else {
        post.push_back(f.op);
        stack.pop_back();
      }
    }
  };
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) visit(*it);
  // Ops reachable from no source cannot exist in an acyclic graph; keep them anyway (in
  // ONNX order, after everything) rather than drop them silently.
  std::vector<int> order(post.rbegin(), post.rend());
  for (size_t i = 0; i < n; ++i) {
    if (!visited[i]) order.push_back(static_cast<int>(i));
  }

  std::vector<ir::Op> sorted;
  sorted.reserve(n);
  for (int i : order) sorted.push_back(std::move(graph.ops[static_cast<size_t>(i)]));
  graph.ops = std::move(sorted);
}

}  // namespace tigris::onnx_import
