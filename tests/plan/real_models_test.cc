// Plans every shared real model at 512K..32K: nothing may throw, every plan must replay
// in the brute-force simulator, and each plan must be fast. Loading and normalization
// belong to other phases; a model they cannot handle yet is skipped, not failed here.
#include <gtest/gtest.h>

#include <cstdio>

#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "passes/passes.h"
#include "plan/plan_json.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "support/test_env.h"
#include "util/error.h"

namespace tigris::plan {
namespace {

TEST(RealModelsTest, PlanEveryModelAtEveryBudget) {
  const std::vector<std::string> models = testing::SharedOnnxModels();
  ASSERT_FALSE(models.empty()) << "no shared models in " << testing::ModelsDir();
  for (const std::string& path : models) {
    ir::Graph g = onnx_import::LoadOnnxFile(path, {});
    passes::Normalize(g);
    for (int64_t kib : {512, 256, 128, 64, 32}) {
      SCOPED_TRACE(path + " @" + std::to_string(kib) + "K");
      PlanResult p;
      ASSERT_NO_THROW(p = PlanModel(g, {kib * 1024, 0, 0}));
      testing::ExpectPlanReplays(p);
      EXPECT_NO_THROW(PlanToJson(p.graph, p).dump());
      std::printf("%s @%lldK: %zu ops, %zu stages, %zu chains, %s, peak %lld\n", g.name.c_str(),
                  static_cast<long long>(kib), g.ops.size(), p.stages.size(), p.chains.size(),
                  std::string(VerdictName(p.verdict)).c_str(),
                  static_cast<long long>(p.scheduled_peak_bytes));
    }
  }
}

}  // namespace
}  // namespace tigris::plan
