// The executor built with the ops header of one plan (tigris inspect --ops-header,
// tgrs_op_select.h): CMakeLists.txt here compiles kws_small_cnn at 16 KiB, writes the
// header of that plan and builds the runtime objects with it.
//
// Claims: the header selects exactly the op codes of the plan it was written from (read
// here with the runtime's reader, not from the header's writer); that plan, and the same
// model untiled, run on the reduced runtime with the bytes of the full runtime (libtigris.so,
// every op); a plan holding an op outside the selection fails with TGRS_ERR_UNSUPPORTED_OP
// at the first such op, after the ops before it ran.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "support/test_env.h"
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {
namespace {

static_assert(TGRS_OPS_SELECTED == 1, "built with the generated ops header (CMakeLists.txt)");

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
  Bytes file;
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

Bytes ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

Bytes Compile(const std::string& path, uint64_t fast_bytes) {
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
    ADD_FAILURE() << path << ": " << tigris_last_error();
    return {};
  }
  tigris_plan_options options;
  tigris_plan_options_init(&options, TIGRIS_PLAN_OPTIONS_VERSION);
  options.fast_bytes = fast_bytes;
  options.xip = 1;
  tigris_execution_plan* plan = nullptr;
  Bytes file;
  if (tigris_plan(&plan, model, &options) != TIGRIS_OK) {
    ADD_FAILURE() << path << ": " << tigris_last_error();
  } else {
    void* bytes = nullptr;
    size_t size = 0;
    if (tigris_emit(&bytes, &size, plan) == TIGRIS_OK) {
      file.assign(static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + size);
    }
    tigris_free(bytes);
  }
  tigris_plan_free(plan);
  tigris_model_free(model);
  return file;
}

std::set<int> OpCodes(const tgrs_plan& plan) {
  std::set<int> codes;
  for (uint32_t i = 0; i < tgrs_plan_op_count(&plan); ++i) {
    tgrs_plan_op op{};
    EXPECT_EQ(tgrs_plan_get_op(&plan, i, &op), TGRS_OK);
    codes.insert(static_cast<int>(op.code));
  }
  return codes;
}

// What this build's dispatch was compiled with, code by code (tgrs_op_select.h).
std::set<int> SelectedCodes() {
  std::set<int> codes;
  const std::pair<int, bool> table[] = {
      {TGRS_OP_CONV, TGRS_WITH_OP_CONV},
      {TGRS_OP_DEPTHWISE_CONV, TGRS_WITH_OP_DEPTHWISE_CONV},
      {TGRS_OP_CONV1D, TGRS_WITH_OP_CONV1D},
      {TGRS_OP_CONV_TRANSPOSE, TGRS_WITH_OP_CONV_TRANSPOSE},
      {TGRS_OP_MAX_POOL, TGRS_WITH_OP_MAX_POOL},
      {TGRS_OP_AVERAGE_POOL, TGRS_WITH_OP_AVERAGE_POOL},
      {TGRS_OP_GLOBAL_AVERAGE_POOL, TGRS_WITH_OP_GLOBAL_AVERAGE_POOL},
      {TGRS_OP_GLOBAL_MAX_POOL, TGRS_WITH_OP_GLOBAL_MAX_POOL},
      {TGRS_OP_ADD, TGRS_WITH_OP_ADD},
      {TGRS_OP_SUB, TGRS_WITH_OP_SUB},
      {TGRS_OP_MUL, TGRS_WITH_OP_MUL},
      {TGRS_OP_DIV, TGRS_WITH_OP_DIV},
      {TGRS_OP_RELU, TGRS_WITH_OP_RELU},
      {TGRS_OP_RELU6, TGRS_WITH_OP_RELU6},
      {TGRS_OP_LEAKY_RELU, TGRS_WITH_OP_LEAKY_RELU},
      {TGRS_OP_SELU, TGRS_WITH_OP_SELU},
      {TGRS_OP_SIGMOID, TGRS_WITH_OP_SIGMOID},
      {TGRS_OP_HARD_SIGMOID, TGRS_WITH_OP_HARD_SIGMOID},
      {TGRS_OP_HARD_SWISH, TGRS_WITH_OP_HARD_SWISH},
      {TGRS_OP_TANH, TGRS_WITH_OP_TANH},
      {TGRS_OP_CLIP, TGRS_WITH_OP_CLIP},
      {TGRS_OP_CONCAT, TGRS_WITH_OP_CONCAT},
      {TGRS_OP_PAD, TGRS_WITH_OP_PAD},
      {TGRS_OP_RESIZE, TGRS_WITH_OP_RESIZE},
      {TGRS_OP_RESHAPE, TGRS_WITH_OP_RESHAPE},
      {TGRS_OP_TRANSPOSE, TGRS_WITH_OP_TRANSPOSE},
      {TGRS_OP_GEMM, TGRS_WITH_OP_GEMM},
      {TGRS_OP_MATMUL, TGRS_WITH_OP_MATMUL},
      {TGRS_OP_SOFTMAX, TGRS_WITH_OP_SOFTMAX},
      {TGRS_OP_LOG_SOFTMAX, TGRS_WITH_OP_LOG_SOFTMAX},
      {TGRS_OP_REDUCE_MEAN, TGRS_WITH_OP_REDUCE_MEAN},
      {TGRS_OP_BATCH_NORMALIZATION, TGRS_WITH_OP_BATCH_NORMALIZATION},
      {TGRS_OP_QUANTIZE, TGRS_WITH_OP_QUANTIZE},
      {TGRS_OP_DEQUANTIZE, TGRS_WITH_OP_DEQUANTIZE},
      {TGRS_OP_SPLIT, TGRS_WITH_OP_SPLIT},
      {TGRS_OP_LRN, TGRS_WITH_OP_LRN},
      {TGRS_OP_SLICE, TGRS_WITH_OP_SLICE},
  };
  for (const auto& [code, selected] : table) {
    if (selected) codes.insert(code);
  }
  return codes;
}

std::vector<Bytes> Inputs(const tgrs_plan& plan) {
  std::vector<Bytes> inputs;
  uint32_t state = 777;
  for (uint32_t i = 0; i < tgrs_plan_inputs(&plan).count; ++i) {
    tgrs_plan_tensor t{};
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(tgrs_plan_inputs(&plan).data[i]), &t);
    Bytes x(tgrs_plan_tensor_bytes(&t));
    for (size_t k = 0; k + 4 <= x.size(); k += 4) {
      state = state * 1103515245u + 12345u;
      const float v = static_cast<float>((state >> 8) % 2001) / 1000.0f - 1.0f;
      std::memcpy(&x[k], &v, 4);
    }
    inputs.push_back(std::move(x));
  }
  return inputs;
}

struct ReducedRun {
  tgrs_status status = TGRS_OK;
  tgrs_run_stats stats{};
  std::vector<Bytes> outputs;
};

// The reduced runtime linked into this program.
ReducedRun RunReduced(const tgrs_plan& plan, const std::vector<Bytes>& inputs) {
  ReducedRun r;
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan), slow = tgrs_plan_slow_arena_bytes(&plan);
  AlignedBuffer fast_arena = Aligned(fast), slow_arena = Aligned(slow);
  const tgrs_arenas arenas = {fast_arena.get(), fast, slow_arena.get(), slow};
  std::vector<tgrs_input_buffer> in;
  for (const Bytes& x : inputs) in.push_back({x.data(), x.size()});
  std::vector<tgrs_output_buffer> out;
  r.outputs.resize(tgrs_plan_outputs(&plan).count);
  for (uint32_t i = 0; i < r.outputs.size(); ++i) {
    tgrs_plan_tensor t{};
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(tgrs_plan_outputs(&plan).data[i]), &t);
    r.outputs[i].assign(tgrs_plan_tensor_bytes(&t), 0);
    out.push_back({r.outputs[i].data(), r.outputs[i].size()});
  }
  r.status = tgrs_run(&plan, &arenas, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                      static_cast<uint32_t>(out.size()), &r.stats);
  return r;
}

// The full runtime (every op) inside libtigris.so; float32 plans only here.
std::vector<Bytes> RunFull(const LoadedPlan& p, const std::vector<Bytes>& inputs) {
  std::vector<tigris_run_io> in, out;
  for (const Bytes& x : inputs) {
    in.push_back(
        {TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, const_cast<uint8_t*>(x.data()), x.size()});
  }
  std::vector<Bytes> outputs(tgrs_plan_outputs(&p.plan).count);
  for (uint32_t i = 0; i < outputs.size(); ++i) {
    tgrs_plan_tensor t{};
    tgrs_plan_get_tensor(&p.plan, static_cast<uint32_t>(tgrs_plan_outputs(&p.plan).data[i]), &t);
    outputs[i].assign(tgrs_plan_tensor_bytes(&t), 0);
    out.push_back(
        {TIGRIS_RUN_IO_VERSION, TIGRIS_DTYPE_FLOAT32, outputs[i].data(), outputs[i].size()});
  }
  tigris_run_stats stats{};
  stats.version = TIGRIS_RUN_STATS_VERSION;
  EXPECT_EQ(tigris_run_plan(p.file.data(), p.file.size(), nullptr, in.data(), in.size(), out.data(),
                            out.size(), &stats),
            TIGRIS_OK)
      << tigris_last_error();
  return outputs;
}

TEST(OpSelectTest, TheHeaderSelectsExactlyTheOpsOfItsPlan) {
  auto p = Load(ReadFile(TIGRIS_OP_SELECT_PLAN));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(SelectedCodes(), OpCodes(p->plan));
  EXPECT_EQ(TGRS_WITH_INT8, 0) << "a float32 plan: the int8 kernels are left out too";
}

TEST(OpSelectTest, ItsModelRunsWithTheFullRuntimesBytesTiledAndWhole) {
  const std::string model = testing::SharedOnnxModel("kws_small_cnn.onnx");
  for (const uint64_t budget : {uint64_t{16} << 10, uint64_t{64} << 20}) {
    SCOPED_TRACE(budget);
    auto p = Load(Compile(model, budget));
    ASSERT_NE(p, nullptr);
    const std::vector<Bytes> inputs = Inputs(p->plan);
    const ReducedRun r = RunReduced(p->plan, inputs);
    ASSERT_EQ(r.status, TGRS_OK) << tgrs_status_name(r.status) << " at op " << r.stats.failed_op;
    EXPECT_EQ(r.outputs, RunFull(*p, inputs));
    if (budget == uint64_t{16} << 10) {
      EXPECT_GT(r.stats.tiles_run, 0u) << "meant to tile";
    }
  }
}

TEST(OpSelectTest, AnOpLeftOutFailsWhereItIsReached) {
  // mnist8 uses ops kws_small_cnn does not (a max pool, for one).
  auto p = Load(Compile(testing::SharedOnnxModel("mnist8.onnx"), 64 << 20));
  ASSERT_NE(p, nullptr);
  const std::set<int> selected = SelectedCodes();
  int32_t first = -1;
  for (uint32_t i = 0; i < tgrs_plan_op_count(&p->plan) && first < 0; ++i) {
    tgrs_plan_op op{};
    tgrs_plan_get_op(&p->plan, i, &op);
    if (!selected.count(static_cast<int>(op.code))) first = static_cast<int32_t>(i);
  }
  ASSERT_GT(first, 0) << "mnist8 was meant to begin with selected ops and hold another";
  const std::vector<Bytes> inputs = Inputs(p->plan);
  const ReducedRun r = RunReduced(p->plan, inputs);
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, first);
  RunFull(*p, inputs);  // the plan itself is fine
}

}  // namespace
}  // namespace tigris::runtime_test
