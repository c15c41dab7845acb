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

using Bytes = std::vector<uint8_t>;

struct AlignedDelete {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};
using AlignedBuffer = std::unique_ptr<uint8_t[], AlignedDelete>;

AlignedBuffer Aligned(size_t size) {
  AlignedBuffer b(new (std::align_val_t(16)) uint8_t[size ? size : 1]);
  std::memset(b.get(), 0xA5, size ? size : 1);
  return b;
}

struct LoadedPlan {
  Bytes file;  // the .tgrs bytes, for the full runtime (which copies them)
  AlignedBuffer bytes;
  tgrs_plan plan{};
};

std::unique_ptr<LoadedPlan> Load(const Bytes& file) {
  auto p = std::make_unique<LoadedPlan>();
  p->file = file;
  p->bytes = Aligned(file.size());
  std::memcpy(p->bytes.get(), file.data(), file.size());
  const tgrs_status st = tgrs_plan_init(&p->plan, p->bytes.get(), file.size());
  if (st != TGRS_OK) {
    ADD_FAILURE() << "plan rejected: " << tgrs_status_name(st);
    return nullptr;
  }
  return p;
}

tgrs_plan_tensor Io(const tgrs_plan& plan, bool output, uint32_t i) {
  const tgrs_i32s list = output ? tgrs_plan_outputs(&plan) : tgrs_plan_inputs(&plan);
  tgrs_plan_tensor t{};
  tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(list.data[i]), &t);
  return t;
}

// --- the runtime under test (the reduced one, linked into this program) ----------------

struct ReducedRun {
  tgrs_status status = TGRS_OK;
  tgrs_run_stats stats{};
  std::vector<Bytes> outputs;
};

ReducedRun RunReduced(const tgrs_plan& plan, const std::vector<Bytes>& inputs) {
  ReducedRun r;
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan), slow = tgrs_plan_slow_arena_bytes(&plan);
  AlignedBuffer fast_arena = Aligned(fast), slow_arena = Aligned(slow);
  const tgrs_arenas arenas = {fast_arena.get(), fast, slow_arena.get(), slow};
  std::vector<tgrs_input_buffer> in;
  for (const Bytes& x : inputs) in.push_back({x.data(), x.size()});
  const uint32_t n_out = tgrs_plan_outputs(&plan).count;
  r.outputs.resize(n_out);
  std::vector<tgrs_output_buffer> out;
  for (uint32_t i = 0; i < n_out; ++i) {
    const tgrs_plan_tensor t = Io(plan, true, i);
    r.outputs[i].assign(tgrs_plan_tensor_bytes(&t), 0);
    out.push_back({r.outputs[i].data(), r.outputs[i].size()});
  }
  r.status = tgrs_run(&plan, &arenas, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                      n_out, &r.stats);
  return r;
}

// --- the full runtime (both dtypes), inside libtigris.so --------------------------------

tigris_dtype ApiDtype(tgrs_dtype d) {
  return d == TGRS_DTYPE_FLOAT32 ? TIGRIS_DTYPE_FLOAT32
         : d == TGRS_DTYPE_INT8  ? TIGRIS_DTYPE_INT8
                                 : TIGRIS_DTYPE_UNKNOWN;
}

// The outputs of the full runtime, in the plan tensors' own dtypes (raw bytes, no
// quantization on the way in or out); fails the test when it does not run.
std::vector<Bytes> RunFull(const LoadedPlan& p, const std::vector<Bytes>& inputs) {
  std::vector<tigris_run_io> in, out;
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    in.push_back({TIGRIS_RUN_IO_VERSION, ApiDtype(Io(p.plan, false, i).dtype),
                  const_cast<uint8_t*>(inputs[i].data()), inputs[i].size()});
  }
  std::vector<Bytes> outputs(tgrs_plan_outputs(&p.plan).count);
  for (uint32_t i = 0; i < outputs.size(); ++i) {
    const tgrs_plan_tensor t = Io(p.plan, true, i);
    outputs[i].assign(tgrs_plan_tensor_bytes(&t), 0);
    out.push_back({TIGRIS_RUN_IO_VERSION, ApiDtype(t.dtype), outputs[i].data(), outputs[i].size()});
  }
  tigris_run_stats stats{};
  stats.version = TIGRIS_RUN_STATS_VERSION;
  const tigris_status st = tigris_run_plan(p.file.data(), p.file.size(), nullptr, in.data(),
                                           in.size(), out.data(), out.size(), &stats);
  EXPECT_EQ(st, TIGRIS_OK) << "the full runtime: " << tigris_last_error();
  return outputs;
}

// --- compiled models (the C ABI of libtigris.so: load, plan, emit) ----------------------

Bytes Compile(const std::string& path, uint64_t fast_bytes) {
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
    ADD_FAILURE() << path << ": " << tigris_last_error();
    return {};
  }
  tigris_plan_options options;
  tigris_plan_options_init(&options, TIGRIS_PLAN_OPTIONS_VERSION);
  options.fast_bytes = fast_bytes;
  tigris_execution_plan* plan = nullptr;
  Bytes file;
  if (tigris_plan(&plan, model, &options) != TIGRIS_OK) {
    ADD_FAILURE() << path << ": " << tigris_last_error();
  } else {
    void* bytes = nullptr;
    size_t size = 0;
    if (tigris_emit(&bytes, &size, plan) == TIGRIS_OK) {
      file.assign(static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + size);
    } else {
      ADD_FAILURE() << path << ": " << tigris_last_error();
    }
    tigris_free(bytes);
  }
  tigris_plan_free(plan);
  tigris_model_free(model);
  return file;
}

// A deterministic input per graph input: floats in [-1, 1], or any int8 bytes.
std::vector<Bytes> Inputs(const tgrs_plan& plan) {
  std::vector<Bytes> inputs;
  uint32_t state = 12345;
  for (uint32_t i = 0; i < tgrs_plan_inputs(&plan).count; ++i) {
    const tgrs_plan_tensor t = Io(plan, false, i);
    Bytes x(tgrs_plan_tensor_bytes(&t));
    for (size_t k = 0; k < x.size(); k += t.dtype == TGRS_DTYPE_FLOAT32 ? 4 : 1) {
      state = state * 1103515245u + 12345u;
      if (t.dtype == TGRS_DTYPE_FLOAT32) {
        const float v = static_cast<float>((state >> 8) % 2001) / 1000.0f - 1.0f;
        std::memcpy(&x[k], &v, 4);
      } else {
        x[k] = static_cast<uint8_t>(state >> 24);
      }
    }
    inputs.push_back(std::move(x));
  }
  return inputs;
}

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
  auto op = [](fb::OpCode code, const char* name, fb::DType dtype, int32_t in) {
    OpParts o;
    o.code = code;
    o.name = name;
    o.inputs = {in};
    o.outputs = {in + 1};
    if (code == fb::OpCode::RELU && dtype == fb::DType::INT8) {
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
  p.ops = {op(fb::OpCode::RELU, "relu_kept", kept, 0),
           op(kInt8Only ? fb::OpCode::DEQUANTIZE : fb::OpCode::QUANTIZE, "convert", kept, 1),
           op(fb::OpCode::RELU, "relu_other", other, 2)};
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
  p.ops[0].code = fb::OpCode::RESHAPE;  // same shape in and out: the bytes pass through
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
