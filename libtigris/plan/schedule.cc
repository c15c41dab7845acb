#include "plan/schedule.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <mutex>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "analysis/alignment.h"
#include "plan/graph_facts.h"

namespace tigris::plan {
namespace {

// A set of ops as a bitset.
class OpSet {
 public:
  explicit OpSet(int ops) : words_((static_cast<size_t>(ops) + 63) / 64, 0) {}
  bool Has(int op) const {
    return (words_[static_cast<size_t>(op) / 64] >> (static_cast<size_t>(op) % 64)) & 1u;
  }
  void Add(int op) { words_[static_cast<size_t>(op) / 64] |= uint64_t{1} << (op % 64); }
  bool operator==(const OpSet& other) const { return words_ == other.words_; }
  size_t Hash() const {
    size_t h = 0;
    for (uint64_t w : words_) h = h * 0x9E3779B97F4A7C15ull + (w ^ (w >> 29));
    return h;
  }

 private:
  std::vector<uint64_t> words_;
};

struct OpSetHash {
  size_t operator()(const OpSet& s) const { return s.Hash(); }
};

// What each op reads and writes, and which ops it waits for.
struct OpFacts {
  std::vector<std::vector<int>> reads;   // value indices, each once
  std::vector<std::vector<int>> writes;  // value indices
  std::vector<std::vector<int>> preds;   // op indices, each once
  std::vector<std::vector<int>> succs;   // op indices, each once
};

OpFacts FactsOf(const ScheduleProblem& problem) {
  OpFacts f;
  const auto n = static_cast<size_t>(problem.op_count);
  f.reads.resize(n);
  f.writes.resize(n);
  f.preds.resize(n);
  for (size_t x = 0; x < problem.values.size(); ++x) {
    const ScheduleProblem::Value& v = problem.values[x];
    if (v.producer >= 0) f.writes[static_cast<size_t>(v.producer)].push_back(static_cast<int>(x));
    for (int c : v.consumers) {
      f.reads[static_cast<size_t>(c)].push_back(static_cast<int>(x));
      if (v.producer >= 0) f.preds[static_cast<size_t>(c)].push_back(v.producer);
    }
  }
  f.succs.resize(n);
  for (size_t op = 0; op < n; ++op) {
    std::vector<int>& p = f.preds[op];
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    for (int q : p) f.succs[static_cast<size_t>(q)].push_back(static_cast<int>(op));
  }
  return f;
}

// One downset of a search level: its least peak so far, the bytes resident after it, and
// how it was reached (for the order).
struct State {
  OpSet ops;
  std::vector<int> ready;  // ops not in `ops` whose predecessors all are, ascending
  int64_t peak = 0;
  int64_t resident = 0;
  int parent = -1;  // index in the previous level
  int op = -1;      // the op that extended the parent
};

// The ready ops once `v` (one of `ready`) has run after `done` (which includes v now).
std::vector<int> ReadyAfter(const OpFacts& facts, const OpSet& done, const std::vector<int>& ready,
                            int v) {
  std::vector<int> next;
  next.reserve(ready.size() + facts.succs[static_cast<size_t>(v)].size());
  for (int r : ready) {
    if (r != v) next.push_back(r);
  }
  for (int w : facts.succs[static_cast<size_t>(v)]) {
    const std::vector<int>& need = facts.preds[static_cast<size_t>(w)];
    if (std::all_of(need.begin(), need.end(), [&](int p) { return done.Has(p); })) {
      next.push_back(w);
    }
  }
  std::sort(next.begin(), next.end());
  return next;
}

// Bytes live while `v` runs after the ops of `done` (whose resident bytes are
// `resident`), and the bytes resident after it.
std::pair<int64_t, int64_t> Step(const ScheduleProblem& problem, const OpFacts& facts,
                                 const OpSet& done, int64_t resident, int v) {
  const auto vi = static_cast<size_t>(v);
  int64_t during = resident + problem.scratch[vi];
  int64_t freed = 0;
  for (int x : facts.writes[vi]) {
    const ScheduleProblem::Value& value = problem.values[static_cast<size_t>(x)];
    during += value.bytes;
    if (!value.graph_output && value.consumers.empty()) freed += value.bytes;  // dies at birth
  }
  for (int x : facts.reads[vi]) {
    const ScheduleProblem::Value& value = problem.values[static_cast<size_t>(x)];
    bool born_before = value.producer >= 0, readers_left = false;
    for (int c : value.consumers) {
      if (c == v) continue;
      if (done.Has(c)) {
        born_before = true;
      } else {
        readers_left = true;
      }
    }
    if (!born_before) during += value.bytes;  // a graph input enters at its first reader
    if (!readers_left && !value.graph_output) freed += value.bytes;
  }
  return {during, during - problem.scratch[vi] - freed};
}

// No order's peak is below the most bytes one op needs live while it runs: what it reads,
// what it writes and its scratch. When the load order reaches it, nothing can do better.
int64_t OpLowerBound(const ScheduleProblem& problem, const OpFacts& facts) {
  int64_t bound = 0;
  for (size_t v = 0; v < static_cast<size_t>(problem.op_count); ++v) {
    int64_t bytes = problem.scratch[v];
    for (int x : facts.reads[v]) bytes += problem.values[static_cast<size_t>(x)].bytes;
    for (int x : facts.writes[v]) bytes += problem.values[static_cast<size_t>(x)].bytes;
    bound = std::max(bound, bytes);
  }
  return bound;
}

}  // namespace

std::string_view ScheduleSearchName(ScheduleSearch search) {
  return search == ScheduleSearch::kBeam ? "beam" : "exact";
}

ScheduleProblem ScheduleProblemOf(const ir::Graph& graph) {
  const GraphFacts facts = ComputeGraphFacts(graph);
  ScheduleProblem problem;
  problem.op_count = static_cast<int>(graph.ops.size());
  for (int64_t scratch : facts.scratch_bytes) problem.scratch.push_back(analysis::AlignUp(scratch));
  for (size_t t = 0; t < facts.lifetimes.size(); ++t) {
    if (facts.lifetimes[t].tensor == ir::kNoTensor) continue;
    ScheduleProblem::Value value;
    value.bytes = analysis::AlignUp(facts.lifetimes[t].bytes);
    value.producer = facts.producer[t];
    value.consumers = facts.consumers[t];
    value.consumers.erase(std::unique(value.consumers.begin(), value.consumers.end()),
                          value.consumers.end());  // in order: duplicates are adjacent
    value.graph_output = facts.graph_output[t];
    problem.values.push_back(std::move(value));
  }
  return problem;
}

int64_t PeakOfOrder(const ScheduleProblem& problem, const std::vector<int>& order) {
  const auto n = static_cast<size_t>(problem.op_count);
  std::vector<int> position(n);
  for (size_t i = 0; i < order.size(); ++i)
    position[static_cast<size_t>(order[i])] = static_cast<int>(i);
  std::vector<int64_t> delta(n + 1, 0);
  for (const ScheduleProblem::Value& v : problem.values) {
    if (v.producer < 0 && v.consumers.empty()) continue;
    int birth = v.producer >= 0 ? position[static_cast<size_t>(v.producer)] : static_cast<int>(n);
    int death = v.producer >= 0 ? birth : -1;
    for (int c : v.consumers) {
      birth = std::min(birth, position[static_cast<size_t>(c)]);
      death = std::max(death, position[static_cast<size_t>(c)]);
    }
    if (v.graph_output) death = static_cast<int>(n) - 1;
    delta[static_cast<size_t>(birth)] += v.bytes;
    delta[static_cast<size_t>(death) + 1] -= v.bytes;
  }
  int64_t live = 0, peak = 0;
  for (size_t i = 0; i < n; ++i) {
    live += delta[i];
    peak = std::max(peak, live + problem.scratch[static_cast<size_t>(order[i])]);
  }
  return peak;
}

Schedule ScheduleForMemory(const ScheduleProblem& problem, int64_t max_states) {
  const int n = problem.op_count;
  Schedule schedule;
  std::vector<int> load_order(static_cast<size_t>(n));
  std::iota(load_order.begin(), load_order.end(), 0);
  schedule.load_order_peak_bytes = PeakOfOrder(problem, load_order);
  schedule.order = load_order;
  schedule.peak_bytes = schedule.load_order_peak_bytes;
  if (n == 0) return schedule;

  const OpFacts facts = FactsOf(problem);
  // The split of dense pairs (plan/dense_split.h) writes its parts in the order that needs
  // the least, with a downset per subset of parts: this spares the search on it.
  if (schedule.peak_bytes <= OpLowerBound(problem, facts)) return schedule;
  // The trail keeps n levels of (parent, op) pairs: bound the states per level so that it
  // stays within a few tens of megabytes however many ops there are.
  const int64_t cap = std::min<int64_t>(max_states, std::max<int64_t>(64, 4'000'000 / n));
  // Per level, how each state was reached; the states themselves only for the last level.
  std::vector<std::vector<std::pair<int, int>>> trail;  // (parent, op)
  State empty{OpSet(n), {}, 0, 0, -1, -1};
  for (int v = 0; v < n; ++v) {
    if (facts.preds[static_cast<size_t>(v)].empty()) empty.ready.push_back(v);
  }
  std::vector<State> level;
  level.push_back(std::move(empty));
  // Time: extending a set costs about (ready ops)^2 steps (the transition, the new ready
  // list); a level whose sets would cost more than their share of kWork is cut to the best
  // sets first, so a graph of hundreds of parallel ops is ordered in well under a second.
  constexpr int64_t kWork = 20'000'000;
  const auto by_peak = [](const State& a, const State& b) {
    return a.peak != b.peak ? a.peak < b.peak : a.resident < b.resident;
  };
  for (int size = 0; size < n; ++size) {
    int64_t width = 1;
    for (const State& st : level)
      width = std::max<int64_t>(width, static_cast<int64_t>(st.ready.size()));
    const int64_t affordable = std::max<int64_t>(1, kWork / n / (width * width));
    std::vector<size_t> expand(level.size());  // positions in `level` (the trail's indices)
    std::iota(expand.begin(), expand.end(), size_t{0});
    if (static_cast<int64_t>(expand.size()) > affordable) {
      schedule.search = ScheduleSearch::kBeam;
      std::stable_sort(expand.begin(), expand.end(),
                       [&](size_t a, size_t b) { return by_peak(level[a], level[b]); });
      expand.resize(static_cast<size_t>(affordable));
      std::sort(expand.begin(), expand.end());
    }
    std::vector<State> next;
    std::unordered_map<OpSet, size_t, OpSetHash> index;
    for (size_t s : expand) {
      const State& state = level[s];
      for (int v : state.ready) {
        const auto [during, after] = Step(problem, facts, state.ops, state.resident, v);
        State grown{state.ops, {}, std::max(state.peak, during), after, static_cast<int>(s), v};
        grown.ops.Add(v);
        grown.ready = ReadyAfter(facts, grown.ops, state.ready, v);
        const auto [it, fresh] = index.emplace(grown.ops, next.size());
        if (fresh) {
          next.push_back(std::move(grown));
        } else if (grown.peak < next[it->second].peak) {  // ties: the first found stays
          next[it->second] = std::move(grown);
        }
      }
    }
    schedule.downsets += static_cast<int64_t>(next.size());
    if (next.empty()) return schedule;  // no op ready: a cycle (the loader rejects them)
    if (static_cast<int64_t>(next.size()) > cap) {
      schedule.search = ScheduleSearch::kBeam;
      std::stable_sort(next.begin(), next.end(), by_peak);
      next.erase(next.begin() + cap, next.end());
    }
    std::vector<std::pair<int, int>>& links = trail.emplace_back();
    for (const State& st : next) links.emplace_back(st.parent, st.op);
    level = std::move(next);
  }
  // One state holds every op; walk back to the empty set.
  std::vector<int> order(static_cast<size_t>(n));
  int at = 0;
  for (int size = n - 1; size >= 0; --size) {
    const auto [parent, op] = trail[static_cast<size_t>(size)][static_cast<size_t>(at)];
    order[static_cast<size_t>(size)] = op;
    at = parent;
  }
  const int64_t peak = PeakOfOrder(problem, order);
  if (peak < schedule.peak_bytes) {
    schedule.order = std::move(order);
    schedule.peak_bytes = peak;
    schedule.reordered = true;
  }
  return schedule;
}

namespace {

bool SameProblem(const ScheduleProblem& a, const ScheduleProblem& b) {
  if (a.op_count != b.op_count || a.scratch != b.scratch || a.values.size() != b.values.size()) {
    return false;
  }
  for (size_t i = 0; i < a.values.size(); ++i) {
    const ScheduleProblem::Value& x = a.values[i];
    const ScheduleProblem::Value& y = b.values[i];
    if (x.bytes != y.bytes || x.producer != y.producer || x.consumers != y.consumers ||
        x.graph_output != y.graph_output) {
      return false;
    }
  }
  return true;
}

// ScheduleForMemory is a pure function of the problem, and the planner's search
// (plan/explore.h) plans one rewritten graph under several strategy sets: its schedules
// are remembered, the last few problems with their results, across threads.
Schedule CachedSchedule(const ScheduleProblem& problem) {
  constexpr size_t kRemembered = 16;
  static std::mutex mutex;
  static std::deque<std::pair<ScheduleProblem, Schedule>> remembered;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (const auto& [known, schedule] : remembered) {
      if (SameProblem(known, problem)) return schedule;
    }
  }
  Schedule schedule = ScheduleForMemory(problem);
  std::lock_guard<std::mutex> lock(mutex);
  remembered.emplace_back(problem, schedule);
  if (remembered.size() > kRemembered) remembered.pop_front();
  return schedule;
}

}  // namespace

Schedule ReorderForMemory(ir::Graph& graph) {
  Schedule schedule = CachedSchedule(ScheduleProblemOf(graph));
  if (schedule.reordered) {
    std::vector<ir::Op> ops;
    ops.reserve(graph.ops.size());
    for (int op : schedule.order) ops.push_back(std::move(graph.ops[static_cast<size_t>(op)]));
    graph.ops = std::move(ops);
  }
  return schedule;
}

}  // namespace tigris::plan
