// `tigris inspect --json`: every table of the plan as JSON, read through the C reader.
#include <cmath>
#include <nlohmann/json.hpp>

#include "inspect_plan.h"

namespace tigris::cli {
namespace {

using nlohmann::json;

json Ints(tgrs_i32s s) { return json(std::vector<int32_t>(s.data, s.data + s.count)); }
json Ints(tgrs_i8s s) { return json(std::vector<int>(s.data, s.data + s.count)); }
json Floats(tgrs_f32s s) {
  json out = json::array();
  for (uint32_t i = 0; i < s.count; ++i) {
    float f = s.data[i];
    out.push_back(std::isfinite(f) ? json(f) : json(nullptr));  // JSON has no NaN/Inf
  }
  return out;
}

const char* StrategyName(tgrs_stage_strategy s) {
  return s == TGRS_STRATEGY_TILED ? "tiled" : s == TGRS_STRATEGY_CHAIN ? "chain" : "normal";
}
const char* RegionName(tgrs_memory_region r) {
  static const char* const names[] = {"fast", "slow", "flash", "host", "state", "constants"};
  return static_cast<unsigned>(r) < 6 ? names[r] : "?";
}
const char* KindName(tgrs_buffer_kind k) {
  static const char* const names[] = {"tensor", "row_strip", "scratch"};
  return static_cast<unsigned>(k) < 3 ? names[k] : "?";
}

json Buffer(const tgrs_plan_buffer& b) {
  return {
      {"kind", KindName(b.kind)},
      {"tensor", b.tensor},
      {"op", b.op},
      {"first_op", b.first_op},
      {"last_op", b.last_op},
      {"bytes", b.bytes},
      {"home",
       {{"region", RegionName(b.home.region)}, {"offset", b.home.offset}, {"size", b.home.size}}}};
}

json Tile(const tgrs_plan_tile& t) {
  json regions = json::array(), buffers = json::array();
  for (uint32_t i = 0; i < t.region_count; ++i) {
    const tgrs_tile_region& r = t.regions[i];
    regions.push_back({{"in", {r.in_begin, r.in_end}},
                       {"out", {r.out_begin, r.out_end}},
                       {"pad", {r.pad_before, r.pad_after}}});
  }
  for (uint32_t k = 0; k < t.buffer_count; ++k) {
    tgrs_plan_buffer b;
    if (tgrs_plan_tile_buffer(&t, k, &b) == TGRS_OK) buffers.push_back(Buffer(b));
  }
  json tile = {{"dim", "height"},    {"tile_size", t.tile_size},   {"count", t.count},
               {"halo", t.halo},     {"ops", Ints(t.ops)},         {"regions", regions},
               {"buffers", buffers}, {"peak_bytes", t.peak_bytes}, {"streamed", t.streamed}};
  if (t.column_count > 0) {  // 2-D tiles (schema 2)
    json columns = json::array();
    for (uint32_t i = 0; i < t.column_count; ++i) {
      const tgrs_tile_region& r = t.columns[i];
      columns.push_back({{"in", {r.in_begin, r.in_end}},
                         {"out", {r.out_begin, r.out_end}},
                         {"pad", {r.pad_before, r.pad_after}}});
    }
    tile["columns"] = columns;
  }
  if (t.channel_count > 0) {  // channel groups (schema 2)
    json channels = json::array();
    for (uint32_t i = 0; i < t.channel_count; ++i) {
      const tgrs_tile_region& r = t.channels[i];
      channels.push_back({{"in", {r.in_begin, r.in_end}}, {"out", {r.out_begin, r.out_end}}});
    }
    tile["channels"] = channels;
  }
  return tile;
}

json Stages(const tgrs_plan& p) {
  json out = json::array();
  for (uint32_t i = 0; i < tgrs_plan_stage_count(&p); ++i) {
    tgrs_plan_stage s;
    if (tgrs_plan_get_stage(&p, i, &s) != TGRS_OK) continue;
    json buffers = json::array();
    for (uint32_t k = 0; k < s.buffer_count; ++k) {
      tgrs_plan_buffer b;
      if (tgrs_plan_get_stage_buffer(&p, i, k, &b) == TGRS_OK) buffers.push_back(Buffer(b));
    }
    json stage = {{"id", s.id},
                  {"strategy", StrategyName(s.strategy)},
                  {"ops", Ints(s.ops)},
                  {"peak_bytes", s.peak_bytes},
                  {"fast_reserved_bytes", s.fast_reserved_bytes},
                  {"spill_in", Ints(s.spill_in)},
                  {"spill_out", Ints(s.spill_out)},
                  {"chain", s.chain},
                  {"weight_block", s.weight_block},
                  {"buffers", buffers}};
    tgrs_plan_tile tile;
    if (tgrs_plan_get_stage_tile(&p, i, &tile) == TGRS_OK) stage["tile"] = Tile(tile);
    out.push_back(stage);
  }
  return out;
}

json Chains(const tgrs_plan& p) {
  json out = json::array();
  for (uint32_t i = 0; i < tgrs_plan_chain_count(&p); ++i) {
    tgrs_plan_chain c;
    tgrs_plan_tile tile;
    if (tgrs_plan_get_chain(&p, i, &c) != TGRS_OK) continue;
    json chain = {{"id", c.id}, {"stages", Ints(c.stages)}};
    if (tgrs_plan_get_chain_tile(&p, i, &tile) == TGRS_OK) chain["tile"] = Tile(tile);
    out.push_back(chain);
  }
  return out;
}

json Tensors(const tgrs_plan& p) {
  json out = json::array();
  for (uint32_t i = 0; i < tgrs_plan_tensor_count(&p); ++i) {
    tgrs_plan_tensor t;
    if (tgrs_plan_get_tensor(&p, i, &t) != TGRS_OK) continue;
    json tensor = {{"name", t.name},
                   {"dtype", tgrs_dtype_name(t.dtype)},
                   {"shape", Ints(t.shape)},
                   {"bytes", tgrs_plan_tensor_bytes(&t)},
                   {"weight", t.weight}};
    if (t.has_quant) {
      tensor["quant"] = {
          {"scale", Floats(t.scale)}, {"zero_point", Ints(t.zero_point)}, {"axis", t.quant_axis}};
    }
    if (t.host_permutation.count) tensor["host_permutation"] = Ints(t.host_permutation);
    if (t.onnx_shape.count) tensor["onnx_shape"] = Ints(t.onnx_shape);
    if (t.host_dtype != t.dtype) tensor["host_dtype"] = tgrs_dtype_name(t.host_dtype);
    out.push_back(tensor);
  }
  return out;
}

json Ops(const tgrs_plan& p) {
  static const char* const activations[] = {"none", "relu", "relu6"};
  json out = json::array();
  for (uint32_t i = 0; i < tgrs_plan_op_count(&p); ++i) {
    tgrs_plan_op op;
    if (tgrs_plan_get_op(&p, i, &op) != TGRS_OK) continue;
    json o = {{"code", tgrs_op_code_name(op.code)},
              {"name", op.name},
              {"inputs", Ints(op.inputs)},
              {"outputs", Ints(op.outputs)},
              {"activation", activations[op.activation <= 2 ? op.activation : 0]}};
    if (op.output_multiplier.count) {
      o["output_multiplier"] = Ints(op.output_multiplier);
      o["output_shift"] = Ints(op.output_shift);
      o["act_min"] = op.act_min;
      o["act_max"] = op.act_max;
    }
    if (op.lut.count) o["lut_entries"] = op.lut.count;
    // The integer arithmetic (docs/tflite.md): listed only when it is not ONNX's.
    if (op.rounding == 1) o["rounding"] = "tflite";
    out.push_back(o);
  }
  return out;
}

json Weights(const tgrs_plan& p) {
  json weights = json::array(), blocks = json::array();
  for (uint32_t i = 0; i < tgrs_plan_weight_count(&p); ++i) {
    tgrs_plan_weight w;
    if (tgrs_plan_get_weight(&p, i, &w) != TGRS_OK) continue;
    weights.push_back({{"offset", w.offset}, {"size", w.size}, {"block", w.block}});
  }
  for (uint32_t i = 0; i < tgrs_plan_weight_block_count(&p); ++i) {
    tgrs_plan_weight_block k;
    if (tgrs_plan_get_weight_block(&p, i, &k) != TGRS_OK) continue;
    blocks.push_back({{"stage", k.stage},
                      {"offset", k.offset},
                      {"compressed_size", k.compressed_size},
                      {"raw_size", k.raw_size}});
  }
  return {{"weights", weights}, {"blocks", blocks}};
}

// The memory region `r` lives in: its Plan.memories name (a target's memory), else the
// region's own name.
std::string MemoryOf(const tgrs_plan& p, uint32_t r) {
  tgrs_plan_memory m;
  if (tgrs_plan_get_memory(&p, r, &m) == TGRS_OK && m.name[0]) return m.name;
  return RegionName(static_cast<tgrs_memory_region>(r));
}

std::string TensorName(const tgrs_plan& p, int32_t index) {
  tgrs_plan_tensor t;
  return index >= 0 && tgrs_plan_get_tensor(&p, static_cast<uint32_t>(index), &t) == TGRS_OK
             ? t.name
             : "";
}

// Where every tensor lives, by kind (tensor-memory-attributes.txt's SCRATCH, PERSISTENT,
// CONSTANT): activations' homes per stage (fast) and spilled tensors' over stages (slow);
// the state slots; each constant read in place from the plan, copied per stage into fast
// memory, or staged into the constants arena (staged_from: the memory the bytes come from).
json Placements(const tgrs_plan& p) {
  json out = json::array();
  const std::string plan_memory = MemoryOf(p, TGRS_REGION_FLASH);
  auto home = [&](const tgrs_plan_buffer& b, json where) {
    json e = {{"tensor", TensorName(p, b.tensor)},
              {"kind", "SCRATCH"},
              {"memory", MemoryOf(p, b.home.region)},
              {"offset", b.home.offset},
              {"size", b.home.size},
              {"staged_from", nullptr}};
    e.update(where);
    if (b.kind != TGRS_BUFFER_TENSOR) e["buffer"] = KindName(b.kind);
    out.push_back(e);
  };
  for (uint32_t i = 0; i < tgrs_plan_stage_count(&p); ++i) {
    tgrs_plan_stage s;
    if (tgrs_plan_get_stage(&p, i, &s) != TGRS_OK) continue;
    for (uint32_t k = 0; k < s.buffer_count; ++k) {
      tgrs_plan_buffer b;
      if (tgrs_plan_get_stage_buffer(&p, i, k, &b) == TGRS_OK) home(b, {{"stages", {i, i}}});
    }
  }
  for (uint32_t i = 0; i < tgrs_plan_slow_buffer_count(&p); ++i) {
    tgrs_plan_buffer b;
    if (tgrs_plan_get_slow_buffer(&p, i, &b) == TGRS_OK) {
      home(b, {{"stages", {b.first_op, b.last_op}}});  // stage indices in slow buffers
    }
  }
  const tgrs_i32s inputs = tgrs_plan_inputs(&p);
  for (uint32_t i = 0; i < tgrs_plan_state_count(&p); ++i) {
    tgrs_plan_state_slot s;
    if (tgrs_plan_get_state(&p, i, &s) != TGRS_OK) continue;
    out.push_back({{"tensor", TensorName(p, inputs.data[s.input])},
                   {"kind", "PERSISTENT"},
                   {"memory", MemoryOf(p, TGRS_REGION_STATE)},
                   {"offset", s.offset},
                   {"size", s.size},
                   {"staged_from", nullptr}});
  }
  const uint32_t staged_begin = tgrs_plan_staged_offset(&p);
  const uint32_t staged_end =
      staged_begin + static_cast<uint32_t>(tgrs_plan_staged_constants(&p).count);
  for (uint32_t i = 0; i < tgrs_plan_tensor_count(&p); ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_weight w;
    if (tgrs_plan_get_tensor(&p, i, &t) != TGRS_OK || t.weight < 0 ||
        tgrs_plan_get_weight(&p, static_cast<uint32_t>(t.weight), &w) != TGRS_OK) {
      continue;
    }
    json e = {{"tensor", t.name}, {"kind", "CONSTANT"}, {"size", w.size}};
    if (w.block >= 0) {
      tgrs_plan_weight_block k;
      e["memory"] = MemoryOf(p, TGRS_REGION_FAST);
      e["offset"] = w.offset;  // in the stage's reserved prefix
      e["staged_from"] = plan_memory;
      if (tgrs_plan_get_weight_block(&p, static_cast<uint32_t>(w.block), &k) == TGRS_OK) {
        e["stages"] = {k.stage, k.stage};
      }
    } else if (w.offset >= staged_begin && w.offset < staged_end) {
      e["memory"] = MemoryOf(p, TGRS_REGION_CONSTANTS);
      e["offset"] = w.offset - staged_begin;
      e["staged_from"] = plan_memory;
    } else {
      e["memory"] = plan_memory;  // cold: read in place
      e["offset"] = w.offset;
      e["staged_from"] = nullptr;
    }
    out.push_back(e);
  }
  return out;
}

}  // namespace

std::string PlanJson(const LoadedPlan& loaded) {
  const tgrs_plan& p = loaded.plan();
  json slow = json::array();
  for (uint32_t i = 0; i < tgrs_plan_slow_buffer_count(&p); ++i) {
    tgrs_plan_buffer b;
    if (tgrs_plan_get_slow_buffer(&p, i, &b) == TGRS_OK) slow.push_back(Buffer(b));
  }
  json weights = Weights(p);
  json memories = json::array();  // indexed by a home's region (tgrs.fbs, Memory)
  for (uint32_t i = 0; i < tgrs_plan_memory_count(&p); ++i) {
    tgrs_plan_memory m;
    if (tgrs_plan_get_memory(&p, i, &m) == TGRS_OK) {
      memories.push_back({{"name", m.name}, {"size", m.size}, {"alignment", m.alignment}});
    }
  }
  json doc = {{"plan",
               {{"path", loaded.path()},
                {"bytes", loaded.size()},
                {"schema_version", tgrs_plan_schema_version(&p)},
                {"generator", tgrs_plan_generator(&p)},
                {"model_name", tgrs_plan_model_name(&p)},
                {"fast_arena_bytes", tgrs_plan_fast_arena_bytes(&p)},
                {"slow_arena_bytes", tgrs_plan_slow_arena_bytes(&p)},
                {"scheduled_peak_bytes", tgrs_plan_scheduled_peak_bytes(&p)},
                {"xip", tgrs_plan_xip(&p)},
                {"compression", tgrs_plan_compression(&p) == TGRS_COMPRESSION_LZ4 ? "lz4" : "none"},
                {"weight_data_bytes", tgrs_plan_weight_data(&p).count},
                {"inputs", Ints(tgrs_plan_inputs(&p))},
                {"outputs", Ints(tgrs_plan_outputs(&p))},
                {"memories", memories},
                {"integrity",
                 {{"checksum", tgrs_plan_checksum(&p) == TGRS_CHECKSUM_CRC32C ? "crc32c" : "none"},
                  {"checked", !loaded.unchecked() && tgrs_plan_checksum(&p) != TGRS_CHECKSUM_NONE},
                  {"text", IntegrityText(loaded)},
                  {"sha256", PlanSha256Hex(loaded)}}}}},
              {"stages", Stages(p)},
              {"chains", Chains(p)},
              {"slow_buffers", slow},
              {"ops", Ops(p)},
              {"tensors", Tensors(p)},
              {"weights", weights["weights"]},
              {"weight_blocks", weights["blocks"]},
              {"placements", Placements(p)}};
  // Names come from the plan file and need not be UTF-8: invalid bytes become U+FFFD
  // rather than an exception (found by fuzz_plan).
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tigris::cli
