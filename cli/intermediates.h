// `tigris run --dump-intermediates DIR`: every op output of a run, assembled from the rows
// the runtime reports (tgrs_run_observed, tigris_executor.h) and written as .npy in the
// ONNX model's layout, so a user can bisect a mismatch against onnxruntime layer by layer.
#ifndef TIGRIS_CLI_INTERMEDIATES_H_
#define TIGRIS_CLI_INTERMEDIATES_H_

#include <string>
#include <vector>

#include "npy.h"
#include "tigris_runtime.h"

namespace tigris::cli {

// The .npy descr of a plan dtype ("<f4", "|i1", ...).
const char* NpyDescr(tgrs_dtype dtype);

// Runs `plan` once more with arenas of the given sizes (0: the plan's) and `inputs` (as
// `tigris run` read them: float32 inputs of an int8 tensor are quantized with its scale
// and zero point), then writes DIR/NNN_<tensor>.npy per op output in execution order and
// DIR/index.json describing each (tensor and op names, dtype, ONNX shape, quantization,
// and the rows of H, if any, that no tile computes because no consumer reads them).
// Returns the number of tensors written; throws std::runtime_error naming the file or the
// runtime status on failure.
size_t DumpIntermediates(const tgrs_plan& plan, const std::vector<NpyArray>& inputs,
                         uint64_t fast_bytes, uint64_t slow_bytes, const std::string& dir);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_INTERMEDIATES_H_
