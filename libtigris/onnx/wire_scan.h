// Classifies bytes that failed to be (or might not be) an ONNX ModelProto.
//
// protobuf's own parser only says "failed"; users deserve to know whether they handed us
// something that is not ONNX at all (a TFLite file, a text file) or a model cut short by
// a partial download. This scanner walks the top-level fields of the wire format without
// trusting anything:
//  - field number 0, wire type 6/7, start/end-group, an over-long varint, or a known
//    ModelProto field with the wrong wire type  -> kNotOnnx
//  - a varint or a length-delimited field that runs past the end  -> kTruncatedModel
//  - well-formed, but no graph field (7)  -> kNotOnnx
// Nested messages are not scanned: a truncated graph always shows up as its top-level
// length running past the end.
#ifndef TIGRIS_ONNX_WIRE_SCAN_H_
#define TIGRIS_ONNX_WIRE_SCAN_H_

#include <cstddef>
#include <cstdint>

namespace tigris::onnx_import {

// Throws tigris::Error (kEmptyModel, kNotOnnx or kTruncatedModel) naming the byte offset
// and field at fault; returns normally when the top level is well formed and has a graph.
// `what` names the source in messages (a path or the model name hint).
void ScanModelWireFormat(const uint8_t* data, size_t size, const char* what);

}  // namespace tigris::onnx_import

#endif  // TIGRIS_ONNX_WIRE_SCAN_H_
