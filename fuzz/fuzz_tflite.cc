// fuzz_tflite: bytes claimed to be a .tflite model (seeds: fuzz/corpus/tflite, which start
// with TFLite's "TFL3" identifier, so mutations mostly reach the TFLite front end:
// libtigris/tflite/), through load, analyze, plan and emit (model_target.h has the
// properties checked).
#include "model_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tigris_fuzz::FuzzModelBytes(data, size);
}
