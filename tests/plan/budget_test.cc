#include "plan/budget.h"

#include <gtest/gtest.h>

#include "plan/plan_test_util.h"
#include "plan/planner.h"
#include "support/graph_builder.h"

namespace tigris::plan {
namespace {

using testing::ExpectError;

ir::Graph OneRelu() {
  testing::GraphBuilder g;
  ir::TensorId x = g.Input("x", {1, 4});
  g.Output(g.Op(ir::OpType::kRelu, "r", {x}, "y", {1, 4}));
  return g.Take();
}

TEST(BudgetTest, ZeroFastBudgetIsInvalid) {
  const ir::Graph g = OneRelu();
  ExpectError([&] { PlanModel(g, Budget{0, 0, 0}); }, Status::kInvalidBudget, {"fast_bytes"});
  ExpectError([&] { PlanModel(g, Budget{-5, 0, 0}); }, Status::kInvalidBudget, {"-5"});
}

TEST(BudgetTest, NegativeSlowOrFlashIsInvalid) {
  ExpectError([] { ValidateBudget({1024, -1, 0}); }, Status::kInvalidBudget, {"slow_bytes"});
  ExpectError([] { ValidateBudget({1024, 0, -1}); }, Status::kInvalidBudget, {"flash_bytes"});
  ValidateBudget({1024, 0, 0});  // 0 = not given for slow and flash
}

TEST(BudgetTest, EmptyGraphIsEmptyModel) {
  ir::Graph g;
  g.name = "nothing";
  ExpectError([&] { PlanModel(g, Budget{1024, 0, 0}); }, Status::kEmptyModel, {"nothing"});
}

}  // namespace
}  // namespace tigris::plan
