// .tflite -> IR: the TensorFlow Lite front end, beside the ONNX one (onnx/onnx_loader.h).
//
// A file is TFLite when its FlatBuffer identifier (bytes 4-7) is "TFL3"; the C ABI's
// tigris_load and tigris_load_from_memory pick this loader by that content, whatever the
// file is called. The file is checked by FlatBuffers' verifier against format/tflite.fbs
// (our own copy of the part of TFLite's schema we read), then subgraph 0 is imported
// into the IR in the QDQ form an ONNX model would have (importer.h), so both front ends
// share every pass, the planner and the emitter. docs/tflite.md lists the builtin ops
// read and what each becomes.
//
// The loaded graph obeys the ONNX loader's contract (onnx_loader.h: DFS order, every shape
// resolved by our rules and cross-checked against the shapes the file states). Graph
// inputs and outputs keep the file's layout and types (an NHWC int8 image stays NHWC
// int8); everything between is channels-first.
//
// ---- Errors, by status ---------------------------------------------------------------
//
//   kIoError            the file cannot be read (names the path)
//   kEmptyModel         zero bytes
//   kTruncatedModel     the FlatBuffer fails verification and its root or a buffer lies
//                       past the end of the bytes
//   kInvalidModel       other verification failures; a file that is not a single-subgraph
//                       model (several subgraphs are control flow: IF, WHILE, CALL_ONCE);
//                       indices out of range; buffers whose size contradicts the shape
//   kUnsupportedOp      a builtin op outside docs/tflite.md's list, or a custom op (named,
//                       with the operator's index), or an option value we do not compute
//   kUnsupportedDType   float16, int16, string, ... tensors (names the tensor)
//   kUnsupportedQuantization  custom quantization, non-positive scales
//   kDynamicShape       a dimension that is not positive
//   kShapeInference     our shape rules disagree with a shape the file states
//   kDanglingInput      a tensor read before any operator writes it
//   kInvalidArgument    load options that only apply to ONNX (dims, input shapes)
#ifndef TIGRIS_TFLITE_TFLITE_LOADER_H_
#define TIGRIS_TFLITE_TFLITE_LOADER_H_

#include <cstddef>
#include <string>

#include "ir/graph.h"

namespace tigris::tflite_import {

// True when `size` bytes at `data` carry the TFLite file identifier "TFL3".
bool IsTflite(const void* data, size_t size);
// True when the file at `path` starts like a TFLite file (reads 8 bytes; false when it
// cannot be read, which the ONNX loader then reports).
bool FileIsTflite(const std::string& path);

// The model is named after the file's stem (LoadTfliteFile) or `name_hint`.
ir::Graph LoadTfliteFile(const std::string& path);
ir::Graph LoadTfliteBytes(const void* data, size_t size, const std::string& name_hint = "model");

}  // namespace tigris::tflite_import

#endif  // TIGRIS_TFLITE_TFLITE_LOADER_H_
