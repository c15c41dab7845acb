// The human report of `tigris inspect`.
#include <cstdio>
#include <string>

#include "inspect_plan.h"

namespace tigris::cli {
namespace {

const char* StrategyName(tgrs_stage_strategy s) {
  switch (s) {
    case TGRS_STRATEGY_NORMAL:
      return "normal";
    case TGRS_STRATEGY_TILED:
      return "tiled";
    case TGRS_STRATEGY_CHAIN:
      return "chain";
  }
  return "?";
}

const char* RegionName(tgrs_memory_region r) {
  switch (r) {
    case TGRS_REGION_FAST:
      return "fast";
    case TGRS_REGION_SLOW:
      return "slow";
    case TGRS_REGION_FLASH:
      return "flash";
    case TGRS_REGION_HOST:
      return "host";
    case TGRS_REGION_STATE:
      return "state";
    case TGRS_REGION_CONSTANTS:
      return "constants";
    case TGRS_REGION_PINNED:
      return "pinned";
  }
  return "?";
}

const char* KindName(tgrs_buffer_kind k) {
  switch (k) {
    case TGRS_BUFFER_TENSOR:
      return "tensor";
    case TGRS_BUFFER_ROW_STRIP:
      return "row_strip";
    case TGRS_BUFFER_SCRATCH:
      return "scratch";
  }
  return "?";
}

std::string Ints(tgrs_i32s s, const char* sep = ",") {
  std::string out;
  for (uint32_t i = 0; i < s.count; ++i) {
    if (i) out += sep;
    out += std::to_string(s.data[i]);
  }
  return out.empty() ? "-" : out;
}

// Consecutive op indices print as a range ("3-7").
std::string OpRange(tgrs_i32s ops) {
  if (ops.count == 0) return "-";
  if (ops.count == 1) return std::to_string(ops.data[0]);
  return std::to_string(ops.data[0]) + "-" + std::to_string(ops.data[ops.count - 1]);
}

std::string TensorLabel(const tgrs_plan& plan, int32_t index) {
  tgrs_plan_tensor t;
  if (index < 0 || tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(index), &t) != TGRS_OK) {
    return "-";
  }
  // A plan compiled with --strip-names keeps only the graph's inputs' and outputs' names.
  const std::string name = t.name[0] ? t.name : "#" + std::to_string(index);
  std::string label =
      name + " " + (t.shape.count ? Ints(t.shape, "x") : "scalar") + " " + tgrs_dtype_name(t.dtype);
  if (t.host_dtype != t.dtype)
    label += std::string(" (caller: ") + tgrs_dtype_name(t.host_dtype) + ")";
  return label;
}

void PrintBuffer(const tgrs_plan& plan, const tgrs_plan_buffer& b) {
  std::string what =
      b.kind == TGRS_BUFFER_SCRATCH ? "op " + std::to_string(b.op) : TensorLabel(plan, b.tensor);
  std::printf("      %-9s %-32s ops %d-%d  %u B  @ %s %u (+%u)\n", KindName(b.kind), what.c_str(),
              b.first_op, b.last_op, b.bytes, RegionName(b.home.region), b.home.offset,
              b.home.size);
}

void PrintTile(const tgrs_plan& plan, const tgrs_plan_tile& tile, bool verbose) {
  std::printf("    tile: %d rows%s x %d tiles, halo %d%s, ops %s, peak %u B\n", tile.tile_size,
              tile.column_count > 0    ? " (2-D: column regions per tile)"
              : tile.channel_count > 0 ? " (channel groups: channel regions per tile)"
                                       : "",
              tile.count, tile.halo, tile.streamed ? " (streamed: rows kept, not recomputed)" : "",
              Ints(tile.ops).c_str(), tile.peak_bytes);
  for (uint32_t k = 0; k < tile.buffer_count; ++k) {
    tgrs_plan_buffer b;
    if (tgrs_plan_tile_buffer(&tile, k, &b) == TGRS_OK) PrintBuffer(plan, b);
  }
  if (!verbose) return;
  for (uint32_t t = 0; t < static_cast<uint32_t>(tile.count); ++t) {
    for (uint32_t k = 0; k < tile.ops.count; ++k) {
      const tgrs_tile_region* r = tgrs_plan_tile_region(&tile, t, k);
      if (!r) continue;
      std::printf("      tile %u op %d: in [%d, %d) out [%d, %d) pad %d/%d", t, tile.ops.data[k],
                  r->in_begin, r->in_end, r->out_begin, r->out_end, r->pad_before, r->pad_after);
      const tgrs_tile_region* c = tgrs_plan_tile_columns(&tile, t, k);
      if (c) {
        std::printf("; columns in [%d, %d) out [%d, %d) pad %d/%d", c->in_begin, c->in_end,
                    c->out_begin, c->out_end, c->pad_before, c->pad_after);
      }
      const tgrs_tile_region* g = tgrs_plan_tile_channels(&tile, t, k);
      if (g) std::printf("; channels [%d, %d)", g->out_begin, g->out_end);
      std::printf("\n");
    }
  }
}

void PrintHeader(const LoadedPlan& loaded) {
  const tgrs_plan& p = loaded.plan();
  std::printf("plan       %s (%zu bytes)\n", loaded.path().c_str(), loaded.size());
  std::printf("schema     %u\n", tgrs_plan_schema_version(&p));
  std::printf("generator  %s\n", tgrs_plan_generator(&p));
  std::printf("model      %s\n", tgrs_plan_model_name(&p));
  std::printf("arenas     fast %u B, slow %u B (scheduled peak %u B)\n",
              tgrs_plan_fast_arena_bytes(&p), tgrs_plan_slow_arena_bytes(&p),
              tgrs_plan_scheduled_peak_bytes(&p));
  // Where each arena and the plan live (Plan.memories: a target's names, or the roles').
  std::string where;
  for (uint32_t r = 0; r < tgrs_plan_memory_count(&p); ++r) {
    tgrs_plan_memory m;
    if (r == TGRS_REGION_HOST || tgrs_plan_get_memory(&p, r, &m) != TGRS_OK) continue;
    if (r != TGRS_REGION_FLASH && m.size == 0) continue;  // an arena the plan does not use
    static const char* const kRoles[] = {"scratch", "spills",    "plan",  "",
                                         "state",   "constants", "pinned"};
    if (r >= sizeof kRoles / sizeof kRoles[0]) break;  // a later schema's memories
    where += std::string(where.empty() ? "" : ", ") + kRoles[r] + " in " + m.name;
    if (r != TGRS_REGION_FLASH) where += " (" + std::to_string(m.size) + " B)";
  }
  if (!where.empty()) std::printf("memories   %s\n", where.c_str());
  std::printf("weights    %u blobs, %u B of weight data, %s\n", tgrs_plan_weight_count(&p),
              tgrs_plan_weight_data(&p).count, WeightResidencyText(p).c_str());
  std::printf("integrity  %s\n", IntegrityText(loaded).c_str());
  std::printf("sha256     %s\n", PlanSha256Hex(loaded).c_str());
  tgrs_i32s inputs = tgrs_plan_inputs(&p), outputs = tgrs_plan_outputs(&p);
  for (uint32_t i = 0; i < inputs.count; ++i) {
    std::printf("input      %s\n", TensorLabel(p, inputs.data[i]).c_str());
  }
  for (uint32_t i = 0; i < outputs.count; ++i) {
    std::printf("output     %s\n", TensorLabel(p, outputs.data[i]).c_str());
  }
  for (uint32_t i = 0; i < tgrs_plan_state_count(&p); ++i) {
    tgrs_plan_state_slot s;
    if (tgrs_plan_get_state(&p, i, &s) != TGRS_OK) continue;
    std::printf("state      %s <- %s, %u B at %u of the state arena (zeros at first)\n",
                TensorLabel(p, inputs.data[s.input]).c_str(),
                TensorLabel(p, outputs.data[s.output]).c_str(), s.size, s.offset);
  }
  std::printf("counts     %u tensors, %u ops, %u stages, %u chains\n", tgrs_plan_tensor_count(&p),
              tgrs_plan_op_count(&p), tgrs_plan_stage_count(&p), tgrs_plan_chain_count(&p));
}

void PrintStages(const tgrs_plan& p, bool verbose) {
  std::printf("\nstages\n");
  for (uint32_t i = 0; i < tgrs_plan_stage_count(&p); ++i) {
    tgrs_plan_stage s;
    if (tgrs_plan_get_stage(&p, i, &s) != TGRS_OK) continue;
    std::printf("  stage %u  %-6s ops %-7s peak %u B", i, StrategyName(s.strategy),
                OpRange(s.ops).c_str(), s.peak_bytes);
    if (s.fast_reserved_bytes) std::printf(", weights reserved %u B", s.fast_reserved_bytes);
    if (s.weight_block >= 0) std::printf(", block %d", s.weight_block);
    if (s.chain >= 0) std::printf(", chain %d", s.chain);
    if (s.spill_in.count) std::printf(", spill in %s", Ints(s.spill_in).c_str());
    if (s.spill_out.count) std::printf(", spill out %s", Ints(s.spill_out).c_str());
    std::printf("\n");
    for (uint32_t k = 0; k < s.buffer_count; ++k) {
      tgrs_plan_buffer b;
      if (tgrs_plan_get_stage_buffer(&p, i, k, &b) == TGRS_OK) PrintBuffer(p, b);
    }
    tgrs_plan_tile tile;
    if (tgrs_plan_get_stage_tile(&p, i, &tile) == TGRS_OK) PrintTile(p, tile, verbose);
  }
  for (uint32_t i = 0; i < tgrs_plan_chain_count(&p); ++i) {
    tgrs_plan_chain c;
    tgrs_plan_tile tile;
    if (tgrs_plan_get_chain(&p, i, &c) != TGRS_OK) continue;
    std::printf("  chain %u  stages %s\n", i, Ints(c.stages).c_str());
    if (tgrs_plan_get_chain_tile(&p, i, &tile) == TGRS_OK) PrintTile(p, tile, verbose);
  }
  for (uint32_t i = 0; i < tgrs_plan_slow_buffer_count(&p); ++i) {
    if (i == 0) std::printf("  slow arena\n");
    tgrs_plan_buffer b;
    if (tgrs_plan_get_slow_buffer(&p, i, &b) == TGRS_OK) PrintBuffer(p, b);
  }
}

void PrintOps(const tgrs_plan& p) {
  std::printf("\nops\n");
  for (uint32_t i = 0; i < tgrs_plan_op_count(&p); ++i) {
    tgrs_plan_op op;
    if (tgrs_plan_get_op(&p, i, &op) != TGRS_OK) continue;
    std::printf("  %4u  %-20s %-24s in %s -> out %s\n", i, tgrs_op_code_name(op.code),
                op.name[0] ? op.name : "-", Ints(op.inputs).c_str(), Ints(op.outputs).c_str());
  }
}

void PrintTensorsAndWeights(const tgrs_plan& p) {
  std::printf("\ntensors\n");
  for (uint32_t i = 0; i < tgrs_plan_tensor_count(&p); ++i) {
    tgrs_plan_tensor t;
    if (tgrs_plan_get_tensor(&p, i, &t) != TGRS_OK) continue;
    std::printf("  %4u  %-32s %-8s %-14s %8u B", i, t.name[0] ? t.name : "-",
                tgrs_dtype_name(t.dtype), Ints(t.shape, "x").c_str(), tgrs_plan_tensor_bytes(&t));
    if (t.weight >= 0) std::printf("  weight %d", t.weight);
    if (t.scale.count == 1) {
      std::printf("  scale %g zp %d", static_cast<double>(t.scale.data[0]),
                  t.zero_point.count ? t.zero_point.data[0] : 0);
    } else if (t.scale.count > 1) {
      std::printf("  %u scales (axis %d)", t.scale.count, t.quant_axis);
    }
    std::printf("\n");
  }
  std::printf("\nweights\n");
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&p); ++i) {
    tgrs_plan_weight w;
    if (tgrs_plan_get_weight(&p, i, &w) != TGRS_OK) continue;
    std::printf("  %4u  offset %8u  size %8u", i, w.offset, w.size);
    if (w.block >= 0) std::printf("  in block %d", w.block);
    std::printf("\n");
  }
  for (uint32_t i = 0; i < tgrs_plan_weight_block_count(&p); ++i) {
    tgrs_plan_weight_block k;
    if (tgrs_plan_get_weight_block(&p, i, &k) != TGRS_OK) continue;
    std::printf("  block %u  stage %d  %u B -> %u B at offset %u\n", i, k.stage, k.compressed_size,
                k.raw_size, k.offset);
  }
}

}  // namespace

std::string WeightResidencyText(const tgrs_plan& p) {
  const tgrs_u8s staged = tgrs_plan_staged_constants(&p);
  if (staged.count > 0) {
    return "staged: " + std::to_string(staged.count) +
           " bytes copied once into the constants arena (tgrs_hydrate_constants)";
  }
  if (tgrs_plan_xip(&p)) return "read in place (xip)";
  // Stages that load a weight block, and stages that hold constants at all (a stage
  // without weights reads nothing either way).
  uint32_t copying = 0, stages = tgrs_plan_stage_count(&p);
  for (uint32_t i = 0; i < stages; ++i) {
    tgrs_plan_stage stage;
    if (tgrs_plan_get_stage(&p, i, &stage) == TGRS_OK && stage.weight_block >= 0) ++copying;
  }
  bool any_in_place = false;
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&p) && !any_in_place; ++i) {
    tgrs_plan_weight w;
    any_in_place = tgrs_plan_get_weight(&p, i, &w) == TGRS_OK && w.block < 0;
  }
  const char* copied = tgrs_plan_compression(&p) == TGRS_COMPRESSION_LZ4 ? "LZ4 blocks per stage"
                                                                         : "copied per stage";
  if (!any_in_place) return copied;
  return "read in place; copied into fast memory by " + std::to_string(copying) + " of " +
         std::to_string(stages) + " stages";
}

void PrintPlanText(const LoadedPlan& loaded, bool verbose) {
  PrintHeader(loaded);
  PrintStages(loaded.plan(), verbose);
  PrintOps(loaded.plan());
  PrintTensorsAndWeights(loaded.plan());
}

}  // namespace tigris::cli
