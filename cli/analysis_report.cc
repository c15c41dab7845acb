#include "analysis_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tigris::cli {
namespace {

using nlohmann::json;

std::string Fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  std::string s(buf);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// Decimal multiples: MAC counts are conventionally quoted in 10^6 (MobileNet papers).
std::string HumanMacs(uint64_t macs) {
  const double v = static_cast<double>(macs);
  if (v >= 1e9) return Fixed(v / 1e9, 2) + " GMACs";
  if (v >= 1e6) return Fixed(v / 1e6, 1) + " MMACs";
  if (v >= 1e3) return Fixed(v / 1e3, 1) + " kMACs";
  return std::to_string(macs) + " MACs";
}

std::string Count(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

uint64_t U64(const json& j) { return j.is_number() ? j.get<uint64_t>() : 0; }

// "first .. last" op names of a stage, each up to its first ';' (TFLite-converted names
// join every fused layer's name with ';').
std::string StageOps(const json& stage) {
  const json& ops = stage["ops"];
  if (ops.empty()) return "-";
  auto name = [](const json& op) {
    std::string s = op.get<std::string>();
    const size_t semi = s.find(';');
    return semi == std::string::npos || semi == 0 ? s : s.substr(0, semi);
  };
  if (ops.size() == 1) return name(ops.front());
  return name(ops.front()) + " .. " + name(ops.back());
}

// "1 chain of 3 stages", "2 chains of 3 and 2 stages", "12 chains of 2-6 stages".
std::string ChainsText(const json& chains) {
  if (chains.empty()) return "";
  std::string s = Count(chains.size(), "chain", "chains") + " of ";
  if (chains.size() > 3) {
    size_t lo = SIZE_MAX, hi = 0;
    for (const json& c : chains) {
      lo = std::min(lo, c["stages"].size());
      hi = std::max(hi, c["stages"].size());
    }
    return s + (lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) +
           " stages";
  }
  for (size_t i = 0; i < chains.size(); ++i) {
    if (i) s += i + 1 == chains.size() ? " and " : ", ";
    s += std::to_string(chains[i]["stages"].size());
  }
  return s + " stages";
}

void PrintVerdict(std::FILE* out, const tigris_analysis* a, const json& j) {
  const size_t stages = tigris_analysis_stage_count(a);
  const std::string verdict = j["verdict"].get<std::string>();
  std::string text;
  switch (tigris_analysis_verdict(a)) {
    case TIGRIS_VERDICT_OK:
      text = "runs as one stage";
      break;
    case TIGRIS_VERDICT_PARTITIONED:
      text = Count(stages, "stage", "stages") + ", activations spilled between them";
      break;
    case TIGRIS_VERDICT_TILED: {
      text = Count(stages, "stage", "stages") + ", " +
             std::to_string(tigris_analysis_tiled_stage_count(a)) + " tiled";
      const std::string chains = ChainsText(j["chains"]);
      if (!chains.empty()) text += ", " + chains;
      break;
    }
    case TIGRIS_VERDICT_NEEDS_WORK: {
      if (tigris_analysis_refusal_status(a) != TIGRIS_OK) {
        // Every stage fits, but compile refuses the plan (tigris_analysis_refusal).
        text = "compile refuses this plan (" +
               std::string(tigris_status_name(tigris_analysis_refusal_status(a))) + ")";
        break;
      }
      size_t blocked = 0;
      for (const json& s : j["stages"]) blocked += s["reasons"].empty() ? 0 : 1;
      text = std::to_string(blocked) + " of " + Count(stages, "stage", "stages") + " do not fit";
      break;
    }
  }
  const uint64_t macs = tigris_analysis_macs(a), extra = tigris_analysis_recompute_macs(a);
  if (extra && macs) {
    text += "; recompute +" +
            Fixed(100.0 * static_cast<double>(extra) / static_cast<double>(macs), 1) + "% MACs";
  }
  std::fprintf(out, "verdict   %s: %s\n", verdict.c_str(), text.c_str());
  for (const json& r : j["rewrites"]) {
    std::fprintf(out, "rewrite   %s (%s): %s\n", r["op"].get<std::string>().c_str(),
                 r["kind"].get<std::string>().c_str(), r["why"].get<std::string>().c_str());
  }
  // Only a reorder is news: the load order otherwise (docs/planning.md, step 0b).
  const json& schedule = j["schedule"];
  if (schedule.is_object() && schedule.value("reordered", false)) {
    std::fprintf(out,
                 "order     ops reordered for memory: live peak %s instead of %s (%s search)\n",
                 HumanBytes(schedule["peak_bytes"].get<uint64_t>()).c_str(),
                 HumanBytes(schedule["load_order_peak_bytes"].get<uint64_t>()).c_str(),
                 schedule["search"].get<std::string>().c_str());
  }

  if (tigris_analysis_refusal_status(a) != TIGRIS_OK) {
    std::fprintf(out, "refused   %s\n", tigris_analysis_refusal(a));
  }
  for (const json& s : j["stages"]) {
    if (s["reasons"].empty()) continue;
    std::string why;
    for (const json& r : s["reasons"]) why += (why.empty() ? "" : "; ") + r.get<std::string>();
    std::fprintf(out, "blocked   stage %d (%s, %s): %s\n", s["id"].get<int>(), StageOps(s).c_str(),
                 Count(s["ops"].size(), "op", "ops").c_str(), why.c_str());
  }
}

// Op names can be long (TFLite-converted ones run to hundreds of characters), so the
// table shows each stage's steps as indices and its first and last op names in the last
// column, where they need no alignment.
void PrintStageTable(std::FILE* out, const json& j) {
  std::map<int, std::pair<int64_t, int64_t>> steps;  // stage -> first, last step
  for (const json& t : j["timeline"]) {
    const int stage = t["stage"].get<int>();
    const int64_t step = t["step"].get<int64_t>();
    auto it = steps.find(stage);
    if (it == steps.end()) {
      steps[stage] = {step, step};
    } else {
      it->second.first = std::min(it->second.first, step);
      it->second.second = std::max(it->second.second, step);
    }
  }
  std::fprintf(out, "\n%5s  %-9s %-9s %4s %9s %9s %9s  %-14s %-13s %9s %5s  %s\n", "stage",
               "strategy", "steps", "ops", "peak", "spill in", "spill out", "tiling",
               "tile h/halo/n", "recompute", "chain", "first .. last op");
  for (const json& s : j["stages"]) {
    const int id = s["id"].get<int>();
    const uint64_t in = U64(s["spill_in_bytes"]), outb = U64(s["spill_out_bytes"]);
    std::string range = "-";
    if (auto it = steps.find(id); it != steps.end()) {
      range = std::to_string(it->second.first);
      if (it->second.second != it->second.first) range += ".." + std::to_string(it->second.second);
    }
    std::string tile = "-", tiling = "-", recompute = "-";
    if (s["tile"].is_object()) {
      tiling = s["tile"]["strategy"].get<std::string>();
      const uint64_t extra = U64(s["tile"]["recompute_macs"]);
      if (extra > 0) recompute = HumanMacs(extra);
      // 2-D tiles show their shape as rows x columns.
      const json& width = s["tile"]["width"];
      const json& channels = s["tile"]["channels"];
      tile = std::to_string(s["tile"]["height"].get<int64_t>()) +
             (width.is_number() ? "x" + std::to_string(width.get<int64_t>()) : "") +
             (channels.is_number() ? "c" + std::to_string(channels.get<int64_t>()) : "") + "/" +
             std::to_string(s["tile"]["halo"].get<int64_t>()) + "/" +
             std::to_string(s["tile"]["count"].get<int64_t>());
    }
    const std::string chain = s["chain"].is_number() ? std::to_string(s["chain"].get<int>()) : "-";
    std::string strategy = s["strategy"].get<std::string>();
    if (!s["reasons"].empty()) strategy += " !";
    std::fprintf(out, "%5d  %-9s %-9s %4zu %9s %9s %9s  %-14s %-13s %9s %5s  %s\n", id,
                 strategy.c_str(), range.c_str(), s["ops"].size(),
                 HumanBytes(U64(s["peak_bytes"])).c_str(), in ? HumanBytes(in).c_str() : "-",
                 outb ? HumanBytes(outb).c_str() : "-", tiling.c_str(), tile.c_str(),
                 recompute.c_str(), chain.c_str(), StageOps(s).c_str());
  }
  std::fprintf(out,
               "! = does not fit the budget. tiling: the strategy (docs/planning.md). tile: output "
               "rows per tile (x columns: 2-D tiles; c channels: channel groups) / halo rows / "
               "tiles. recompute: MACs of halo rows made again (a chain's, on each of its "
               "stages).\n");
}

}  // namespace

std::string HumanBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= (1ULL << (10 * (u + 1)))) ++u;
  const double v = static_cast<double>(bytes) / static_cast<double>(1ULL << (10 * u));
  return Fixed(v, u == 0 ? 0 : (v >= 100 ? 0 : (v >= 10 ? 1 : 2))) + " " + kUnits[u];
}

void PrintAnalysisReport(std::FILE* out, const tigris_analysis* a, const std::string& name,
                         bool verbose) {
  const json j = json::parse(tigris_analysis_json(a));
  const json& model = j["model"];
  const json& budget = j["budget"];

  std::fprintf(out, "model     %s (%s, %zu ops, %s)\n", name.c_str(),
               model["dtype"].get<std::string>().c_str(), model["ops"].get<size_t>(),
               HumanMacs(tigris_analysis_macs(a)).c_str());
  // With --target the lines are named after the memories holding each role (the memory
  // table below says more); else after the -m shorthand's SRAM, slow and flash.
  // The target memory holding `role` (analysis JSON "memories"), nullptr without one.
  auto holding = [&j](const char* role) -> const json* {
    if (!j.contains("memories")) return nullptr;
    for (const json& m : j["memories"]) {
      if (m.value("role", "").find(role) != std::string::npos) return &m;
    }
    return nullptr;
  };
  auto label = [&holding](const char* role, const char* fallback) {
    const json* m = holding(role);
    return m ? m->value("name", std::string(fallback)) : std::string(fallback);
  };
  auto size_of = [&holding](const char* role, uint64_t fallback) {
    const json* m = holding(role);
    return m ? U64((*m)["size"]) : fallback;
  };
  const uint64_t slow_peak = tigris_analysis_slow_peak_bytes(a);
  const uint64_t traffic = tigris_analysis_slow_traffic_bytes(a);
  const json* shared = holding("scratch+spills");
  if (shared) {
    // One RAM (docs/memories.md): the budget is the memory; the split is the compiler's.
    std::fprintf(out,
                 "%-9s %s, one memory: %s used, scratch %s budget (%s scheduled peak) + "
                 "spills %s, %s moved (naive %s)\n",
                 label("scratch", "SRAM").c_str(), HumanBytes(U64((*shared)["size"])).c_str(),
                 HumanBytes(U64((*shared)["used_bytes"])).c_str(),
                 HumanBytes(U64(budget["fast_bytes"])).c_str(),
                 HumanBytes(tigris_analysis_scheduled_peak_bytes(a)).c_str(),
                 HumanBytes(slow_peak).c_str(), HumanBytes(traffic).c_str(),
                 HumanBytes(tigris_analysis_naive_peak_bytes(a)).c_str());
  } else {
    std::fprintf(out, "%-9s %s budget, %s scheduled peak (naive %s)\n",
                 label("scratch", "SRAM").c_str(), HumanBytes(U64(budget["fast_bytes"])).c_str(),
                 HumanBytes(tigris_analysis_scheduled_peak_bytes(a)).c_str(),
                 HumanBytes(tigris_analysis_naive_peak_bytes(a)).c_str());
  }

  // A target's memories are the budgets.
  const uint64_t slow_budget = size_of("spills", U64(budget["slow_bytes"]));
  const std::string slow_given =
      slow_budget ? HumanBytes(slow_budget) + " budget" : std::string("not given");
  if (shared) {
    // Said on the line above.
  } else if (slow_peak == 0 && traffic == 0) {
    std::fprintf(out, "%-9s %s; no spills\n", label("spills", "slow").c_str(), slow_given.c_str());
  } else {
    std::fprintf(out, "%-9s %s; spills need %s, %s moved\n", label("spills", "slow").c_str(),
                 slow_given.c_str(), HumanBytes(slow_peak).c_str(), HumanBytes(traffic).c_str());
  }

  const uint64_t flash = size_of("plan", U64(budget["flash_bytes"]));
  const uint64_t weights = U64(model["weight_bytes"]);
  if (flash) {
    std::fprintf(out, "%-9s %s budget, weights %s%s\n", label("plan", "flash").c_str(),
                 HumanBytes(flash).c_str(), HumanBytes(weights).c_str(),
                 weights > flash ? " (over the budget)" : "");
  } else {
    std::fprintf(out, "%-9s not given; weights %s\n", label("plan", "flash").c_str(),
                 HumanBytes(weights).c_str());
  }
  PrintVerdict(out, a, j);
  if (verbose) PrintStageTable(out, j);
}

}  // namespace tigris::cli
