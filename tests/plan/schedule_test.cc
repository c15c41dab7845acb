// The memory-aware op order (plan/schedule.h) against an independent oracle: on random
// small DAGs, brute force over every topological order finds the least live peak, and the
// downset search must find the same, with an order that respects every dependency. Also:
// the peak of the load order is the planner's own single-stage timeline on real models,
// a bounded (beam) search is never worse than the load order, and on a graph whose load
// order is poor the planner runs the better order.
#include "plan/schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "analysis/conv_graphs.h"
#include "analysis/lifetimes.h"
#include "analysis/memory_timeline.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "support/graph_builder.h"
#include "support/test_env.h"

namespace tigris::plan {
namespace {

// Ops 0..n-1, each writing value i + 1 from one or two values written before it (value 0
// is the graph input); the last op's value is the graph output. The index order is a
// topological order: the "load order".
ScheduleProblem RandomDag(std::mt19937& rng, int n) {
  ScheduleProblem p;
  p.op_count = n;
  p.values.resize(static_cast<size_t>(n) + 1);
  p.values[0].bytes = 16 * static_cast<int64_t>(1 + rng() % 6);
  for (int op = 0; op < n; ++op) {
    ScheduleProblem::Value& out = p.values[static_cast<size_t>(op) + 1];
    out.producer = op;
    out.bytes = 16 * static_cast<int64_t>(1 + rng() % 10);
    const int inputs = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < inputs; ++k) {
      const auto in = static_cast<size_t>(rng() % static_cast<unsigned>(op + 1));
      std::vector<int>& readers = p.values[in].consumers;
      if (std::find(readers.begin(), readers.end(), op) == readers.end()) readers.push_back(op);
    }
    p.scratch.push_back(rng() % 4 == 0 ? 16 * static_cast<int64_t>(rng() % 4) : 0);
  }
  p.values.back().graph_output = true;
  return p;
}

std::vector<std::vector<int>> Preds(const ScheduleProblem& p) {
  std::vector<std::vector<int>> preds(static_cast<size_t>(p.op_count));
  for (const ScheduleProblem::Value& v : p.values) {
    for (int c : v.consumers) {
      if (v.producer >= 0) preds[static_cast<size_t>(c)].push_back(v.producer);
    }
  }
  return preds;
}

bool RespectsDependencies(const ScheduleProblem& p, const std::vector<int>& order) {
  if (static_cast<int>(order.size()) != p.op_count) return false;
  std::vector<int> position(order.size(), -1);
  for (size_t i = 0; i < order.size(); ++i) {
    if (position[static_cast<size_t>(order[i])] >= 0) return false;
    position[static_cast<size_t>(order[i])] = static_cast<int>(i);
  }
  const auto preds = Preds(p);
  for (int op = 0; op < p.op_count; ++op) {
    for (int pred : preds[static_cast<size_t>(op)]) {
      if (position[static_cast<size_t>(pred)] > position[static_cast<size_t>(op)]) return false;
    }
  }
  return true;
}

// The least peak over every topological order, by enumeration.
int64_t BruteForceLeastPeak(const ScheduleProblem& p) {
  const auto preds = Preds(p);
  std::vector<int> order;
  std::vector<bool> done(static_cast<size_t>(p.op_count), false);
  int64_t best = -1;
  std::function<void()> extend = [&] {
    if (static_cast<int>(order.size()) == p.op_count) {
      const int64_t peak = PeakOfOrder(p, order);
      if (best < 0 || peak < best) best = peak;
      return;
    }
    for (int op = 0; op < p.op_count; ++op) {
      if (done[static_cast<size_t>(op)]) continue;
      const auto& need = preds[static_cast<size_t>(op)];
      if (!std::all_of(need.begin(), need.end(),
                       [&](int q) { return done[static_cast<size_t>(q)]; })) {
        continue;
      }
      done[static_cast<size_t>(op)] = true;
      order.push_back(op);
      extend();
      order.pop_back();
      done[static_cast<size_t>(op)] = false;
    }
  };
  extend();
  return best;
}

TEST(ScheduleTest, DownsetSearchFindsTheLeastPeakOfEveryTopologicalOrder) {
  std::mt19937 rng(13);
  int improved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const ScheduleProblem p = RandomDag(rng, 3 + static_cast<int>(rng() % 6));
    const int64_t least = BruteForceLeastPeak(p);
    const Schedule s = ScheduleForMemory(p);
    EXPECT_EQ(s.search, ScheduleSearch::kExact);
    EXPECT_EQ(s.peak_bytes, least) << "trial " << trial;
    EXPECT_TRUE(RespectsDependencies(p, s.order)) << "trial " << trial;
    EXPECT_EQ(PeakOfOrder(p, s.order), s.peak_bytes);
    EXPECT_LE(s.peak_bytes, s.load_order_peak_bytes);
    EXPECT_EQ(s.reordered, s.peak_bytes < s.load_order_peak_bytes);
    if (!s.reordered) {
      std::vector<int> identity(static_cast<size_t>(p.op_count));
      std::iota(identity.begin(), identity.end(), 0);
      EXPECT_EQ(s.order, identity) << "a tie keeps the load order";
    }
    if (s.reordered) ++improved;
  }
  EXPECT_GE(improved, 20) << "the trials must include load orders that a better order beats";
}

TEST(ScheduleTest, ABoundedSearchIsValidAndNeverWorseThanTheLoadOrder) {
  std::mt19937 rng(31);
  int beams = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const ScheduleProblem p = RandomDag(rng, 6 + static_cast<int>(rng() % 10));
    const Schedule exact = ScheduleForMemory(p);
    const Schedule beam = ScheduleForMemory(p, /*max_states=*/2);
    EXPECT_TRUE(RespectsDependencies(p, beam.order)) << "trial " << trial;
    EXPECT_EQ(PeakOfOrder(p, beam.order), beam.peak_bytes);
    EXPECT_LE(beam.peak_bytes, beam.load_order_peak_bytes);
    EXPECT_GE(beam.peak_bytes, exact.peak_bytes);
    if (beam.search == ScheduleSearch::kBeam) ++beams;
  }
  EXPECT_GT(beams, 0);
}

// 300 ops read one input in parallel and one more joins them all: 2^300 downsets. The
// search must fall back to its beam, still give a valid order, and not be worse than the
// load order.
TEST(ScheduleTest, AWideGraphFallsBackToTheBeam) {
  constexpr int kBranches = 300;
  ScheduleProblem p;
  p.op_count = kBranches + 1;
  p.scratch.assign(static_cast<size_t>(p.op_count), 0);
  p.values.resize(kBranches + 2);
  p.values[0].bytes = 64;
  for (int op = 0; op < kBranches; ++op) {
    p.values[0].consumers.push_back(op);
    ScheduleProblem::Value& out = p.values[static_cast<size_t>(op) + 1];
    out.producer = op;
    out.bytes = 16 * (1 + op % 7);
    out.consumers = {kBranches};
  }
  p.values.back().producer = kBranches;
  p.values.back().bytes = 32;
  p.values.back().graph_output = true;
  const Schedule s = ScheduleForMemory(p);
  EXPECT_EQ(s.search, ScheduleSearch::kBeam);
  EXPECT_TRUE(RespectsDependencies(p, s.order));
  EXPECT_EQ(PeakOfOrder(p, s.order), s.peak_bytes);
  EXPECT_LE(s.peak_bytes, s.load_order_peak_bytes);
}

// x [1,4,8,8] feeds two branches joined by a Concat. Branch B (first in the load order)
// ends big: Relu, then a 1x1 Conv to 32 channels, then Relu (8 KiB each). Branch A is big
// in the middle and ends small: a 1x1 Conv to 64 channels (16 KiB), then one to 1 channel
// (256 B). By hand (docs/memory-model.md: an op's inputs and outputs are co-resident):
// the load order peaks at A's first Conv, x 1 KiB + B's output 8 KiB + 16 KiB = 25,600 B;
// running A first peaks at its second Conv, x + 16 KiB + 256 B = 17,664 B.
ir::Graph BranchesInAPoorOrder() {
  testing::GraphBuilder g("branches");
  const ir::TensorId x = g.Input("x", {1, 4, 8, 8});
  const ir::TensorId b1 = g.Op(ir::OpType::kRelu, "b1", {x}, "b1", {1, 4, 8, 8});
  const ir::TensorId b2 = testing::AddConv(g, "b2", b1, {32, 1, 1, 0});
  const ir::TensorId b3 = g.Op(ir::OpType::kRelu, "b3", {b2}, "b3", {1, 32, 8, 8});
  const ir::TensorId a1 = testing::AddConv(g, "a1", x, {64, 1, 1, 0});
  const ir::TensorId a2 = testing::AddConv(g, "a2", a1, {1, 1, 1, 0});
  g.Output(g.Op(ir::OpType::kConcat, "cat", {a2, b3}, "y", {1, 33, 8, 8},
                testing::Attrs({{"axis", int64_t{1}}})));
  return g.Take();
}

TEST(ScheduleTest, ThePlannerRunsTheBetterOrderOfAPoorlyOrderedGraph) {
  const ir::Graph graph = BranchesInAPoorOrder();
  const ScheduleProblem problem = ScheduleProblemOf(graph);
  const Schedule s = ScheduleForMemory(problem);
  ASSERT_TRUE(s.reordered);
  EXPECT_EQ(s.load_order_peak_bytes, 25600);
  EXPECT_EQ(s.peak_bytes, 17664);
  EXPECT_EQ(s.peak_bytes, BruteForceLeastPeak(problem));

  const PlanResult plan = PlanModel(graph, Budget{64 << 20, 0, 0});
  EXPECT_TRUE(plan.schedule.reordered);
  testing::ExpectPlanReplays(plan);
  EXPECT_EQ(plan.naive_peak_bytes, s.peak_bytes);
  EXPECT_EQ(plan.scheduled_peak_bytes, s.peak_bytes);  // one stage, laid out at its bound
  // Same ops, reordered; every op still after its inputs' producers.
  ASSERT_EQ(plan.graph.ops.size(), graph.ops.size());
  EXPECT_EQ(plan.graph.ops[0].name, graph.ops[static_cast<size_t>(s.order[0])].name);
  EXPECT_NO_THROW(analysis::ComputeLifetimes(plan.graph));
  // The caller's graph keeps its order.
  EXPECT_EQ(graph.ops[0].name, "b1");
}

// The peak of the load order is the planner's own single-stage timeline, on every shared
// model: the two count the same bytes.
TEST(ScheduleTest, TheLoadOrderPeakIsTheNaiveTimelinePeakOfEverySharedModel) {
  for (const std::string& path : testing::SharedOnnxModels()) {
    ir::Graph graph = onnx_import::LoadOnnxFile(path, {});
    passes::Normalize(graph);
    const ScheduleProblem problem = ScheduleProblemOf(graph);
    std::vector<int> identity(static_cast<size_t>(problem.op_count));
    std::iota(identity.begin(), identity.end(), 0);
    const int64_t naive =
        analysis::ComputeMemoryTimeline(graph, analysis::ComputeLifetimes(graph)).peak_bytes;
    EXPECT_EQ(PeakOfOrder(problem, identity), naive) << path;
    const Schedule s = ScheduleForMemory(problem);
    EXPECT_EQ(s.search, ScheduleSearch::kExact) << path;
    EXPECT_LE(s.peak_bytes, naive) << path;
  }
}

}  // namespace
}  // namespace tigris::plan
