// Shared by the programs that link a reduced build of the C runtime (tests/runtime/
// dtype_select, tests/runtime/op_select): plans compiled with libtigris.so's C ABI, loaded
// into 16-byte aligned buffers, run on the reduced runtime linked into the program
// (tgrs_run) and on the full one inside libtigris.so (tigris_run_plan, which never binds to
// the reduced tgrs_* symbols: the library exports only the C ABI), with deterministic
// inputs.
#ifndef TIGRIS_TESTS_RUNTIME_REDUCED_RUNTIME_H_
#define TIGRIS_TESTS_RUNTIME_REDUCED_RUNTIME_H_

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_runtime.h"

namespace tigris::runtime_test {

using Bytes = std::vector<uint8_t>;

struct AlignedDelete {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};
using AlignedBuffer = std::unique_ptr<uint8_t[], AlignedDelete>;

inline AlignedBuffer Aligned(size_t size) {
  AlignedBuffer b(new (std::align_val_t(16)) uint8_t[size ? size : 1]);
  std::memset(b.get(), 0xA5, size ? size : 1);
  return b;
}

struct LoadedPlan {
  Bytes file;  // the .tgrs bytes, for the full runtime (which copies them)
  AlignedBuffer bytes;
  tgrs_plan plan{};
};

inline std::unique_ptr<LoadedPlan> Load(const Bytes& file) {
  auto p = std::make_unique<LoadedPlan>();
  p->file = file;
  p->bytes = Aligned(file.size());
  std::memcpy(p->bytes.get(), file.data(), file.size());
  const tgrs_status st = tgrs_plan_init(&p->plan, p->bytes.get(), file.size());
  if (st != TGRS_OK) {
    ADD_FAILURE() << "plan rejected: " << tgrs_status_name(st) << " (" << st << ")";
    return nullptr;
  }
  return p;
}

inline tgrs_plan_tensor Io(const tgrs_plan& plan, bool output, uint32_t i) {
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

inline ReducedRun RunReduced(const tgrs_plan& plan, const std::vector<Bytes>& inputs) {
  ReducedRun r;
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan), slow = tgrs_plan_slow_arena_bytes(&plan);
  AlignedBuffer fast_arena = Aligned(fast), slow_arena = Aligned(slow);
  const tgrs_arenas arenas = {fast_arena.get(), fast, slow_arena.get(), slow, nullptr, 0};
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

inline tigris_dtype ApiDtype(tgrs_dtype d) {
  return d == TGRS_DTYPE_FLOAT32 ? TIGRIS_DTYPE_FLOAT32
         : d == TGRS_DTYPE_INT8  ? TIGRIS_DTYPE_INT8
                                 : TIGRIS_DTYPE_UNKNOWN;
}

// The outputs of the full runtime, in the plan tensors' own dtypes (raw bytes, no
// quantization on the way in or out); fails the test when it does not run.
inline std::vector<Bytes> RunFull(const LoadedPlan& p, const std::vector<Bytes>& inputs) {
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

inline Bytes Compile(const std::string& path, uint64_t fast_bytes,
                     int weights = TIGRIS_WEIGHTS_AUTO,
                     tigris_compression compression = TIGRIS_COMPRESSION_NONE) {
  tigris_model* model = nullptr;
  if (tigris_load(&model, path.c_str(), nullptr) != TIGRIS_OK) {
    ADD_FAILURE() << path << ": " << tigris_last_error();
    return {};
  }
  tigris_plan_options options;
  tigris_plan_options_init(&options, TIGRIS_PLAN_OPTIONS_VERSION);
  options.fast_bytes = fast_bytes;
  options.xip = weights;
  options.compression = compression;
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
inline std::vector<Bytes> Inputs(const tgrs_plan& plan) {
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

// Runs plan `p` on the reduced runtime on Inputs(): it must stop with
// TGRS_ERR_UNSUPPORTED_OP at op `first` (an op or feature this build left out, after the
// ops before it ran); the full runtime must run the same plan.
inline void ExpectUnsupportedAt(const LoadedPlan& p, int32_t first) {
  const std::vector<Bytes> inputs = Inputs(p.plan);
  const ReducedRun r = RunReduced(p.plan, inputs);
  EXPECT_EQ(r.status, TGRS_ERR_UNSUPPORTED_OP) << tgrs_status_name(r.status);
  EXPECT_EQ(r.stats.failed_op, first);
  RunFull(p, inputs);  // the plan itself is fine
}

}  // namespace tigris::runtime_test

#endif  // TIGRIS_TESTS_RUNTIME_REDUCED_RUNTIME_H_
