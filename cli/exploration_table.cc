#include "exploration_table.h"

#include <string>

#include "analysis_report.h"

namespace tigris::cli {
namespace {

using nlohmann::json;

std::string Joined(const json& names, const char* none) {
  std::string s;
  for (const json& n : names) s += (s.empty() ? "" : ", ") + n.get<std::string>();
  return s.empty() ? none : s;
}

// The strategies a configuration allowed: "all" for all four (the single pass's).
std::string Strategies(const json& names) {
  return names.size() == 4 ? "all" : Joined(names, "none (stages only)");
}

// "0", "1.2M (4.5%)": recompute MACs and their share of the model's.
std::string Recompute(uint64_t macs, uint64_t model_macs) {
  if (macs == 0) return "0";
  char text[64];
  const double share =
      model_macs ? 100.0 * static_cast<double>(macs) / static_cast<double>(model_macs) : 0.0;
  if (macs >= 1000000) {
    std::snprintf(text, sizeof text, "%.1fM (%.1f%%)", static_cast<double>(macs) / 1e6, share);
  } else if (macs >= 1000) {
    std::snprintf(text, sizeof text, "%.1fk (%.1f%%)", static_cast<double>(macs) / 1e3, share);
  } else {
    std::snprintf(text, sizeof text, "%llu (%.1f%%)", static_cast<unsigned long long>(macs), share);
  }
  return text;
}

}  // namespace

void PrintExplorationTable(std::FILE* out, const json& exploration, uint64_t model_macs, bool all) {
  const json& plans = exploration.at("plans");
  size_t front = 0;
  for (const json& p : plans) front += p.at("on_front").get<bool>() ? 1 : 0;
  std::fprintf(out,
               "search    %s objective: %zu plans that fit, from %d configurations (%d passes) "
               "in %.1f s; %zu on the Pareto front\n",
               exploration.at("objective").get<std::string>().c_str(), plans.size(),
               exploration.at("configurations").get<int>(), exploration.at("passes").get<int>(),
               exploration.at("seconds").get<double>(), front);
  if (plans.empty()) return;
  const int chosen =
      exploration.at("chosen").is_number() ? exploration.at("chosen").get<int>() : -1;
  std::fprintf(out, "  %-8s %-10s %-15s %-11s %-10s %-29s %s\n", "", "fast", "recompute",
               "slow moved", "tile steps", "tiling strategies", "FDT splits");
  for (size_t i = 0; i < plans.size(); ++i) {
    const json& p = plans[i];
    const bool on_front = p.at("on_front").get<bool>();
    if (!all && !on_front && static_cast<int>(i) != chosen) continue;
    const char* mark = static_cast<int>(i) == chosen ? "chosen *" : on_front ? "front" : "";
    std::fprintf(out, "  %-8s %-10s %-15s %-11s %-10llu %-29s %s\n", mark,
                 HumanBytes(p.at("fast_bytes").get<uint64_t>()).c_str(),
                 Recompute(p.at("recompute_macs").get<uint64_t>(), model_macs).c_str(),
                 HumanBytes(p.at("slow_traffic_bytes").get<uint64_t>()).c_str(),
                 static_cast<unsigned long long>(p.at("tile_steps").get<uint64_t>()),
                 Strategies(p.at("strategies")).c_str(), Joined(p.at("fdt"), "-").c_str());
  }
}

void PrintSearchChoice(std::FILE* out, const json& exploration) {
  if (!exploration.is_object() || !exploration.at("chosen").is_number()) return;
  const size_t chosen = exploration.at("chosen").get<size_t>();
  const json& p = exploration.at("plans").at(chosen);
  std::fprintf(out,
               "search   %s objective: plan %zu of %zu that fit (%d configurations, %d passes, "
               "%.1f s): %s fast, %llu recompute MACs, %s moved, %llu tile steps\n",
               exploration.at("objective").get<std::string>().c_str(), chosen + 1,
               exploration.at("plans").size(), exploration.at("configurations").get<int>(),
               exploration.at("passes").get<int>(), exploration.at("seconds").get<double>(),
               HumanBytes(p.at("fast_bytes").get<uint64_t>()).c_str(),
               static_cast<unsigned long long>(p.at("recompute_macs").get<uint64_t>()),
               HumanBytes(p.at("slow_traffic_bytes").get<uint64_t>()).c_str(),
               static_cast<unsigned long long>(p.at("tile_steps").get<uint64_t>()));
}

}  // namespace tigris::cli
