// Memory-aware operator order (issue 13, item 2; the FDT paper, section 4.1): the
// topological order of a graph's ops whose live peak (analysis/memory_timeline.h: every
// activation live from its birth to its last reader, an output shared by all its readers,
// plus each op's kernel scratch) is least.
//
// The search is over downsets: the set of ops already run determines which tensors are
// resident, so the least peak to reach a set S is
//     best(S) = min over the ops v of S that no other op of S needs:
//               max(best(S - v), the bytes live while v runs after S - v),
// computed level by level (|S| = 0, 1, ..., n). It is exact for every DAG, not only
// series-parallel ones, and costs time in proportion to the number of downsets: on the
// graphs networks make (a chain with short parallel branches: Inception modules, fire
// modules, residual blocks with convolutions on the skip path, dense blocks) that number
// stays small, since only the ops of one parallel region are ever in flight. When a level
// holds more than `max_states` sets (fewer on graphs of over 1,000 ops, so that the
// search's memory stays bounded) the search turns into a beam search keeping the sets
// with the least peak (then the least resident bytes): no longer exact, and reported so.
// The order returned is never worse than the load order.
#ifndef TIGRIS_PLAN_SCHEDULE_H_
#define TIGRIS_PLAN_SCHEDULE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace tigris::plan {

// The scheduling problem abstracted from the IR (also what the tests build directly).
struct ScheduleProblem {
  struct Value {
    int64_t bytes = 0;           // aligned: what the value occupies in the arena
    int producer = -1;           // op index; -1 for a graph input (born at its first reader)
    std::vector<int> consumers;  // op indices, each once
    bool graph_output = false;   // live to the end once produced
  };
  int op_count = 0;
  std::vector<Value> values;
  std::vector<int64_t> scratch;  // per op, aligned
};

// The problem of `graph`'s activations, as the planner counts them (plan/graph_facts.h).
ScheduleProblem ScheduleProblemOf(const ir::Graph& graph);

// The live peak of running the ops in `order` (a permutation of 0..op_count-1 respecting
// every dependency).
int64_t PeakOfOrder(const ScheduleProblem& problem, const std::vector<int>& order);

enum class ScheduleSearch : uint8_t {
  kExact = 0,  // every downset was kept: no order has a lower peak
  kBeam,       // some level overflowed max_states: the best order the bounded search found
};
std::string_view ScheduleSearchName(ScheduleSearch search);  // "exact", "beam"

struct Schedule {
  std::vector<int> order;  // op indices in execution order
  int64_t peak_bytes = 0;
  int64_t load_order_peak_bytes = 0;  // of 0, 1, ..., n-1
  ScheduleSearch search = ScheduleSearch::kExact;
  bool reordered = false;  // order differs from the load order (only when peak_bytes is lower)
  int64_t downsets = 0;    // sets of ops the search visited
};

// The least-peak order of `problem` (the load order on a tie).
Schedule ScheduleForMemory(const ScheduleProblem& problem, int64_t max_states = 4096);

// Reorders `graph.ops` by ScheduleForMemory when that lowers the live peak (else leaves
// them as they are) and returns the schedule.
Schedule ReorderForMemory(ir::Graph& graph);

}  // namespace tigris::plan

#endif  // TIGRIS_PLAN_SCHEDULE_H_
