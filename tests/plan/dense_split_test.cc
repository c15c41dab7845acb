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
#include <string>

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
  {  // h int8 between float layers: neither Gemm is a float or an int8 layer as a whole
    ir::Graph g = Pair(1, 4, 6, 3);
    g.tensor(g.ops[0].outputs[0]).dtype = ir::DType::kInt8;
    g.tensor(g.ops[0].outputs[0]).quant = ir::QuantParams{{0.1f}, {0}, -1};
    EXPECT_TRUE(plan::FindDensePairs(g).empty());
  }
  {  // a non-constant weight
    ir::Graph g = Pair(1, 4, 6, 3);
    g.tensor(g.ops[1].input(1)).is_constant = false;
    EXPECT_TRUE(plan::FindDensePairs(g).empty());
  }
}

// The MLP 128 -> 2048 -> 2048 -> 10 `g`, whose unsplit plan needs `unsplit_bytes`, at 0.6
// of them: the first pair gains nothing from a split (its 2048-wide output is the
// accumulator), the second is split, with the unsplit plan's MACs and no recompute.
void ExpectTheSecondPairSplitsIntoSixTenths(const ir::Graph& g, int64_t unsplit_bytes) {
  plan::Budget budget;
  budget.fast_bytes = unsplit_bytes * 6 / 10;
  const plan::PlanResult unsplit = plan::PlanModel(g, plan::Budget{unsplit_bytes});
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

// ---- int8 pairs (as qdq-fold leaves them): the parts keep int32 sums ----

std::vector<int8_t> RandomInt8s(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> v(count);
  for (int8_t& x : v) x = static_cast<int8_t>(value(rng));
  return v;
}

ir::QuantParams PerTensor(float scale, int32_t zero_point) { return {{scale}, {zero_point}, -1}; }

// Pair() in int8: B_a per row (with its bias's scales), B_b per tensor, zero points that
// are not zero.
ir::Graph Int8Pair(int64_t n, int64_t k, int64_t m, int64_t l, ir::Activation activation_b) {
  GraphBuilder b;
  auto quantized = [&](ir::TensorId id, ir::QuantParams q) {
    b.graph().tensor(id).quant = std::move(q);
    return id;
  };
  std::vector<float> row_scales;
  for (int64_t r = 0; r < m; ++r) row_scales.push_back(0.002f * static_cast<float>(1 + r % 5));
  const float x_scale = 0.05f, h_scale = 0.03f;
  std::vector<float> bias_scales;
  for (float s : row_scales) bias_scales.push_back(x_scale * s);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> bias(-3000, 3000);
  std::vector<int32_t> ca(static_cast<size_t>(m)), cb(static_cast<size_t>(l));
  for (int32_t& v : ca) v = bias(rng);
  for (int32_t& v : cb) v = bias(rng);
  const ir::TensorId x = quantized(b.Input("x", {n, k}, ir::DType::kInt8), PerTensor(x_scale, 3));
  const ir::TensorId ba = quantized(
      b.Const("B_a", {m, k}, ir::DType::kInt8, RandomInt8s(static_cast<size_t>(m * k), 1)),
      {row_scales, std::vector<int32_t>(row_scales.size(), 0), 0});
  const ir::TensorId ca_id =
      quantized(b.Const("C_a", {m}, ir::DType::kInt32, ca),
                {bias_scales, std::vector<int32_t>(bias_scales.size(), 0), 0});
  const ir::TensorId bb = quantized(
      b.Const("B_b", {l, m}, ir::DType::kInt8, RandomInt8s(static_cast<size_t>(l * m), 2)),
      PerTensor(0.004f, 0));
  const ir::TensorId cb_id =
      quantized(b.Const("C_b", {l}, ir::DType::kInt32, cb), PerTensor(h_scale * 0.004f, 0));
  const ir::TensorId h =
      quantized(b.Op(OpType::kGemm, "fc_a", {x, ba, ca_id}, "h", {n, m}, {}, ir::DType::kInt8),
                PerTensor(h_scale, -128));
  b.graph().ops.back().fused_activation = ir::Activation::kRelu;
  const ir::TensorId y =
      quantized(b.Op(OpType::kGemm, "fc_b", {h, bb, cb_id}, "y", {n, l}, {}, ir::DType::kInt8),
                PerTensor(0.1f, -5));
  b.graph().ops.back().fused_activation = activation_b;
  b.Output(y);
  return b.Take();
}

// The int8 graph's output for input `x`, exactly: a Gemm sums (a - a_zp) (w - w_zp) in
// int64 from C (its bias, or an int32 sum the op before wrote), then writes the sum raw to
// an int32 output or requantizes it to int8 (real arithmetic, rounding half to even, then
// the fused activation as a clamp at the output's real zero).
std::vector<int64_t> EvaluateInt8(const ir::Graph& g, const std::vector<int8_t>& x) {
  std::map<ir::TensorId, std::vector<int64_t>> values;
  values[g.inputs[0]] = std::vector<int64_t>(x.begin(), x.end());
  auto value = [&](ir::TensorId id) -> std::vector<int64_t> {
    const ir::Tensor& t = g.tensor(id);
    if (!g.IsConstant(id)) return values.at(id);
    if (t.dtype == ir::DType::kInt32) {
      const std::vector<int32_t> c = t.DataAs<int32_t>();
      return std::vector<int64_t>(c.begin(), c.end());
    }
    const std::vector<int8_t> c = t.DataAs<int8_t>();
    return std::vector<int64_t>(c.begin(), c.end());
  };
  for (const ir::Op& op : g.ops) {
    if (op.type != OpType::kGemm) {
      ADD_FAILURE() << "an int8 split writes Gemms only, not " << ir::OpTypeName(op.type);
      return {};
    }
    const ir::Tensor& a_t = g.tensor(op.input(0));
    const ir::Tensor& w_t = g.tensor(op.input(1));
    const ir::Tensor& out_t = g.tensor(op.outputs[0]);
    const std::vector<int64_t> a = value(op.input(0)), w = value(op.input(1));
    const std::vector<int64_t> c =
        op.input(2) == ir::kNoTensor ? std::vector<int64_t>{} : value(op.input(2));
    const bool c_per_row = op.input(2) != ir::kNoTensor && !g.IsConstant(op.input(2));
    const int64_t rows = out_t.shape[0], cols = out_t.shape[1], k = w_t.shape[1];
    std::vector<int64_t> y(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t o = 0; o < cols; ++o) {
        const size_t q = w_t.quant->per_channel() ? static_cast<size_t>(o) : 0;
        int64_t sum = c.empty() ? 0 : c[static_cast<size_t>(c_per_row ? i * cols + o : o)];
        for (int64_t t = 0; t < k; ++t) {
          sum += (a[static_cast<size_t>(i * k + t)] - a_t.quant->zero_points[0]) *
                 (w[static_cast<size_t>(o * k + t)] - w_t.quant->zero_points[q]);
        }
        int64_t& out = y[static_cast<size_t>(i * cols + o)];
        if (out_t.dtype == ir::DType::kInt32) {
          out = sum;
          continue;
        }
        const double real = static_cast<double>(sum) * a_t.quant->scales[0] * w_t.quant->scales[q] /
                            out_t.quant->scales[0];
        const int64_t zp = out_t.quant->zero_points[0];
        out = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(real)) + zp,
                                  op.fused_activation == ir::Activation::kRelu ? zp : -128, 127);
      }
    }
    values[op.outputs[0]] = y;
  }
  return values.at(g.outputs[0]);
}

TEST(DenseSplit, Int8PartsKeepInt32SumsAndRequantizeOnce) {
  for (ir::Activation act : {ir::Activation::kNone, ir::Activation::kRelu}) {
    const ir::Graph before = Int8Pair(2, 5, 7, 3, act);
    for (int parts : {2, 3, 7}) {
      ir::Graph after = before;
      const std::vector<plan::DensePair> pairs = plan::FindDensePairs(after);
      ASSERT_EQ(pairs.size(), 1u);
      plan::SplitDensePair(after, pairs[0], parts);
      // Gemm_a and Gemm_b per part, nothing else: the sums travel in Gemm_b's C.
      ASSERT_EQ(after.ops.size(), static_cast<size_t>(2 * parts));
      ir::TensorId sums = ir::kNoTensor;
      for (int part = 0; part < parts; ++part) {
        const ir::Op& fan_in = after.ops[static_cast<size_t>(2 * part + 1)];
        const bool last = part + 1 == parts;
        EXPECT_EQ(fan_in.input(2), part == 0 ? before.ops[1].input(2) : sums) << part;
        EXPECT_EQ(fan_in.fused_activation, last ? act : ir::Activation::kNone) << part;
        const ir::Tensor& out = after.tensor(fan_in.outputs[0]);
        if (last) {
          EXPECT_EQ(fan_in.outputs[0], before.outputs[0]);
        } else {
          EXPECT_EQ(out.dtype, ir::DType::kInt32);
          EXPECT_EQ(out.shape, (ir::Shape{2, 3}));
          EXPECT_FALSE(out.quant.has_value());
        }
        sums = fan_in.outputs[0];
      }
      EXPECT_EQ(TotalMacs(after), TotalMacs(before));
      for (uint32_t seed = 20; seed < 24; ++seed) {
        const std::vector<int8_t> x = RandomInt8s(10, seed);
        EXPECT_EQ(EvaluateInt8(after, x), EvaluateInt8(before, x)) << parts << " parts";
      }
    }
  }
}

TEST(DenseSplit, Int8PartsTakeTheirRowsScales) {
  const ir::Graph before = Int8Pair(1, 3, 5, 2, ir::Activation::kNone);
  ir::Graph after = before;
  plan::SplitDensePair(after, plan::FindDensePairs(after)[0], 2);  // 3 + 2 neurons
  const ir::QuantParams& wa = *before.tensor(before.ops[0].input(1)).quant;
  const ir::QuantParams& bias = *before.tensor(before.ops[0].input(2)).quant;
  const int64_t begin[] = {0, 3}, count[] = {3, 2};
  for (int part = 0; part < 2; ++part) {
    const ir::Op& fan_out = after.ops[static_cast<size_t>(2 * part)];
    const ir::Op& fan_in = after.ops[static_cast<size_t>(2 * part + 1)];
    const ir::QuantParams& rows = *after.tensor(fan_out.input(1)).quant;
    const ir::QuantParams& part_bias = *after.tensor(fan_out.input(2)).quant;
    ASSERT_EQ(rows.scales.size(), static_cast<size_t>(count[part]));
    EXPECT_EQ(rows.axis, 0);
    for (int64_t i = 0; i < count[part]; ++i) {
      EXPECT_EQ(rows.scales[static_cast<size_t>(i)],
                wa.scales[static_cast<size_t>(begin[part] + i)]);
      EXPECT_EQ(part_bias.scales[static_cast<size_t>(i)],
                bias.scales[static_cast<size_t>(begin[part] + i)]);
    }
    // h's parts keep h's quantization; B_b's columns keep its per-tensor scale.
    EXPECT_EQ(after.tensor(fan_out.outputs[0]).quant,
              before.tensor(before.ops[0].outputs[0]).quant);
    EXPECT_EQ(after.tensor(fan_in.input(1)).quant, before.tensor(before.ops[1].input(1)).quant);
  }
}

TEST(DenseSplit, Int8PairsWithWeightsScaledAlongTheirInputsAreNotFound) {
  // Scales along B_b's columns would differ between the parts' products: one sum could not
  // be requantized once.
  ir::Graph g = Int8Pair(1, 4, 6, 3, ir::Activation::kNone);
  ir::Tensor& bb = g.tensor(g.ops[1].input(1));
  bb.quant = ir::QuantParams{std::vector<float>(6, 0.004f), std::vector<int32_t>(6, 0), 1};
  EXPECT_TRUE(plan::FindDensePairs(g).empty());
}

// The int8 MLP 128 -> 2048 -> 2048 -> 10 at 0.6 x its unsplit 4 KiB.
TEST(DenseSplit, TheInt8MlpFitsSixTenthsOfItsUnsplitBudget) {
  GraphBuilder b;
  ir::TensorId x = b.Input("x", {1, 128}, ir::DType::kInt8);
  b.graph().tensor(x).quant = PerTensor(0.05f, 0);
  const int64_t widths[] = {128, 2048, 2048, 10};
  for (int i = 0; i < 3; ++i) {
    const int64_t k = widths[i], m = widths[i + 1];
    const std::string id = std::to_string(i);
    const ir::TensorId w = b.Const("w" + id, {m, k}, ir::DType::kInt8,
                                   RandomInt8s(static_cast<size_t>(m * k), 30 + i));
    b.graph().tensor(w).quant = PerTensor(0.01f, 0);
    x = b.Op(OpType::kGemm, "fc" + id, {x, w}, i == 2 ? "y" : "h" + id, {1, m}, {},
             ir::DType::kInt8);
    b.graph().tensor(x).quant = PerTensor(0.1f, -128);
  }
  b.Output(x);
  ExpectTheSecondPairSplitsIntoSixTenths(b.Take(), 4 * 1024);
}

// ---- pointwise convolutions around a depthwise block (float) ----

// x [1, 3, 5, 5] -> Conv 1x1 (W_a [6, 3, 1, 1], C_a) + Relu6 -> h [1, 6, 5, 5]
//   -> DepthwiseConv 3x3, stride 2, pad 1 (W_d [6, 1, 3, 3], C_d) -> d [1, 6, 3, 3]
//   -> Conv 1x1 (W_b [4, 6, 1, 1], C_b) -> y [1, 4, 3, 3]: MobileNetV2's inverted residual
// block without its skip, the paper's Fig. 4 FDT block.
ir::Graph DepthwiseBlock(ir::Attributes pointwise_a = {}) {
  GraphBuilder b;
  const ir::TensorId x = b.Input("x", {1, 3, 5, 5});
  const ir::TensorId wa = b.Floats("W_a", {6, 3, 1, 1}, RandomFloats(18, 1));
  const ir::TensorId ca = b.Floats("C_a", {6}, RandomFloats(6, 2));
  const ir::TensorId wd = b.Floats("W_d", {6, 1, 3, 3}, RandomFloats(54, 3));
  const ir::TensorId cd = b.Floats("C_d", {6}, RandomFloats(6, 4));
  const ir::TensorId wb = b.Floats("W_b", {4, 6, 1, 1}, RandomFloats(24, 5));
  const ir::TensorId cb = b.Floats("C_b", {4}, RandomFloats(4, 6));
  const ir::TensorId h =
      b.Op(OpType::kConv, "expand", {x, wa, ca}, "h", {1, 6, 5, 5}, std::move(pointwise_a));
  b.graph().ops.back().fused_activation = ir::Activation::kRelu6;
  ir::Attributes dw;
  dw.Set("group", int64_t{6});
  dw.Set("strides", std::vector<int64_t>{2, 2});
  dw.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  dw.Set("kernel_shape", std::vector<int64_t>{3, 3});
  const ir::TensorId d =
      b.Op(OpType::kDepthwiseConv, "depthwise", {h, wd, cd}, "d", {1, 6, 3, 3}, dw);
  const ir::TensorId y = b.Op(OpType::kConv, "project", {d, wb, cb}, "y", {1, 4, 3, 3});
  b.Output(y);
  return b.Take();
}

TEST(DenseSplit, PointwiseConvolutionsSplitAroundTheirDepthwiseBlock) {
  const ir::Graph before = DepthwiseBlock();
  const std::vector<plan::DensePair> pairs = plan::FindDensePairs(before);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].between, (std::vector<int>{1}));
  ir::Graph after = before;
  plan::SplitDensePair(after, pairs[0], 2);  // channels 0-2 and 3-5
  EXPECT_EQ(OpTypes(after), (std::vector<std::string>{"Conv", "DepthwiseConv", "Conv", "Conv",
                                                      "DepthwiseConv", "Conv", "Add"}));
  EXPECT_EQ(TotalMacs(after), TotalMacs(before));
  const std::vector<float> wa = before.tensor(before.ops[0].input(1)).DataAs<float>();
  const std::vector<float> wd = before.tensor(before.ops[1].input(1)).DataAs<float>();
  const std::vector<float> cd = before.tensor(before.ops[1].input(2)).DataAs<float>();
  const std::vector<float> wb = before.tensor(before.ops[2].input(1)).DataAs<float>();
  for (int part = 0; part < 2; ++part) {
    const ir::Op& expand = after.ops[static_cast<size_t>(3 * part)];
    const ir::Op& depthwise = after.ops[static_cast<size_t>(3 * part + 1)];
    const ir::Op& project = after.ops[static_cast<size_t>(3 * part + 2)];
    EXPECT_EQ(after.tensor(expand.outputs[0]).shape, (ir::Shape{1, 3, 5, 5}));
    EXPECT_EQ(after.tensor(depthwise.outputs[0]).shape, (ir::Shape{1, 3, 3, 3}));
    EXPECT_EQ(after.tensor(project.outputs[0]).shape, (ir::Shape{1, 4, 3, 3}));
    EXPECT_EQ(after.tensor(expand.input(1)).shape, (ir::Shape{3, 3, 1, 1}));
    EXPECT_EQ(after.tensor(depthwise.input(1)).shape, (ir::Shape{3, 1, 3, 3}));
    EXPECT_EQ(after.tensor(project.input(1)).shape, (ir::Shape{4, 3, 1, 1}));
    // The depthwise part convolves its own channels: their filters, biases and group;
    // stride and padding unchanged.
    EXPECT_EQ(depthwise.attrs.GetInt("group"), 3);
    EXPECT_EQ(depthwise.attrs.GetInts("strides"), (std::vector<int64_t>{2, 2}));
    const std::vector<float> part_wa = after.tensor(expand.input(1)).DataAs<float>();
    const std::vector<float> part_wd = after.tensor(depthwise.input(1)).DataAs<float>();
    const std::vector<float> part_cd = after.tensor(depthwise.input(2)).DataAs<float>();
    const std::vector<float> part_wb = after.tensor(project.input(1)).DataAs<float>();
    for (size_t c = 0; c < 3; ++c) {
      const size_t channel = 3 * static_cast<size_t>(part) + c;
      EXPECT_EQ(part_cd[c], cd[channel]);
      for (size_t i = 0; i < 3; ++i) EXPECT_EQ(part_wa[c * 3 + i], wa[channel * 3 + i]);
      for (size_t i = 0; i < 9; ++i) EXPECT_EQ(part_wd[c * 9 + i], wd[channel * 9 + i]);
      for (size_t o = 0; o < 4; ++o) EXPECT_EQ(part_wb[o * 3 + c], wb[o * 6 + channel]);
    }
    EXPECT_EQ(project.input(2) != ir::kNoTensor, part == 0);  // the bias once
  }
  EXPECT_EQ(after.ops.back().outputs[0], before.outputs[0]);
}

TEST(DenseSplit, GroupedConvolutionsAndDepthwiseMultipliersAreNotSplit) {
  ir::Attributes grouped;  // each output channel reads only its group's inputs
  grouped.Set("group", int64_t{3});
  EXPECT_TRUE(plan::FindDensePairs(DepthwiseBlock(grouped)).empty());
  // A depthwise multiplier of 2: each input channel feeds two output channels.
  ir::Graph multiplied = DepthwiseBlock();
  multiplied.tensor(multiplied.ops[1].input(1)).shape = {12, 1, 3, 3};
  EXPECT_TRUE(plan::FindDensePairs(multiplied).empty());
}

// NCHW float maps, op by op in double precision: Conv (any group: depthwise too) with its
// strides, pads and fused activation, Add, Relu, Relu6 (the ops a split of DepthwiseBlock
// writes). Independent of the planner: the oracle for splits of convolutions.
std::vector<double> EvaluateMaps(const ir::Graph& g, const std::vector<float>& x) {
  std::map<ir::TensorId, std::vector<double>> values;
  values[g.inputs[0]] = std::vector<double>(x.begin(), x.end());
  auto value = [&](ir::TensorId id) -> std::vector<double> {
    if (!g.IsConstant(id)) return values.at(id);
    const std::vector<float> c = g.tensor(id).DataAs<float>();
    return std::vector<double>(c.begin(), c.end());
  };
  for (const ir::Op& op : g.ops) {
    const ir::Shape& out = g.tensor(op.outputs[0]).shape;  // [1, C, H, W]
    std::vector<double> y(static_cast<size_t>(out[1] * out[2] * out[3]));
    const std::vector<double> a = value(op.input(0));
    if (op.type == OpType::kConv || op.type == OpType::kDepthwiseConv) {
      const ir::Shape& in = g.tensor(op.input(0)).shape;
      const ir::Shape& ws = g.tensor(op.input(1)).shape;  // [C_out, C_in / group, kh, kw]
      const std::vector<double> w = value(op.input(1));
      const std::vector<double> c =
          op.input(2) == ir::kNoTensor ? std::vector<double>{} : value(op.input(2));
      const int64_t group = op.attrs.GetInt("group", 1), per_group = ws[1];
      const std::vector<int64_t> stride = op.attrs.GetInts("strides", {1, 1});
      const std::vector<int64_t> pads = op.attrs.GetInts("pads", {0, 0, 0, 0});
      for (int64_t o = 0; o < out[1]; ++o) {
        const int64_t first = o / (out[1] / group) * per_group;
        for (int64_t r = 0; r < out[2]; ++r) {
          for (int64_t col = 0; col < out[3]; ++col) {
            double sum = 0.0;
            for (int64_t i = 0; i < per_group; ++i) {
              for (int64_t u = 0; u < ws[2]; ++u) {
                for (int64_t v = 0; v < ws[3]; ++v) {
                  const int64_t in_row = r * stride[0] - pads[0] + u,
                                in_col = col * stride[1] - pads[1] + v;
                  if (in_row < 0 || in_row >= in[2] || in_col < 0 || in_col >= in[3]) continue;
                  sum += a[static_cast<size_t>(((first + i) * in[2] + in_row) * in[3] + in_col)] *
                         w[static_cast<size_t>(((o * per_group + i) * ws[2] + u) * ws[3] + v)];
                }
              }
            }
            if (!c.empty()) sum += c[static_cast<size_t>(o)];
            y[static_cast<size_t>((o * out[2] + r) * out[3] + col)] =
                Activate(op.fused_activation, float(sum));
          }
        }
      }
    } else if (op.type == OpType::kAdd) {
      const std::vector<double> b = value(op.input(1));
      for (size_t i = 0; i < y.size(); ++i) y[i] = a[i] + b[i];
    } else if (op.type == OpType::kRelu || op.type == OpType::kRelu6) {
      const ir::Activation act =
          op.type == OpType::kRelu ? ir::Activation::kRelu : ir::Activation::kRelu6;
      for (size_t i = 0; i < y.size(); ++i) y[i] = Activate(act, float(a[i]));
    } else {
      ADD_FAILURE() << "the map interpreter has no " << ir::OpTypeName(op.type);
      return {};
    }
    values[op.outputs[0]] = y;
  }
  return values.at(g.outputs[0]);
}

// Any convolution with one group splits: each part keeps the strides and padding, its
// output channels are the first layer's weight rows and its input channels the second's
// columns of kh kw taps. DepthwiseBlock with 3x3 convolutions on both sides, the first
// strided, the second padded and followed by a Relu.
TEST(DenseSplit, ConvolutionsOfAnyWindowSplitToTheUnsplitResult) {
  ir::Attributes strided;
  strided.Set("strides", std::vector<int64_t>{2, 2});
  strided.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  ir::Graph before = DepthwiseBlock(strided);
  ir::Tensor& wa = before.tensor(before.ops[0].input(1));
  wa.shape = {6, 3, 3, 3};
  wa.SetData(RandomFloats(162, 7));
  before.tensor(before.ops[0].outputs[0]).shape = {1, 6, 3, 3};  // (5 + 2 - 3) / 2 + 1
  before.tensor(before.ops[1].outputs[0]).shape = {1, 6, 2, 2};  // the depthwise, stride 2
  ir::Tensor& wb = before.tensor(before.ops[2].input(1));
  wb.shape = {4, 6, 3, 3};
  wb.SetData(RandomFloats(216, 8));
  before.ops[2].attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  before.ops[2].fused_activation = ir::Activation::kRelu;
  before.tensor(before.ops[2].outputs[0]).shape = {1, 4, 2, 2};
  for (int parts : {2, 3, 6}) {
    ir::Graph after = before;
    const std::vector<plan::DensePair> pairs = plan::FindDensePairs(after);
    ASSERT_EQ(pairs.size(), 1u);
    plan::SplitDensePair(after, pairs[0], parts);
    EXPECT_EQ(TotalMacs(after), TotalMacs(before)) << parts << " parts";
    EXPECT_EQ(OpTypes(after).back(), "Relu");  // the second layer's activation, once
    for (uint32_t seed = 30; seed < 33; ++seed) {
      const std::vector<float> x = RandomFloats(75, seed);
      const std::vector<double> want = EvaluateMaps(before, x), got = EvaluateMaps(after, x);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_NEAR(got[i], want[i], 1e-4 * (1.0 + std::abs(want[i]))) << parts << " parts, " << i;
      }
    }
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

// The MLP 128 -> 2048 -> 2048 -> 10 at 0.6 x 16 KiB.
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
  ExpectTheSecondPairSplitsIntoSixTenths(b.Take(), 16 * 1024);
}

}  // namespace
}  // namespace tigris
