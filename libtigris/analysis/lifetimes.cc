#include "analysis/lifetimes.h"

#include <algorithm>
#include <limits>
#include <string>

#include "util/error.h"

namespace tigris::analysis {

int64_t ActivationBytes(const ir::Tensor& tensor) {
  const auto element = static_cast<int64_t>(ir::DTypeSize(tensor.dtype));
  if (element == 0) {
    throw Error(Status::kUnsupportedDType,
                "activation '" + tensor.name + "' has an unknown element type");
  }
  const int64_t count = tensor.num_elements();
  // NumElements saturates; anything near it cannot be planned.
  if (count > std::numeric_limits<int64_t>::max() / 16) {
    throw Error(Status::kInvalidModel, "activation '" + tensor.name + "' of shape " +
                                           ir::ShapeToString(tensor.shape) + " is too large");
  }
  return count * element;
}

std::vector<Lifetime> ComputeLifetimes(const ir::Graph& graph) {
  const int last_step = static_cast<int>(graph.ops.size()) - 1;
  std::vector<Lifetime> lifetimes(graph.tensors.size());
  std::vector<bool> is_input(graph.tensors.size(), false);
  for (ir::TensorId id : graph.inputs) is_input.at(static_cast<size_t>(id)) = true;

  auto touch = [&](ir::TensorId id, int step) -> Lifetime& {
    Lifetime& life = lifetimes[static_cast<size_t>(id)];
    if (life.tensor == ir::kNoTensor) {
      life.tensor = id;
      life.birth = step;
      life.death = step;
      life.bytes = ActivationBytes(graph.tensor(id));
    }
    return life;
  };

  for (int step = 0; step <= last_step; ++step) {
    const ir::Op& op = graph.ops[static_cast<size_t>(step)];
    for (ir::TensorId in : op.inputs) {
      if (in == ir::kNoTensor || graph.IsConstant(in)) continue;
      const bool known = lifetimes[static_cast<size_t>(in)].tensor != ir::kNoTensor;
      if (!known && !is_input[static_cast<size_t>(in)]) {
        throw Error(Status::kInvalidModel, "op '" + op.name + "' reads activation '" +
                                               graph.tensor(in).name +
                                               "' before any op produces it");
      }
      Lifetime& life = touch(in, step);  // graph input: born at its first reader
      life.death = std::max(life.death, step);
    }
    for (ir::TensorId out : op.outputs) {
      if (out == ir::kNoTensor) continue;
      touch(out, step);
    }
  }
  for (ir::TensorId out : graph.outputs) {
    if (out == ir::kNoTensor || graph.IsConstant(out)) continue;
    // A graph input passed straight through to an output occupies the arena throughout.
    Lifetime& life = touch(out, 0);
    life.death = last_step;
  }
  return lifetimes;
}

}  // namespace tigris::analysis
