// int8 ReduceMean's requantization is in the plan (docs/plan-format.md "int8 fields"): the
// emitter stores s_in / s_out as a Q0.31 multiplier and shift, so the MCU runtime never
// quantizes it itself in double precision. Expected values are computed here with
// std::frexp / std::llround from the two scales, TFLite's QuantizeMultiplier written out
// independently of emit/requantize.cc. tests/runtime/executor_test.cc runs such a plan
// and checks the missing-field error.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "emit/plan_writer.h"
#include "format/tgrs_generated.h"
#include "plan/planner.h"
#include "support/graph_builder.h"

namespace tigris::emit {
namespace {

using testing::GraphBuilder;

// x int8 [1, 2, 2, 2] -> ReduceMean(axes [2, 3], keepdims) -> y int8 [1, 2, 1, 1], as a
// plan from another front end would carry it (reduce-mean-to-gap is not run here).
ir::Graph Int8Mean(float s_in, int32_t zp_in, float s_out, int32_t zp_out) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 2, 2, 2}, ir::DType::kInt8);
  b.graph().tensors[static_cast<size_t>(x)].quant = ir::QuantParams{{s_in}, {zp_in}, -1};
  ir::Attributes a;
  a.Set("axes", std::vector<int64_t>{2, 3});
  a.Set("keepdims", int64_t{1});
  const ir::TensorId y =
      b.Op(ir::OpType::kReduceMean, "mean", {x}, "y", {1, 2, 1, 1}, a, ir::DType::kInt8);
  b.graph().tensors[static_cast<size_t>(y)].quant = ir::QuantParams{{s_out}, {zp_out}, -1};
  b.Output(y);
  return b.Take();
}

std::vector<uint8_t> EmitBytes(const ir::Graph& g) {
  plan::Budget budget;
  budget.fast_bytes = 1 << 20;
  return EmitPlan(g, plan::PlanModel(g, budget), EmitOptions{}).bytes;
}

// TFLite QuantizeMultiplier: real = q * 2^e with q in [0.5, 1); multiplier =
// round_half_away(q * 2^31), carried into e when it rounds up to 2^31; shift = e.
void ExpectedMultiplier(double real, int32_t* multiplier, int32_t* shift) {
  int e = 0;
  const double q = std::frexp(real, &e);
  long long m = std::llround(q * 2147483648.0);
  if (m == 2147483648LL) {
    m /= 2;
    ++e;
  }
  *multiplier = static_cast<int32_t>(m);
  *shift = e;
}

TEST(ReduceMeanQuantTest, Int8MeanStoresSInOverSOutAsQ031) {
  const float s_in = 0.0473f, s_out = 0.0191f;  // s_in / s_out ~ 2.476: a left shift of 2
  const std::vector<uint8_t> bytes = EmitBytes(Int8Mean(s_in, -3, s_out, 7));  // op points in
  const tgrs::Op* op = tgrs::GetPlan(bytes.data())->ops()->Get(0);
  ASSERT_EQ(op->code(), TGRS_OP_REDUCE_MEAN);
  ASSERT_TRUE(op->output_multiplier() && op->output_shift());
  ASSERT_EQ(op->output_multiplier()->size(), 1u);
  ASSERT_EQ(op->output_shift()->size(), 1u);
  int32_t m = 0, shift = 0;
  // The scales as the plan stores them (float), divided in double like every other op.
  ExpectedMultiplier(static_cast<double>(s_in) / static_cast<double>(s_out), &m, &shift);
  EXPECT_EQ(shift, 2);
  EXPECT_EQ(op->output_multiplier()->Get(0), m);
  EXPECT_EQ(op->output_shift()->Get(0), shift);
}

TEST(ReduceMeanQuantTest, EqualScalesStoreTheIdentity) {
  // s_in == s_out: real 1 = 0.5 * 2^1, so {2^30, 1}, the identity of docs/plan-format.md.
  const std::vector<uint8_t> bytes = EmitBytes(Int8Mean(0.1f, 0, 0.1f, 0));
  const tgrs::Op* op = tgrs::GetPlan(bytes.data())->ops()->Get(0);
  ASSERT_TRUE(op->output_multiplier() && op->output_shift());
  EXPECT_EQ(op->output_multiplier()->Get(0), 1 << 30);
  EXPECT_EQ(op->output_shift()->Get(0), 1);
}

}  // namespace
}  // namespace tigris::emit
