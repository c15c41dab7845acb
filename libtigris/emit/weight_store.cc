#include "emit/weight_store.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "analysis/alignment.h"
#include "emit/compression.h"
#include "util/error.h"

namespace tigris::emit {
namespace {

uint32_t U32(int64_t v, const char* what) {
  if (v < 0 || v > std::numeric_limits<uint32_t>::max()) {
    throw Error(Status::kInvalidModel, std::string(what) + " exceeds the plan format's 4 GiB");
  }
  return static_cast<uint32_t>(v);
}

// Appends `bytes` at the next multiple of 16; returns where they start.
int64_t AppendAligned(std::vector<uint8_t>& out, const std::vector<uint8_t>& bytes) {
  out.resize(static_cast<size_t>(analysis::AlignUp(static_cast<int64_t>(out.size()))), 0);
  const int64_t at = static_cast<int64_t>(out.size());
  out.insert(out.end(), bytes.begin(), bytes.end());
  return at;
}

struct LayoutKey {
  WeightRole role;
  size_t rank;
  bool operator!=(const LayoutKey& o) const { return role != o.role || rank != o.rank; }
};

}  // namespace

WeightStore BuildWeightStore(const ir::Graph& graph, const plan::PlanResult& result, bool xip,
                             bool lz4, std::vector<OpRecord>& records,
                             const StagedPredicate& staged) {
  WeightStore store;
  const size_t n_tensors = graph.tensors.size();
  store.constants.resize(n_tensors);
  store.tensor_weight.assign(n_tensors, -1);
  store.stage_block.assign(result.stages.size(), -1);
  store.stage_reserved.assign(result.stages.size(), 0);

  // 1. Each constant's runtime layout, from the ops reading it (one layout per constant).
  std::map<ir::TensorId, LayoutKey> keys;
  for (size_t i = 0; i < records.size(); ++i) {
    const ir::Op& op = graph.ops[i];
    for (size_t k = 0; k < records[i].inputs.size(); ++k) {
      const ir::TensorId t = records[i].inputs[k];
      if (!graph.IsConstant(t)) continue;
      size_t rank = 0;
      const LayoutKey key{ConstantRole(graph, op, k, &rank), rank};
      auto [it, inserted] = keys.emplace(t, key);
      if (!inserted && it->second != key) {
        throw Error(Status::kUnsupportedOp, "constant '" + graph.tensor(t).name +
                                                "' is read by op '" + op.name +
                                                "' in a different layout than by another op");
      }
      if (inserted) {
        store.constants[static_cast<size_t>(t)] = LayOutConstant(graph.tensor(t), key.role, rank);
      }
    }
  }

  // 2. Residency units: a chain's stages share one, every other stage has its own.
  //    unit_of_op[op] = first stage of its unit, or kInPlace for every unit whose weights
  //    are read in place (all of them with xip; with xip and Stage::copy_weights, the
  //    others): those share one pool of blobs.
  constexpr int kInPlace = -1;
  std::vector<int> unit_of_op(graph.ops.size(), kInPlace);
  std::vector<int> units;  // first stage of each unit (or kInPlace), in order of first use
  for (const plan::Stage& stage : result.stages) {
    int unit = stage.id;
    if (stage.chain >= 0) unit = result.chains[static_cast<size_t>(stage.chain)].stages.front();
    if (xip && !stage.copy_weights) unit = kInPlace;
    if (std::find(units.begin(), units.end(), unit) == units.end()) units.push_back(unit);
    for (int op : stage.ops) unit_of_op[static_cast<size_t>(op)] = unit;
  }

  // 3. Constants per unit in first-use order; a constant seen in an earlier unit is copied.
  std::map<std::pair<int, ir::TensorId>, ir::TensorId> copy_for;  // (unit, tensor) -> id
  std::map<ir::TensorId, int> home_unit;
  std::map<int, std::vector<ir::TensorId>> unit_constants;
  for (size_t i = 0; i < records.size(); ++i) {
    const int unit = unit_of_op[i];
    for (int32_t& t : records[i].inputs) {
      if (!graph.IsConstant(t)) continue;
      auto home = home_unit.emplace(t, unit);
      if (home.second) {
        unit_constants[unit].push_back(t);
        continue;
      }
      if (home.first->second == unit) continue;
      auto [it, fresh] = copy_for.emplace(std::make_pair(unit, t), 0);
      if (fresh) {
        it->second = static_cast<ir::TensorId>(store.constants.size());
        LaidOutConstant copy = store.constants[static_cast<size_t>(t)];
        store.constants.push_back(std::move(copy));
        store.tensor_weight.push_back(-1);
        store.copy_of.push_back(t);
        unit_constants[unit].push_back(it->second);
      }
      t = it->second;
    }
  }

  // 4. Bytes. The in-place pool first, its staged constants at its front (in first-use
  //    order, as the rest), so that weight_data[0, staged_bytes) is one contiguous copy.
  if (staged) {
    const auto pool = std::find(units.begin(), units.end(), kInPlace);
    if (pool != units.end()) std::rotate(units.begin(), pool, pool + 1);
    std::vector<ir::TensorId>& list = unit_constants[kInPlace];
    std::stable_partition(list.begin(), list.end(), [&](ir::TensorId t) {
      return static_cast<size_t>(t) < graph.tensors.size() && staged(graph.tensor(t));
    });
  }
  for (int unit : units) {
    const std::vector<ir::TensorId>& list = unit_constants[unit];
    if (list.empty()) continue;
    const bool in_place = unit == kInPlace;
    std::vector<uint8_t> block;
    const int32_t block_index = in_place ? -1 : static_cast<int32_t>(store.blocks.size());
    for (ir::TensorId t : list) {
      const std::vector<uint8_t>& bytes = store.constants[static_cast<size_t>(t)].data;
      WeightRecord w;
      w.offset = U32(AppendAligned(in_place ? store.data : block, bytes), "weight data");
      w.size = U32(static_cast<int64_t>(bytes.size()), "a constant");
      w.block = block_index;
      store.raw_bytes += static_cast<int64_t>(bytes.size());
      if (in_place) store.stored_bytes += static_cast<int64_t>(bytes.size());
      store.tensor_weight[static_cast<size_t>(t)] = static_cast<int32_t>(store.weights.size());
      store.weights.push_back(w);
      if (in_place && staged && static_cast<size_t>(t) < graph.tensors.size() &&
          staged(graph.tensor(t))) {
        // Up to the last staged byte: blobs are 16-aligned, but weight_data ends where its
        // last blob does.
        store.staged_bytes = static_cast<int64_t>(w.offset) + w.size;
      }
    }
    if (in_place) continue;
    block.resize(static_cast<size_t>(analysis::AlignUp(static_cast<int64_t>(block.size()))), 0);
    // A block LZ4 does not shrink (float weights often) is stored raw: compressed_size ==
    // raw_size then means "copy", which is unambiguous because a compressed block is only
    // kept when strictly smaller (docs/plan-format.md).
    std::vector<uint8_t> stored = lz4 ? Lz4CompressBlock(block) : block;
    if (stored.size() >= block.size()) stored = block;
    WeightBlockRecord b;
    b.stage = unit;
    b.offset = U32(AppendAligned(store.data, stored), "weight data");
    b.compressed_size = U32(static_cast<int64_t>(stored.size()), "a weight block");
    b.raw_size = U32(static_cast<int64_t>(block.size()), "a weight block");
    store.stored_bytes += static_cast<int64_t>(stored.size());
    for (const plan::Stage& stage : result.stages) {
      if (stage.ops.empty() || unit_of_op[static_cast<size_t>(stage.ops.front())] != unit) continue;
      store.stage_block[static_cast<size_t>(stage.id)] = block_index;
      store.stage_reserved[static_cast<size_t>(stage.id)] = b.raw_size;
    }
    store.blocks.push_back(b);
  }
  return store;
}

}  // namespace tigris::emit
