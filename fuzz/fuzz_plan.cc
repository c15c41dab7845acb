// fuzz_plan: raw bytes as a .tgrs plan (plan_target.h says what is checked). libFuzzer's
// byte-level mutations, with fuzz/dict/tgrs.dict, find the verifier's edge cases: offsets,
// lengths, alignment, the identifier, truncation.
#include <cstddef>
#include <cstdint>

#include "plan_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tigris_fuzz::CheckPlanBytes(data, size);
  return 0;
}
