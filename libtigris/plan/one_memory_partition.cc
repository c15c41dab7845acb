#include "plan/one_memory_partition.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/alignment.h"
#include "plan/chains.h"
#include "plan/row_tiling.h"
#include "plan/spatial_partition.h"
#include "plan/temporal_partition.h"

namespace tigris::plan {
namespace {

// A tensor the slow arena holds if a cut falls between its producer and its last reader.
struct Spillable {
  int producer = 0;
  int last_reader = 0;
  int64_t bytes = 0;  // its slow home: 16-byte aligned (memory-model.md)
};

std::vector<Spillable> SpillableTensors(const GraphFacts& facts) {
  std::vector<Spillable> out;
  for (size_t id = 0; id < facts.lifetimes.size(); ++id) {
    const ir::TensorId t = static_cast<ir::TensorId>(id);
    if (!facts.IsActivation(t) || facts.producer[id] < 0 || facts.consumers[id].empty()) continue;
    const int last = facts.consumers[id].back();
    if (last > facts.producer[id]) {
      out.push_back({facts.producer[id], last, analysis::AlignUp(facts.lifetimes[id].bytes)});
    }
  }
  return out;
}

// Bytes the slow arena holds while ops [first, last] run as one segment: what crosses
// into it from before and what leaves it for later.
int64_t CrossingBytes(const std::vector<Spillable>& spillable, int first, int last) {
  int64_t bytes = 0;
  for (const Spillable& s : spillable) {
    const bool into = s.producer < first && s.last_reader >= first;
    const bool out = s.producer >= first && s.producer <= last && s.last_reader > last;
    if (into || out) bytes += s.bytes;
  }
  return bytes;
}

enum class Kind : uint8_t { kNormal, kLoop };

// The best way found to run ops [0, end): the most the slow arena holds, then segments.
struct Best {
  int64_t slow = std::numeric_limits<int64_t>::max();
  int segments = 0;
  int first = -1;  // the last segment: ops [first, end)
  Kind kind = Kind::kNormal;

  bool reached() const { return first >= 0; }
  bool operator<(const Best& o) const {
    return slow != o.slow ? slow < o.slow : segments < o.segments;
  }
};

// A loop over ops [first, last] as FitLoop shapes it; nullopt when it does not fit. One op
// may use any strategy; several must stream (nothing recomputed, as chains grow).
struct FittedLoop {
  TilePlan loop;
  TileShape shape;
  int64_t weights = 0;
};
std::optional<FittedLoop> FitSegmentLoop(const ir::Graph& graph, const GraphFacts& facts,
                                         const Budget& budget, int first, int last) {
  std::vector<int> ops;
  for (int op = first; op <= last; ++op) ops.push_back(op);
  std::string reason;
  std::optional<TilePlan> loop = MakeTileLoop(graph, facts, ops, &reason);
  if (!loop) return std::nullopt;
  FittedLoop fitted;
  fitted.weights = LoopWeightBytes(graph, budget, ops);
  fitted.shape = FitLoop(graph, facts, *loop, budget, fitted.weights, first == last);
  if (fitted.shape.rows == 0) return std::nullopt;
  fitted.loop = std::move(*loop);
  return fitted;
}

// The budget of a segment whose spills cross `crossing` bytes: what they leave of the one
// memory, at most the fast budget, on the arena grid; 0 when they leave nothing.
Budget SegmentBudget(const Budget& budget, int64_t crossing) {
  Budget segment = budget;
  const int64_t left =
      (budget.one_memory_bytes - crossing) / analysis::kArenaAlignment * analysis::kArenaAlignment;
  segment.fast_bytes = std::max<int64_t>(0, std::min(budget.fast_bytes, left));
  return segment;
}

Stage OneOpStage(int op) {
  Stage stage;
  stage.id = op;
  stage.ops = {op};
  return stage;
}

}  // namespace

bool PartitionForOneMemory(const ir::Graph& graph, const GraphFacts& facts, const Budget& budget,
                           std::vector<Stage>& stages, std::vector<Chain>& chains) {
  const int n = static_cast<int>(graph.ops.size());
  if (n == 0) return false;
  const std::vector<Spillable> spillable = SpillableTensors(facts);
  // Which ops a loop may hold (plan/chains.h conditions 1-2) and which may follow the op
  // before them in one (conditions 3-5), as one-op stages.
  std::vector<bool> tileable(static_cast<size_t>(n)), links(static_cast<size_t>(n), false);
  for (int op = 0; op < n; ++op) {
    tileable[static_cast<size_t>(op)] = StageTileProblem(graph, facts, OneOpStage(op)).empty();
    if (op > 0) {
      const std::vector<Stage> pair = {OneOpStage(op - 1), OneOpStage(op)};
      links[static_cast<size_t>(op)] = ChainLinkProblem(graph, facts, pair, 0).empty();
    }
  }

  std::vector<Best> best(static_cast<size_t>(n) + 1);
  best[0].slow = 0;
  best[0].first = 0;
  auto relax = [&](int first, int last, Kind kind) {
    Best candidate;
    candidate.slow =
        std::max(best[static_cast<size_t>(first)].slow, CrossingBytes(spillable, first, last));
    candidate.segments = best[static_cast<size_t>(first)].segments + 1;
    candidate.first = first;
    candidate.kind = kind;
    Best& at = best[static_cast<size_t>(last) + 1];
    if (!at.reached() || candidate < at) at = candidate;
  };
  // Segments that fit the fast budget may still not fit beside their spills: those are
  // checked against what the spills leave, and skipped (a longer one may spill less).
  auto within = [&](int first, int last) {
    return SegmentBudget(budget, CrossingBytes(spillable, first, last));
  };
  for (int first = 0; first < n; ++first) {
    if (!best[static_cast<size_t>(first)].reached()) continue;
    // Normal stages first: on a tie they win (no tile steps).
    const int longest = LongestNormalStage(graph, facts, budget, first);
    for (int last = first; last <= longest; ++last) {
      const Budget segment = within(first, last);
      if (segment.fast_bytes < budget.fast_bytes &&
          !LayoutNormalStage(graph, facts, first, last, segment, 0).fits) {
        continue;
      }
      relax(first, last, Kind::kNormal);
    }
    if (!tileable[static_cast<size_t>(first)]) continue;
    for (int last = first; last < n; ++last) {
      if (last > first &&
          (!tileable[static_cast<size_t>(last)] || !links[static_cast<size_t>(last)])) {
        break;
      }
      const Budget segment = within(first, last);
      if (FitSegmentLoop(graph, facts, segment, first, last)) {
        relax(first, last, Kind::kLoop);
      } else if (segment.fast_bytes == budget.fast_bytes ||
                 !FitSegmentLoop(graph, facts, budget, first, last)) {
        break;  // over the fast budget itself: a longer loop needs no less
      }
    }
  }
  if (!best[static_cast<size_t>(n)].reached()) return false;

  // The segments, back from the end.
  std::vector<std::pair<int, Kind>> segments;  // first op, kind
  for (int end = n; end > 0; end = best[static_cast<size_t>(end)].first) {
    segments.emplace_back(best[static_cast<size_t>(end)].first,
                          best[static_cast<size_t>(end)].kind);
  }
  std::vector<Stage> out;
  std::vector<Chain> out_chains = chains;
  for (size_t k = segments.size(); k-- > 0;) {
    const int first = segments[k].first;
    const int last = (k == 0 ? n : segments[k - 1].first) - 1;
    const Budget segment = within(first, last);
    if (segments[k].second == Kind::kNormal) {
      out.push_back(
          LayoutNormalStage(graph, facts, first, last, segment, static_cast<int>(out.size())));
      continue;
    }
    // A loop: one stage per op, as a chain (or a tiled stage for one op).
    const size_t first_stage = out.size();
    for (int op = first; op <= last; ++op) {
      out.push_back(LayoutNormalStage(graph, facts, op, op, segment, static_cast<int>(out.size())));
    }
    std::optional<FittedLoop> fitted = FitSegmentLoop(graph, facts, segment, first, last);
    CommitLoop(graph, facts, segment, out, first_stage, out.size() - 1, std::move(fitted->loop),
               fitted->shape, fitted->weights, out_chains);
  }
  stages = std::move(out);
  chains = std::move(out_chains);
  return true;
}

}  // namespace tigris::plan
