#include "ir/graph.h"

#include <algorithm>
#include <unordered_map>

namespace tigris::ir {

TensorId Graph::AddTensor(Tensor tensor) {
  tensors.push_back(std::move(tensor));
  return static_cast<TensorId>(tensors.size() - 1);
}

TensorId Graph::AddConstant(std::string tensor_name, DType dtype, Shape shape,
                            std::vector<uint8_t> data) {
  Tensor t;
  t.name = UniqueTensorName(tensor_name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.is_constant = true;
  t.data = std::move(data);
  return AddTensor(std::move(t));
}

std::optional<TensorId> Graph::FindTensor(std::string_view tensor_name) const {
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].name == tensor_name) return static_cast<TensorId>(i);
  }
  return std::nullopt;
}

std::string Graph::UniqueTensorName(const std::string& base) const {
  if (!FindTensor(base)) return base;
  for (int i = 1;; ++i) {
    std::string candidate = base + "_" + std::to_string(i);
    if (!FindTensor(candidate)) return candidate;
  }
}

bool Graph::IsGraphOutput(TensorId id) const {
  return std::find(outputs.begin(), outputs.end(), id) != outputs.end();
}

std::vector<int> Graph::ProducerIndex() const {
  std::vector<int> producer(tensors.size(), -1);
  for (size_t i = 0; i < ops.size(); ++i) {
    for (TensorId out : ops[i].outputs) {
      if (out != kNoTensor) producer[static_cast<size_t>(out)] = static_cast<int>(i);
    }
  }
  return producer;
}

std::vector<std::vector<int>> Graph::ConsumerIndex() const {
  std::vector<std::vector<int>> consumers(tensors.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    for (TensorId in : ops[i].inputs) {
      if (in == kNoTensor) continue;
      auto& list = consumers[static_cast<size_t>(in)];
      // An op reading the same tensor twice (Add(x, x)) is one consumer.
      if (list.empty() || list.back() != static_cast<int>(i)) list.push_back(static_cast<int>(i));
    }
  }
  return consumers;
}

void Graph::ReplaceUses(TensorId from, TensorId to) {
  for (Op& op : ops) {
    std::replace(op.inputs.begin(), op.inputs.end(), from, to);
  }
  std::replace(outputs.begin(), outputs.end(), from, to);
}

void Graph::EraseOps(const std::vector<bool>& dead) {
  std::vector<Op> kept;
  kept.reserve(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!dead.at(i)) kept.push_back(std::move(ops[i]));
  }
  ops = std::move(kept);
}

void Graph::Compact() {
  std::vector<bool> used(tensors.size(), false);
  auto mark = [&](TensorId id) {
    if (id != kNoTensor) used[static_cast<size_t>(id)] = true;
  };
  for (const Op& op : ops) {
    for (TensorId id : op.inputs) mark(id);
    for (TensorId id : op.outputs) mark(id);
  }
  for (TensorId id : inputs) mark(id);
  for (TensorId id : outputs) mark(id);

  std::vector<TensorId> remap(tensors.size(), kNoTensor);
  std::vector<Tensor> kept;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!used[i]) continue;
    remap[i] = static_cast<TensorId>(kept.size());
    kept.push_back(std::move(tensors[i]));
  }
  tensors = std::move(kept);
  auto apply = [&](std::vector<TensorId>& ids) {
    for (TensorId& id : ids) {
      if (id != kNoTensor) id = remap[static_cast<size_t>(id)];
    }
  };
  for (Op& op : ops) {
    apply(op.inputs);
    apply(op.outputs);
  }
  apply(inputs);
  apply(outputs);
}

std::string_view Graph::ComputeDTypeName() const {
  for (const Tensor& t : tensors) {
    if (!t.is_constant && t.quant.has_value()) return "int8";
  }
  return "float32";
}

}  // namespace tigris::ir
