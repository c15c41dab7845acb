// The executor built without one dtype (TGRS_WITH_FLOAT32 / TGRS_WITH_INT8,
// tigris_executor.h). CMakeLists.txt here builds this file twice, against runtime objects
// compiled with -DTGRS_WITH_FLOAT32=0 (tigris_runtime_int8_only_tests) and with
// -DTGRS_WITH_INT8=0 (tigris_runtime_float32_only_tests); the test reads the same macros.
//
// Claims: plans of the kept dtype run and give exactly the bytes of the full runtime
// (libtigris.so's tigris_run_plan, built with both dtypes), tiled or not; any op touching
// the left-out dtype is TGRS_ERR_UNSUPPORTED_OP with failed_op naming the first such op,
// after the ops before it ran.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "runtime/plan_fixture.h"
#include "runtime/reduced_runtime.h"
#include "support/test_env.h"
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

static_assert(TGRS_WITH_FLOAT32 + TGRS_WITH_INT8 == 1,
              "this program is built with exactly one dtype left out (CMakeLists.txt here)");
constexpr bool kInt8Only = TGRS_WITH_FLOAT32 == 0;
constexpr tgrs_dtype kLeftOut = kInt8Only ? TGRS_DTYPE_FLOAT32 : TGRS_DTYPE_INT8;

// Index of the first op reading or writing a tensor of `dtype`, -1 when none. Stages
// partition the ops in index order (docs/runtime.md "The verification guarantee" 3) and
// a tile loop runs its ops in order, so this is also the first one the executor reaches.
int32_t FirstOpTouching(const tgrs_plan& plan, tgrs_dtype dtype) {
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    tgrs_plan_op op;
    tgrs_plan_get_op(&plan, i, &op);
    for (const tgrs_i32s list : {op.inputs, op.outputs}) {
      for (uint32_t k = 0; k < list.count; ++k) {
        tgrs_plan_tensor t;
        if (list.data[k] >= 0 &&
            tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(list.data[k]), &t) == TGRS_OK &&
            t.dtype == dtype) {
          return static_cast<int32_t>(i);
        }
      }
    }
  }
  return -1;
}

std::string KeptModel(const std::string& stem) {
  return kInt8Only ? testing::GeneratedModelsDir() + "/" + stem + ".int8.onnx"
                   : testing::SharedOnnxModel(stem + ".onnx");
}

std::string LeftOutModel(const std::string& stem) {
  return kInt8Only ? testing::SharedOnnxModel(stem + ".onnx")
                   : testing::GeneratedModelsDir() + "/" + stem + ".int8.onnx";
}

// The kept dtype's model, untiled and at a budget that tiles: the reduced runtime runs it
// and matches the full runtime byte for byte.
void ExpectKeptModelMatchesFullRuntime(const std::string& stem, uint64_t small_budget) {
  SCOPED_TRACE(stem);
  for (const uint64_t budget : {uint64_t{64} << 20, small_budget}) {
    SCOPED_TRACE(budget);
    auto p = Load(Compile(KeptModel(stem), budget));
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(FirstOpTouching(p->plan, kLeftOut), -1) << "the model was meant to be one dtype";
    const std::vector<Bytes> inputs = Inputs(p->plan);
    const ReducedRun r = RunReduced(p->plan, inputs);
    ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status) << " at op " << r.stats.failed_op;
    EXPECT_EQ(r.outputs, RunFull(*p, inputs));
    if (budget == small_budget) {
      EXPECT_GT(r.stats.tiles_run, 0u) << "meant to tile";
    }
  }
}

TEST(DtypeSelectModelsTest, KeptDtypeMnist8MatchesTheFullRuntime) {
  // int8 tensors are a quarter of the float ones: a quarter of the budget tiles them.
  ExpectKeptModelMatchesFullRuntime("mnist8", kInt8Only ? 2 << 10 : 8 << 10);
}

TEST(DtypeSelectModelsTest, KeptDtypeVwwSmallCnnMatchesTheFullRuntime) {
  ExpectKeptModelMatchesFullRuntime("vww_small_cnn", kInt8Only ? 32 << 10 : 64 << 10);
}

TEST(DtypeSelectModelsTest, LeftOutDtypeModelFailsAtItsFirstOp) {
  auto p = Load(Compile(LeftOutModel("mnist8"), 64 << 20));
  ASSERT_NE(p, nullptr);
  const int32_t first = FirstOpTouching(p->plan, kLeftOut);
  ASSERT_GE(first, 0);
  const std::vector<Bytes> inputs = Inputs(p->plan);
  const ReducedRun r = RunReduced(p->plan, inputs);
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, first);
  EXPECT_EQ(r.stats.failed_stage, 0);
  // The plan itself is fine: the full runtime in libtigris.so (a separate copy, so also
  // proof that the reference above is not this reduced build) runs it.
  RunFull(*p, inputs);
}

// --- a hand-built plan: kept op, converter, left-out op ---------------------------------
// Three rank-4 tensors' worth of ops on ONNX [1, 2, 1, 2] (runtime NHWC [1, 1, 2, 2]):
//   int8-only build:    x int8 -Relu(clamp)-> y int8 -Dequantize-> z f32 -Relu-> w f32
//   float32-only build: x f32  -Relu-> y f32 -Quantize-> z int8 -Relu(clamp)-> w int8
// Every int8 tensor has scale 0.5, zero point 0, so the int8 Relu is the clamp to
// [0, 127] (act_min = the zero point, docs/plan-format.md "int8 fields"). The converter
// is the first op touching the left-out dtype: failed_op must be 1, not 0, and op 0 ran.
// `ops` = 1 keeps only op 0 (output y).
PlanParts MixedPlan(int ops) {
  const fb::DType kept = kInt8Only ? fb::DType::INT8 : fb::DType::FLOAT32;
  const fb::DType other = kInt8Only ? fb::DType::FLOAT32 : fb::DType::INT8;
  auto tensor = [](const char* name, fb::DType dtype, bool io, bool output) {
    TensorParts t{name, dtype, {1, 1, 2, 2}, std::nullopt, -1, {}, {}};
    if (dtype == fb::DType::INT8) t.quant = QuantParts{{0.5f}, {0}};
    if (io) {
      t.host_permutation =
          output ? std::vector<int32_t>{0, 3, 1, 2} : std::vector<int32_t>{0, 2, 3, 1};
      t.onnx_shape = {1, 2, 1, 2};
    }
    return t;
  };
  auto op = [](tgrs_op_code code, const char* name, fb::DType dtype, int32_t in) {
    OpParts o;
    o.code = code;
    o.name = name;
    o.inputs = {in};
    o.outputs = {in + 1};
    if (code == TGRS_OP_RELU && dtype == fb::DType::INT8) {
      o.act_min = 0;
      o.act_max = 127;
    }
    return o;
  };
  auto bytes = [](fb::DType d) { return d == fb::DType::INT8 ? 4u : 16u; };
  PlanParts p;
  p.generator = "test";
  p.model_name = "mixed";
  p.tensors = {tensor("x", kept, true, false), tensor("y", kept, ops == 1, true),
               tensor("z", other, false, false), tensor("w", other, true, true)};
  p.ops = {op(TGRS_OP_RELU, "relu_kept", kept, 0),
           op(kInt8Only ? TGRS_OP_DEQUANTIZE : TGRS_OP_QUANTIZE, "convert", kept, 1),
           op(TGRS_OP_RELU, "relu_other", other, 2)};
  p.tensors.resize(static_cast<size_t>(ops) + 1);
  p.ops.resize(static_cast<size_t>(ops));
  StageParts s;
  for (int32_t i = 0; i < ops; ++i) s.ops.push_back(i);
  for (int32_t t = 0; t <= ops; ++t) {
    const fb::DType d = t < 2 ? kept : other;
    s.buffers.push_back(
        BufferParts{fb::BufferKind::TENSOR, t, -1, t == 0 ? 0 : t - 1, t == ops ? ops - 1 : t,
                    bytes(d), fb::Home(static_cast<uint32_t>(16 * t), 16, fb::MemoryRegion::FAST)});
  }
  s.peak_bytes = static_cast<uint32_t>(16 * (ops + 1));
  p.stages = {s};
  p.inputs = {0};
  p.outputs = {ops};
  p.fast_arena_bytes = p.scheduled_peak_bytes = s.peak_bytes;
  p.xip = true;
  return p;
}

// x in ONNX order: floats {-1, 2, 3, -4}, or the int8 values of the same reals at scale
// 0.5: {-2, 4, 6, -8}.
Bytes MixedInput() {
  if (kInt8Only) return Bytes{static_cast<uint8_t>(-2), 4, 6, static_cast<uint8_t>(-8)};
  const float x[4] = {-1, 2, 3, -4};
  Bytes b(16);
  std::memcpy(b.data(), x, 16);
  return b;
}

TEST(DtypeSelectHandPlanTest, KeptOpRunsWithHandComputedBytes) {
  auto p = Load(Serialize(MixedPlan(1)));
  ASSERT_NE(p, nullptr);
  const ReducedRun r = RunReduced(p->plan, {MixedInput()});
  ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status);
  // relu: reals {0, 2, 3, 0}; int8 at scale 0.5 {0, 4, 6, 0}.
  Bytes want = kInt8Only ? Bytes{0, 4, 6, 0} : Bytes(16, 0);
  if (!kInt8Only) {
    const float y[4] = {0, 2, 3, 0};
    std::memcpy(want.data(), y, 16);
  }
  EXPECT_EQ(r.outputs[0], want);
}

TEST(DtypeSelectHandPlanTest, TheConverterIsTheFirstUnsupportedOp) {
  auto p = Load(Serialize(MixedPlan(3)));
  ASSERT_NE(p, nullptr);
  const ReducedRun r = RunReduced(p->plan, {MixedInput()});
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, 1);
  EXPECT_EQ(r.stats.failed_stage, 0);
  // op 0 (the kept dtype) ran, then op 1 was dispatched and refused: ops_run counts every
  // dispatch (stage_normal.c).
  EXPECT_EQ(r.stats.ops_run, 2u);
  // The full runtime runs all three: reals {0, 2, 3, 0} after relu, converted, relu again:
  // floats {0, 2, 3, 0} (int8-only build) or int8 {0, 4, 6, 0} (float32-only build).
  Bytes want = kInt8Only ? Bytes(16, 0) : Bytes{0, 4, 6, 0};
  if (kInt8Only) {
    const float w[4] = {0, 2, 3, 0};
    std::memcpy(want.data(), w, 16);
  }
  EXPECT_EQ(RunFull(*p, {MixedInput()})[0], want);
}

TEST(DtypeSelectHandPlanTest, AByteMoverOnTheLeftOutDtypeIsUnsupported) {
  // Reshape has no per-dtype kernel (a byte copy), but the build refuses the left-out
  // dtype wholesale (tigris_executor.h), so even this op is named.
  PlanParts p = MixedPlan(1);
  p.ops[0].code = TGRS_OP_RESHAPE;  // same shape in and out: the bytes pass through
  for (TensorParts& t : p.tensors) {
    t.dtype = kInt8Only ? fb::DType::FLOAT32 : fb::DType::INT8;
    t.quant = kInt8Only ? std::nullopt : std::optional<QuantParts>(QuantParts{{0.5f}, {0}});
  }
  for (BufferParts& b : p.stages[0].buffers) b.bytes = kInt8Only ? 16 : 4;
  auto loaded = Load(Serialize(p));
  ASSERT_NE(loaded, nullptr);
  // Any bytes of the left-out dtype: the full runtime's output is the input itself (the
  // output's host permutation undoes the input's).
  const Bytes x = kInt8Only ? Bytes(16, 0x3F) : Bytes{1, 2, 3, 4};
  const ReducedRun r = RunReduced(loaded->plan, {x});
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, 0);
  EXPECT_EQ(r.stats.ops_run, 1u);  // the refused dispatch itself (stage_normal.c)
  EXPECT_EQ(RunFull(*loaded, {x})[0], x);
}

}  // namespace
}  // namespace tigris::runtime_test
