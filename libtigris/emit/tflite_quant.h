// int8 constants of the ops TensorFlow Lite computes with an algorithm of its own, for
// plans compiled from a .tflite (ir::Graph::Arithmetic::kTflite; docs/tflite.md):
//
//   - LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ELU, ABS, and RELU / RELU6 between two
//     quantizations: a 256-entry table (the runtime's tgrs_lut_s8), each entry computed by
//     running TFLite's integer algorithm (or, for ELU, TFLM's float table) on that input
//     code, so the table is TFLM's output by construction;
//   - SOFTMAX: TFLite's input scaling for the runtime's fixed-point softmax
//     (tgrs_softmax_s8_tflite), after TFLM's checks of the output quantization;
//   - MEAN and SUM: the requantization TFLite folds 1/count into.
//
// Every other int8 op shares the ONNX path's constants (op_quant.cc): those are already
// derived TFLite's way, and the runtime applies TFLite's rounding to them (Op.rounding).
#ifndef TIGRIS_EMIT_TFLITE_QUANT_H_
#define TIGRIS_EMIT_TFLITE_QUANT_H_

#include "emit/lut.h"
#include "emit/op_record.h"
#include "ir/graph.h"

namespace tigris::emit {

// Fills `r` for `op` (int8 in and out) when TFLite computes it otherwise than the ONNX path
// does and returns true; false leaves `op` to the ONNX path. Throws kUnsupportedQuantization
// naming the op for what TFLM itself refuses (a LOGISTIC output zero point other than -128,
// a SOFTMAX output other than scale 1/256 and zero point -128) and for int8 LOG_SOFTMAX, whose
// TFLite algorithm the runtime does not have.
bool TfliteInt8Params(const ir::Graph& g, const ir::Op& op, AffineQuant in, AffineQuant out,
                      OpRecord& r);

}  // namespace tigris::emit

#endif  // TIGRIS_EMIT_TFLITE_QUANT_H_
