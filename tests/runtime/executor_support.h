// Helpers for the executor tests: plans compiled from the shared models with the
// compiler's own pipeline (load, normalize, plan, emit: what `tigris compile` does), a
// 16-aligned copy of the bytes, and arenas allocated at EXACTLY the requested size so that
// AddressSanitizer (tests/e2e/CMakeLists.txt builds these tests a second time with it)
// reports any byte the executor touches past the end.
#ifndef TIGRIS_TESTS_RUNTIME_EXECUTOR_SUPPORT_H_
#define TIGRIS_TESTS_RUNTIME_EXECUTOR_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "emit/compile.h"
#include "onnx/onnx_loader.h"
#include "passes/pass.h"
#include "tigris_executor.h"

namespace tigris::runtime_test {

struct AlignedDelete {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(16)); }
};
using AlignedBuffer = std::unique_ptr<uint8_t[], AlignedDelete>;

// Exactly `size` bytes (at least 1), 16-aligned, filled with Poison().
inline AlignedBuffer PoisonedBuffer(size_t size) {
  AlignedBuffer b(new (std::align_val_t(16)) uint8_t[size ? size : 1]);
  for (size_t i = 0; i < size; ++i) b[i] = static_cast<uint8_t>((i * 131u + 0x5Bu) >> 1);
  return b;
}

// True when [from, size) still holds the PoisonedBuffer pattern.
inline bool PoisonIntact(const uint8_t* b, size_t from, size_t size) {
  for (size_t i = from; i < size; ++i) {
    if (b[i] != static_cast<uint8_t>((i * 131u + 0x5Bu) >> 1)) return false;
  }
  return true;
}

// A compiled plan in 16-aligned memory, verified by the runtime's reader.
struct LoadedPlan {
  AlignedBuffer bytes;
  size_t size = 0;
  tgrs_plan plan{};
};

inline std::unique_ptr<LoadedPlan> LoadPlanBytes(const std::vector<uint8_t>& bytes) {
  auto p = std::make_unique<LoadedPlan>();
  p->size = bytes.size();
  p->bytes = PoisonedBuffer(bytes.size());
  std::memcpy(p->bytes.get(), bytes.data(), bytes.size());
  if (tgrs_plan_init(&p->plan, p->bytes.get(), p->size) != TGRS_OK) return nullptr;
  return p;
}

// tgrs_plan_init on `good` with `n` bytes at `pos` replaced by `value`; *text is the
// verifier's message.
inline tgrs_status VerifyCorrupted(const std::vector<uint8_t>& good, size_t pos, const void* value,
                                   size_t n, std::string* text) {
  AlignedBuffer copy = PoisonedBuffer(good.size());
  std::memcpy(copy.get(), good.data(), good.size());
  std::memcpy(copy.get() + pos, value, n);
  // Resealed (docs/integrity.md), so the verifier meets the defect, not the checksum.
  EXPECT_EQ(tgrs_plan_seal(copy.get(), good.size()), TGRS_OK);
  tgrs_plan plan;
  const tgrs_status st = tgrs_plan_init(&plan, copy.get(), good.size());
  char message[256];
  tgrs_verify_error_format(&plan.error, message, sizeof message);
  *text = message;
  return st;
}

// The same with a 4-byte field's new value.
inline tgrs_status VerifyCorrupted(const std::vector<uint8_t>& good, size_t pos, uint32_t value,
                                   std::string* text) {
  return VerifyCorrupted(good, pos, &value, sizeof value, text);
}

// Offset of a flatbuffer object inside its buffer.
inline size_t PositionIn(const std::vector<uint8_t>& bytes, const void* p) {
  return static_cast<size_t>(static_cast<const uint8_t*>(p) - bytes.data());
}

inline std::vector<uint8_t> CompileModel(const std::string& onnx_path, int64_t fast_bytes, bool xip,
                                         bool lz4 = false) {
  ir::Graph graph = onnx_import::LoadOnnxFile(onnx_path, onnx_import::LoadOptions{});
  passes::Normalize(graph);
  plan::Budget budget;
  budget.fast_bytes = fast_bytes;
  emit::EmitOptions options;
  options.xip = xip;
  options.lz4 = lz4;
  return emit::Compile(graph, budget, options).emitted.bytes;
}

// Byte size of graph input / output i.
inline size_t IoBytes(const tgrs_plan& plan, bool output, uint32_t i) {
  const tgrs_i32s list = output ? tgrs_plan_outputs(&plan) : tgrs_plan_inputs(&plan);
  tgrs_plan_tensor t;
  tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(list.data[i]), &t);
  return tgrs_plan_tensor_bytes(&t);
}

// One run with exact-size arenas; returns the status, fills the outputs and the stats, and
// reports whether the poison past each high-water mark survived.
struct RunResult {
  tgrs_status status = TGRS_OK;
  tgrs_run_stats stats{};
  std::vector<std::vector<uint8_t>> outputs;
  bool fast_poison_intact = false;
  bool slow_poison_intact = false;
};

inline RunResult RunExact(const tgrs_plan& plan, const std::vector<std::vector<uint8_t>>& inputs,
                          tgrs_run_observer observer = nullptr, void* user = nullptr) {
  RunResult r;
  const size_t fast = tgrs_plan_fast_arena_bytes(&plan);
  const size_t slow = tgrs_plan_slow_arena_bytes(&plan);
  const size_t pinned = tgrs_plan_pinned_arena_bytes(&plan);
  AlignedBuffer fast_arena = PoisonedBuffer(fast), slow_arena = PoisonedBuffer(slow),
                pinned_arena = PoisonedBuffer(pinned);
  tgrs_arenas arenas = {fast_arena.get(), fast, slow_arena.get(), slow, pinned_arena.get(), pinned};
  std::vector<tgrs_input_buffer> in;
  for (const auto& x : inputs) in.push_back({x.data(), x.size()});
  const uint32_t n_out = tgrs_plan_outputs(&plan).count;
  std::vector<AlignedBuffer> out_buffers;
  std::vector<tgrs_output_buffer> out;
  for (uint32_t i = 0; i < n_out; ++i) {
    out_buffers.push_back(PoisonedBuffer(IoBytes(plan, true, i)));
    out.push_back({out_buffers.back().get(), IoBytes(plan, true, i)});
  }
  r.status = tgrs_run_observed(&plan, &arenas, in.data(), static_cast<uint32_t>(in.size()),
                               out.data(), n_out, &r.stats, observer, user);
  for (uint32_t i = 0; i < n_out; ++i) {
    r.outputs.emplace_back(out_buffers[i].get(), out_buffers[i].get() + out[i].size);
  }
  r.fast_poison_intact = PoisonIntact(fast_arena.get(), r.stats.fast_hwm_bytes, fast);
  r.slow_poison_intact = PoisonIntact(slow_arena.get(), r.stats.slow_hwm_bytes, slow);
  return r;
}

// A deterministic input for every graph input (bytes of the plan's dtype).
inline std::vector<std::vector<uint8_t>> DeterministicInputs(const tgrs_plan& plan) {
  std::vector<std::vector<uint8_t>> inputs;
  uint32_t state = 12345;
  for (uint32_t i = 0; i < tgrs_plan_inputs(&plan).count; ++i) {
    tgrs_plan_tensor t;
    tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(tgrs_plan_inputs(&plan).data[i]), &t);
    std::vector<uint8_t> x(tgrs_plan_tensor_bytes(&t));
    if (t.dtype == TGRS_DTYPE_FLOAT32) {
      for (size_t k = 0; k < x.size() / 4; ++k) {
        state = state * 1103515245u + 12345u;
        const float v = static_cast<float>((state >> 8) % 2001) / 1000.0f - 1.0f;  // [-1, 1]
        std::memcpy(&x[k * 4], &v, 4);
      }
    } else {
      for (auto& b : x) b = static_cast<uint8_t>((state = state * 1103515245u + 12345u) >> 24);
    }
    inputs.push_back(std::move(x));
  }
  return inputs;
}

}  // namespace tigris::runtime_test

#endif  // TIGRIS_TESTS_RUNTIME_EXECUTOR_SUPPORT_H_
