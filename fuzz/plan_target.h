// The property shared by fuzz_plan (raw bytes) and fuzz_plan_fields (schema-aware
// mutations): bytes a device may be handed as a .tgrs plan. They go through the runtime's
// verifier (tgrs_plan_init); a plan it accepts is rendered as `tigris inspect --json`
// renders it (every getter), then run by the executor in arenas of exactly the plan's
// sizes with inputs made from the plan's own bytes. The contract under test
// (runtime/include/tigris_runtime.h): after TGRS_OK no getter and no kernel reads or
// writes outside the buffer or the arenas; ASan and UBSan turn any violation into a crash.
#ifndef TIGRIS_FUZZ_PLAN_TARGET_H_
#define TIGRIS_FUZZ_PLAN_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "inspect_plan.h"

extern "C" {
#include "tigris_executor.h"
#include "tigris_runtime.h"
}

namespace tigris_fuzz {

// Bounds on what one input may make the executor allocate or compute, so that a plan
// declaring gigabyte arenas is skipped rather than reported as an out-of-memory finding.
constexpr size_t kMaxArenaBytes = 8u << 20;
constexpr size_t kMaxIoBytes = 4u << 20;

struct AlignedFree {
  void operator()(uint8_t* p) const { ::operator delete(p, std::align_val_t(16)); }
};
using Buffer = std::unique_ptr<uint8_t, AlignedFree>;
inline Buffer Allocate(size_t size) {
  return Buffer(static_cast<uint8_t*>(::operator new(size ? size : 1, std::align_val_t(16))));
}

inline void Run(const tgrs_plan& plan, const uint8_t* seed, size_t seed_size) {
  const size_t fast_size = tgrs_plan_fast_arena_bytes(&plan);
  const size_t slow_size = tgrs_plan_slow_arena_bytes(&plan);
  if (fast_size > kMaxArenaBytes || slow_size > kMaxArenaBytes) return;
  const tgrs_i32s ins = tgrs_plan_inputs(&plan), outs = tgrs_plan_outputs(&plan);
  std::vector<Buffer> storage;
  std::vector<tgrs_input_buffer> inputs;
  std::vector<tgrs_output_buffer> outputs;
  size_t io_bytes = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const tgrs_i32s list = pass == 0 ? ins : outs;
    for (uint32_t i = 0; i < list.count; ++i) {
      tgrs_plan_tensor t;
      if (tgrs_plan_get_tensor(&plan, static_cast<uint32_t>(list.data[i]), &t) != TGRS_OK) return;
      const size_t bytes = tgrs_plan_tensor_bytes(&t);
      io_bytes += bytes;
      if (io_bytes > kMaxIoBytes) return;
      storage.push_back(Allocate(bytes));
      uint8_t* data = storage.back().get();
      // Input values from the plan's own bytes: deterministic, and varied by the fuzzer.
      for (size_t b = 0; b < bytes; ++b) data[b] = seed_size ? seed[(b * 31) % seed_size] : 0;
      if (pass == 0) {
        inputs.push_back({data, bytes});
      } else {
        outputs.push_back({data, bytes});
      }
    }
  }
  const size_t pinned_size = tgrs_plan_pinned_arena_bytes(&plan);
  Buffer fast = Allocate(fast_size), slow = Allocate(slow_size), pinned = Allocate(pinned_size);
  std::memset(fast.get(), 0, fast_size ? fast_size : 1);
  std::memset(slow.get(), 0, slow_size ? slow_size : 1);
  std::memset(pinned.get(), 0, pinned_size ? pinned_size : 1);
  const tgrs_arenas arenas = {fast.get(),
                              fast_size,
                              slow_size ? slow.get() : nullptr,
                              slow_size,
                              pinned_size ? pinned.get() : nullptr,
                              pinned_size};
  tgrs_run_stats stats;
  tgrs_run(&plan, &arenas, inputs.data(), static_cast<uint32_t>(inputs.size()), outputs.data(),
           static_cast<uint32_t>(outputs.size()), &stats);
  // The high-water mark never passes the arena it measures.
  if (stats.fast_hwm_bytes > fast_size || stats.slow_hwm_bytes > slow_size ||
      stats.pinned_hwm_bytes > pinned_size) {
    __builtin_trap();
  }
}

// Verifies, renders and runs `bytes` as a plan.
inline void CheckPlan(const std::string& bytes, const uint8_t* data, size_t size,
                      tgrs_integrity_mode mode) {
  try {
    const tigris::cli::LoadedPlan loaded(bytes, "fuzz input", mode);
    const std::string json = tigris::cli::PlanJson(loaded);
    if (json.empty()) __builtin_trap();
    Run(loaded.plan(), data, size);
  } catch (const std::runtime_error&) {
    // Rejected by the verifier: the expected outcome for most inputs. The message was
    // formatted by tgrs_verify_error_format, which is exercised too.
  }
}

// `data` as a plan twice (see the top of this file): as given, which a mutation has
// almost always left with a wrong checksum (the integrity path: locating and checking
// Integrity in hostile bytes, TGRS_ERR_PLAN_CORRUPT / TGRS_ERR_NO_CHECKSUM); then, so the
// verifier and the executor behind the checksum meet the same mutation, resealed by
// tgrs_plan_seal (itself under test on hostile bytes) or, for bytes without Integrity (the
// older seeds and regressions), with the check off.
inline void CheckPlanBytes(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  CheckPlan(bytes, data, size, TGRS_INTEGRITY_ALL);
  Buffer aligned = Allocate(size);
  if (size > 0) std::memcpy(aligned.get(), data, size);
  const tgrs_status sealed = tgrs_plan_seal(aligned.get(), size);
  if (sealed == TGRS_ERR_NO_CHECKSUM) {
    CheckPlan(bytes, data, size, TGRS_INTEGRITY_NONE);
    return;
  }
  const std::string resealed(reinterpret_cast<const char*>(aligned.get()), size);
  if (sealed == TGRS_OK && resealed != bytes) {
    CheckPlan(resealed, data, size, TGRS_INTEGRITY_ALL);
  }
}

}  // namespace tigris_fuzz

#endif  // TIGRIS_FUZZ_PLAN_TARGET_H_
