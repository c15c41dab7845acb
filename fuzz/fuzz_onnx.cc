// fuzz_onnx: bytes claimed to be an ONNX model (seeds: fuzz/corpus/onnx), through load,
// analyze, plan and emit (model_target.h has the properties checked).
#include "model_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tigris_fuzz::FuzzModelBytes(data, size);
}
