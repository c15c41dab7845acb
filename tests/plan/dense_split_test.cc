// fdt-fan-out-fan-in (plan/dense_split.h): the FDT paper's split of the vector between two
// dense layers. The oracle is the unsplit graph itself, evaluated by the small float
// interpreter below (Gemm with its fused activation, Add, Relu, Relu6: the only ops the
// split writes), on random inputs; the weights of each part are checked against the rows
// and columns of the original constants, and the MACs against analysis::OpMacs of the
// unsplit graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "analysis/macs.h"
#include "plan/dense_split.h"
#include "plan/plan_simulator.h"
#include "plan/planner.h"
#include "support/graph_builder.h"

namespace tigris {
namespace {

using ir::OpType;
using testing::GraphBuilder;
using testing::OpTypes;

std::vector<float> RandomFloats(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = normal(rng);
  return v;
}

// x [n, k] -> Gemm(B_a [m, k], C_a [m]) + activation_a -> h [n, m]
//   -> Gemm(B_b [l, m], C_b [l]) + activation_b -> y [n, l]
ir::Graph Pair(int64_t n, int64_t k, int64_t m, int64_t l,
               ir::Activation activation_a = ir::Activation::kRelu,
               ir::Activation activation_b = ir::Activation::kNone) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {n, k});
  const ir::TensorId ba = b.Floats("B_a", {m, k}, RandomFloats(static_cast<size_t>(m * k), 1));
  const ir::TensorId ca = b.Floats("C_a", {m}, RandomFloats(static_cast<size_t>(m), 2));
  const ir::TensorId bb = b.Floats("B_b", {l, m}, RandomFloats(static_cast<size_t>(l * m), 3));
  const ir::TensorId cb = b.Floats("C_b", {l}, RandomFloats(static_cast<size_t>(l), 4));
  const ir::TensorId h = b.Op(OpType::kGemm, "fc_a", {x, ba, ca}, "h", {n, m});
  b.graph().ops.back().fused_activation = activation_a;
  const ir::TensorId y = b.Op(OpType::kGemm, "fc_b", {h, bb, cb}, "y", {n, l});
  b.graph().ops.back().fused_activation = activation_b;
  b.Output(y);
  return b.Take();
}

float Activate(ir::Activation a, float v) {
  if (a == ir::Activation::kRelu) return std::max(v, 0.0f);
  if (a == ir::Activation::kRelu6) return std::min(std::max(v, 0.0f), 6.0f);
  return v;
}

// The graph's outputs for input values `x`, op by op in double precision.
std::vector<double> Evaluate(const ir::Graph& g, const std::vector<float>& x) {
  std::map<ir::TensorId, std::vector<double>> values;
  values[g.inputs[0]] = std::vector<double>(x.begin(), x.end());
  auto value = [&](ir::TensorId id) -> std::vector<double> {
    if (g.IsConstant(id)) {
      const std::vector<float> c = g.tensor(id).DataAs<float>();
      return std::vector<double>(c.begin(), c.end());
    }
    return values.at(id);
  };
  for (const ir::Op& op : g.ops) {
    const ir::Shape& out = g.tensor(op.outputs[0]).shape;
    std::vector<double> y(static_cast<size_t>(out[0] * out[1]));
    if (op.type == OpType::kGemm) {
      const std::vector<double> a = value(op.input(0)), b = value(op.input(1));
      const std::vector<double> c =
          op.input(2) == ir::kNoTensor ? std::vector<double>{} : value(op.input(2));
      const int64_t k = g.tensor(op.input(1)).shape[1];
      for (int64_t i = 0; i < out[0]; ++i) {
        for (int64_t j = 0; j < out[1]; ++j) {
          double sum = c.empty() ? 0.0 : c[static_cast<size_t>(j)];
          for (int64_t t = 0; t < k; ++t) {
            sum += a[static_cast<size_t>(i * k + t)] * b[static_cast<size_t>(j * k + t)];
          }
          y[static_cast<size_t>(i * out[1] + j)] = Activate(op.fused_activation, float(sum));
        }
      }
    } else if (op.type == OpType::kAdd || op.type == OpType::kMul) {
      // Elementwise, a one-value operand broadcast.
      const std::vector<double> a = value(op.input(0)), b = value(op.input(1));
      for (size_t i = 0; i < y.size(); ++i) {
        const double u = a[a.size() == 1 ? 0 : i], v = b[b.size() == 1 ? 0 : i];
        y[i] = op.type == OpType::kAdd ? u + v : u * v;
      }
    } else if (op.type == OpType::kSigmoid) {
      const std::vector<double> a = value(op.input(0));
      for (size_t i = 0; i < y.size(); ++i) y[i] = 1.0 / (1.0 + std::exp(-a[i]));
    } else {
      if (op.type != OpType::kRelu && op.type != OpType::kRelu6) {
        ADD_FAILURE() << "the interpreter has no " << ir::OpTypeName(op.type);
        return {};
      }
      const std::vector<double> a = value(op.input(0));
      const ir::Activation act =
          op.type == OpType::kRelu ? ir::Activation::kRelu : ir::Activation::kRelu6;
      for (size_t i = 0; i < y.size(); ++i) y[i] = Activate(act, float(a[i]));
    }
    values[op.outputs[0]] = y;
  }
  return values.at(g.outputs[0]);
}

int64_t TotalMacs(const ir::Graph& g) {
  int64_t macs = 0;
  for (const ir::Op& op : g.ops) macs += analysis::OpMacs(g, op);
  return macs;
}

void ExpectSameOutputs(const ir::Graph& before, const ir::Graph& after, int64_t inputs) {
  for (uint32_t seed = 10; seed < 13; ++seed) {
    const std::vector<float> x = RandomFloats(static_cast<size_t>(inputs), seed);
    const std::vector<double> want = Evaluate(before, x), got = Evaluate(after, x);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-4 * (1.0 + std::abs(want[i]))) << "output " << i;
    }
  }
}

TEST(DenseSplit, PartsComputeTheUnsplitResultWithTheSameMacs) {
  const ir::Graph before = Pair(2, 5, 7, 3);
  for (int parts : {2, 3, 7}) {
    ir::Graph after = before;
    const std::vector<plan::DensePair> pairs = plan::FindDensePairs(after);
    ASSERT_EQ(pairs.size(), 1u);
    plan::SplitDensePair(after, pairs[0], parts);
    ExpectSameOutputs(before, after, 2 * 5);
    EXPECT_EQ(TotalMacs(after), TotalMacs(before)) << parts << " parts";
    // Gemm_a, Gemm_b per part and an Add per part after the first; y keeps its id.
    EXPECT_EQ(after.ops.size(), static_cast<size_t>(3 * parts - 1));
    EXPECT_EQ(after.outputs, before.outputs);
    EXPECT_EQ(after.ops.back().outputs[0], before.outputs[0]);
  }
}

TEST(DenseSplit, EachPartTakesItsRowsAndColumnsOfTheWeights) {
  const ir::Graph before = Pair(1, 3, 5, 2);
  ir::Graph after = before;
  plan::SplitDensePair(after, plan::FindDensePairs(after)[0], 2);  // 3 + 2 neurons
  const std::vector<float> ba = before.tensor(before.ops[0].input(1)).DataAs<float>();
  const std::vector<float> bb = before.tensor(before.ops[1].input(1)).DataAs<float>();
  const std::vector<float> ca = before.tensor(before.ops[0].input(2)).DataAs<float>();
  ASSERT_EQ(OpTypes(after), (std::vector<std::string>{"Gemm", "Gemm", "Gemm", "Gemm", "Add"}));
  const int64_t begin[] = {0, 3}, count[] = {3, 2};
  for (int part = 0; part < 2; ++part) {
    const ir::Op& fan_out = after.ops[static_cast<size_t>(part == 0 ? 0 : 2)];
    const ir::Op& fan_in = after.ops[static_cast<size_t>(part == 0 ? 1 : 3)];
    EXPECT_EQ(fan_out.fused_activation, ir::Activation::kRelu);
    const std::vector<float> rows = after.tensor(fan_out.input(1)).DataAs<float>();
    const std::vector<float> bias = after.tensor(fan_out.input(2)).DataAs<float>();
    const std::vector<float> cols = after.tensor(fan_in.input(1)).DataAs<float>();
    ASSERT_EQ(rows.size(), static_cast<size_t>(count[part] * 3));
    ASSERT_EQ(cols.size(), static_cast<size_t>(2 * count[part]));
    for (int64_t i = 0; i < count[part]; ++i) {
      EXPECT_EQ(bias[static_cast<size_t>(i)], ca[static_cast<size_t>(begin[part] + i)]);
      for (int64_t j = 0; j < 3; ++j) {
        EXPECT_EQ(rows[static_cast<size_t>(i * 3 + j)],
                  ba[static_cast<size_t>((begin[part] + i) * 3 + j)]);
      }
      for (int64_t r = 0; r < 2; ++r) {
        EXPECT_EQ(cols[static_cast<size_t>(r * count[part] + i)],
                  bb[static_cast<size_t>(r * 5 + begin[part] + i)]);
      }
    }
    // Gemm_b's bias is added once, by the first part.
    EXPECT_EQ(fan_in.input(2) != ir::kNoTensor, part == 0);
  }
}

TEST(DenseSplit, TheSecondLayersActivationFollowsTheMerge) {
  const ir::Graph before = Pair(1, 4, 6, 3, ir::Activation::kRelu6, ir::Activation::kRelu);
  ir::Graph after = before;
  plan::SplitDensePair(after, plan::FindDensePairs(after)[0], 3);
  EXPECT_EQ(OpTypes(after).back(), "Relu");
  for (const ir::Op& op : after.ops) {
    if (op.name.rfind("fc_b_part", 0) == 0) {
      EXPECT_EQ(op.fused_activation, ir::Activation::kNone);
    }
  }
  ExpectSameOutputs(before, after, 4);
}

TEST(DenseSplit, PairsItCannotSplitAreNotFound) {
  {  // h read twice
    ir::Graph g = Pair(1, 4, 6, 3);
    g.outputs.push_back(g.ops[0].outputs[0]);
    EXPECT_TRUE(plan::FindDensePairs(g).empty());
  }
  {  // int8: the partial sums would be requantized
    ir::Graph g = Pair(1, 4, 6, 3);
    g.tensor(g.ops[0].outputs[0]).quant = ir::QuantParams{{0.1f}, {0}, -1};
    EXPECT_TRUE(plan::FindDensePairs(g).empty());
  }
  {  // a non-constant weight
    ir::Graph g = Pair(1, 4, 6, 3);
    g.tensor(g.ops[1].input(1)).is_constant = false;
    EXPECT_TRUE(plan::FindDensePairs(g).empty());
  }
}

// fc_a -> Sigmoid -> Mul(0.5) -> fc_b: the per-element ops between run on each part.
ir::Graph PairThroughPerElementOps(bool square) {
  ir::Graph g = Pair(1, 4, 7, 3, ir::Activation::kNone);
  const ir::TensorId h = g.ops[0].outputs[0];
  ir::Tensor s = g.tensor(h);
  s.name = "s";
  const ir::TensorId sid = g.AddTensor(s);
  s.name = "t";
  const ir::TensorId tid = g.AddTensor(s);
  ir::Tensor half;
  half.name = "half";
  half.dtype = ir::DType::kFloat32;
  half.shape = {1};
  half.is_constant = true;
  half.SetData(std::vector<float>{0.5f});
  const ir::TensorId hid = g.AddTensor(half);
  ir::Op sigmoid;
  sigmoid.type = OpType::kSigmoid;
  sigmoid.name = "sigmoid";
  sigmoid.inputs = {h};
  sigmoid.outputs = {sid};
  ir::Op scale;
  scale.type = OpType::kMul;
  scale.name = "scale";
  scale.inputs = {sid, square ? sid : hid};
  scale.outputs = {tid};
  g.ops[1].inputs[0] = tid;
  g.ops.insert(g.ops.begin() + 1, {sigmoid, scale});
  return g;
}

TEST(DenseSplit, PerElementOpsBetweenRunOnEachPart) {
  const ir::Graph before = PairThroughPerElementOps(/*square=*/false);
  const std::vector<plan::DensePair> pairs = plan::FindDensePairs(before);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].between, (std::vector<int>{1, 2}));
  ir::Graph after = before;
  plan::SplitDensePair(after, pairs[0], 3);
  // Per part: Gemm, Sigmoid, Mul, Gemm; an Add per part after the first.
  EXPECT_EQ(after.ops.size(), 3u * 4u + 2u);
  ExpectSameOutputs(before, after, 4);
  EXPECT_EQ(TotalMacs(after), TotalMacs(before));
  // A Mul of s by itself is per element too, but reads its input twice: not a PART op here.
  EXPECT_TRUE(plan::FindDensePairs(PairThroughPerElementOps(/*square=*/true)).empty());
}

// The MLP 128 -> 2048 -> 2048 -> 10 at 0.6 x 16 KiB: the first pair gains nothing
// from a split (its 8 KiB output is the accumulator), the second is split.
TEST(DenseSplit, TheMlpFitsSixTenthsOfItsUnsplitBudget) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 128});
  const int64_t widths[] = {128, 2048, 2048, 10};
  for (int i = 0; i < 3; ++i) {
    const int64_t k = widths[i], m = widths[i + 1];
    const std::string id = std::to_string(i);
    const ir::TensorId w = b.Floats("w" + id, {m, k}, std::vector<float>(size_t(m * k), 0.01f));
    const ir::TensorId c = b.Floats("c" + id, {m}, std::vector<float>(size_t(m), 0.0f));
    x = b.Op(OpType::kGemm, "fc" + id, {x, w, c}, i == 2 ? "y" : "h" + id, {1, m});
    if (i < 2) b.graph().ops.back().fused_activation = ir::Activation::kRelu;
  }
  b.Output(x);
  const ir::Graph g = b.Take();
  plan::Budget budget;
  budget.fast_bytes = 16 * 1024 * 6 / 10;
  const plan::PlanResult unsplit = plan::PlanModel(g, plan::Budget{16 * 1024});
  EXPECT_TRUE(unsplit.rewrites.empty());
  const plan::PlanResult p = plan::PlanModel(g, budget);
  ASSERT_EQ(p.rewrites.size(), 1u);
  EXPECT_EQ(p.rewrites[0].kind, "fdt-fan-out-fan-in");
  EXPECT_EQ(p.rewrites[0].op, "fc1+fc2");
  EXPECT_LE(p.scheduled_peak_bytes, budget.fast_bytes);
  EXPECT_EQ(p.macs, unsplit.macs);
  EXPECT_EQ(p.recompute_macs, 0);
  EXPECT_EQ(p.slow_traffic_bytes, 0);
  testing::ExpectPlanReplays(p);
}

}  // namespace
}  // namespace tigris
