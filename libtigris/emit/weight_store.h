// Where every constant's bytes go in the plan (tigris-compilation-pipeline.txt, stage 7
// steps 1 and 3; docs/plan-format.md, "Weights").
//
//  xip:     each constant is one blob in weight_data, read in place from flash
//           (Weight.block = -1, Weight.offset into weight_data).
//  not xip (or a unit with Stage::copy_weights): constants are grouped per residency unit (a stage,
//  or all stages of a chain,
//           whose tile loop needs every chained stage's weights at once) into one block
//           that the runtime copies (compression NONE) or LZ4-decompresses into the fast
//           arena's prefix before the unit runs; Weight.offset is then relative to that
//           prefix. A constant read by several units gets one copy per unit (an extra
//           tensor appended after the IR's tensors).
// Every blob and block starts at a multiple of 16 in weight_data, and every weight at a
// multiple of 16 inside its block (so also in the arena). Staged constants (in-place blobs
// a context copies into its constants arena) come first, contiguous.
#ifndef TIGRIS_EMIT_WEIGHT_STORE_H_
#define TIGRIS_EMIT_WEIGHT_STORE_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "emit/op_record.h"
#include "emit/weight_layout.h"
#include "ir/graph.h"
#include "plan/plan.h"

namespace tigris::emit {

struct WeightRecord {
  uint32_t offset = 0;
  uint32_t size = 0;
  int32_t block = -1;
};

struct WeightBlockRecord {
  int32_t stage = 0;  // first stage of the unit
  uint32_t offset = 0;
  uint32_t compressed_size = 0;
  uint32_t raw_size = 0;
};

struct WeightStore {
  // Per emitted tensor (IR tensors, then the per-unit copies): the laid-out constant (empty
  // data for non-constants and for constants no kept op input reads) and its weight index.
  std::vector<LaidOutConstant> constants;
  std::vector<int32_t> tensor_weight;
  std::vector<ir::TensorId> copy_of;  // per appended tensor: the IR tensor it copies
  std::vector<WeightRecord> weights;
  std::vector<WeightBlockRecord> blocks;
  std::vector<uint8_t> data;            // weight_data
  std::vector<int32_t> stage_block;     // per stage
  std::vector<int64_t> stage_reserved;  // per stage: fast-arena prefix bytes (aligned)
  int64_t raw_bytes = 0;                // sum of constants' bytes in the runtime layout
  int64_t stored_bytes = 0;             // bytes of blobs or blocks in weight_data (unpadded)
  // Staged constants: weight_data[0, staged_bytes) holds exactly the in-place blobs that
  // `staged` chose, each 16-aligned, up to the last one's last byte (tgrs.fbs,
  // Plan.staged_offset / staged_bytes).
  int64_t staged_bytes = 0;
};

// Which in-place constants a plan stages (by IR tensor; a per-unit copy is never staged).
using StagedPredicate = std::function<bool(const ir::Tensor&)>;

// Lays out the constants that `records` (one per graph op, inputs possibly rewritten to
// copies here) read, per `result`'s stages. With xip, a unit whose stages have
// Stage::copy_weights (plan/weight_residency.h) still gets a block; the others share the
// in-place blobs. compression LZ4 applies to blocks only.
WeightStore BuildWeightStore(const ir::Graph& graph, const plan::PlanResult& result, bool xip,
                             bool lz4, std::vector<OpRecord>& records,
                             const StagedPredicate& staged = nullptr);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_WEIGHT_STORE_H_
