// TFLite builtin operators -> IR ops (through ModelImporter, importer.h). One function per
// builtin op; ImportOperator dispatches and refuses every other op by name.
//
// Each function reads the op's inputs as float values in the IR layout (Real), builds the
// ONNX-equivalent ops, and Defines the op's outputs (fused activation, then quantization).
// The equivalences (TFLite's definition -> the ONNX op that computes the same values) are
// in docs/tflite.md.
#ifndef TIGRIS_TFLITE_OP_IMPORT_H_
#define TIGRIS_TFLITE_OP_IMPORT_H_

#include "tflite/importer.h"

namespace tigris::tflite_import {

// Throws kUnsupportedOp naming the op and its index for builtin ops not listed in
// docs/tflite.md.
void ImportOperator(ModelImporter& m, const OpSite& site);

// Integer ops over constants and static shapes, evaluated at import (constant_fold.cc):
// SHAPE, and STRIDED_SLICE / PACK of constants. False when `site` is not one of them.
bool FoldIntegerOp(ModelImporter& m, const OpSite& site);

// ---- The families (op_import_*.cc) ------------------------------------------------------
// Convolutions, fully connected, pools (op_import_conv.cc).
void ImportConv2D(ModelImporter& m, const OpSite& site);
void ImportDepthwiseConv2D(ModelImporter& m, const OpSite& site);
void ImportFullyConnected(ModelImporter& m, const OpSite& site);
void ImportPool2D(ModelImporter& m, const OpSite& site);
// Data movement and reductions (op_import_shape.cc).
void ImportReshape(ModelImporter& m, const OpSite& site);
void ImportTranspose(ModelImporter& m, const OpSite& site);
void ImportConcatenation(ModelImporter& m, const OpSite& site);
void ImportPad(ModelImporter& m, const OpSite& site);
void ImportStridedSlice(ModelImporter& m, const OpSite& site);
void ImportSplit(ModelImporter& m, const OpSite& site);
void ImportResizeNearest(ModelImporter& m, const OpSite& site);
// MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD as the ONNX Reduce* `type`.
void ImportReduce(ModelImporter& m, const OpSite& site, ir::OpType type);
// ARG_MAX, ARG_MIN as ArgMax / ArgMin (the file's int32 or int64 indices).
void ImportArgExtreme(ModelImporter& m, const OpSite& site, ir::OpType type);
void ImportBlockRearrange(ModelImporter& m, const OpSite& site, ir::OpType type);
void ImportBroadcastTo(ModelImporter& m, const OpSite& site);
void ImportCumsum(ModelImporter& m, const OpSite& site);
void ImportCast(ModelImporter& m, const OpSite& site);

// The options table of `site`'s op, or kInvalidModel naming the op when it is absent or of
// another type.
template <typename T>
const T& RequireOptions(const ModelImporter& m, const OpSite& site, const T* options,
                        const char* table) {
  if (options == nullptr) {
    m.Refuse(site, Status::kInvalidModel, std::string("it has no ") + table);
  }
  return *options;
}

}  // namespace tigris::tflite_import

#endif  // TIGRIS_TFLITE_OP_IMPORT_H_
