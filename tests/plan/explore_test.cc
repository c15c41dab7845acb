// The planner's search (plan/explore.h). Its front and choice are checked on hand-made
// figures; its plans against plans made independently, one configuration at a time
// (PlanPass with one tiling strategy, with and without the FDT splits): on every shared
// model the search's plan needs no more fast memory than the best of them (issue 14's
// "explored <= best single-strategy plan"), every plan it lists fits, and the plan it
// returns replays in the brute-force simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "passes/passes.h"
#include "plan/explore.h"
#include "plan/plan_simulator.h"
#include "plan/plan_test_util.h"
#include "plan/planner.h"
#include "support/graph_builder.h"
#include "support/test_env.h"

namespace tigris::plan {
namespace {

ExploredPlan Figures(int64_t fast, int64_t recompute, int64_t traffic, int64_t steps) {
  ExploredPlan p;
  p.fast_bytes = fast;
  p.recompute_macs = recompute;
  p.slow_traffic_bytes = traffic;
  p.tile_steps = steps;
  return p;
}

TEST(ParetoFront, DominatedPlansAreOffItAndTradeOffsOn) {
  std::vector<ExploredPlan> plans = {
      Figures(100, 0, 50, 10),   // 0: dominated by 1 (more fast memory, the rest equal)
      Figures(80, 0, 50, 10),    // 1
      Figures(40, 500, 50, 10),  // 2: less memory for recompute
      Figures(80, 0, 20, 30),    // 3: less traffic for more tile steps
      Figures(90, 10, 60, 40),   // 4: dominated by 1 in every figure
      Figures(80, 0, 50, 10),    // 5: equal to 1: neither dominates the other
  };
  MarkParetoFront(plans);
  const std::vector<bool> expected = {false, true, true, true, false, true};
  for (size_t i = 0; i < plans.size(); ++i) EXPECT_EQ(plans[i].on_front, expected[i]) << i;
}

// The definition, checked by brute force on random figures: on the front exactly when no
// plan is <= in all four figures and < in one.
TEST(ParetoFront, MatchesTheDefinitionOnRandomFigures) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> small(0, 3);
  for (int round = 0; round < 50; ++round) {
    std::vector<ExploredPlan> plans;
    for (int i = 0; i < 12; ++i)
      plans.push_back(Figures(small(rng), small(rng), small(rng), small(rng)));
    MarkParetoFront(plans);
    for (const ExploredPlan& p : plans) {
      bool dominated = false;
      for (const ExploredPlan& q : plans) {
        const bool no_worse =
            q.fast_bytes <= p.fast_bytes && q.recompute_macs <= p.recompute_macs &&
            q.slow_traffic_bytes <= p.slow_traffic_bytes && q.tile_steps <= p.tile_steps;
        const bool better = q.fast_bytes < p.fast_bytes || q.recompute_macs < p.recompute_macs ||
                            q.slow_traffic_bytes < p.slow_traffic_bytes ||
                            q.tile_steps < p.tile_steps;
        dominated = dominated || (no_worse && better);
      }
      EXPECT_EQ(p.on_front, !dominated);
    }
  }
}

TEST(ChoosePlan, MemoryLatencyAndTheRecomputeLimit) {
  const std::vector<ExploredPlan> plans = {
      Figures(64000, 0, 1000, 10),    // 0: the latency choice
      Figures(8000, 300, 9000, 200),  // 1: the memory choice
      Figures(8000, 300, 9000, 100),  // 2: as 1 with fewer tile steps: memory's tie-break
      Figures(16000, 0, 5000, 50),    // 3: the least memory without recompute
      Figures(64000, 0, 1000, 10),    // 4: equal to 0: the earlier wins
  };
  SearchOptions memory;
  memory.objective = Objective::kMemory;
  EXPECT_EQ(ChoosePlan(plans, memory, 10000), 2);
  SearchOptions latency;
  latency.objective = Objective::kLatency;
  EXPECT_EQ(ChoosePlan(plans, latency, 10000), 0);
  // 300 MACs of 10,000 is 3%: over a 2% limit, within 3%.
  memory.max_recompute_percent = 2;
  EXPECT_EQ(ChoosePlan(plans, memory, 10000), 3);
  memory.max_recompute_percent = 3;
  EXPECT_EQ(ChoosePlan(plans, memory, 10000), 2);
  const std::vector<ExploredPlan> all_recompute = {Figures(100, 5, 0, 1)};
  memory.max_recompute_percent = 0;
  EXPECT_EQ(ChoosePlan(all_recompute, memory, 10000), -1);
}

TEST(SearchBudget, RejectsWhatIsNotASearch) {
  Budget budget;
  budget.fast_bytes = 1024;
  budget.strategies = 0x10;
  testing::ExpectError([&] { ValidateBudget(budget); }, Status::kInvalidBudget, {"strategies"});
  budget.strategies = kAllTilingStrategies;
  budget.search.max_recompute_percent = std::nan("");
  testing::ExpectError([&] { ValidateBudget(budget); }, Status::kInvalidBudget,
                       {"max_recompute_percent"});
  budget.search.max_recompute_percent = -1;
  budget.search.threads = -2;
  testing::ExpectError([&] { ValidateBudget(budget); }, Status::kInvalidBudget, {"threads"});
}

ir::Graph Load(const std::string& path) {
  ir::Graph g = onnx_import::LoadOnnxFile(path, {});
  passes::Normalize(g);
  return g;
}

// The shared float models and the int8 ones converted from TFLite.
std::vector<std::string> EveryModel() {
  std::vector<std::string> models = testing::SharedOnnxModels();
  const std::filesystem::path tflite = testing::ModelsDir() + "/onnx-from-tflite";
  std::vector<std::string> int8;
  for (const auto& entry : std::filesystem::directory_iterator(tflite)) {
    if (entry.path().extension() == ".onnx") int8.push_back(entry.path().string());
  }
  std::sort(int8.begin(), int8.end());
  models.insert(models.end(), int8.begin(), int8.end());
  return models;
}

// The least fast memory of the plans made one configuration at a time: each tiling
// strategy alone, and all four, with the FDT splits and without; -1 when none fits.
int64_t BestSingleStrategyPeak(const ir::Graph& graph, int64_t fast_bytes) {
  int64_t best = -1;
  for (uint32_t strategies : {kStreamedRowsStrategy, kRowsStrategy, kTwoDStrategy,
                              kChannelGroupsStrategy, kAllTilingStrategies}) {
    for (bool fdt : {false, true}) {
      Budget budget;
      budget.fast_bytes = fast_bytes;
      budget.strategies = strategies;
      budget.fdt = fdt;
      const PlanResult plan = PlanPass(graph, budget, fdt);
      if (plan.verdict == Verdict::kNeedsWork) continue;
      if (best < 0 || plan.scheduled_peak_bytes < best) best = plan.scheduled_peak_bytes;
    }
  }
  return best;
}

TEST(SearchPlans, NeedsNoMoreThanTheBestSingleStrategyPlanOnEveryModel) {
  const std::vector<std::string> models = EveryModel();
  ASSERT_GE(models.size(), 10u);
  for (const std::string& path : models) {
    const ir::Graph graph = Load(path);
    for (int64_t fast_bytes : {64 * 1024, 16 * 1024}) {
      SCOPED_TRACE(path + " @" + std::to_string(fast_bytes));
      Budget budget;
      budget.fast_bytes = fast_bytes;
      budget.search.objective = Objective::kMemory;
      const PlanResult plan = PlanModel(graph, budget);
      ASSERT_TRUE(plan.exploration.has_value());
      const Exploration& e = *plan.exploration;
      const int64_t single = BestSingleStrategyPeak(graph, fast_bytes);
      if (single < 0) {
        // Nothing fits one configuration at a time; the search may still find nothing.
        if (e.chosen < 0) {
          EXPECT_EQ(plan.verdict, Verdict::kNeedsWork);
        }
        continue;
      }
      ASSERT_GE(e.chosen, 0);
      EXPECT_NE(plan.verdict, Verdict::kNeedsWork);
      EXPECT_LE(plan.scheduled_peak_bytes, single);
      // The plan returned is the one listed as chosen, and fits the caller's budget.
      EXPECT_EQ(plan.scheduled_peak_bytes, e.plans[static_cast<size_t>(e.chosen)].fast_bytes);
      EXPECT_EQ(plan.budget.fast_bytes, fast_bytes);
      for (const ExploredPlan& p : e.plans) {
        EXPECT_LE(p.fast_bytes, p.planned_fast_bytes);
        EXPECT_LE(p.planned_fast_bytes, fast_bytes);
      }
      testing::ExpectPlanReplays(plan);
    }
  }
}

TEST(SearchPlans, TheThreadCountDoesNotChangeTheResult) {
  const ir::Graph graph = Load(testing::SharedOnnxModel("kws_small_cnn.onnx"));
  Budget budget;
  budget.fast_bytes = 16 * 1024;
  budget.search.objective = Objective::kMemory;
  budget.search.threads = 1;
  const PlanResult one = PlanModel(graph, budget);
  budget.search.threads = 3;
  const PlanResult three = PlanModel(graph, budget);
  ASSERT_EQ(one.exploration->plans.size(), three.exploration->plans.size());
  for (size_t i = 0; i < one.exploration->plans.size(); ++i) {
    const ExploredPlan& a = one.exploration->plans[i];
    const ExploredPlan& b = three.exploration->plans[i];
    EXPECT_EQ(a.planned_fast_bytes, b.planned_fast_bytes) << i;
    EXPECT_EQ(a.fast_bytes, b.fast_bytes) << i;
    EXPECT_EQ(a.config.strategies, b.config.strategies) << i;
  }
  EXPECT_EQ(one.exploration->chosen, three.exploration->chosen);
  EXPECT_EQ(one.exploration->passes, three.exploration->passes);
}

TEST(SearchPlans, LatencyTakesNoMoreRecomputeThanTheSinglePass) {
  const ir::Graph graph = Load(testing::SharedOnnxModel("mobilenet_v2_035_144.onnx"));
  Budget budget;
  budget.fast_bytes = 32 * 1024;
  const PlanResult single = PlanModel(graph, budget);
  budget.search.objective = Objective::kLatency;
  const PlanResult fastest = PlanModel(graph, budget);
  ASSERT_NE(fastest.verdict, Verdict::kNeedsWork);
  EXPECT_LE(fastest.recompute_macs, single.recompute_macs);
  if (fastest.recompute_macs == single.recompute_macs) {
    EXPECT_LE(fastest.slow_traffic_bytes, single.slow_traffic_bytes);
  }
  budget.search.objective = Objective::kMemory;
  budget.search.max_recompute_percent = 0;
  const PlanResult lean = PlanModel(graph, budget);
  EXPECT_EQ(lean.recompute_macs, 0);
  EXPECT_LE(lean.scheduled_peak_bytes, single.scheduled_peak_bytes);
}

// With no strategy the planner leaves over-budget stages untiled: the plan says which.
TEST(PlanPass, NoStrategyLeavesStagesThatNeedTiling) {
  const ir::Graph graph = Load(testing::SharedOnnxModel("kws_small_cnn.onnx"));
  Budget budget;
  budget.fast_bytes = 8 * 1024;
  budget.strategies = 0;
  const PlanResult plan = PlanPass(graph, budget, false);
  EXPECT_EQ(plan.verdict, Verdict::kNeedsWork);
  budget.strategies = kAllTilingStrategies;
  EXPECT_NE(PlanPass(graph, budget, false).verdict, Verdict::kNeedsWork);
}

// The MLP of issue 14 (128 -> 2048 -> 2048 -> 10): the search finds the dense split's plan,
// under 0.6 x 16 KiB, without recompute.
TEST(SearchPlans, FindsTheDenseSplitOfTheMlp) {
  testing::GraphBuilder b;
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 0.05f);
  auto weights = [&](const std::string& name, ir::Shape shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = normal(rng);
    return b.Floats(name, shape, v);
  };
  ir::TensorId x = b.Input("x", {1, 128});
  const int64_t widths[] = {128, 2048, 2048, 10};
  for (int layer = 0; layer < 3; ++layer) {
    const std::string n = std::to_string(layer);
    x = b.Op(ir::OpType::kGemm, "fc" + n,
             {x, weights("W" + n, {widths[layer + 1], widths[layer]}),
              weights("b" + n, {widths[layer + 1]})},
             "h" + n, {1, widths[layer + 1]});
    if (layer < 2) b.graph().ops.back().fused_activation = ir::Activation::kRelu;
  }
  b.Output(x);
  const ir::Graph graph = b.Take();
  Budget budget;
  budget.fast_bytes = 16 * 1024;
  budget.search.objective = Objective::kMemory;
  const std::vector<SearchConfig> configs = SearchConfigs(graph, budget);
  EXPECT_TRUE(std::any_of(configs.begin(), configs.end(),
                          [](const SearchConfig& c) { return c.dense_split; }));
  const PlanResult plan = PlanModel(graph, budget);
  ASSERT_NE(plan.verdict, Verdict::kNeedsWork);
  EXPECT_LE(plan.scheduled_peak_bytes * 10, 16 * 1024 * 6);
  EXPECT_EQ(plan.recompute_macs, 0);
  EXPECT_TRUE(
      plan.exploration->plans[static_cast<size_t>(plan.exploration->chosen)].config.dense_split);
  testing::ExpectPlanReplays(plan);
  // Without the FDT splits the search has no such configuration.
  budget.fdt = false;
  for (const SearchConfig& c : SearchConfigs(graph, budget)) EXPECT_FALSE(c.dense_split);
}

}  // namespace
}  // namespace tigris::plan
