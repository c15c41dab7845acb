// The executor (tgrs_run) on a hand-built plan with hand-computed bytes, and on plans the
// compiler makes from the shared models: tiled == untiled byte for byte, the measured
// high-water mark equals the plan's fast_arena_bytes (docs/memory-model.md), nothing past
// it is touched, every failure has its status code, hostile plans never crash. Accuracy
// against onnxruntime is tests/e2e/test_equivalence.py's job.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/executor_support.h"
#include "runtime/plan_fixture.h"
#include "support/test_env.h"

namespace tigris::runtime_test {
namespace {

using testing::GeneratedModelsDir;
using testing::SharedOnnxModel;

size_t AlignUp16(size_t v) { return (v + 15) / 16 * 16; }

// --- a hand-built plan: one Relu on a rank-4 float tensor ------------------------------
// x (ONNX NCHW [1, 2, 1, 2]) is stored NHWC [1, 1, 2, 2]: host_permutation L = [0,2,3,1]
// for the input, Linv = [0,3,1,2] for the output (docs/plan-format.md). Buffers: x at
// fast 0 (16 bytes), y at 16 (16 bytes): peak 32.
PlanParts ReluPlan() {
  PlanParts p;
  p.generator = "test";
  p.model_name = "relu";
  p.tensors = {
      TensorParts{
          "x", fb::DType::FLOAT32, {1, 1, 2, 2}, std::nullopt, -1, {0, 2, 3, 1}, {1, 2, 1, 2}},
      TensorParts{
          "y", fb::DType::FLOAT32, {1, 1, 2, 2}, std::nullopt, -1, {0, 3, 1, 2}, {1, 2, 1, 2}}};
  OpParts relu;
  relu.code = TGRS_OP_RELU;
  relu.name = "relu0";
  relu.inputs = {0};
  relu.outputs = {1};
  p.ops = {relu};
  StageParts s;
  s.ops = {0};
  s.peak_bytes = 32;
  s.buffers = {
      BufferParts{fb::BufferKind::TENSOR, 0, -1, 0, 0, 16, fb::Home(0, 16, fb::MemoryRegion::FAST)},
      BufferParts{fb::BufferKind::TENSOR, 1, -1, 0, 0, 16,
                  fb::Home(16, 16, fb::MemoryRegion::FAST)}};
  p.stages = {s};
  p.inputs = {0};
  p.outputs = {1};
  p.fast_arena_bytes = p.scheduled_peak_bytes = 32;
  p.xip = true;
  return p;
}

std::vector<uint8_t> Floats(std::vector<float> v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(ExecutorHandPlanTest, PermutesInputsRunsTheKernelAndPermutesOutputsBack) {
  auto loaded = LoadPlanBytes(Serialize(ReluPlan()));
  ASSERT_NE(loaded, nullptr);
  // ONNX order [c][w]: c0 = {-1, 2}, c1 = {3, -4}.
  const std::vector<uint8_t> x = Floats({-1, 2, 3, -4});
  AlignedBuffer fast = PoisonedBuffer(32);
  std::vector<uint8_t> y(16);
  tgrs_arenas arenas = {fast.get(), 32, nullptr, 0, nullptr, 0};
  tgrs_input_buffer in = {x.data(), x.size()};
  tgrs_output_buffer out = {y.data(), y.size()};
  tgrs_run_stats stats;
  ASSERT_EQ(tgrs_run(&loaded->plan, &arenas, &in, 1, &out, 1, &stats), TGRS_OK);
  // The arena holds x in NHWC order [w][c]: (w0: -1, 3), (w1: 2, -4).
  float arena_x[4];
  std::memcpy(arena_x, fast.get(), 16);
  EXPECT_EQ(arena_x[0], -1.0f);
  EXPECT_EQ(arena_x[1], 3.0f);
  EXPECT_EQ(arena_x[2], 2.0f);
  EXPECT_EQ(arena_x[3], -4.0f);
  // y = relu(x) back in ONNX order: {0, 2, 3, 0}.
  float result[4];
  std::memcpy(result, y.data(), 16);
  EXPECT_EQ(result[0], 0.0f);
  EXPECT_EQ(result[1], 2.0f);
  EXPECT_EQ(result[2], 3.0f);
  EXPECT_EQ(result[3], 0.0f);
  EXPECT_EQ(stats.fast_hwm_bytes, 32u);  // two 16-byte buffers
  EXPECT_EQ(stats.ops_run, 1u);
  EXPECT_EQ(stats.stages_run, 1u);
}

TEST(ExecutorHandPlanTest, AnOpWithoutKernelIsUnsupportedAndNamed) {
  PlanParts p = ReluPlan();
  p.ops[0].code = TGRS_OP_SPLIT;  // the reader knows SPLIT; no kernel runs it
  auto loaded = LoadPlanBytes(Serialize(p));
  ASSERT_NE(loaded, nullptr);
  const std::vector<uint8_t> x = Floats({1, 2, 3, 4});
  RunResult r = RunExact(loaded->plan, {x});
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP);
  EXPECT_EQ(r.stats.failed_op, 0);
  EXPECT_EQ(r.stats.failed_stage, 0);
  EXPECT_STREQ(tgrs_status_name(r.status), "TGRS_ERR_UNSUPPORTED_OP");
}

TEST(ExecutorHandPlanTest, ATensorWithoutBufferIsAnInconsistentPlan) {
  PlanParts p = ReluPlan();
  p.stages[0].buffers.pop_back();  // y has nowhere to go
  auto loaded = LoadPlanBytes(Serialize(p));
  ASSERT_NE(loaded, nullptr);
  RunResult r = RunExact(loaded->plan, {Floats({1, 2, 3, 4})});
  EXPECT_EQ(r.status, TGRS_ERR_INCONSISTENT_PLAN);
}

TEST(ExecutorHandPlanTest, AnInt8ReluWithoutTableOrClampIsUnsupportedDtypeMix) {
  PlanParts p = ReluPlan();
  p.tensors[0].dtype = fb::DType::INT16;  // no int16 kernels
  p.tensors[1].dtype = fb::DType::INT16;
  p.stages[0].buffers[0].bytes = p.stages[0].buffers[1].bytes = 8;
  auto loaded = LoadPlanBytes(Serialize(p));
  ASSERT_NE(loaded, nullptr);
  RunResult r = RunExact(loaded->plan, {std::vector<uint8_t>(8, 1)});
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP);
}

// A 1x1 float convolution, x [1, 1, 1, 2] -> y [1, 1, 1, 4] (NHWC), filter [4, 1, 1, 2]
// (OHWI) and a bias of `bias_values` floats, weights read in place.
PlanParts ConvPlan(int32_t bias_values) {
  PlanParts p;
  p.generator = "test";
  p.model_name = "conv";
  p.tensors = {TensorParts{"x", fb::DType::FLOAT32, {1, 1, 1, 2}, std::nullopt, -1, {}, {}},
               TensorParts{"w", fb::DType::FLOAT32, {4, 1, 1, 2}, std::nullopt, 0, {}, {}},
               TensorParts{"b", fb::DType::FLOAT32, {bias_values}, std::nullopt, 1, {}, {}},
               TensorParts{"y", fb::DType::FLOAT32, {1, 1, 1, 4}, std::nullopt, -1, {}, {}}};
  OpParts conv;
  conv.code = TGRS_OP_CONV;
  conv.name = "conv0";
  conv.inputs = {0, 1, 2};
  conv.outputs = {3};
  p.ops = {conv};
  StageParts s;
  s.ops = {0};
  s.peak_bytes = 32;
  s.buffers = {
      BufferParts{fb::BufferKind::TENSOR, 0, -1, 0, 0, 8, fb::Home(0, 16, fb::MemoryRegion::FAST)},
      BufferParts{fb::BufferKind::TENSOR, 3, -1, 0, 0, 16,
                  fb::Home(16, 16, fb::MemoryRegion::FAST)}};
  p.stages = {s};
  p.inputs = {0};
  p.outputs = {3};
  p.fast_arena_bytes = p.scheduled_peak_bytes = 32;
  p.xip = true;
  const uint32_t bias_bytes = static_cast<uint32_t>(bias_values) * 4;
  p.weights = {WeightParts{0, 32, -1}, WeightParts{32, bias_bytes, -1}};
  p.weight_data.assign(32 + ((bias_bytes + 15) / 16) * 16, 0);
  return p;
}

TEST(ExecutorHandPlanTest, ABiasShorterThanTheOutputChannelsIsAnInconsistentPlan) {
  // Four output channels and a bias of four runs; a bias of two values (its weight record
  // cut to match, so the verifier's size checks hold) would be read past its end.
  auto whole = LoadPlanBytes(Serialize(ConvPlan(4)));
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(RunExact(whole->plan, {Floats({1, 2})}).status, TGRS_OK);
  auto cut = LoadPlanBytes(Serialize(ConvPlan(2)));
  ASSERT_NE(cut, nullptr);
  const RunResult r = RunExact(cut->plan, {Floats({1, 2})});
  EXPECT_EQ(r.status, TGRS_ERR_INCONSISTENT_PLAN) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, 0);
}

// --- an output smaller than what its kernel writes -------------------------------------
// Softmax and BatchNormalization write as many values as their input holds, ReduceMean as
// many as the reduction leaves, Concat the sum of its inputs: an output tensor holding
// fewer is an inconsistent plan, not a write past its buffer (CONCAT was found by
// fuzz_plan_fields; the others by reading every executor op for the same gap). Each plan
// runs first with its output whole, so the failure can only come from the cut.

// ReluPlan with the op replaced: x [1, 1, 2, 2] -> `code` -> y [1, 1, 2, 2] (NHWC).
PlanParts OneOpPlan(tgrs_op_code code, const AttrsParts& attrs) {
  PlanParts p = ReluPlan();
  p.ops[0].code = code;
  p.ops[0].attrs = attrs;
  return p;
}

// y becomes `y_shape` (NHWC), its ONNX shape and buffer bytes to match.
void CutOutput(PlanParts& p, std::vector<int32_t> y_shape) {
  p.tensors[1].onnx_shape = {y_shape[0], y_shape[3], y_shape[1], y_shape[2]};
  p.stages[0].buffers[1].bytes =
      static_cast<uint32_t>(4 * y_shape[0] * y_shape[1] * y_shape[2] * y_shape[3]);
  p.tensors[1].shape = std::move(y_shape);
}

// The executor's status on x = {1, 2, 3, 4}; the plan must pass the verifier.
tgrs_status RunFloats(const PlanParts& p) {
  auto loaded = LoadPlanBytes(Serialize(p));
  if (loaded == nullptr) {
    ADD_FAILURE() << "the verifier refused the plan";
    return TGRS_ERR_NULL_ARGUMENT;
  }
  return RunExact(loaded->plan, {Floats({1, 2, 3, 4})}).status;
}

TEST(ExecutorHandPlanTest, ATransposeIntoASmallerOutputIsAnInconsistentPlan) {
  // fuzz_plan_fields: a TRANSPOSE whose output held fewer elements than its input (a
  // weight of 48 floats into 40) copied past the output's buffer. The identity
  // permutation keeps every other check quiet.
  AttrsParts attrs;
  attrs.perm = {0, 1, 2, 3};
  PlanParts p = OneOpPlan(TGRS_OP_TRANSPOSE, attrs);
  EXPECT_EQ(RunFloats(p), TGRS_OK);
  CutOutput(p, {1, 1, 1, 2});
  EXPECT_EQ(RunFloats(p), TGRS_ERR_INCONSISTENT_PLAN);
}

TEST(ExecutorHandPlanTest, ASoftmaxIntoASmallerOutputIsAnInconsistentPlan) {
  AttrsParts attrs;
  attrs.axis = 3;  // C of [1, 1, 2, 2]: two rows of two
  PlanParts p = OneOpPlan(TGRS_OP_SOFTMAX, attrs);
  // The kernel's scratch: 4 bytes per element along the axis (docs/memory-model.md).
  p.stages[0].buffers.push_back(BufferParts{fb::BufferKind::SCRATCH, -1, 0, 0, 0, 8,
                                            fb::Home(32, 16, fb::MemoryRegion::FAST)});
  p.stages[0].peak_bytes = p.fast_arena_bytes = p.scheduled_peak_bytes = 48;
  EXPECT_EQ(RunFloats(p), TGRS_OK);
  CutOutput(p, {1, 1, 1, 2});
  EXPECT_EQ(RunFloats(p), TGRS_ERR_INCONSISTENT_PLAN);
}

TEST(ExecutorHandPlanTest, ABatchNormIntoASmallerOutputIsAnInconsistentPlan) {
  PlanParts p = OneOpPlan(TGRS_OP_BATCH_NORMALIZATION, AttrsParts{});
  p.ops[0].channel_scale = {1, 2};
  p.ops[0].channel_shift = {0, 1};
  EXPECT_EQ(RunFloats(p), TGRS_OK);
  CutOutput(p, {1, 1, 1, 2});
  EXPECT_EQ(RunFloats(p), TGRS_ERR_INCONSISTENT_PLAN);
}

TEST(ExecutorHandPlanTest, AReduceMeanIntoASmallerOutputIsAnInconsistentPlan) {
  AttrsParts attrs;
  attrs.axes = {1, 2};  // H, W of [1, 1, 2, 2]: two channel means
  PlanParts p = OneOpPlan(TGRS_OP_REDUCE_MEAN, attrs);
  CutOutput(p, {1, 1, 1, 2});
  EXPECT_EQ(RunFloats(p), TGRS_OK);
  CutOutput(p, {1, 1, 1, 1});
  EXPECT_EQ(RunFloats(p), TGRS_ERR_INCONSISTENT_PLAN);
}

TEST(ExecutorHandPlanTest, AConcatIntoASmallerOutputIsAnInconsistentPlan) {
  // x [1, 1, 2, 2] twice along C -> y [1, 1, 2, 4]; cut, y holds 4 of the 8 values.
  AttrsParts attrs;
  attrs.axis = 3;
  PlanParts p = OneOpPlan(TGRS_OP_CONCAT, attrs);
  p.ops[0].inputs = {0, 0};
  CutOutput(p, {1, 1, 2, 4});
  p.stages[0].buffers[1].home = fb::Home(16, 32, fb::MemoryRegion::FAST);
  p.stages[0].peak_bytes = p.fast_arena_bytes = p.scheduled_peak_bytes = 48;
  EXPECT_EQ(RunFloats(p), TGRS_OK);
  CutOutput(p, {1, 1, 2, 2});
  p.stages[0].buffers[1].home = fb::Home(16, 16, fb::MemoryRegion::FAST);
  EXPECT_EQ(RunFloats(p), TGRS_ERR_INCONSISTENT_PLAN);
}

// --- int8 ReduceMean reads its requantization from the plan ----------------------------
// x int8 runtime [1, 2, 2, 1] (ONNX [1, 1, 2, 2]; one channel, so NCHW and NHWC bytes
// agree), mean over H, W -> y int8 [1, 1, 1, 1]. s_in 0.5, s_out 0.25, zero points 0:
// s_in / s_out = 2 = 0.5 * 2^2 -> {2^30, 2} (docs/plan-format.md "int8 fields").
PlanParts Int8MeanPlan() {
  PlanParts p = ReluPlan();
  p.model_name = "mean";
  p.tensors = {TensorParts{"x",
                           fb::DType::INT8,
                           {1, 2, 2, 1},
                           QuantParts{{0.5f}, {0}},
                           -1,
                           {0, 2, 3, 1},
                           {1, 1, 2, 2}},
               TensorParts{"y",
                           fb::DType::INT8,
                           {1, 1, 1, 1},
                           QuantParts{{0.25f}, {0}},
                           -1,
                           {0, 3, 1, 2},
                           {1, 1, 1, 1}}};
  OpParts mean;
  mean.code = TGRS_OP_REDUCE_MEAN;
  mean.name = "mean0";
  mean.inputs = {0};
  mean.outputs = {1};
  mean.attrs = AttrsParts{};
  mean.attrs->axes = {1, 2};  // H, W in the runtime layout
  mean.output_multiplier = {1 << 30};
  mean.output_shift = {2};
  p.ops = {mean};
  p.stages[0].buffers[0].bytes = 4;
  p.stages[0].buffers[1].bytes = 1;
  return p;
}

TEST(ExecutorHandPlanTest, Int8MeanUsesThePlansMultiplier) {
  auto loaded = LoadPlanBytes(Serialize(Int8MeanPlan()));
  ASSERT_NE(loaded, nullptr);
  // mean(1, 2, 3, 6) = 3 (real 1.5) -> 1.5 / 0.25 = 6.
  RunResult r = RunExact(loaded->plan, {std::vector<uint8_t>{1, 2, 3, 6}});
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], std::vector<uint8_t>{6});
}

TEST(ExecutorHandPlanTest, Int8MeanWithoutMultiplierIsAnInconsistentPlan) {
  // No fallback: the runtime must not quantize s_in / s_out itself (that needs double
  // arithmetic on the MCU) nor assume the identity, which would print 3 instead of 6.
  PlanParts p = Int8MeanPlan();
  p.ops[0].output_multiplier.clear();
  p.ops[0].output_shift.clear();
  auto loaded = LoadPlanBytes(Serialize(p));
  ASSERT_NE(loaded, nullptr);
  RunResult r = RunExact(loaded->plan, {std::vector<uint8_t>{1, 2, 3, 6}});
  EXPECT_EQ(r.status, TGRS_ERR_INCONSISTENT_PLAN);
  EXPECT_EQ(r.stats.failed_op, 0);
}

// --- Pad's mode is a plan string, matched exactly ---------------------------------------
// x float runtime [1, 1, 2, 1] = {1, 2} padded by one column on each side of W:
// pads [n, h, w, c] begins then ends = {0, 0, 1, 0, 0, 0, 1, 0} -> y [1, 1, 4, 1].
RunResult RunPad(const std::string& mode) {
  PlanParts p = ReluPlan();
  p.tensors[0].shape = {1, 1, 2, 1};
  p.tensors[0].onnx_shape = {1, 1, 1, 2};
  p.tensors[1].shape = {1, 1, 4, 1};
  p.tensors[1].onnx_shape = {1, 1, 1, 4};
  p.ops[0].code = TGRS_OP_PAD;
  p.ops[0].attrs = AttrsParts{};
  p.ops[0].attrs->pads = {0, 0, 1, 0, 0, 0, 1, 0};
  p.ops[0].attrs->mode = mode;
  p.ops[0].attrs->pad_value = 9.0f;
  p.stages[0].buffers[0].bytes = 8;
  auto loaded = LoadPlanBytes(Serialize(p));
  if (loaded == nullptr) return RunResult{TGRS_ERR_BAD_VALUE, {}, {}, false, false};
  return RunExact(loaded->plan, {Floats({1, 2})});
}

TEST(ExecutorHandPlanTest, PadModeStringsSelectTheirKernelModes) {
  // ONNX Pad: constant {9, 1, 2, 9}; reflect mirrors without the edge {2, 1, 2, 1};
  // edge repeats it {1, 1, 2, 2}; an absent mode is "constant".
  const std::pair<std::string, std::vector<float>> cases[] = {{"constant", {9, 1, 2, 9}},
                                                              {"", {9, 1, 2, 9}},
                                                              {"reflect", {2, 1, 2, 1}},
                                                              {"edge", {1, 1, 2, 2}}};
  for (const auto& [mode, want] : cases) {
    SCOPED_TRACE(mode);
    const RunResult r = RunPad(mode);
    ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
    EXPECT_EQ(r.outputs[0], Floats(want));
  }
}

// --- Slice reads its window from the plan and never leaves the input -------------------
// x float runtime [1, 1, 4, 1] = {10, 11, 12, 13} (ONNX [1, 1, 1, 4]); y [1, 1, 2, 1]
// takes W indices start, start + step: starts / strides per runtime axis [n, h, w, c].
RunResult RunSlice(std::vector<int32_t> starts, std::vector<int32_t> steps) {
  PlanParts p = ReluPlan();
  p.tensors[0].shape = {1, 1, 4, 1};
  p.tensors[0].onnx_shape = {1, 1, 1, 4};
  p.tensors[1].shape = {1, 1, 2, 1};
  p.tensors[1].onnx_shape = {1, 1, 1, 2};
  p.ops[0].code = TGRS_OP_SLICE;
  p.ops[0].attrs = AttrsParts{};
  p.ops[0].attrs->starts = std::move(starts);
  p.ops[0].attrs->strides = std::move(steps);
  p.stages[0].buffers[1].bytes = 8;
  auto loaded = LoadPlanBytes(Serialize(p));
  if (loaded == nullptr) return RunResult{TGRS_ERR_BAD_VALUE, {}, {}, false, false};
  return RunExact(loaded->plan, {Floats({10, 11, 12, 13})});
}

TEST(ExecutorHandPlanTest, SliceCopiesTheStridedWindowThePlanStates) {
  RunResult r = RunSlice({0, 0, 1, 0}, {1, 1, 2, 1});  // W 1, 3
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], Floats({11, 13}));
  r = RunSlice({0, 0, 3, 0}, {1, 1, -3, 1});  // backwards: W 3, 0
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], Floats({13, 10}));
}

TEST(ExecutorHandPlanTest, SliceWindowsOutsideTheInputAreRejectedNamed) {
  // W 2, 4: index 4 is past the input; a step of 0; a negative start; counts that do not
  // match the rank.
  const std::pair<std::vector<int32_t>, std::vector<int32_t>> kernel_rejects[] = {
      {{0, 0, 2, 0}, {1, 1, 2, 1}}, {{0, 0, 1, 0}, {1, 1, 0, 1}}, {{0, 0, -1, 0}, {1, 1, 1, 1}}};
  for (const auto& [starts, steps] : kernel_rejects) {
    const RunResult r = RunSlice(starts, steps);
    EXPECT_EQ(r.status, TGRS_ERR_KERNEL_REJECTED) << tgrs_status_name(r.status);
    EXPECT_EQ(r.stats.failed_op, 0);
  }
  EXPECT_EQ(RunSlice({0, 0, 1}, {1, 1, 2}).status, TGRS_ERR_INCONSISTENT_PLAN);
  EXPECT_EQ(RunSlice({0, 0, 1, 0}, {}).status, TGRS_ERR_INCONSISTENT_PLAN);
}

// --- Gather: rows of a weight table by run-time indices, never outside the table -------
// table t1 float [3, 2] = {0, 1, 10, 11, 20, 21} (a weight read in place); ids t0 int64
// [1, 2]; y t2 ONNX [1, 2, 2] stored NWC [1, 2, 2] (perm [0, 2, 1]): y_runtime[0][d][t] =
// table[ids[t]][d].
PlanParts GatherPlan() {
  PlanParts p = ReluPlan();
  p.model_name = "gather";
  p.tensors = {
      TensorParts{"ids", fb::DType::INT64, {1, 2}, std::nullopt, -1, {}, {1, 2}},
      TensorParts{"table", fb::DType::FLOAT32, {3, 2}, std::nullopt, 0, {}, {}},
      TensorParts{"y", fb::DType::FLOAT32, {1, 2, 2}, std::nullopt, -1, {0, 2, 1}, {1, 2, 2}}};
  p.ops[0].code = TGRS_OP_GATHER;
  p.ops[0].name = "embed";
  p.ops[0].inputs = {1, 0};
  p.ops[0].outputs = {2};
  p.ops[0].attrs = AttrsParts{};
  p.ops[0].attrs->perm = {0, 2, 1};
  p.stages[0].buffers[0].tensor = 0;
  p.stages[0].buffers[1].tensor = 2;
  p.outputs = {2};
  p.weights = {WeightParts{0, 24, -1}};
  const std::vector<float> table = {0, 1, 10, 11, 20, 21};
  p.weight_data.assign(32, 0);
  std::memcpy(p.weight_data.data(), table.data(), 24);
  return p;
}

std::vector<uint8_t> Int64s(std::vector<int64_t> v) {
  std::vector<uint8_t> b(v.size() * 8);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

RunResult RunGather(const PlanParts& p, std::vector<uint8_t> ids) {
  auto loaded = LoadPlanBytes(Serialize(p));
  if (loaded == nullptr) return RunResult{TGRS_ERR_BAD_VALUE, {}, {}, false, false};
  return RunExact(loaded->plan, {std::move(ids)});
}

TEST(ExecutorHandPlanTest, GatherCopiesTheIndexedRowsIntoTheOutputsLayout) {
  // ids {2, -3}: rows 2 and 0; the host output is ONNX [1, t, d] = {20, 21, 0, 1}.
  RunResult r = RunGather(GatherPlan(), Int64s({2, -3}));
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], Floats({20, 21, 0, 1}));
  // int32 indices: the buffer shrinks to 8 bytes.
  PlanParts p = GatherPlan();
  p.tensors[0].dtype = fb::DType::INT32;
  p.stages[0].buffers[0].bytes = 8;
  const std::vector<int32_t> ids32 = {1, 1};
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), ids32.data(), 8);
  r = RunGather(p, bytes);
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], Floats({10, 11, 10, 11}));
}

TEST(ExecutorHandPlanTest, GatherIndexOutsideTheTableIsItsOwnStatus) {
  for (int64_t bad : {int64_t{3}, int64_t{-4}, INT64_MAX}) {
    SCOPED_TRACE(bad);
    const RunResult r = RunGather(GatherPlan(), Int64s({0, bad}));
    EXPECT_EQ(r.status, TGRS_ERR_INDEX_OUT_OF_RANGE) << tgrs_status_name(r.status);
    EXPECT_EQ(r.stats.failed_op, 0);
  }
}

TEST(ExecutorHandPlanTest, GatherOperandsThatDisagreeAreAnInconsistentPlan) {
  const std::vector<uint8_t> ids = Int64s({0, 1});
  ASSERT_EQ(RunGather(GatherPlan(), ids).status, TGRS_OK);
  std::vector<PlanParts> broken(4, GatherPlan());
  broken[0].ops[0].attrs->perm = {0, 1, 1};         // not a permutation
  broken[1].ops[0].attrs->perm = {0, 2};            // not the output's rank
  broken[2].tensors[0].dtype = fb::DType::FLOAT32;  // float indices (8 bytes: 2 floats)
  broken[2].tensors[0].shape = {1, 2};
  broken[2].tensors[0].onnx_shape = {1, 2};
  broken[2].stages[0].buffers[0].bytes = 8;
  broken[3].tensors[2].dtype = fb::DType::INT8;  // output dtype differs from the table's
  broken[3].stages[0].buffers[1].bytes = 4;
  for (size_t i = 0; i < broken.size(); ++i) {
    SCOPED_TRACE(i);
    const RunResult r = RunGather(broken[i], i == 2 ? std::vector<uint8_t>(8, 0) : ids);
    EXPECT_EQ(r.status, TGRS_ERR_INCONSISTENT_PLAN) << tgrs_status_name(r.status);
    EXPECT_EQ(r.stats.failed_op, 0);
  }
  // Output [1, 3, 2]: the table's rows are 2 long, the output's last extent under perm
  // [0, 2, 1] says 3.
  PlanParts wide = GatherPlan();
  wide.tensors[2].shape = {1, 3, 2};
  wide.tensors[2].onnx_shape = {1, 2, 3};
  wide.stages[0].buffers[1].bytes = 24;
  wide.stages[0].buffers[1].home = fb::Home(16, 32, fb::MemoryRegion::FAST);
  wide.stages[0].peak_bytes = wide.fast_arena_bytes = wide.scheduled_peak_bytes = 48;
  EXPECT_EQ(RunGather(wide, ids).status, TGRS_ERR_INCONSISTENT_PLAN);
  // A rank-3 table is beyond what the op executes.
  PlanParts deep = GatherPlan();
  deep.tensors[1].shape = {3, 2, 1};
  EXPECT_EQ(RunGather(deep, ids).status, TGRS_ERR_UNSUPPORTED_OP);
}

// --- uint8 at the caller, int8 in the runtime ---------------------------------------
// ReluPlan as int8 (zero point 0, the op clamping at 0) with x and y given to the caller as
// uint8 (host_dtype): uint8 q is int8 q - 128. Input {0, 100, 128, 255} is int8
// {-128, -28, 0, 127}; Relu gives {0, 0, 0, 127}; the caller receives {128, 128, 128, 255}.
PlanParts Uint8IoReluPlan() {
  PlanParts p = ReluPlan();
  for (TensorParts& t : p.tensors) {
    t.dtype = fb::DType::INT8;
    t.quant = QuantParts{{0.5f}, {0}, -1};
    t.host_dtype = fb::DType::UINT8;
  }
  p.ops[0].act_min = 0;
  p.stages[0].buffers[0].bytes = p.stages[0].buffers[1].bytes = 4;
  return p;
}

TEST(ExecutorHandPlanTest, AUint8InputAndOutputAreConvertedAsTheyCross) {
  auto loaded = LoadPlanBytes(Serialize(Uint8IoReluPlan()));
  ASSERT_NE(loaded, nullptr);
  tgrs_plan_tensor x;
  ASSERT_EQ(tgrs_plan_get_tensor(&loaded->plan, 0, &x), TGRS_OK);
  EXPECT_EQ(x.host_dtype, TGRS_DTYPE_UINT8);
  EXPECT_EQ(x.dtype, TGRS_DTYPE_INT8);
  // ONNX [1, 2, 1, 2] NCHW {0, 100 | 128, 255} is NHWC {0, 128, 100, 255}.
  const RunResult r = RunExact(loaded->plan, {std::vector<uint8_t>{0, 100, 128, 255}});
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{128, 128, 128, 255}));
}

TEST(ExecutorHandPlanTest, AHostDtypeOtherThanUint8ForInt8IsRefusedByTheVerifier) {
  PlanParts p = Uint8IoReluPlan();
  p.tensors[0].host_dtype = fb::DType::FLOAT32;
  EXPECT_EQ(LoadPlanBytes(Serialize(p)), nullptr);
  p = Uint8IoReluPlan();
  p.tensors[1].dtype = fb::DType::FLOAT32;  // uint8 over a float32 tensor
  p.tensors[1].quant.reset();
  p.stages[0].buffers[1].bytes = 16;
  EXPECT_EQ(LoadPlanBytes(Serialize(p)), nullptr);
}

TEST(ExecutorHandPlanTest, PadModeThatOnlySharesAPrefixIsUnsupported) {
  for (const char* mode : {"edg", "edges", "Edge", "constantx", "reflec"}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(RunPad(mode).status, TGRS_ERR_UNSUPPORTED_OP);
  }
}

// --- compiled plans ---------------------------------------------------------------------

struct ModelCase {
  std::string path;
  int64_t tiled_budget;  // small enough to tile or chain
};

void ExpectTiledEqualsUntiled(const std::string& model, int64_t small_budget, bool int8_lz4) {
  SCOPED_TRACE(model);
  auto big = LoadPlanBytes(CompileModel(model, 64 << 20, true));
  auto small = LoadPlanBytes(CompileModel(model, small_budget, !int8_lz4, int8_lz4));
  ASSERT_NE(big, nullptr);
  ASSERT_NE(small, nullptr);
  const auto inputs = DeterministicInputs(big->plan);
  const RunResult a = RunExact(big->plan, inputs);
  const RunResult b = RunExact(small->plan, inputs);
  ASSERT_EQ(a.status, TGRS_OK) << tgrs_status_name(a.status);
  ASSERT_EQ(b.status, TGRS_OK) << tgrs_status_name(b.status) << " op " << b.stats.failed_op;
  EXPECT_EQ(a.outputs, b.outputs) << "tiling changed the output bytes";
  for (const RunResult* r : {&a, &b}) {
    const tgrs_plan& plan = r == &a ? big->plan : small->plan;
    // The memory promise: the exact extent touched, aligned like every arena buffer, is
    // the plan's fast_arena_bytes, and nothing past the high-water marks changed.
    EXPECT_EQ(AlignUp16(r->stats.fast_hwm_bytes), tgrs_plan_fast_arena_bytes(&plan));
    EXPECT_LE(r->stats.slow_hwm_bytes, tgrs_plan_slow_arena_bytes(&plan));
    EXPECT_TRUE(r->fast_poison_intact);
    EXPECT_TRUE(r->slow_poison_intact);
  }
  EXPECT_GT(b.stats.tiles_run, 0u) << "the small budget was meant to tile";
  EXPECT_GT(tgrs_plan_slow_arena_bytes(&small->plan), 0u);
}

TEST(ExecutorModelsTest, Mnist8FloatTiledEqualsUntiled) {
  ExpectTiledEqualsUntiled(SharedOnnxModel("mnist8.onnx"), 8 << 10, false);
}

TEST(ExecutorModelsTest, VwwSmallCnnFloatTiledEqualsUntiled) {
  ExpectTiledEqualsUntiled(SharedOnnxModel("vww_small_cnn.onnx"), 64 << 10, false);
}

TEST(ExecutorModelsTest, Int8WeightsDecompressedIntoThePrefixEqualInPlace) {
  const std::string model = GeneratedModelsDir() + "/vww_small_cnn.int8.onnx";
  ASSERT_TRUE(std::filesystem::exists(model)) << model << " missing: the build generates it";
  ExpectTiledEqualsUntiled(model, 32 << 10, true);  // 32K: one tiled stage + weight blocks
}

// A streamed chain (docs/runtime-executor.md, "Streamed tile loops"): the first chain of
// vww_small_cnn at 16 KiB, weights in place.
struct StreamedChain {
  std::unique_ptr<LoadedPlan> loaded;
  tgrs_plan_tile tile{};
};

StreamedChain FirstStreamedChain() {
  StreamedChain c;
  c.loaded = LoadPlanBytes(CompileModel(SharedOnnxModel("vww_small_cnn.onnx"), 16 << 10, true));
  if (c.loaded == nullptr) return c;
  for (uint32_t i = 0; i < tgrs_plan_chain_count(&c.loaded->plan); ++i) {
    if (tgrs_plan_get_chain_tile(&c.loaded->plan, i, &c.tile) == TGRS_OK && c.tile.streamed &&
        c.tile.count >= 2) {
      return c;
    }
  }
  c.loaded.reset();
  return c;
}

TEST(ExecutorModelsTest, StreamedChainsEqualTheUntiledRun) {
  StreamedChain c = FirstStreamedChain();
  ASSERT_NE(c.loaded, nullptr) << "16 KiB was meant to stream a chain of vww_small_cnn";
  ExpectTiledEqualsUntiled(SharedOnnxModel("vww_small_cnn.onnx"), 16 << 10, false);
}

TEST(ExecutorModelsTest, AStreamedRegionThatRecomputesARowIsRejectedBeforeRunning) {
  StreamedChain c = FirstStreamedChain();
  ASSERT_NE(c.loaded, nullptr);
  // Tile 1 of the chain's first op: start one row early, so it would overwrite a row its
  // strip kept from tile 0. The regions live in the (verified) plan bytes.
  auto* region = const_cast<tgrs_tile_region*>(tgrs_plan_tile_region(&c.tile, 1, 0));
  ASSERT_NE(region, nullptr);
  ASSERT_GT(region->out_begin, 0);
  region->out_begin -= 1;
  const RunResult r = RunExact(c.loaded->plan, DeterministicInputs(c.loaded->plan));
  EXPECT_EQ(r.status, TGRS_ERR_INCONSISTENT_PLAN) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, c.tile.ops.data[0]);
}

TEST(ExecutorModelsTest, TwoPlansRunInterleavedInOneProgram) {
  auto a = LoadPlanBytes(CompileModel(SharedOnnxModel("mnist8.onnx"), 8 << 10, true));
  auto b = LoadPlanBytes(CompileModel(SharedOnnxModel("kws_small_cnn.onnx"), 64 << 10, true));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const auto xa = DeterministicInputs(a->plan), xb = DeterministicInputs(b->plan);
  const RunResult a1 = RunExact(a->plan, xa), b1 = RunExact(b->plan, xb);
  const RunResult a2 = RunExact(a->plan, xa), b2 = RunExact(b->plan, xb);
  ASSERT_EQ(a1.status, TGRS_OK);
  ASSERT_EQ(b1.status, TGRS_OK);
  EXPECT_EQ(a1.outputs, a2.outputs);
  EXPECT_EQ(b1.outputs, b2.outputs);
}

// --- observing a run (tgrs_run_observed) -------------------------------------------------

// Every report, checked against the plan's own shapes as it arrives.
struct Reports {
  const tgrs_plan* plan = nullptr;
  std::map<int32_t, std::vector<bool>> rows;  // tensor -> rows reported
  std::set<uint32_t> ops;
  std::vector<std::string> defects;

  static void Observe(void* self, const tgrs_op_rows* r) {
    Reports* reports = static_cast<Reports*>(self);
    tgrs_plan_op op;
    tgrs_plan_tensor t;
    if (tgrs_plan_get_op(reports->plan, r->op, &op) != TGRS_OK ||
        tgrs_plan_get_tensor(reports->plan, static_cast<uint32_t>(r->tensor), &t) != TGRS_OK ||
        op.outputs.count != 1 || op.outputs.data[0] != r->tensor) {
      reports->defects.push_back("op " + std::to_string(r->op) + " reported a foreign tensor");
      return;
    }
    reports->ops.insert(r->op);
    const bool rank4 = t.shape.count == 4;
    const int32_t h = rank4 ? t.shape.data[1] : 1;
    const size_t elements =
        rank4 ? static_cast<size_t>(t.shape.data[0]) * r->rows * t.shape.data[2] * t.shape.data[3]
              : tgrs_plan_tensor_bytes(&t) / (t.dtype == TGRS_DTYPE_INT8 ? 1 : 4);
    const size_t expected = elements * (t.dtype == TGRS_DTYPE_INT8 ? 1 : 4);
    if (r->data == nullptr || r->bytes != expected || r->row_begin < 0 ||
        r->row_begin + r->rows > h || (!rank4 && (r->row_begin != 0 || r->rows != 1))) {
      reports->defects.push_back(std::string("tensor '") + t.name + "': bad report");
      return;
    }
    std::vector<bool>& seen = reports->rows[r->tensor];
    seen.resize(static_cast<size_t>(h), false);
    for (int32_t y = r->row_begin; y < r->row_begin + r->rows; ++y) seen[y] = true;
  }
};

TEST(ExecutorObserverTest, ReportsEveryRowOfEveryOpOutputAndChangesNothing) {
  // mnist8 at 8K tiles and spills: reports come from NORMAL stages and from tile loops.
  auto loaded = LoadPlanBytes(CompileModel(SharedOnnxModel("mnist8.onnx"), 8 << 10, true));
  ASSERT_NE(loaded, nullptr);
  const auto inputs = DeterministicInputs(loaded->plan);
  const RunResult plain = RunExact(loaded->plan, inputs);
  Reports reports;
  reports.plan = &loaded->plan;
  const RunResult observed = RunExact(loaded->plan, inputs, Reports::Observe, &reports);
  ASSERT_EQ(plain.status, TGRS_OK);
  ASSERT_EQ(observed.status, TGRS_OK);
  ASSERT_GT(observed.stats.tiles_run, 0u) << "the budget was meant to tile";

  EXPECT_TRUE(reports.defects.empty()) << reports.defects.front();
  EXPECT_EQ(reports.ops.size(), tgrs_plan_op_count(&loaded->plan)) << "an op went unreported";
  for (const auto& [tensor, seen] : reports.rows) {
    // A chain computes only the rows its next op reads: rows it never reports may only be
    // the last ones (mnist8's 3x3 stride-3 pool reads 12 of its input's 14 rows).
    const auto first_missing = std::find(seen.begin(), seen.end(), false);
    EXPECT_EQ(std::count(first_missing, seen.end(), true), 0) << "tensor " << tensor;
  }
  // Graph outputs are reported whole.
  const tgrs_i32s outputs = tgrs_plan_outputs(&loaded->plan);
  for (uint32_t i = 0; i < outputs.count; ++i) {
    const std::vector<bool>& seen = reports.rows[outputs.data[i]];
    EXPECT_FALSE(seen.empty());
    EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0) << "output " << i;
  }
  // Observing changes neither the results nor the memory touched.
  EXPECT_EQ(observed.outputs, plain.outputs);
  EXPECT_EQ(observed.stats.fast_hwm_bytes, plain.stats.fast_hwm_bytes);
  EXPECT_EQ(observed.stats.slow_hwm_bytes, plain.stats.slow_hwm_bytes);
  EXPECT_EQ(observed.stats.ops_run, plain.stats.ops_run);
  EXPECT_TRUE(observed.fast_poison_intact);
}

TEST(ExecutorObserverTest, AnUntiledPlanReportsEveryOutputWhole) {
  auto loaded = LoadPlanBytes(CompileModel(SharedOnnxModel("mnist8.onnx"), 64 << 20, true));
  ASSERT_NE(loaded, nullptr);
  Reports reports;
  reports.plan = &loaded->plan;
  const RunResult observed =
      RunExact(loaded->plan, DeterministicInputs(loaded->plan), Reports::Observe, &reports);
  ASSERT_EQ(observed.status, TGRS_OK);
  EXPECT_EQ(observed.stats.tiles_run, 0u);
  EXPECT_TRUE(reports.defects.empty()) << reports.defects.front();
  EXPECT_EQ(reports.ops.size(), tgrs_plan_op_count(&loaded->plan));
  EXPECT_EQ(reports.rows.size(), tgrs_plan_op_count(&loaded->plan)) << "one output per op";
  for (const auto& [tensor, seen] : reports.rows) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0) << "tensor " << tensor;
  }
}

// --- status codes ---------------------------------------------------------------------

class ExecutorStatusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = LoadPlanBytes(CompileModel(SharedOnnxModel("mnist8.onnx"), 8 << 10, true));
    ASSERT_NE(loaded_, nullptr);
    fast_size_ = tgrs_plan_fast_arena_bytes(&loaded_->plan);
    slow_size_ = tgrs_plan_slow_arena_bytes(&loaded_->plan);
    ASSERT_GT(slow_size_, 0u) << "mnist8 at 8K spills";
    input_ = DeterministicInputs(loaded_->plan)[0];
    output_.resize(IoBytes(loaded_->plan, true, 0));
  }
  tgrs_status Run(void* fast, size_t fast_size, void* slow, size_t slow_size, size_t input_size,
                  size_t output_size, uint32_t n_in = 1) {
    tgrs_arenas arenas = {fast, fast_size, slow, slow_size, nullptr, 0};
    tgrs_input_buffer in = {input_.data(), input_size};
    tgrs_output_buffer out = {output_.data(), output_size};
    return tgrs_run(&loaded_->plan, &arenas, &in, n_in, &out, 1, nullptr);
  }
  std::unique_ptr<LoadedPlan> loaded_;
  size_t fast_size_ = 0, slow_size_ = 0;
  std::vector<uint8_t> input_, output_;
};

TEST_F(ExecutorStatusTest, EveryBadArgumentHasItsCode) {
  AlignedBuffer fast = PoisonedBuffer(fast_size_ + 16), slow = PoisonedBuffer(slow_size_ + 16);
  const size_t in = input_.size(), out = output_.size();
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get(), slow_size_, in, out), TGRS_OK);
  EXPECT_EQ(Run(fast.get(), fast_size_ - 1, slow.get(), slow_size_, in, out),
            TGRS_ERR_ARENA_TOO_SMALL);
  EXPECT_EQ(Run(nullptr, 0, slow.get(), slow_size_, in, out), TGRS_ERR_ARENA_TOO_SMALL);
  EXPECT_EQ(Run(fast.get() + 8, fast_size_, slow.get(), slow_size_, in, out),
            TGRS_ERR_ARENA_MISALIGNED);
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get(), slow_size_ - 16, in, out),
            TGRS_ERR_SLOW_ARENA_TOO_SMALL);
  EXPECT_EQ(Run(fast.get(), fast_size_, nullptr, 0, in, out), TGRS_ERR_SLOW_ARENA_TOO_SMALL);
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get() + 4, slow_size_, in, out),
            TGRS_ERR_SLOW_ARENA_MISALIGNED);
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get(), slow_size_, in - 4, out), TGRS_ERR_INPUT_SIZE);
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get(), slow_size_, in, out, 0), TGRS_ERR_INPUT_COUNT);
  EXPECT_EQ(Run(fast.get(), fast_size_, slow.get(), slow_size_, in, out + 1), TGRS_ERR_OUTPUT_SIZE);
  EXPECT_STREQ(tgrs_status_name(TGRS_ERR_INPUT_SIZE), "TGRS_ERR_INPUT_SIZE");
  EXPECT_STREQ(tgrs_status_name(TGRS_ERR_BAD_OFFSET), "TGRS_ERR_BAD_OFFSET");
}

TEST_F(ExecutorStatusTest, NullAndUnverifiedPlans) {
  AlignedBuffer fast = PoisonedBuffer(fast_size_);
  tgrs_arenas arenas = {fast.get(), fast_size_, nullptr, 0, nullptr, 0};
  tgrs_run_stats stats;
  EXPECT_EQ(tgrs_run(nullptr, &arenas, nullptr, 0, nullptr, 0, &stats), TGRS_ERR_NULL_ARGUMENT);
  EXPECT_EQ(tgrs_run(&loaded_->plan, nullptr, nullptr, 0, nullptr, 0, &stats),
            TGRS_ERR_NULL_ARGUMENT);
  tgrs_plan blank{};
  EXPECT_EQ(tgrs_run(&blank, &arenas, nullptr, 0, nullptr, 0, &stats), TGRS_ERR_PLAN_NOT_VERIFIED);
  tgrs_plan failed;
  const uint8_t junk[64] = {0};
  EXPECT_NE(tgrs_plan_init(&failed, junk, sizeof junk), TGRS_OK);
  EXPECT_EQ(tgrs_run(&failed, &arenas, nullptr, 0, nullptr, 0, &stats), TGRS_ERR_PLAN_NOT_VERIFIED);
}

// Flipped bits anywhere in a real plan, the plan then resealed (its checksums would refuse
// every flip a run could see: plan_integrity_test.cc; here the plan stands for one a buggy
// or hostile writer sealed): the reader rejects it, or the executor runs it to some status;
// never a crash, never a byte outside the exact-size arenas (AddressSanitizer build in
// tests/e2e/CMakeLists.txt).
void FlipBitsAndRun(const std::vector<uint8_t>& good, uint32_t seed) {
  auto reference = LoadPlanBytes(good);
  ASSERT_NE(reference, nullptr);
  const auto inputs = DeterministicInputs(reference->plan);
  uint32_t state = seed;
  int verified = 0, ran_ok = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<uint8_t> bad = good;
    state = state * 1664525u + 1013904223u;
    bad[(state >> 8) % bad.size()] ^= static_cast<uint8_t>(1u << ((state >> 4) % 8));
    Reseal(bad);
    auto loaded = LoadPlanBytes(bad);
    if (!loaded) continue;
    ++verified;
    // Inputs sized for the good plan: a corrupted shape must be reported, not overread.
    std::vector<std::vector<uint8_t>> sized;
    for (uint32_t i = 0; i < tgrs_plan_inputs(&loaded->plan).count; ++i) {
      sized.push_back(i < inputs.size() && inputs[i].size() == IoBytes(loaded->plan, false, i)
                          ? inputs[i]
                          : std::vector<uint8_t>(IoBytes(loaded->plan, false, i), 0));
    }
    const size_t fast = tgrs_plan_fast_arena_bytes(&loaded->plan);
    if (fast > (64u << 20) || tgrs_plan_slow_arena_bytes(&loaded->plan) > (64u << 20)) continue;
    const RunResult r = RunExact(loaded->plan, sized);
    if (r.status == TGRS_OK) ++ran_ok;
    EXPECT_TRUE(r.fast_poison_intact);
  }
  // Most flips hit weights or names and still verify (and run): the loop exercised both.
  EXPECT_GT(verified, 0);
  EXPECT_GT(ran_ok, 0);
}

TEST(ExecutorCorruptPlanTest, FlippedBitsNeverCrashXipTiled) {
  FlipBitsAndRun(CompileModel(SharedOnnxModel("mnist8.onnx"), 8 << 10, true), 2024);
}

TEST(ExecutorCorruptPlanTest, FlippedBitsNeverCrashLz4Blocks) {
  FlipBitsAndRun(CompileModel(SharedOnnxModel("mnist8.onnx"), 64 << 10, false, true), 7);
}

}  // namespace
}  // namespace tigris::runtime_test
