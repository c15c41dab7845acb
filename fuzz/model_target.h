// The property shared by fuzz_onnx and fuzz_tflite: bytes a user may hand tigris_load as a
// model file go through the C ABI as any user's file goes: load (parse, shape resolution,
// normalization, the runtime-op check), analyze and plan at a small budget, emit.
// Rejections with a named status are the expected outcome; the properties checked are the
// ones tigris.h promises:
//  - no crash, leak or sanitizer report on any input;
//  - a plan the compiler emits always passes the runtime's verifier (tigris_plan returns
//    TIGRIS_ERR_INVALID_PLAN otherwise) and never fails with TIGRIS_ERR_INTERNAL;
//  - every failure leaves a message, and messages hold no raw control bytes from the input.
#ifndef TIGRIS_FUZZ_MODEL_TARGET_H_
#define TIGRIS_FUZZ_MODEL_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tigris.h"

namespace tigris_fuzz {

inline void CheckMessage() {
  const char* message = tigris_last_error();
  if (!message || !*message) __builtin_trap();  // a failure must say why
  for (const char* c = message; *c; ++c) {
    const unsigned char b = static_cast<unsigned char>(*c);
    if (b < 0x20 || b == 0x7f) __builtin_trap();  // escaped at the C ABI (util/escape.h)
  }
}

// A status that only a bug in libtigris can produce.
inline bool IsBug(tigris_status s) {
  return s == TIGRIS_ERR_INTERNAL || s == TIGRIS_ERR_INVALID_PLAN;
}

// Loads, analyzes, plans and emits `size` bytes at `data` as a model file, whatever its
// format (the C ABI picks the front end by content).
inline int FuzzModelBytes(const uint8_t* data, size_t size) {
  tigris_model* model = nullptr;
  tigris_status s = tigris_load_from_memory(&model, data, size, nullptr);
  if (s != TIGRIS_OK) {
    if (IsBug(s)) __builtin_trap();
    CheckMessage();
    return 0;
  }
  tigris_analyze_options analyze = TIGRIS_ANALYZE_OPTIONS_INIT;
  analyze.fast_bytes = 16 << 10;
  tigris_analysis* analysis = nullptr;
  s = tigris_analyze(&analysis, model, &analyze);
  if (s == TIGRIS_OK) {
    if (std::strlen(tigris_analysis_json(analysis)) == 0) __builtin_trap();
  } else if (IsBug(s)) {
    __builtin_trap();
  }
  tigris_analysis_free(analysis);

  tigris_plan_options options = TIGRIS_PLAN_OPTIONS_INIT;
  options.fast_bytes = 64 << 10;
  tigris_execution_plan* plan = nullptr;
  s = tigris_plan(&plan, model, &options);
  if (s == TIGRIS_OK) {
    void* bytes = nullptr;
    size_t plan_size = 0;
    if (tigris_emit(&bytes, &plan_size, plan) != TIGRIS_OK) __builtin_trap();
    tigris_execution_plan* again = nullptr;
    if (tigris_plan_from_memory(&again, bytes, plan_size) != TIGRIS_OK) __builtin_trap();
    tigris_plan_free(again);
    tigris_free(bytes);
  } else if (IsBug(s)) {
    __builtin_trap();
  } else {
    CheckMessage();
  }
  tigris_plan_free(plan);
  tigris_model_free(model);
  return 0;
}

}  // namespace tigris_fuzz

#endif  // TIGRIS_FUZZ_MODEL_TARGET_H_
