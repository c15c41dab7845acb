#include "plan/plan_json.h"

#include <algorithm>
#include <vector>

#include "plan/dense_split.h"
#include "plan/row_tiling.h"
#include "plan/tiling_strategy.h"

namespace tigris::plan {
namespace {

using nlohmann::json;

// Rows each intermediate's line buffer holds in a streamed loop (its reader's whole window,
// kept from tile to tile), in op order; null for a recomputing loop.
json LineBufferRows(const TilePlan& tile) {
  if (!tile.streamed) return nullptr;
  std::vector<int64_t> rows(tile.ops.size() - 1, 0);
  for (const std::vector<OpTileRows>& t : AllTileRows(tile)) {
    for (size_t k = 0; k + 1 < t.size(); ++k) rows[k] = std::max(rows[k], t[k + 1].input.size());
  }
  return rows;
}

// The loop's shape: "dims" names what it cuts ("H", or "H,W" for 2-D tiles); "width" is
// the tile's columns (null when tiles span the full width).
json TileJson(const ir::Graph& graph, const TilePlan& tile) {
  std::string dims = tile.tile_cols > 0 ? "H,W" : "H";
  if (tile.tile_channels > 0) dims += ",C";
  return {{"strategy", tile.strategy},
          {"dims", dims},
          {"height", tile.tile_rows},
          {"width", tile.tile_cols > 0 ? json(tile.tile_cols) : json(nullptr)},
          {"channels", tile.tile_channels > 0 ? json(tile.tile_channels) : json(nullptr)},
          {"halo", tile.halo},
          {"count", tile.count},
          {"streamed", tile.streamed},
          {"line_buffer_rows", LineBufferRows(tile)},
          {"recompute_macs", RecomputeMacs(graph, tile)}};
}

// How the stage's fast buffers (a tiled or chain stage: one iteration of its loop) were
// laid out: the algorithm, the arena it needs, the live bound no layout goes below, the best
// bound proven (the live bound, or an exact solve's), and whether the arena reaches it.
json LayoutJson(const LayoutSummary& layout, int64_t arena_bytes) {
  return {{"algorithm", LayoutAlgorithmName(layout.algorithm)},
          {"arena_bytes", arena_bytes},
          {"live_lower_bound_bytes", layout.live_bound_bytes},
          {"lower_bound_bytes", layout.lower_bound_bytes},
          {"optimal", layout.optimal}};
}

json StageJson(const ir::Graph& graph, const PlanResult& plan, const Stage& stage) {
  json ops = json::array();
  for (int op : stage.ops) ops.push_back(graph.ops[static_cast<size_t>(op)].name);
  json tile = nullptr;
  json layout = LayoutJson(stage.layout, stage.peak_bytes);
  if (stage.tile) {
    tile = TileJson(graph, *stage.tile);
    layout = LayoutJson(stage.tile->layout, stage.tile->peak_bytes);
  }
  // A chain stage repeats its chain's loop parameters.
  if (stage.chain >= 0) {
    const TilePlan& loop = plan.chains[static_cast<size_t>(stage.chain)].tile;
    tile = TileJson(graph, loop);
    layout = LayoutJson(loop.layout, loop.peak_bytes);
  }
  return {{"id", stage.id},
          {"ops", ops},
          {"strategy", StageStrategyName(stage.strategy)},
          {"peak_bytes", stage.peak_bytes},
          {"layout", layout},
          {"spill_in_bytes", stage.spill_in_bytes},
          {"spill_out_bytes", stage.spill_out_bytes},
          {"tile", tile},
          {"chain", stage.chain >= 0 ? json(stage.chain) : json(nullptr)},
          {"reasons", stage.reasons}};
}

}  // namespace

json ExplorationToJson(const Exploration& e) {
  json plans = json::array();
  const std::vector<TilingStrategy>& all = TilingStrategies();
  for (const ExploredPlan& p : e.plans) {
    json strategies = json::array();
    for (size_t k = 0; k < all.size(); ++k) {
      if (p.config.strategies & (1u << k)) strategies.push_back(all[k].name);
    }
    json fdt = json::array();
    if (p.config.embedding_as_rows) fdt.push_back(kEmbeddingAsRowsRewrite);
    if (p.config.dense_split) fdt.push_back(kDenseSplitRewrite);
    plans.push_back({{"strategies", strategies},
                     {"fdt", fdt},
                     {"planned_fast_bytes", p.planned_fast_bytes},
                     {"fast_bytes", p.fast_bytes},
                     {"recompute_macs", p.recompute_macs},
                     {"slow_traffic_bytes", p.slow_traffic_bytes},
                     {"tile_steps", p.tile_steps},
                     {"on_front", p.on_front}});
  }
  return {{"objective", ObjectiveName(e.options.objective)},
          {"max_recompute_percent", e.options.max_recompute_percent >= 0
                                        ? json(e.options.max_recompute_percent)
                                        : json(nullptr)},
          {"configurations", e.configurations},
          {"passes", e.passes},
          {"seconds", e.seconds},
          {"chosen", e.chosen >= 0 ? json(e.chosen) : json(nullptr)},
          {"plans", plans}};
}

json PlanToJson(const ir::Graph& graph, const PlanResult& plan) {
  json largest = nullptr;
  if (plan.largest_tensor != ir::kNoTensor) {
    const ir::Tensor& t = graph.tensor(plan.largest_tensor);
    largest = {{"name", t.name}, {"shape", t.shape}, {"bytes", t.byte_size()}};
  }
  json stages = json::array();
  for (const Stage& stage : plan.stages) stages.push_back(StageJson(graph, plan, stage));
  json chains = json::array();
  for (const Chain& chain : plan.chains) {
    chains.push_back(
        {{"id", chain.id},
         {"stages", chain.stages},
         {"tile_height", chain.tile.tile_rows},
         {"tile_width", chain.tile.tile_cols > 0 ? json(chain.tile.tile_cols) : json(nullptr)},
         {"tile_channels",
          chain.tile.tile_channels > 0 ? json(chain.tile.tile_channels) : json(nullptr)},
         {"halo", chain.tile.halo},
         {"tiles", chain.tile.count},
         {"streamed", chain.tile.streamed}});
  }
  json timeline = json::array();
  for (const TimelineStep& step : plan.timeline) {
    timeline.push_back({{"op", graph.ops[static_cast<size_t>(step.op)].name},
                        {"step", step.op},
                        {"stage", step.stage},
                        {"live_bytes", step.live_bytes},
                        {"arena_bytes", step.arena_bytes}});
  }
  json rewrites = json::array();
  for (const Rewrite& r : plan.rewrites) {
    rewrites.push_back({{"op", r.op}, {"kind", r.kind}, {"why", r.why}});
  }
  json out = {
      {"memory", {{"naive_peak_bytes", plan.naive_peak_bytes}, {"largest_tensor", largest}}},
      {"rewrites", rewrites},
      {"schedule",
       {{"search", ScheduleSearchName(plan.schedule.search)},
        {"downsets", plan.schedule.downsets},
        {"reordered", plan.schedule.reordered},
        {"load_order_peak_bytes", plan.schedule.load_order_peak_bytes},
        {"peak_bytes", plan.schedule.peak_bytes}}},
      {"budget",
       {{"fast_bytes", plan.budget.fast_bytes},
        {"slow_bytes", plan.budget.slow_bytes},
        {"flash_bytes", plan.budget.flash_bytes},
        {"layout", LayoutModeName(plan.budget.layout.mode)},
        {"time_limit_seconds", plan.budget.layout.mode == LayoutMode::kExact
                                   ? json(plan.budget.layout.time_limit_seconds)
                                   : json(nullptr)}}},
      {"stages", stages},
      {"chains", chains},
      {"scheduled_peak_bytes", plan.scheduled_peak_bytes},
      {"slow_peak_bytes", plan.slow_peak_bytes},
      {"slow_layout", LayoutJson(plan.slow_layout, plan.slow_peak_bytes)},
      {"verdict", VerdictName(plan.verdict)},
      {"totals",
       {{"macs", plan.macs},
        {"recompute_macs", plan.recompute_macs},
        {"slow_traffic_bytes", plan.slow_traffic_bytes}}},
      {"timeline", timeline}};
  if (plan.exploration) out["exploration"] = ExplorationToJson(*plan.exploration);
  return out;
}

}  // namespace tigris::plan
